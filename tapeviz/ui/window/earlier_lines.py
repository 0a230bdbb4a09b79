"""The Output pane shows a run's last lines; scrolled to its top, it shows the ones before.

A run's output may be 300,000 lines: the pane is handed only its last :data:`OUTPUT_LINES`
(laying out the rest took the UI thread seconds). Every line stays reachable: when the pane is
scrolled to its first line, the :data:`CHUNK` lines before it are put above it on a turn of
their own, and the view stays on the line it showed.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from functools import partial
from typing import Protocol

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

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
        self._loading = self._showing = False
        self._generation = 0  # (see show)
        pane.setUndoRedoEnabled(False)  # (read-only: nothing to undo, nothing to keep)
        pane.setMaximumBlockCount(OUTPUT_LINES)
        pane.verticalScrollBar().valueChanged.connect(self._on_scrolled)
        pane.viewport().installEventFilter(self)

    @property
    def hidden(self) -> int:
        """Lines of the output above the pane's first line."""
        return self.text.count("\n", 0, self.start)

    def show(self, text: str, tail: str | None = None) -> None:
        """Show the end of the run's output ``text`` (``tail``: its last lines, made already).

        An output longer than the pane is handed shows its end, as a terminal does (its first
        lines shown were no particular place); scrolling up goes back as far as it goes.
        """
        self._generation += 1  # (a load still waiting was for the text shown before)
        self._showing = True  # (the new text starts at its top: no scroll of the user's)
        try:
            self.text, self.start = text, tail_start(text, OUTPUT_LINES)
            self.pane.setMaximumBlockCount(OUTPUT_LINES)  # (lines loaded before: the last run's)
            self.pane.setPlainText(tail if tail is not None else clipped(text[self.start :]))
            if self.start:
                bar = self.pane.verticalScrollBar()
                bar.setValue(bar.maximum())
        finally:
            self._showing = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Qt override: the wheel turned up at the top (no scroll left to report) loads too."""
        if event.type() == QEvent.Type.Wheel and event.angleDelta().y() > 0:  # type: ignore[attr-defined]
            self._on_scrolled(self.pane.verticalScrollBar().value())
        return False

    def _on_scrolled(self, value: int) -> None:
        bar = self.pane.verticalScrollBar()
        if value == bar.minimum() and self.start and not self._loading and not self._showing:
            self._loading = True
            later(partial(self._load, self._generation), self)

    def _load(self, generation: int) -> None:
        """Put the :data:`CHUNK` lines before the first one shown above it; the view stays."""
        self._loading = False
        end = self.start
        if not end or generation != self._generation:
            return
        begin = tail_start(self.text[: end - 1], CHUNK)  # (end - 1: the newline before the first)
        piece = self.text[begin:end]
        added = piece.count("\n")
        pane, bar = self.pane, self.pane.verticalScrollBar()
        at = bar.value()
        pane.setMaximumBlockCount(pane.document().blockCount() + added)
        cursor = QTextCursor(pane.document())
        cursor.movePosition(QTextCursor.MoveOperation.Start)
        with self.link.kept() if self.link is not None else nullcontext():
            cursor.insertText(clipped(piece))
        self.start = begin
        bar.setValue(at + added)  # (the pane's scroll bar counts lines: the same line in view)
