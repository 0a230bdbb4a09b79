"""Turns: one slice of the window's background work per pass of the event loop, whoever asks.

A big graph is built, updated with a re-run's values, restyled by the stepper and deleted by
slices of ~12 ms, so that the window answers between them. Each kind of slice had its own
timer, and timers due together all fire in one pass of the event loop: an update's, a
restyle's and a deletion's slices made 40-80 ms turns. Every slice now waits in one queue,
and a pass runs one of them (first come, first served: the kinds take turns).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from functools import partial

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer

NEXT_MS = 1  # a timer, not a posted call: the next slice waits for the input and paints
CROWDED_S = 0.002  # a slice ended this recently: other work (a collection) waits for a turn


class Turns(QObject):
    """A queue of slices, one run per event-loop pass (from a 1 ms timer)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._queue: deque[tuple[QObject | None, Callable[[], None]]] = deque()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(NEXT_MS)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self._run)
        self.ended = float("-inf")  # when the last slice ended (perf_counter)
        self.running = False  # a slice runs now

    def later(self, slice_: Callable[[], None], owner: QObject | None = None) -> None:
        """Run ``slice_`` on a pass of its own (skipped if ``owner`` was deleted meanwhile)."""
        self._queue.append((owner, slice_))
        if not self._timer.isActive():
            self._timer.start()

    def __len__(self) -> int:
        return len(self._queue)

    def _run(self) -> None:
        queue = self._queue
        while queue:
            owner, slice_ = queue.popleft()
            if owner is None or shiboken6.isValid(owner):
                break
        else:
            return
        self.running = True
        try:
            slice_()
        finally:
            self.running = False
            self.ended = time.perf_counter()
            if queue and not self._timer.isActive():
                self._timer.start()


_TURNS: list[Turns] = []  # made with the first slice (Qt is running by then)


def turns() -> Turns:
    """The application's one queue of slices."""
    if not _TURNS or not shiboken6.isValid(_TURNS[0]):
        _TURNS[:] = [Turns(QCoreApplication.instance())]
    return _TURNS[0]


def later(slice_: Callable[[], None], owner: QObject | None = None) -> None:
    """Run ``slice_`` on an event-loop pass of its own, after the slices already waiting."""
    turns().later(slice_, owner)


def until_done(step: Callable[[], bool], owner: QObject, then: Callable[[], None]) -> None:
    """Run ``step`` a turn at a time until it says it is done, then ``then`` (on its turn).

    Each turn is ``owner``'s: once ``owner`` is deleted, the rest is skipped.
    """
    later(partial(_until_done, step, owner, then), owner)


def _until_done(step: Callable[[], bool], owner: QObject, then: Callable[[], None]) -> None:
    # (Not a closure that queues itself: that is a reference cycle, and what it held, a
    # figure's Qt items, was freed by a later garbage collection, in whatever order: Qt then
    # asked a LabelItem whose Python side was gone for its size.)
    if step():
        then()
    else:
        later(partial(_until_done, step, owner, then), owner)


def after(ms: int, slice_: Callable[[], None], owner: QObject) -> None:
    """Run ``slice_`` on a turn of its own once ``ms`` have passed (a wait, then the queue)."""
    QTimer.singleShot(ms, owner, lambda: later(slice_, owner))


def release(held: object) -> None:
    """Drop ``held`` on a turn of its own: freeing a big graph or lesson takes milliseconds."""
    later(lambda _held=held: None)


def crowded() -> bool:
    """Whether a slice runs or waits, or one ran just now (in this pass of the event loop)."""
    if not _TURNS or not shiboken6.isValid(_TURNS[0]):
        return False
    t = _TURNS[0]
    return t.running or bool(len(t)) or time.perf_counter() - t.ended < CROWDED_S


def pending() -> int:
    """How many slices wait (tests wait for none)."""
    return len(_TURNS[0]) if _TURNS and shiboken6.isValid(_TURNS[0]) else 0
