"""The Tapes dock: the tapes a run recorded; picking one shows it in the graph."""

from __future__ import annotations

from PySide6.QtWidgets import QListWidget, QWidget

from tapeviz.models.graph.model import GraphModel
from tapeviz.sandbox import RunResult
from tapeviz.ui.graph.expression_panel import names_of


class TapeList(QListWidget):
    """Lists a run's tapes (name and op count); the current row is the graph ``model``'s tape."""

    def __init__(self, model: GraphModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tapeList")
        self.model = model
        self.currentRowChanged.connect(self._on_current_row_changed)

    def show_result(self, result: RunResult) -> None:
        """List ``result``'s tapes and show the last one in the graph (and so the stepper)."""
        self.blockSignals(True)
        self.clear()
        for info in result.tapes:
            ops = len(info.tape.records)
            self.addItem(self.tr("%1 — %2 ops").replace("%1", info.name).replace("%2", str(ops)))
        self.setCurrentRow(len(result.tapes) - 1)
        self.blockSignals(False)
        if result.tapes:
            self.model.set_tapes([t.tape for t in result.tapes], names_of(result))

    def _on_current_row_changed(self, row: int) -> None:
        if 0 <= row < len(self.model.entries):
            self.model.select(row)
