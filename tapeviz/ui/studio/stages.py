"""Work shown one part per frame: each part runs after the window painted the one before.

A new race redraws four plots; done in one turn, their work and their paints together held the
UI thread for 20–40 ms (two frames or more). :class:`Stages` runs each part on the turn after
the window's next repaint (the first after the repaint of what the caller changed), so every
frame holds one plot's work and paint. A window that is not shown paints nothing: its parts
all run at once.
"""

from __future__ import annotations

from collections.abc import Iterator

from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtWidgets import QWidget

FALLBACK_MS = 50  # no repaint came (nothing changed on screen): the next part runs anyway


class Stages(QObject):
    """Runs a generator's parts, one per frame of ``widget``'s window; ``finished`` at the end."""

    finished = Signal()

    def __init__(self, widget: QWidget, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.widget = widget
        self._parts: Iterator[None] | None = None
        self._watched: QWidget | None = None
        self._queued = False
        self._run = 0  # bumped when parts are dropped: a queued turn of older parts does nothing
        self._fallback = QTimer(self)
        self._fallback.setSingleShot(True)
        self._fallback.setInterval(FALLBACK_MS)
        self._fallback.timeout.connect(self._next)

    @property
    def pending(self) -> bool:
        """Whether parts are left to run."""
        return self._parts is not None

    def start(self, parts: Iterator[None]) -> None:
        """Run each part of ``parts`` after a repaint of the window (drops older parts)."""
        self._stop()
        self._parts = parts
        if not self.widget.isVisible():
            self.flush()
            return
        self._watched = self.widget.window()
        self._watched.installEventFilter(self)
        self._fallback.start()

    def flush(self) -> None:
        """Run every part left now."""
        while self._parts is not None:
            self._step()

    def cancel(self) -> None:
        """Drop the parts left (``finished`` is not emitted)."""
        self._stop()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The window is about to repaint: the next part runs on the turn after the paint."""
        if event.type() == QEvent.Type.UpdateRequest and not self._queued:
            self._queued, run = True, self._run
            QTimer.singleShot(0, self, lambda: self._next() if run == self._run else None)
        return False

    def _next(self) -> None:
        self._queued = False
        self._fallback.stop()
        if self._parts is None:
            return
        self._step()
        if self._parts is not None:
            self._fallback.start()

    def _step(self) -> None:
        assert self._parts is not None
        try:
            next(self._parts)
        except StopIteration:
            self._stop()
            self.finished.emit()
        except BaseException:
            self._stop()  # a part that failed ends the run (the error goes on to Qt's handler)
            raise

    def _stop(self) -> None:
        self._parts, self._queued = None, False
        self._run += 1
        self._fallback.stop()
        if self._watched is not None:
            self._watched.removeEventFilter(self)
            self._watched = None
