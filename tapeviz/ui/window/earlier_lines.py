"""The Output pane shows a run's last lines; scrolled to its top, it shows the ones before.

A run's output may be 300,000 lines: the pane is handed only its last :data:`OUTPUT_LINES`
(laying out the rest took the UI thread seconds). Every line stays reachable: when the pane is
scrolled to its first line, the :data:`CHUNK` lines before it are put above it on a turn of
their own, and the view stays on the line it showed. A timeline step whose lines are not in
the pane moves it to their part of the output (:meth:`EarlierLines.reach`); from there, the
lines after come as the user scrolls down, as the ones before do scrolling up.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from functools import partial
from typing import Protocol

import numpy as np
from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

from tapeviz.models.timeline.output import line_starts
from tapeviz.ui.turns import later
from tapeviz.ui.window.long_output import clipped, tail_start

OUTPUT_LINES = 5000  # the lines a run's output shows at first
CHUNK = 5000  # the lines put above the first one shown, each time the pane reaches its top


class Link(Protocol):
    """What keeps the pane's lines tied to the timeline's steps (see ``OutputLink``)."""

    def kept(self) -> AbstractContextManager[None]:
        """While inside, text put into the pane keeps the link (lines above the first)."""
        ...


class EarlierLines(QObject):
    """Fills ``pane`` with a run's last lines, and the lines before them as the user scrolls up."""

    def __init__(self, pane: QPlainTextEdit) -> None:
        super().__init__(pane)
        self.pane = pane
        self.link: Link | None = None  # (set once the timeline's link exists)
        self.text = ""  # the run's whole output
        self.start = 0  # where in ``text`` the pane's first line starts
        self.end = 0  # where the part of ``text`` the pane shows ends (a line's start, or its end)
        self.first = 0  # the output's line the pane's first line is
        self.count = 0  # how many of the output's lines the pane shows
        self._starts: np.ndarray | None = None  # where each line of ``text`` starts (see reach)
        self.moved = False  # whether the pane shows a step's part of the output (see reach)
        self._loading = self._showing = False
        self._generation = 0  # (see show)
        pane.setUndoRedoEnabled(False)  # (read-only: nothing to undo, nothing to keep)
        pane.setMaximumBlockCount(OUTPUT_LINES)
        pane.verticalScrollBar().valueChanged.connect(self._on_scrolled)
        pane.viewport().installEventFilter(self)

    @property
    def hidden(self) -> int:
        """Lines of the output above the pane's first line."""
        return self.first

    def show(
        self, text: str, tail: str | None = None, grows: bool = False, live: bool = False
    ) -> None:
        """Show the end of the run's output ``text`` (``tail``: its last lines, made already).

        An output longer than the pane is handed shows its end, as a terminal does (its first
        lines shown were no particular place); scrolling up goes back as far as it goes.
        ``grows``: the output shown is this one's start (a streamed run, further on): a pane
        moved to a step's lines (:meth:`reach`) stays there, one at its end follows the new
        lines, as a terminal does, and one scrolled up stays where the user is. ``live``: a
        run still going (its first snapshot shows its end).
        """
        self._generation += 1  # (a load still waiting was for the text shown before)
        end, old = self.end, self.text
        bar = self.pane.verticalScrollBar()
        at_end = bar.value() >= bar.maximum()
        # A step's lines, or lines the user scrolled up to read: the pane keeps them (the new
        # lines come on scroll down; a tail of 5,000 lines moved under a kept row's view).
        if grows and (self.moved or not at_end) and text.startswith(old[:end]):
            self.text, self._starts = text, None
            if end == len(old):  # (shown to its end so far: the pane fills up to its lines)
                self._append(max(0, OUTPUT_LINES - self.count))
            return
        self._showing = True  # (the new text starts at its top: no scroll of the user's)
        follow = grows or live  # (at its end: the new lines come into view)
        try:
            self.text, self.start, self.end = text, tail_start(text, OUTPUT_LINES), len(text)
            self._starts, self.moved = None, False
            self.first = text.count("\n", 0, self.start)
            self.count = _lines(text) - self.first
            self.pane.setMaximumBlockCount(OUTPUT_LINES)  # (lines loaded before: the last run's)
            self.pane.setPlainText(tail if tail is not None else clipped(text[self.start :]))
            if self.start or follow:
                bar.setValue(bar.maximum())
        finally:
            self._showing = False

    def _line_starts(self) -> np.ndarray:
        """Where each line of the output starts (once per text: ~10 ms for 300,000 lines)."""
        if self._starts is None:
            self._starts = line_starts(self.text)
        return self._starts

    def reach(self, line: int) -> bool:
        """Show the output's line ``line`` (a timeline step's); whether the pane's lines changed.

        A line the pane does not show makes it show the :data:`OUTPUT_LINES` lines around it
        (the lines before and after come on scroll). Scrubbing to step 0 of a 300,000-line run
        highlighted nothing: its lines were above the pane's first.
        """
        total = _lines(self.text)
        if self.first <= line < self.first + self.count or not 0 <= line < total:
            return False
        low = max(0, min(line - OUTPUT_LINES // 2, total - OUTPUT_LINES))
        self._window(low, min(total, low + OUTPUT_LINES))
        return True

    def _window(self, low: int, high: int) -> None:
        """Show the output's lines ``low`` to ``high``."""
        starts = self._line_starts()
        self._generation += 1  # (a load still waiting was for the lines shown before)
        self._showing = True
        try:
            self.start = int(starts[low])
            self.end = int(starts[high]) if high < len(starts) else len(self.text)
            self.first, self.count, self.moved = low, high - low, True
            piece = self.text[self.start : self.end]
            self.pane.setMaximumBlockCount(self.count + 1)  # (and the empty one after a newline)
            with self._kept():
                self.pane.setPlainText(clipped(piece))
        finally:
            self._showing = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Qt override: the wheel turned at the top or the bottom (no scroll to report) loads."""
        if event.type() == QEvent.Type.Wheel and (turned := event.angleDelta().y()):  # type: ignore[attr-defined]
            self._on_scrolled(self.pane.verticalScrollBar().value(), up=turned > 0)
        return False

    def _on_scrolled(self, value: int, up: bool | None = None) -> None:
        bar = self.pane.verticalScrollBar()
        if self._loading or self._showing:
            return
        if value == bar.minimum() and self.start and up is not False:
            self._loading = True
            later(partial(self._load, self._generation), self)
        elif value == bar.maximum() and self.end < len(self.text) and up is not True:
            self._loading = True
            later(partial(self._load_after, self._generation), self)

    def _load(self, generation: int) -> None:
        """Put the :data:`CHUNK` lines before the first one shown above it; the view stays."""
        self._loading = False
        end = self.start
        if not end or generation != self._generation:
            return
        begin = tail_start(self.text[: end - 1], CHUNK)  # (end - 1: the newline before the first)
        bar = self.pane.verticalScrollBar()
        at = bar.value()
        with self._kept():
            added = self._insert(self.text[begin:end], QTextCursor.MoveOperation.Start)
            self.start, self.first, self.count = begin, self.first - added, self.count + added
        bar.setValue(at + added)  # (the pane's scroll bar counts lines: the same line in view)

    def _load_after(self, generation: int) -> None:
        """Put the :data:`CHUNK` lines after the last one shown below it (the pane moved back)."""
        self._loading = False
        if self.end < len(self.text) and generation == self._generation:
            self._append(CHUNK)

    def _append(self, lines: int) -> None:
        """Put up to ``lines`` more lines of the output below the pane's; the view stays.

        The pane's last line, if it was still being printed, gets its rest first.
        """
        begin, text = self.end, self.text
        after, starts = self.first + self.count + lines, self._line_starts()
        end = int(starts[after]) if after < len(starts) else len(text)
        if end <= begin:
            return
        with self._kept():
            self._insert(text[begin:end], QTextCursor.MoveOperation.End)
            self.end, self.count = end, _lines(text[self.start : end])

    def _insert(self, piece: str, where: QTextCursor.MoveOperation) -> int:
        """Put ``piece`` at the pane's start or end; the lines it adds."""
        added = _lines(piece)
        pane = self.pane
        pane.setMaximumBlockCount(pane.document().blockCount() + added)
        cursor = QTextCursor(pane.document())
        cursor.movePosition(where)  # (at the end: the empty line after a newline)
        cursor.insertText(clipped(piece))
        return added

    def _kept(self) -> AbstractContextManager[None]:
        """The link kept while the pane changes (set the pane's state inside: it marks by it)."""
        return self.link.kept() if self.link is not None else nullcontext()


def _lines(text: str) -> int:
    """How many lines ``text`` has (a final newline ends its last line; it starts none)."""
    return text.count("\n") + (0 if not text or text.endswith("\n") else 1)
