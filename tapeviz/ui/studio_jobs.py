"""The studio's background computation: one race and its backdrop per job, cancellable."""

from __future__ import annotations

import threading
from typing import Any

from PySide6.QtCore import QObject, Signal

from tapeviz.models.backdrop import make_backdrop
from tapeviz.models.descent import Cancelled, compute_race
from tapeviz.models.problem import Problem, ProblemError
from tapeviz.models.studio_config import StudioConfig


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
