"""The studio's background computation: one race and its backdrop per job, cancellable.

:class:`JobRunner` is the part of the studio that computes; :func:`compute` is what runs in
the pool thread, which waits for a worker process (:mod:`tapeviz.models.descent.remote`): the
loss is user code, so the window never evaluates it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Signal

from tapeviz.models.descent.backdrop import Backdrop
from tapeviz.models.descent.messages import TEMPLATES as GUIDANCE
from tapeviz.models.descent.problem import Problem, ProblemError
from tapeviz.models.descent.remote import backdrop_in_worker, race_in_worker
from tapeviz.models.descent.runs import Cancelled, Race
from tapeviz.models.descent.studio_config import StudioConfig
from tapeviz.ui import workers
from tapeviz.ui.messages import problem_text
from tapeviz.ui.studio.optimizer_panel import OptimizerPanel

translate = QCoreApplication.translate  # lupdate reads translate("OptimizationStudio", "…")


class Job:
    """One computation: cancelled by a newer one, or when the studio closes."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.cancelled = False
        self.done = threading.Event()


class Progress(QObject):
    """Progress of the running job, sent from the worker thread to the UI thread."""

    changed = Signal(int, float)  # job number, fraction (emitted from the worker thread)


def compute(
    problem: Problem, config: StudioConfig, job: Job, progress: Progress, at: Any
) -> tuple[str, Any, Any]:
    """The pool thread's part: wait for a worker process to compute the race and backdrop.

    The loss is user code, so it runs there; expected failures come back as results.
    """
    try:
        race, backdrop = race_in_worker(
            problem,
            config.runs,
            config.steps,
            x_range=config.x_range,
            y_range=config.y_range,
            pair=config.slice,
            at=at,
            progress=lambda f: progress.changed.emit(job.number, f),
            cancelled=lambda: job.cancelled,
        )
        return "ok", race, backdrop
    except Cancelled:
        return "cancelled", None, None
    except ProblemError as exc:
        return "error", exc, None  # worded in the UI thread, in the interface language
    finally:
        job.done.set()


def failure_text(problem: ProblemError | str) -> str:
    """Why the studio did not race, for the status line.

    The work itself may be fine (a script that trains in its own loop, a table without a
    trainable row): that is guidance, not a failure. An error of the loss's code is one (⚠).
    """
    text = problem_text(problem)
    msg = getattr(problem, "msg", None)
    if msg is not None and msg.code in GUIDANCE:
        template = translate(
            "OptimizationStudio", "Nothing for the Optimization tab to optimize: {message}"
        )
        return template.format(message=text)
    return "⚠ " + translate("OptimizationStudio", "The loss cannot be optimized: {message}").format(
        message=text
    )


def _resample(race: Race, backdrop: Backdrop, at: Any) -> Backdrop | ProblemError:
    """The pool thread's part of a slice: sampled in a worker process (the error on failure)."""
    try:
        return backdrop_in_worker(race, backdrop, at)
    except ProblemError as exc:
        return exc


def slice_point(race: Race | None, config: StudioConfig, k: int) -> Any:
    """Where a 2-D slice goes through: the selected run's values at step ``k`` (None for 1-2-D)."""
    if race is None or len(race.runs[0].names) <= 2:
        return None
    run = min(config.selected, len(race.runs) - 1)
    return race.runs[run].values_at(k)


class JobRunner(QObject):
    """The studio's computing: one race and its backdrop at a time in the thread pool.

    It owns the running job and the slice resampling; it shows its busy state and progress on
    the panel and its messages through ``report``. A newer job or :meth:`cancel` drops the
    running one's result. ``raceReady`` and ``sliceReady`` carry the results to the studio.
    """

    busyChanged = Signal(bool)
    progressChanged = Signal(float)  # fraction done of the running job
    raceReady = Signal(object, object)  # the Race and its Backdrop
    sliceReady = Signal(object, object)  # the Race it was sampled for, the new Backdrop

    def __init__(
        self,
        panel: OptimizerPanel,
        report: Callable[[str], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.panel, self.report = panel, report
        self.job: Job | None = None
        self._worker: workers.Worker | None = None
        self._slice_worker: workers.Worker | None = None
        self._count = 0  # jobs started: each job's number
        self._runs = 0  # runs in the running job (for the messages)
        self._started = 0.0
        self.last_seconds = float("inf")  # how long the last finished race took, end to end
        self.progress = Progress()
        self.progress.changed.connect(self._on_progress_changed)

    @property
    def busy(self) -> bool:
        """Whether a race is being computed."""
        return self.job is not None

    def start(self, problem: Problem, config: StudioConfig, at: Any) -> None:
        """Compute the race of ``problem`` with ``config`` (a slice through ``at``).

        A job still running is dropped.
        """
        if self.job is not None:
            self.job.cancelled = True
        self._count += 1
        job = self.job = Job(self._count)
        self._started = time.perf_counter()
        self.panel.set_busy(True, 0.0)
        self.busyChanged.emit(True)
        self._runs = n = len(config.runs)
        self.report(translate("OptimizationStudio", "Computing %n run(s)…", None, n))
        self._worker = workers.submit(
            compute,
            problem,
            config,
            job,
            self.progress,
            at,
            on_done=lambda result: self._on_job_done(job, result),
            on_error=lambda text: self._on_job_done(job, ("error", text.splitlines()[-1], None)),
        )

    def cancel(self) -> None:
        """Stop the computation in progress (the last finished race stays)."""
        if self.job is not None:
            self.job.cancelled = True
            self.job = None
            if self._worker is not None:
                self._worker.cancelled = True  # its result is dropped
            self.panel.set_busy(False)
            self.busyChanged.emit(False)
            self.report(translate("OptimizationStudio", "Computation cancelled."))

    def shutdown(self) -> None:
        """Cancel the job and the slice, and wait briefly for the job (call on close)."""
        if self._slice_worker is not None:
            self._slice_worker.cancelled = True
        job = self.job
        self.cancel()
        if job is not None:
            job.done.wait(2.0)

    def resample(self, race: Race, backdrop: Backdrop, config: StudioConfig, at: Any) -> None:
        """Sample the 2-D slice of ``race`` through ``at`` again, in the pool (``sliceReady``).

        The ranges are the settings', else those of the current ``backdrop``.
        """
        ranges = replace(
            backdrop, x_range=config.x_range or backdrop.x_range,
            y_range=config.y_range or backdrop.y_range,
        )  # fmt: skip
        self._slice_worker = workers.submit(
            _resample, race, ranges, at, on_done=lambda new: self._on_slice_done(race, new)
        )

    def _on_slice_done(self, race: Race, new: Backdrop | ProblemError) -> None:
        if isinstance(new, ProblemError):
            self.report(problem_text(new))
        else:
            self.sliceReady.emit(race, new)

    def _on_progress_changed(self, number: int, fraction: float) -> None:
        if self.job is not None and number == self.job.number:
            self.panel.set_busy(True, fraction)
            self.progressChanged.emit(fraction)
            self.report(
                translate(
                    "OptimizationStudio", "Computing %n run(s)… {percent} %", None, self._runs
                ).format(percent=round(100 * fraction))
            )

    def _on_job_done(self, job: Job, result: tuple[str, Any, Any]) -> None:
        if job is not self.job:
            return  # a newer computation replaced it
        self.job = None
        self.panel.set_busy(False)
        kind, race, backdrop = result
        if kind == "ok":
            self.last_seconds = time.perf_counter() - self._started
        if kind == "error":
            self.report(failure_text(race))
        elif kind == "ok":
            self.raceReady.emit(race, backdrop)
        self.busyChanged.emit(False)  # after the plots show the new race
