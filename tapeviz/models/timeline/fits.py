"""A Keras ``fit`` in a run's tapes: its loop, its epochs and its History, from the tapes' marks.

``fit`` marks every tape its train steps record (:mod:`tapeviz.tf.keras_src.fit_marks`): the
fit, the epoch, the batch and the tape's place in the step. Those marks, not the tapes'
structure, make the fit's loop, so every batch of every epoch is one step of one timeline
whatever its shapes; the epochs' first steps and their logs (``history.history``) come with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tapeviz.models.timeline.loops import Loop
from tapeviz.sandbox.process.fit_columns import FitColumns, fit_columns_of
from tapeviz.sandbox.process.fit_nets import FitNet

MIN_FIT_STEPS = 2  # a fit of fewer steps is left to the structure scan


@dataclass(frozen=True)
class Epochs:
    """A fit's epochs over a timeline's steps, and the logs ``History`` kept of each."""

    starts: np.ndarray  # per epoch: its first step
    numbers: np.ndarray  # per epoch: Keras' epoch index (from 0; ``initial_epoch`` counts)
    batches: np.ndarray  # per step: its batch within the epoch (from 0)
    history: dict[str, np.ndarray] = field(default_factory=dict)  # per key: per epoch, nan: none
    net: FitNet | None = None  # the fit's network on 2-D data (or why the view cannot draw it)

    @property
    def count(self) -> int:
        """How many epochs."""
        return len(self.starts)

    def of_step(self, k: int) -> int:
        """The epoch (0 … count − 1, not Keras' number) step ``k`` belongs to."""
        return max(0, int(np.searchsorted(self.starts, int(k), side="right")) - 1)

    def steps_in(self, e: int) -> int:
        """How many steps epoch ``e`` has."""
        end = self.starts[e + 1] if e + 1 < self.count else self.total
        return int(end - self.starts[e])

    @property
    def total(self) -> int:
        """Every epoch's steps together."""
        return len(self.batches)


def fit_columns(infos: Sequence[Any]) -> FitColumns | None:
    """The marks ``fit`` left on a run's tapes (a received run's columns, or the live tapes')."""
    if hasattr(infos, "fits"):  # a received result's RemoteTapes
        return infos.fits  # type: ignore[no-any-return]
    return fit_columns_of(infos)


def _runs(tapes: np.ndarray) -> list[np.ndarray]:
    """Consecutive stretches of the (sorted) tape indices."""
    cuts = np.flatnonzero(np.diff(tapes) != 1) + 1
    return np.split(tapes, cuts)


def fit_loops(cols: FitColumns) -> list[Loop]:
    """One loop per ``fit`` (per stretch of its tapes that nothing else interrupts).

    A step is the tapes one ``train_step`` recorded; a fit whose steps record different
    numbers of tapes is left to the structure scan.
    """
    marks = cols.marks
    fit = marks[:, 0]
    loops = []
    for f in np.unique(fit[fit >= 0]).tolist():
        for run in _runs(np.flatnonzero(fit == f)):
            a, n = int(run[0]), len(run)
            part = marks[run, 3]
            period = int(part.max()) + 1
            if n % period or not np.array_equal(part, np.tile(np.arange(period), n // period)):
                continue
            if n // period >= MIN_FIT_STEPS:
                loops.append(Loop(a, period, n // period))
    return loops


def epochs_of(cols: FitColumns, loop: Loop) -> Epochs | None:
    """The epochs of a fit's loop and their logs (None: the loop's tapes are not a fit's)."""
    tapes = loop.start + loop.period * np.arange(loop.steps)
    marks = cols.marks[tapes]
    if len(marks) == 0 or (marks[:, 0] < 0).any():
        return None
    epoch = marks[:, 1]
    starts = np.flatnonzero(np.concatenate([[True], np.diff(epoch) != 0]))
    history: dict[str, np.ndarray] = {}
    for t, logs in cols.logs.items():
        if not loop.start <= t < loop.stop:
            continue
        e = int(np.searchsorted(starts, (t - loop.start) // loop.period, side="right")) - 1
        for key, value in logs.items():
            history.setdefault(key, np.full(len(starts), np.nan))[e] = value
    return Epochs(starts, epoch[starts], marks[:, 2].copy(), history, loop_net(cols, loop))


def loop_net(cols: FitColumns, loop: Loop) -> FitNet | None:
    """The network a script's own loop trains (a torch loop's first backward describes it)."""
    nets = [n for t, n in (cols.nets or {}).items() if loop.start <= t < loop.stop]
    return nets[0] if nets else None
