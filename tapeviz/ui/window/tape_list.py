"""The Tapes dock: the tapes a run recorded; picking one shows it in the graph."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QListWidget, QWidget

from tapeviz.models.graph.model import GraphModel
from tapeviz.sandbox import RunResult
from tapeviz.ui.graph.expression_panel import names_of


def op_count(tape: Any) -> int:
    """A tape's op count (a received tape counts its records without rebuilding them)."""
    return len(tape) if hasattr(tape, "__len__") else len(tape.records)


class TapeList(QListWidget):
    """Lists a run's tapes (name and op count); the current row is the graph ``model``'s tape.

    After :meth:`list_result` the graph shows something else (a loop's step): picking a row
    then only emits ``picked`` (the window decides what to show).
    """

    picked = Signal(int)  # a row the user chose

    def __init__(self, model: GraphModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tapeList")
        self.model = model
        self.drives_graph = False  # whether the graph holds this list's tapes
        self.setUniformItemSizes(True)  # a 10,000-tape run lists at once
        self.currentRowChanged.connect(self._on_current_row_changed)

    def show_result(self, result: RunResult) -> None:
        """List ``result``'s tapes and show the last one in the graph (and so the stepper)."""
        self.list_result(result)
        if result.tapes:
            self.drives_graph = True
            self.model.set_tapes([t.tape for t in result.tapes], names_of(result))

    def list_result(self, result: RunResult) -> None:
        """List ``result``'s tapes (the last one current) without touching the graph."""
        self.blockSignals(True)
        self.clear()
        label = self.tr("%1 — %2 ops")
        self.addItems([label.replace("%1", info.name).replace("%2", str(op_count(info.tape)))
                       for info in result.tapes])  # fmt: skip
        self.setCurrentRow(len(result.tapes) - 1)
        self.blockSignals(False)
        self.drives_graph = False

    def mark(self, row: int) -> None:
        """Make ``row`` current without acting on it (the graph already shows that tape)."""
        self.blockSignals(True)
        self.setCurrentRow(row)
        self.blockSignals(False)

    def _on_current_row_changed(self, row: int) -> None:
        if self.drives_graph and 0 <= row < len(self.model.entries):
            self.model.select(row)
        self.picked.emit(row)
