"""The Tapes dock: the tapes a run recorded; picking one shows it in the graph."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    QStringListModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QListView, QToolTip, QWidget

from tapeviz.models.graph.model import GraphModel, GraphOptions
from tapeviz.sandbox import RunResult
from tapeviz.ui.graph.expression_panel import names_of
from tapeviz.ui.turns import release

PREPARED_TAPES = 8  # a run of at most this many tapes ...
PREPARED_OPS = 500  # ... recording at least this many ops has its graph built off the UI thread


class TapeRows(QStringListModel):
    """The rows' texts: Qt keeps only their count (empty strings), Python gives a row's text.

    A 100,000-tape run's rows are one ``insertRows`` (1 ms) instead of 100,000 list items
    (40 ms of the UI thread), and a view laying them out asks Qt, not Python, for the count.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.labels: list[str] = []

    def set_labels(self, labels: list[str]) -> None:
        """Show ``labels`` (a model reset: Qt's rows are emptied, then as many inserted)."""
        self.labels = []
        self.setStringList([])  # (a reset alone left Qt's old rows: the count grew each run)
        self.labels = list(labels)
        if self.labels:
            self.insertRows(0, len(self.labels))

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = 0) -> Any:
        """Qt override: a row's label for the display and tooltip roles."""
        row = index.row()
        if role == Qt.ItemDataRole.DisplayRole and 0 <= row < len(self.labels):
            return self.labels[row]
        return None


class TapeList(QListView):
    """Lists a run's tapes (name and op count); the current row is the graph ``model``'s tape.

    A tape is named as the code bound it (``tape_2``) here, in the graph's frames and in the
    stepper's gradient() calls; a row's tooltip lists the tape's calls. The model shows the
    last outermost tape first (nested tapes are framed inside it); the row follows the model.
    After :meth:`list_result` the graph shows something else (a loop's step): picking a row
    then only emits ``picked`` (the window decides what to show).
    """

    picked = Signal(int)  # a row the user chose
    currentRowChanged = Signal(int)  # the current row changed (-1: none), as QListWidget's

    def __init__(self, model: GraphModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tapeList")
        self.model = model
        self.drives_graph = False  # whether the graph holds this list's tapes
        self.rows = TapeRows(self)
        self.setModel(self.rows)
        self.setUniformItemSizes(True)  # a 100,000-tape run lists at once
        self.setEditTriggers(QListView.EditTrigger.NoEditTriggers)
        self.selectionModel().currentRowChanged.connect(
            lambda now, _before: self.currentRowChanged.emit(now.row() if now.isValid() else -1)
        )
        self.currentRowChanged.connect(self._on_current_row_changed)
        model.changed.connect(self._on_model_changed)

    # -- what QListWidget offered ------------------------------------------------------------
    def count(self) -> int:
        """How many rows (tapes) are listed."""
        return len(self.rows.labels)

    def currentRow(self) -> int:
        """The current row (-1 if none)."""
        index = self.currentIndex()
        return index.row() if index.isValid() else -1

    def setCurrentRow(self, row: int) -> None:
        """Make ``row`` current and selected (-1 or out of range: none)."""
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect
        self.selectionModel().setCurrentIndex(self.rows.index(row), flags)

    def text(self, row: int) -> str:
        """Row ``row``'s label."""
        return self.rows.labels[row]

    def show_result(
        self, result: RunResult, source: str = "", labels: list[str] | None = None
    ) -> None:
        """List ``result``'s tapes and show one in the graph (and so the stepper).

        ``source``, the code that ran, names the locals its gradient() calls differentiate;
        ``labels`` are the rows when the thread pool made them.
        """
        self.list_result(result, labels)
        prepared, self.prepared = self.prepared, None
        if result.tapes:
            self.drives_graph = True
            if prepared is not None and prepared[0] is result:  # built in the thread pool
                self.model.adopt(prepared[1])  # (which now holds the last graph)
                release(prepared[1])
            else:
                self.model.set_tapes(list(result.tapes), names_of(result), source=source)
        self._on_model_changed()

    prepared: tuple[RunResult, GraphModel] | None = None  # the next result's model, built

    @staticmethod
    def prepare(result: RunResult, source: str, options: GraphOptions) -> GraphModel | None:
        """The graph of a big run's tapes, built in the thread pool (None: not worth it)."""
        tapes = result.tapes
        if not tapes or len(tapes) > PREPARED_TAPES:
            return None
        if sum(len(info.tape.records) for info in tapes) < PREPARED_OPS:
            return None
        return GraphModel(list(tapes), names_of(result), options, source)

    def viewportEvent(self, event: QEvent) -> bool:
        """Qt override: a row's tooltip lists its tape's gradient() calls (built on demand)."""
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            row = self.indexAt(event.pos()).row()
            if self.drives_graph and 0 <= row < len(self.model.entries) and row < self.count():
                calls = self.model.pass_labels(row)
                text = "\n".join(calls) or self.tr("No gradient() call")
                QToolTip.showText(event.globalPos(), text, self.viewport())
                return True
        return super().viewportEvent(event)

    def _on_model_changed(self) -> None:
        if not self.drives_graph:  # the graph shows a loop's step: the window marks the row
            return
        if self.count() == len(self.model.entries) and self.currentRow() != self.model.current:
            self.blockSignals(True)
            self.setCurrentRow(self.model.current)
            self.blockSignals(False)

    @staticmethod
    def labels(result: RunResult) -> list[str]:
        """The rows of ``result``'s tapes (any thread: 100,000 tapes take ~0.1 s)."""
        label = QCoreApplication.translate("TapeList", "%1 — %2 ops")
        made: dict[tuple[str, int], str] = {}  # (a loop's rows are a few texts, many times)
        rows = []
        for key in zip(result.tape_names(), result.tape_ops(), strict=True):
            text = made.get(key)
            if text is None:
                text = made[key] = label.replace("%1", key[0]).replace("%2", str(key[1]))
            rows.append(text)
        return rows

    def list_result(
        self, result: RunResult, labels: list[str] | None = None, current: int | None = -1
    ) -> None:
        """List ``result``'s tapes (row ``current`` current) without touching the graph.

        ``labels``: the rows, when the thread pool made them already (:meth:`labels`);
        ``current`` -1: the last tape; None: none yet (:meth:`mark` one on a turn of its own:
        Qt lays out 100,000 rows, ~8 ms, to make one current).
        """
        self.blockSignals(True)
        if labels is None or len(labels) != len(result.tapes):
            labels = self.labels(result)
        self.rows.set_labels(labels)
        if current is not None:
            self.setCurrentRow(current if current >= 0 else len(result.tapes) - 1)
        self.blockSignals(False)
        self.drives_graph = False

    def follow_graph(self) -> None:
        """The graph holds the listed tapes now (built elsewhere): the list drives it again."""
        self.drives_graph = True
        self._on_model_changed()

    def mark(self, row: int) -> None:
        """Make ``row`` current without acting on it (the graph already shows that tape)."""
        self.blockSignals(True)
        self.setCurrentRow(row)
        self.blockSignals(False)

    def _on_current_row_changed(self, row: int) -> None:
        if self.drives_graph and 0 <= row < len(self.model.entries) and row != self.model.current:
            self.model.select(row)
        self.picked.emit(row)
