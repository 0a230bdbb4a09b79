"""The chain-rule log: one line per step of the backward (or forward) pass, built when shown.

A list *model* over the stepper, not a list of items: showing another tape is one model reset
(no thousands of item objects created and destroyed, which is where the old QListWidget log
crashed under a typing soak), a line's text is computed when the view paints it, and a step
repaints only the lines whose state changed.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QModelIndex,
    QPersistentModelIndex,
    QSize,
    QStringListModel,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from tapeviz.models.backward.stepper import BackwardStepper, ForwardStepper, Namer

Index = QModelIndex | QPersistentModelIndex
# A log longer than this has every line as tall as its tallest step (up to MAX_LINES text
# lines): the view then lays it out at once instead of asking each of thousands of lines.
UNIFORM_ROWS = 500
MAX_LINES = 6


class StepLogModel(QStringListModel):
    """Lines of a stepper; rows before ``position`` are done (normal text), the rest pending.

    A string list of empty rows (one per step) under a Python ``data``: the row count stays in
    Qt (a view laying out 10,000 lines asks it for every row, 47 ms as a Python method), the
    text is made only for the lines drawn.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.stepper: BackwardStepper | ForwardStepper | None = None
        self.names: Namer | None = None
        self.position = 0
        self.done_color: Any = None
        self.pending_color: Any = None

    def set_stepper(self, stepper: BackwardStepper | ForwardStepper | None, names: Namer) -> None:
        """Show ``stepper``'s steps (a model reset)."""
        self.stepper, self.names = stepper, names
        delegate = self.parent().itemDelegate() if isinstance(self.parent(), QListView) else None
        if isinstance(delegate, LineDelegate):
            delegate.widest = 0
        self.position = stepper.position if stepper is not None else 0
        self.uniform = 0
        if isinstance(stepper, BackwardStepper) and len(stepper) > UNIFORM_ROWS:
            self.uniform = min(MAX_LINES, max(1 + len(s.contributions) for s in stepper.steps))
        self.setStringList([""] * (len(stepper) if stepper is not None else 0))  # (a reset)

    def set_position(self, k: int) -> None:
        """Mark the first ``k`` lines done; repaints only the lines that changed."""
        old, self.position = self.position, k
        if old != k and self.rowCount():
            lo, hi = sorted((old, k))
            last = self.rowCount() - 1
            self.dataChanged.emit(
                self.index(min(lo, last)), self.index(min(max(hi, 1) - 1, last)),
                [Qt.ItemDataRole.ForegroundRole],
            )  # fmt: skip

    def text(self, row: int) -> str:
        """Line ``row`` (0-based): ``  3. x.grad = 3 + 3 = 6``."""
        stepper = self.stepper
        if isinstance(stepper, BackwardStepper):
            info = stepper.infos[row]
            return f"{info.index + 1:>3}. {info.text}"
        if isinstance(stepper, ForwardStepper) and self.names is not None:
            return f"{row + 1:>3}. {stepper.text(row + 1, self.names)}"
        return ""

    uniform = 0  # every line spans this many text lines (a long log: laid out at once), or 0

    def lines(self, row: int) -> int:
        """How many lines line ``row`` spans, known without building its text."""
        if self.uniform:
            return self.uniform
        stepper = self.stepper
        if isinstance(stepper, BackwardStepper):
            return 1 + len(stepper.steps[row].contributions)  # the step, then one per input
        return 1

    def built(self, row: int) -> str | None:
        """Line ``row``'s text if it costs nothing (explained already), else None."""
        stepper = self.stepper
        if isinstance(stepper, BackwardStepper) and not stepper.infos.explained(row):
            return None
        return self.text(row)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < self.rowCount():
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.text(index.row())
        if role == Qt.ItemDataRole.ForegroundRole:
            return self.pending_color if index.row() >= self.position else self.done_color
        return None


class LineDelegate(QStyledItemDelegate):
    """Sizes a line from its line count, so laying out the log never builds every step's text.

    A line not explained yet is as wide as the widest seen so far (at least the view); once
    painted (explained), a wider line asks for its real width.
    """

    def __init__(self, view: StepLog) -> None:
        super().__init__(view)
        self.view = view
        self.widest = 0

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        model = self.view.model_
        fm = option.fontMetrics
        text = model.built(index.row())
        width = self.widest or self.view.viewport().width()
        if text is not None:
            width = max(fm.horizontalAdvance(line) for line in text.split("\n")) + 2 * fm.height()
            self.widest = max(self.widest, width)
        return QSize(width, model.lines(index.row()) * fm.lineSpacing() + 4)

    def paint(self, painter: Any, option: QStyleOptionViewItem, index: Index) -> None:
        known = self.view.model_.built(index.row()) is not None
        super().paint(painter, option, index)  # (builds the text)
        if not known and self.sizeHint(option, index).width() > option.rect.width():
            self.sizeHintChanged.emit(index)  # it is wider than the guess: scroll to it


class StepLog(QListView):
    """The log's view; ``stepClicked(k)`` asks to go to the state after step ``k``."""

    stepClicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model_ = StepLogModel(self)
        self.setModel(self.model_)
        # Steps span two or three lines (one per input): the delegate sizes them from the
        # step's inputs, so only the lines shown are ever explained (a 3,000-step tape shows a
        # few).
        self.lines = LineDelegate(self)
        self.setItemDelegate(self.lines)
        # one pass: a long log (over UNIFORM_ROWS) has uniform lines, a short one few lines; a
        # batched layout would reset the scroll to the selected line as each batch came in
        self.setLayoutMode(QListView.LayoutMode.SinglePass)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.clicked.connect(lambda index: self.stepClicked.emit(index.row() + 1))
        self._restyle()

    def _restyle(self) -> None:
        pal = self.palette()
        self.model_.done_color = pal.color(QPalette.ColorRole.Text)  # follows light/dark
        self.model_.pending_color = pal.color(QPalette.ColorRole.PlaceholderText)

    def changeEvent(self, event: Any) -> None:
        super().changeEvent(event)
        if event.type() in (event.Type.PaletteChange, event.Type.StyleChange):
            self._restyle()
            self.viewport().update()

    def set_stepper(self, stepper: BackwardStepper | ForwardStepper | None, names: Namer) -> None:
        """Show the steps of ``stepper``."""
        self.model_.set_stepper(stepper, names)
        self.setUniformItemSizes(bool(self.model_.uniform))
        self._fresh = True

    _fresh = False  # the lines were just replaced: none is laid out yet
    _wanted: int | None = None  # the step to select in the next event-loop turn

    def show_position(self, k: int) -> None:
        """Grey out the steps not done yet and select the one just done.

        Right after new lines came, selecting one lays them all out (a 300-step tape takes
        ~15 ms): that waits for the next event-loop turn, so the new graph is drawn first.
        """
        self.model_.set_position(k)
        if self._fresh:
            if self._wanted is None:
                QTimer.singleShot(0, self, self._select_wanted)
            self._wanted = k
            return
        self._select(k)

    def _select_wanted(self) -> None:
        if self._wanted is not None:
            k, self._wanted, self._fresh = self._wanted, None, False
            self._select(k)

    def _select(self, k: int) -> None:
        if k:
            index = self.model_.index(k - 1)
            self.setCurrentIndex(index)
            self.scrollTo(index)
        else:
            self.clearSelection()

    # -- what the old QListWidget offered, for tests and callers -------------------------------
    def count(self) -> int:
        """Number of lines."""
        return self.model_.rowCount()

    def currentRow(self) -> int:
        """The selected line (-1 if none)."""
        self._select_wanted()
        index = self.currentIndex()
        return index.row() if index.isValid() and self.selectionModel().isSelected(index) else -1

    def line(self, row: int) -> str:
        """The text of line ``row``."""
        return self.model_.text(row)
