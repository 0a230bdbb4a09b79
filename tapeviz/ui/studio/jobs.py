"""The studio's background computation: one race and its backdrop per job, cancellable."""

from __future__ import annotations

import threading
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Signal

from tapeviz.models.descent.backdrop import Backdrop, make_backdrop
from tapeviz.models.descent.problem import Problem, ProblemError
from tapeviz.models.descent.runs import Cancelled, Race, compute_race
from tapeviz.models.descent.studio_config import StudioConfig
from tapeviz.ui import workers

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
    """The worker's part: the race, then the backdrop; expected failures come back as results."""
    try:
        race = compute_race(
            problem,
            config.runs,
            config.steps,
            progress=lambda f: progress.changed.emit(job.number, 0.9 * f),
            cancelled=lambda: job.cancelled,
        )
        backdrop = make_backdrop(race, config.x_range, config.y_range, config.slice, at)
        return "ok", race, backdrop
    except Cancelled:
        return "cancelled", None, None
    except ProblemError as exc:
        return "error", str(exc), None
    finally:
        job.done.set()


class JobsMixin:
    """The studio's computing: races and slices in the thread pool, progress, cancel, shutdown."""

    def cancel(self) -> None:
        """Stop the computation in progress (the last finished race stays)."""
        if self._job is not None:
            self._job.cancelled = True
            self._job = None
            if self._worker is not None:
                self._worker.cancelled = True  # its result is dropped
            self.panel.set_busy(False)
            self.busyChanged.emit(False)
            self._status(translate("OptimizationStudio", "Computation cancelled."))

    def shutdown(self) -> None:
        """Cancel the worker and wait briefly for it (call on close)."""
        self.timer.stop()
        self.debounce.stop()
        self.slice_timer.stop()
        if self._slice_worker is not None:
            self._slice_worker.cancelled = True
        job = self._job
        self.cancel()
        if job is not None:
            job.done.wait(2.0)

    def recompute(self) -> None:
        """Compute the race for the current problem and settings in the thread pool."""
        self.debounce.stop()
        if self.problem is None:
            return
        if self._job is not None:
            self._job.cancelled = True
        self._jobs += 1
        job = self._job = Job(self._jobs)
        self.panel.set_busy(True, 0.0)
        self.busyChanged.emit(True)
        n = len(self._config.runs)
        self._status(translate("OptimizationStudio", "Computing %n run(s)…", None, n))
        self._worker = workers.submit(
            compute,
            self.problem,
            self._config,
            job,
            self.progress,
            self._slice_at(),
            on_done=lambda result: self._on_job_done(job, result),
            on_error=lambda text: self._on_job_done(job, ("error", text.splitlines()[-1], None)),
        )

    def _refresh_slice(self) -> None:
        """Resample the 2-D slice through the selected run's current step (in the pool)."""
        race, cfg = self.race, self._config
        if race is None or self.backdrop is None or not self.backdrop.sliced:
            return
        self._slice_worker = workers.submit(
            make_backdrop,
            race,
            cfg.x_range or self.backdrop.x_range,
            cfg.y_range or self.backdrop.y_range,
            cfg.slice,
            self._slice_at(),
            on_done=lambda b: self._on_slice_done(race, b),
        )

    def _on_slice_done(self, race: Race, backdrop: Backdrop) -> None:
        if race is self.race and self._job is None:
            self.backdrop = backdrop
            self.surface.set_race(race, backdrop)
            self.show_step(self.k)

    def _slice_at(self) -> Any:
        if self.race is None or len(self.race.runs[0].names) <= 2:
            return None
        run = min(self._config.selected, len(self.race.runs) - 1)
        return self.race.runs[run].values_at(self.k)

    def _on_progress_changed(self, number: int, fraction: float) -> None:
        if self._job is not None and number == self._job.number:
            self.panel.set_busy(True, fraction)
            self.progressChanged.emit(fraction)
            n = len(self._config.runs)
            self._status(
                translate("OptimizationStudio", "Computing %n run(s)… {percent} %", None, n).format(
                    percent=round(100 * fraction)
                )
            )

    def _on_job_done(self, job: Job, result: tuple[str, Any, Any]) -> None:
        if job is not self._job:
            return  # a newer computation replaced it
        self._job = None
        self.panel.set_busy(False)
        kind, race, backdrop = result
        if kind == "error":
            message = translate("OptimizationStudio", "The loss cannot be optimized: {message}")
            self._status(message.format(message=race))
        elif kind == "ok":
            self._show_race(race, backdrop)
        self.busyChanged.emit(False)  # after the plots show the new race
