"""The output pane linked to the timeline: click a printed line to go to the step that wrote it.

``OutputLink`` watches a ``QPlainTextEdit`` showing a run's output (the window's Output dock)
and a :class:`~tapeviz.ui.timeline.panel.TimelinePanel`: a click on a line that a loop's step
printed moves the timeline there (the pointer becomes a hand over such lines), and the lines
of the current step are highlighted and scrolled into view. The pane may show only a part of
the output (its last lines, or a step's): the link counts the lines above it, and a step whose
lines are not shown asks the pane's :class:`Window` for them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit

from tapeviz.models.timeline.output import OutputLines
from tapeviz.ui.timeline.panel import TimelinePanel

translate = QCoreApplication.translate


class Window(Protocol):
    """What shows a part of the run's output in the pane (the window's ``EarlierLines``)."""

    text: str  # the run's whole output

    @property
    def hidden(self) -> int:
        """Lines of the output above the pane's first line."""
        ...

    def reach(self, line: int) -> bool:
        """Show the output's line ``line``; whether the pane's lines changed."""
        ...


class OutputLink(QObject):
    """Clicks on the pane's lines go to their step; the current step's lines are highlighted."""

    def __init__(self, pane: QPlainTextEdit, panel: TimelinePanel) -> None:
        super().__init__(pane)
        self.pane, self.panel = pane, panel
        self.lines: OutputLines | None = None
        self._shown: tuple[list[int], str] = ([], "")
        self._hand = False
        self._keeping = False  # (see kept)
        self.window: Window | None = None  # (set once the window's pane loader exists)
        pane.viewport().installEventFilter(self)
        pane.viewport().setMouseTracking(True)
        pane.textChanged.connect(self._on_pane_text_changed)
        panel.stepChanged.connect(self._on_panel_step_changed)

    @contextmanager
    def kept(self) -> Iterator[None]:
        """While inside, text put into the pane keeps the link (its earlier lines put above)."""
        self._keeping = True
        try:
            yield
        finally:
            self._keeping = False
            self._shown = ([], "")  # (the rows moved: marked again where they are now)
            if self.lines is not None and self.panel.timeline is not None:
                self._on_panel_step_changed(self.panel.k, scroll=False)  # (the user's view)

    def set_lines(self, lines: OutputLines | None) -> None:
        """The run's lines (call after the pane shows that run's output)."""
        self.lines = lines
        self._shown = ([], "")
        self.pane.setExtraSelections([])
        if self.panel.timeline is not None:
            self._on_panel_step_changed(self.panel.k)

    @property
    def dropped(self) -> int:
        """Lines of the run's output the pane no longer shows (it keeps only its last ones)."""
        if self.lines is None:
            return 0
        window = self._window()
        if window is not None:
            return window.hidden
        shown = self.pane.document().blockCount()
        if self.lines.text.endswith("\n"):
            shown -= 1  # the empty block after the final newline
        return max(0, self.lines.count - shown)

    def line_at(self, pos: Any) -> int:
        """The run's output line under a viewport position."""
        return self.pane.cursorForPosition(pos).blockNumber() + self.dropped

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Qt override: clicks (not drags that select text) and the pointer over the lines."""
        kind = event.type()
        if kind == QEvent.Type.MouseButtonRelease and event.button() == Qt.MouseButton.LeftButton:
            if self.lines is not None and not self.pane.textCursor().hasSelection():
                self.panel.go_to_line(self.line_at(event.position().toPoint()))
        elif kind == QEvent.Type.MouseMove and self.lines is not None:
            found = self.panel.step_of_line(self.line_at(event.position().toPoint()))
            hand = found is not None
            if hand != self._hand:
                self._hand = hand
                shape = Qt.CursorShape.PointingHandCursor if hand else Qt.CursorShape.IBeamCursor
                self.pane.viewport().setCursor(shape)
            tip = translate("Timeline", "Go to step {k}").format(k=found[1]) if found else ""
            self.pane.viewport().setToolTip(tip)
        return False

    def _on_pane_text_changed(self) -> None:
        """Other text in the pane (a run whose loops the timeline does not show): unlinked.

        The window shows a failed run's output, or a run's made while the studio is in front,
        but the timeline keeps the last good run's loops; its lines would be marked and clicked
        in text that is not theirs. ``set_lines`` links the pane again.
        """
        if self.lines is not None and not self._keeping:
            self.set_lines(None)
            self._hand = False
            self.pane.viewport().setCursor(Qt.CursorShape.IBeamCursor)
            self.pane.viewport().setToolTip("")

    def _on_panel_step_changed(self, k: int, scroll: bool = True) -> None:
        if self.lines is None:
            return
        lines = self.panel.lines_of_step(k)
        if scroll and lines and self._moved_to(lines[0]):  # (kept() marked them there)
            self._scroll_to(lines[0] - self.dropped)
            return
        rows = [r - self.dropped for r in lines]
        rows = [r for r in rows if r >= 0]
        theme = self.panel.theme  # the highlight follows the panel's theme
        if (rows, theme.name) == self._shown:
            return
        self._shown = (rows, theme.name)
        doc = self.pane.document()
        colour = QColor(theme.highlight)
        colour.setAlpha(70)
        selections = []
        for r in rows:
            block = doc.findBlockByNumber(r)
            if not block.isValid():
                continue
            sel = QTextEdit.ExtraSelection()
            sel.cursor = QTextCursor(block)
            fmt = QTextCharFormat()
            fmt.setBackground(colour)
            fmt.setProperty(QTextFormat.Property.FullWidthSelection, True)
            sel.format = fmt
            selections.append(sel)
        self.pane.setExtraSelections(selections)
        if rows and scroll:
            self._scroll_to(rows[0])

    def _moved_to(self, line: int) -> bool:
        """Whether the pane was moved to the part of the output with line ``line``."""
        window = self._window()
        return window is not None and window.reach(line)  # (which keeps the link: see kept)

    def _window(self) -> Window | None:
        """The pane's window, if it shows the lines linked (a snapshot's may be older)."""
        window, lines = self.window, self.lines
        if window is None or lines is None or len(window.text) != len(lines.text):
            return None
        return window

    def _scroll_to(self, row: int) -> None:
        """Scroll line ``row`` into view (the pane's scroll bar counts lines) if it is not."""
        bar = self.pane.verticalScrollBar()
        first = self.pane.firstVisibleBlock().blockNumber()
        height = max(1, self.pane.fontMetrics().lineSpacing())
        visible = max(1, self.pane.viewport().height() // height)
        if not first <= row < first + visible:
            bar.setValue(max(0, row - visible // 3))
