"""What the worker remembers between two races: a changed run is the only one computed again.

A hyper-parameter edit changes one run of a race. :class:`RaceCache` keeps, for the last
problem (its text and variables) and step count, the compiled loss, every run's history by its
optimizer settings, and the backdrop samplings by their ranges; a race then computes only the
runs it has not seen (a colour or label change computes nothing) and samples the surface only
when its ranges moved. A new problem or step count forgets everything. No Qt.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from tapeviz.models.descent.backdrop import Backdrop, make_backdrop, sample_backdrop
from tapeviz.models.descent.optimizer_config import MAX_RUNS, RunConfig
from tapeviz.models.descent.problem import Loss, Problem
from tapeviz.models.descent.runs import History, Race, compute_race

KEEP_HISTORIES = 2 * MAX_RUNS  # a race's runs and as many recently replaced ones (undo)
KEEP_BACKDROPS = 4
KEEP_VALUES = 50_000_000  # float64 values (400 MB) at most in the remembered histories


def problem_key(problem: Problem) -> tuple[Any, ...]:
    """What identifies a problem: its text, mode and variables (names, kinds, dtypes, values)."""
    return (
        problem.source,
        problem.mode,
        tuple((v.name, v.kind, v.dtype, np.asarray(v.value).tobytes()) for v in problem.variables),
    )


def optimizer_key(run: RunConfig) -> str:
    """What decides a run's history: its optimizer and hyper-parameters (not colour or label)."""
    return json.dumps(run.optimizer.to_dict(), sort_keys=True)


def _size(h: History) -> int:
    return h.loss.size + h.params.size + h.grads.size


class RaceCache:
    """Races of one problem computed incrementally: see the module docstring.

    ``computed`` lists the run indices the last :meth:`race` computed (the others were kept);
    ``sampled`` says whether the last :meth:`backdrop` sampled the loss.
    """

    def __init__(self) -> None:
        self.key: tuple[Any, ...] | None = None
        self.loss_fn: Loss | None = None
        self.method = "auto"
        self.notes: tuple[str, ...] = ()
        self.histories: OrderedDict[str, History] = OrderedDict()
        self.backdrops: OrderedDict[tuple[Any, ...], Backdrop] = OrderedDict()
        self.computed: tuple[int, ...] = ()
        self.sampled = False

    def loss(self, problem: Problem) -> Loss:
        """``problem``'s compiled loss (compiled once per problem)."""
        self._use(problem_key(problem), self.key[1] if self.key else None)
        if self.loss_fn is None:
            self.loss_fn = problem.compile()
        return self.loss_fn

    def _use(self, pkey: tuple[Any, ...], steps: int | None) -> None:
        if self.key is not None and self.key[0] == pkey:
            if steps is not None and self.key[1] != steps:
                self.key = (pkey, steps)
                self.histories.clear()
            return
        self.key = (pkey, steps)
        self.loss_fn, self.method, self.notes = None, "auto", ()
        self.histories.clear()
        self.backdrops.clear()

    def race(
        self,
        problem: Problem,
        runs: Sequence[RunConfig],
        steps: int,
        *,
        progress: Callable[[float], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> Race:
        """The race of ``runs``: remembered histories kept, the others computed (in one go)."""
        started = time.perf_counter()
        self._use(problem_key(problem), steps)
        keys = [optimizer_key(r) for r in runs]
        missing = list(dict.fromkeys(k for k in keys if k not in self.histories))
        if missing:
            first = {k: runs[keys.index(k)] for k in missing}
            part = compute_race(
                problem,
                list(first.values()),
                steps,
                progress=progress,
                cancelled=cancelled,
                method=self.method,  # the same arithmetic as the runs kept
                loss_fn=self.loss_fn,
            )
            self.loss_fn, self.method, self.notes = part.loss_fn, part.method, part.notes
            for k, h in zip(missing, part.runs, strict=True):
                self.histories[k] = h
        elif progress is not None:
            progress(1.0)
        for k in keys:
            self.histories.move_to_end(k)
        self._trim(set(keys))
        self.computed = tuple(i for i, k in enumerate(keys) if k in missing)
        histories = [replace(self.histories[k], run=r) for k, r in zip(keys, runs, strict=True)]
        return Race(
            problem,
            histories,
            steps,
            self.method,
            time.perf_counter() - started,
            self.notes,
            self.loss_fn,
        )

    def _trim(self, wanted: set[str]) -> None:
        spare = [k for k in self.histories if k not in wanted]  # oldest first
        total = sum(_size(h) for h in self.histories.values())
        while spare and (len(self.histories) > KEEP_HISTORIES or total > KEEP_VALUES):
            total -= _size(self.histories.pop(spare.pop(0)))

    def backdrop(
        self,
        race: Race,
        x_range: tuple[float, float] | None = None,
        y_range: tuple[float, float] | None = None,
        pair: Sequence[str] | None = None,
        at: Sequence[Any] | None = None,
    ) -> Backdrop:
        """:func:`make_backdrop` of ``race``, sampled only when the ranges or the slice moved."""
        self.sampled = False
        self._use(problem_key(race.problem), race.steps)

        def sample(loss: Loss, start: Sequence[Any], kind: str, *rest: Any) -> Backdrop:
            key = (kind, rest[:4], tuple(np.asarray(v).tobytes() for v in rest[4]), rest[5:])
            found = self.backdrops.get(key)
            if found is None:
                found = sample_backdrop(loss, start, kind, *rest)
                self.sampled = True
                self.backdrops[key] = found
                while len(self.backdrops) > KEEP_BACKDROPS:
                    self.backdrops.popitem(last=False)
            self.backdrops.move_to_end(key)
            return found

        return make_backdrop(race, x_range, y_range, pair, at, sample=sample)
