"""The Tapes dock: the tapes a run recorded; picking one shows it in the graph."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QListWidget, QToolTip, QWidget

from tapeviz.models.graph.model import GraphModel
from tapeviz.sandbox import RunResult
from tapeviz.ui.graph.expression_panel import names_of


class TapeList(QListWidget):
    """Lists a run's tapes (name and op count); the current row is the graph ``model``'s tape.

    A tape is named as the code bound it (``tape_2``) here, in the graph's frames and in the
    stepper's gradient() calls; a row's tooltip lists the tape's calls. The model shows the
    last outermost tape first (nested tapes are framed inside it); the row follows the model.
    """

    def __init__(self, model: GraphModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tapeList")
        self.model = model
        self.currentRowChanged.connect(self._on_current_row_changed)
        model.changed.connect(self._on_model_changed)

    def show_result(self, result: RunResult, source: str = "") -> None:
        """List ``result``'s tapes and show one in the graph (and so the stepper).

        ``source``, the code that ran, names the locals its gradient() calls differentiate.
        """
        self.blockSignals(True)
        self.clear()
        for info in result.tapes:
            ops = len(info.tape.records)
            self.addItem(self.tr("%1 — %2 ops").replace("%1", info.name).replace("%2", str(ops)))
        self.blockSignals(False)
        if result.tapes:
            self.model.set_tapes(list(result.tapes), names_of(result), source)
        self._on_model_changed()

    def viewportEvent(self, event: QEvent) -> bool:
        """Qt override: a row's tooltip lists its tape's gradient() calls (built on demand)."""
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            row = self.row(self.itemAt(event.pos()))
            if 0 <= row < len(self.model.entries) and row < self.count():
                calls = self.model.pass_labels(row)
                text = "\n".join(calls) or self.tr("No gradient() call")
                QToolTip.showText(event.globalPos(), text, self.viewport())
                return True
        return super().viewportEvent(event)

    def _on_model_changed(self) -> None:
        if self.count() == len(self.model.entries) and self.currentRow() != self.model.current:
            self.blockSignals(True)
            self.setCurrentRow(self.model.current)
            self.blockSignals(False)

    def _on_current_row_changed(self, row: int) -> None:
        if 0 <= row < len(self.model.entries) and row != self.model.current:
            self.model.select(row)
