"""The tape of the studio's current step, fetched from a worker process without blocking.

At most one request is in flight; while it runs only the newest wanted step is remembered,
so scrubbing or playing never queues stale work (a frame dropped if the previous one was not
drawn yet), and a result for a step no longer wanted is not shown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from tapeviz.models.descent.problem import ProblemError
from tapeviz.models.descent.runs import Race
from tapeviz.ui import workers
from tapeviz.ui.messages import problem_text


def _fetch(race: Race, run: int, k: int) -> Any:
    try:
        return race.tape_at(run, k)
    except ProblemError as exc:
        return exc  # worded in the UI thread


class StepTapes(QObject):
    """``want(race, run, k)``; ``ready(result)`` with the sandbox RunResult when it arrives."""

    ready = Signal(object)

    def __init__(self, report: Callable[[str], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.report = report
        self._busy = False
        self._wanted: tuple[Race, int, int] | None = None
        self._current: Race | None = None

    def want(self, race: Race, run: int, k: int) -> None:
        """Ask for step ``k`` of run ``run`` (replaces any request not started yet)."""
        self._current = race
        self._wanted = (race, run, k)
        if not self._busy:
            self._next()

    def forget(self) -> None:
        """Drop what is wanted and what is in flight (a new race, the studio closing)."""
        self._wanted = None
        self._current = None

    def _next(self) -> None:
        wanted, self._wanted = self._wanted, None
        if wanted is None:
            return
        self._busy = True
        workers.submit(
            _fetch,
            *wanted,
            on_done=lambda r: self._on_done(wanted, r),
            on_error=lambda text: self._on_done(wanted, text.splitlines()[-1]),
        )

    def _on_done(self, wanted: tuple[Race, int, int], result: Any) -> None:
        self._busy = False
        if self._wanted is None and wanted[0] is self._current:  # still the newest wanted
            if isinstance(result, ProblemError | str):
                self.report(problem_text(result))
            else:
                self.ready.emit(result)
        self._next()
