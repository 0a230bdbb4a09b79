"""One loop of a run as a timeline: its steps, the per-step series, and the tapes of each step.

A step is one iteration of the loop: ``period`` consecutive tapes (one, or an outer and an
inner tape, ...). Its *main* tape is the one whose gradient call differentiates the loss: the
outermost tape whose first gradient call's target is not itself a gradient (in Newton's method
the outer tape differentiates the inner tape's gradient; the loss is the inner tape's target).
Per step, read from the recorded values without materialising a tape:

- ``loss``: the value of that call's target (the sum, for several targets or a tensor);
- ``values(j)``: parameter j (the call's j-th source) as the step's tape read it, and after the
  last step the value the next read (or the end of the run) saw: TensorFlow's final print;
- ``grad_norm``: the norm of the gradients the call returned.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from tapeviz.models.timeline.curvature import hessian_of
from tapeviz.models.timeline.divergence import FIT_STEPS, LoopDivergence, diagnose
from tapeviz.models.timeline.fits import Epochs, epochs_of, fit_columns, fit_loops, loop_net
from tapeviz.models.timeline.index import TapeIndex, index_of
from tapeviz.models.timeline.loops import MIN_STEPS, Loop, find_loops
from tapeviz.models.timeline.names import parameter_name, shortened
from tapeviz.models.timeline.store import Store, element_matrix, pick
from tapeviz.models.values import summarised
from tapeviz.sandbox.process.fit_nets import FitNet


@dataclass(frozen=True)
class Parameter:
    """A source of the loss's gradient call: a variable the loop trains (or a watched tensor)."""

    name: str
    shape: tuple[int, ...]
    dtype: str
    variable: bool

    @property
    def size(self) -> int:
        """Its element count."""
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def label(self) -> str:
        """``x`` for a scalar, ``‖W‖`` for a tensor (plotted by its norm unless told)."""
        return self.name if self.size == 1 else f"‖{self.name}‖"


def main_offset(index: TapeIndex, start: int, period: int) -> int | None:
    """Which tape of a step (from its first tape, ``start``) differentiates the loss; None."""
    calls = {t: index.calls.of(t) for t in range(start, start + period)}
    with_calls = [t for t, cs in calls.items() if cs]
    if not with_calls:
        return None
    results = [r for cs in calls.values() for c in cs for r in c.results if r >= 0]
    gradient_ids = set(index.store.ids[np.array(results, np.int64)].tolist()) if results else set()
    for t in with_calls:
        if not gradient_ids.intersection(calls[t][0].targets):
            return t - start
    return with_calls[0] - start


class Timeline:
    """A loop's steps and series (see the module docstring)."""

    def __init__(
        self,
        tapes: Sequence[Any],
        loop: Loop,
        number: int,
        main: int,
        index: TapeIndex,
        epochs: Epochs | None = None,
        net: FitNet | None = None,
    ) -> None:
        # the run's TapeInfos (every tape, not only this loop's; a received run's stay lazy)
        self.tapes = tapes if isinstance(tapes, Sequence) else tuple(tapes)
        self.loop, self.number, self.main = loop, number, main
        self.epochs = epochs  # a Keras fit's epochs and History (None: a loop of the script's)
        # the network the loop trains on 2-D points (a fit's is on its epochs), for the view
        self.net = epochs.net if epochs is not None else net
        self.steps = loop.steps
        self.store: Store = index.store
        shown = self.main_tapes()
        targets = index.calls.columns(shown, "targets")
        sources = index.calls.columns(shown, "sources")
        results = index.calls.columns(shown, "results")
        self.loss = np.zeros(self.steps)
        loss_refs = []
        for j in range(targets.shape[1]):
            refs = index.outputs(shown, targets[:, j])
            refs = np.where(refs >= 0, refs, index.first_reads(shown, targets[:, j]))
            loss_refs.append(refs)
            self.loss += pick(self.store, refs, "sum")
        self.loss_dtype = _dtype(self.store, loss_refs[0][0]) if loss_refs else "float32"
        single = targets.shape[1] == 1
        self.loss_name = (index.names.get(int(targets[-1, 0])) if single else None) or "loss"
        squares = np.zeros(self.steps)
        for j in range(results.shape[1]):
            norms = pick(self.store, results[:, j], "norm")
            squares += np.where(results[:, j] < 0, 0.0, norms) ** 2  # None: no gradient
        none = (results < 0).all(axis=1) if results.shape[1] else np.ones(self.steps, bool)
        self.grad_norm = np.where(none, np.nan, np.sqrt(squares))
        refs = np.full((sources.shape[1], self.steps + 1), -1, np.int64)
        # each parameter's tensor id (a Variable keeps it across steps; the Network view's key)
        last = sources[-1] if self.steps else np.zeros(0, np.int64)
        self.source_ids = tuple(int(i) for i in last)
        params = []
        for j in range(sources.shape[1]):
            refs[j, :-1] = index.first_reads(shown, sources[:, j])
            sid = int(sources[-1, j])
            if sid in index.variables:
                after = index.read_after(loop.stop - 1, sid)
                refs[j, -1] = after if after >= 0 else index.variables[sid]
            first = int(refs[j, 0])
            shape = self.store.shape(first) if first >= 0 else ()
            name = parameter_name(index, (sid, int(sources[0, j])), first, j)
            params.append(Parameter(name, shape, _dtype(self.store, first), sid in index.variables))
        names = shortened([p.name for p in params])
        self.parameters = tuple(replace(p, name=n) for p, n in zip(params, names, strict=True))
        self._refs, self._grad_refs = refs, results
        self._cache: dict[tuple[int, Any], np.ndarray] = {}
        records = self.tapes[int(shown[0])].tape.records if self.steps else []
        self.divergence: LoopDivergence | None = diagnose(
            self.loss,
            np.stack([self.values(j)[:-1] for j in range(len(params))], axis=1)
            if params else np.zeros((self.steps, 0)),
            self.loss_name,
            [p.label for p in params],
            self._fit_data,
            hessian_of(records, targets[0].tolist(), sources[0].tolist()),
            [self.store.value(int(r)) for r in refs[:, 0] if r >= 0],
        )  # fmt: skip

    # -- steps and tapes -------------------------------------------------------------------
    def main_tapes(self) -> np.ndarray:
        """The index (into the run's tapes) of every step's main tape."""
        return self.loop.start + self.main + self.loop.period * np.arange(self.steps)

    def main_tape(self, k: int) -> int:
        """The index of step k's main tape."""
        return self.loop.start + self.main + self.loop.period * int(k)

    def step_tapes(self, k: int) -> tuple[Any, ...]:
        """The TapeInfos step k recorded, in creation order."""
        a = self.loop.start + self.loop.period * int(k)
        return self.tapes[a : a + self.loop.period]

    def step_of_tape(self, tape: int) -> int | None:
        """The step that recorded tape ``tape`` (None: not this loop's)."""
        if not self.loop.start <= tape < self.loop.stop:
            return None
        return (tape - self.loop.start) // self.loop.period

    # -- series ----------------------------------------------------------------------------
    def values(self, j: int, element: int | None = None) -> np.ndarray:
        """Parameter j at every step and after the last (steps + 1 values).

        Scalars are their value; tensors their norm, or element ``element`` (flattened).
        """
        how: str | int = element if element is not None else (
            "sum" if self.parameters[j].size == 1 else "norm"
        )  # fmt: skip
        key = (j, how)
        got = self._cache.get(key)
        if got is None:
            got = self._cache[key] = pick(self.store, self._refs[j], how)
        return got

    def matrix(self, j: int, steps: np.ndarray, elements: np.ndarray) -> np.ndarray:
        """Parameter j's elements ``elements`` (flattened) at ``steps``: (steps × elements)."""
        return element_matrix(self.store, self._refs[j, np.asarray(steps, np.int64)], elements)

    def value_at(self, j: int, k: int) -> Any:
        """Parameter j's full value at step k (``k == steps``: after the last); None if unknown."""
        r = int(self._refs[j, k])
        return self.store.value(r) if r >= 0 else None

    def _fit_data(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The leading steps' values and gradients, flattened (for the update-rule fit)."""
        if not self.parameters or not all(p.variable for p in self.parameters):
            return None
        m = min(self.steps, FIT_STEPS)
        values = np.zeros((m + 1, sum(p.size for p in self.parameters)))
        grads = np.zeros((m, values.shape[1]))
        for k in range(m + 1):
            col = 0
            for j, p in enumerate(self.parameters):
                v, g = self.value_at(j, k), None
                if k < m and self._grad_refs[k, j] >= 0:
                    g = self.store.value(int(self._grad_refs[k, j]))
                if summarised(v) is not None or summarised(g) is not None:
                    return None  # (a value the worker summarised: no rule read from it)
                values[k, col : col + p.size] = np.nan if v is None else np.ravel(v)
                if k < m and g is not None:
                    grads[k, col : col + p.size] = np.ravel(g)
                col += p.size
        return values, grads

    def __repr__(self) -> str:
        return (
            f"<Timeline {self.number}: {self.steps} steps from tape {self.loop.start + 1}, "
            f"{self.loop.period} per step>"
        )


def _dtype(store: Store, ref: int) -> str:
    if ref < 0:
        return "float32"
    value = store.value(int(ref))  # (a summarised value has its dtype, not its numbers)
    dtype = getattr(value, "dtype", None)
    return (np.asarray(value).dtype if dtype is None else np.dtype(dtype)).name


def timelines_of(result: Any) -> list[Timeline]:
    """The loops of a run (a RunResult, in-process or from the worker), one timeline each."""
    infos = result.tapes if isinstance(result.tapes, Sequence) else tuple(result.tapes)
    if len(infos) < MIN_STEPS:
        return []
    index = index_of(infos, result.namespace)
    mains: dict[tuple[int, int], int | None] = {}

    def usable(start: int, period: int) -> bool:
        mains[start, period] = main_offset(index, start, period)
        return mains[start, period] is not None

    marks = fit_columns(infos)
    fits = fit_loops(marks) if marks is not None else []
    codes = index.codes
    if fits:  # a fit's tapes make its loop, whatever their shapes: the scan skips them
        codes = codes.copy()
        for loop in fits:
            codes[loop.start : loop.stop] = -1 - np.arange(loop.start, loop.stop)
    loops = find_loops(codes, usable) + [f for f in fits if usable(f.start, f.period)]
    loops.sort(key=lambda loop: loop.start)
    return [
        Timeline(infos, loop, n, mains[loop.start, loop.period] or 0, index,  # type: ignore[arg-type]
                 epochs_of(marks, loop) if marks is not None and loop in fits else None,
                 loop_net(marks, loop) if marks is not None else None)
        for n, loop in enumerate(loops, 1)
    ]  # fmt: skip


def write_csv(timeline: Timeline, path: str | Path) -> Path:
    """The series as CSV: one row per step, and a last row with the values after the last step."""
    path = Path(path)
    params = timeline.parameters
    header = ["step", timeline.loss_name, "grad_norm", *(p.label for p in params)]
    digits = 9 if timeline.loss_dtype == "float32" else 17
    pdigits = [9 if p.dtype == "float32" else 17 for p in params]
    columns = [timeline.values(j) for j in range(len(params))]
    with path.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(header)
        for k in range(timeline.steps + 1):
            last = k == timeline.steps
            row: list[Any] = [k]
            row += ["", ""] if last else [f"{timeline.loss[k]:.{digits}g}",
                                          f"{timeline.grad_norm[k]:.9g}"]  # fmt: skip
            row += [f"{c[k]:.{d}g}" for c, d in zip(columns, pdigits, strict=True)]
            out.writerow(row)
    return path
