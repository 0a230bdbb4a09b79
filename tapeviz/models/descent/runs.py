"""Optimizer runs computed ahead into numpy histories; the studio only plays them back (no Qt).

``compute_race(problem, runs, steps)`` runs up to six optimizers from the same start on the
same loss and returns a :class:`Race` of :class:`History` objects: for every step k the
parameters x_k, the loss f(x_k) and the gradient ∇f(x_k) (before the update), the size of the
update ‖x_{k+1} − x_k‖ and ‖∇f(x_k)‖. Row ``steps`` is the point after the last update.

Three ways to get the same numbers, all with the engine's rules:

- ``eager``: a fresh GradientTape every step and ``optimizer.apply_gradients``, exactly the
  seed tutorial's loop (scripts that cannot be replayed always take this way);
- ``replay``: the loss traced once and its records replayed (:mod:`tapeviz.models.descent.replay`),
  then each optimizer's ``update`` (what ``apply_gradients`` calls), one run at a time;
- ``batched``: the replay with a run axis when the trace is scalar and elementwise.

The work goes in chunks: ``progress(fraction)`` after each, ``cancelled()`` checked before
each (it raises :class:`Cancelled`), so a worker thread can report and stop.
"""

from __future__ import annotations

import csv
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tapeviz.engine import diagnostics
from tapeviz.models.descent import divergence as div
from tapeviz.models.descent.messages import problem_error
from tapeviz.models.descent.optimizer_config import MAX_RUNS, RunConfig
from tapeviz.models.descent.problem import Loss, Problem
from tapeviz.models.descent.replay import Replay, ReplayError
from tapeviz.sandbox import RunResult
from tapeviz.sandbox.messages import Note, say

MAX_STEPS = 200_000
METHODS = ("auto", "eager", "replay", "batched")


class Cancelled(Exception):
    """The computation was cancelled (a newer one replaces it)."""


@dataclass
class History:
    """One run: per step the loss, the parameters, the gradient, update size and ‖gradient‖."""

    run: RunConfig
    names: tuple[str, ...]  # one per parameter element: "x", "w[0]", ...
    shapes: tuple[tuple[int, ...], ...]  # per trainable variable
    loss: np.ndarray  # (n + 1,)
    params: np.ndarray  # (n + 1, P): x_k
    grads: np.ndarray  # (n + 1, P): ∇f(x_k)
    update: np.ndarray = field(init=False)  # (n + 1,): ‖x_{k+1} − x_k‖ (nan at the end)
    grad_norm: np.ndarray = field(init=False)  # (n + 1,)
    divergence: div.Divergence | None = None

    def __post_init__(self) -> None:
        p64 = self.params.astype(np.float64)
        with np.errstate(all="ignore"):
            self.update = np.full(len(self.loss), np.nan)
            self.update[:-1] = np.sqrt(np.sum(np.diff(p64, axis=0) ** 2, axis=1))
            self.grad_norm = np.sqrt(np.sum(self.grads.astype(np.float64) ** 2, axis=1))

    @property
    def steps(self) -> int:
        """The last step recorded (fewer than asked if the run diverged)."""
        return len(self.loss) - 1

    @property
    def step(self) -> np.ndarray:
        """0, 1, …, steps."""
        return np.arange(len(self.loss))

    def param(self, name: str) -> np.ndarray:
        """The history of one parameter element by name."""
        return self.params[:, self.names.index(name)]

    def values_at(self, k: int) -> list[Any]:
        """The trainable variables' values at step k, shaped as in the table."""
        row = self.params[min(max(k, 0), self.steps)]
        out, i = [], 0
        for shape in self.shapes:
            n = int(np.prod(shape, dtype=np.int64))
            out.append(row[i : i + n].reshape(shape)[()])
            i += n
        return out


@dataclass
class Race:
    """Several runs on the same loss from the same start; what the studio plays back."""

    problem: Problem
    runs: list[History]
    steps: int  # steps asked for
    method: str  # how the histories were computed
    elapsed: float  # seconds
    notes: tuple[str, ...] = ()
    loss_fn: Loss | None = field(default=None, repr=False)
    # Where tapes come from when the loss lives in a worker process (see descent.remote).
    tape_source: Callable[[list[Any]], RunResult] | None = field(default=None, repr=False)

    @property
    def length(self) -> int:
        """The longest history's last step."""
        return max((h.steps for h in self.runs), default=0)

    def tape_at(self, run: int, k: int) -> RunResult:
        """The tape of step k of a run, as the sandbox records it (for the graph view)."""
        if self.loss_fn is None and self.tape_source is not None:
            return self.tape_source(self.runs[run].values_at(k))
        return tape_at(self.problem, self.runs[run], k, self.loss_fn)


def tape_at(problem: Problem, history: History, k: int, loss_fn: Loss | None = None) -> RunResult:
    """The sandbox's RunResult (tapes, gradients, names) of the loss at step k of ``history``."""
    return (loss_fn or problem.compile()).result_at(history.values_at(k))


def _labels(names: Sequence[str], shapes: Sequence[tuple[int, ...]]) -> tuple[str, ...]:
    out = []
    for name, shape in zip(names, shapes, strict=True):
        if not shape:
            out.append(name)
        else:
            out += [f"{name}[{','.join(map(str, i))}]" for i in np.ndindex(*shape)]
    return tuple(out)


def _flat(values: Sequence[Any]) -> np.ndarray:
    return np.concatenate([np.ravel(v) for v in values]) if values else np.zeros(0)


def _as_param(new: Any, old: Any) -> Any:
    """What ``apply_gradients`` stores: the variable's dtype, numpy scalars for 0-d."""
    if isinstance(new, np.ndarray) or type(new) is not type(old):
        arr = np.asarray(new, dtype=np.asarray(old).dtype)
        return arr[()] if arr.ndim == 0 else arr
    return new


class _Buffers:
    """Preallocated histories of R runs: loss (R, n+1), params and grads (R, n+1, P)."""

    def __init__(self, runs: int, steps: int, p: int, dtype: Any, loss_dtype: Any) -> None:
        self.loss = np.full((runs, steps + 1), np.nan, dtype=loss_dtype)
        self.params = np.full((runs, steps + 1, p), np.nan, dtype=dtype)
        self.grads = np.zeros((runs, steps + 1, p), dtype=dtype)
        self.end = [steps] * runs  # last row kept per run
        self.found: list[tuple[int, str, dict[str, Any]] | None] = [None] * runs

    def check(self, r: int, upto: int) -> bool:
        """Look for divergence in rows ≤ ``upto``; True once the run's history is complete."""
        last = self.loss.shape[1] - 1
        if self.found[r] is None:
            self.found[r] = div.detect(self.loss[r, : upto + 1], self.params[r, : upto + 1])
        found = self.found[r]
        if found is None:
            return upto >= last
        self.end[r], done = div.stop(self.params[r], found[0], upto, last)
        return done


def compute_race(
    problem: Problem,
    runs: Sequence[RunConfig],
    steps: int,
    *,
    progress: Callable[[float], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    method: str = "auto",
    loss_fn: Loss | None = None,
) -> Race:
    """Compute every run's history (see the module docstring); ProblemError if it cannot.

    ``loss_fn`` is ``problem``'s compiled loss when the caller keeps one (else compiled here).
    """
    started = time.perf_counter()
    if not 1 <= len(runs) <= MAX_RUNS:
        raise problem_error("race_runs", cap=MAX_RUNS, count=len(runs))
    if not 1 <= steps <= MAX_STEPS:
        raise problem_error("race_steps", cap=f"{MAX_STEPS:,}", steps=steps)
    if method not in METHODS:
        raise problem_error("race_method", methods=", ".join(METHODS))
    loss_fn = loss_fn or problem.compile()
    start = problem.start()
    trace = loss_fn.trace(start)
    if all(g is None for g in trace.grads):
        raise problem_error("loss_independent")
    notes: list[str] = []
    for name, g in zip(loss_fn.names, trace.grads, strict=True):
        if g is None:
            notes.append(Note(say("note_no_gradient", name=name)))
    replay, method = _choose(loss_fn, trace, method, len(runs), notes)
    shapes = tuple(tuple(np.shape(v)) for v in start)
    dtypes = {np.asarray(v).dtype for v in start}
    dtype = dtypes.pop() if len(dtypes) == 1 else np.dtype(np.float64)
    buf = _Buffers(len(runs), steps, len(_flat(start)), dtype, np.asarray(trace.loss).dtype)
    tick = _Ticker(progress, cancelled, len(runs) * (steps + 1))
    with np.errstate(all="ignore"), diagnostics.collect(lambda _: None):
        if method == "batched":
            assert replay is not None
            _run_batched(replay, runs, start, buf, tick)
        else:
            for r, cfg in enumerate(runs):
                _run_one(loss_fn, replay, cfg, start, buf, r, tick)
    lam, quadratic = None, False
    histories = []
    for r, cfg in enumerate(runs):
        end = buf.end[r] if buf.found[r] is not None else steps
        names = _labels(loss_fn.names, shapes)
        found, d = buf.found[r], None
        if found is not None:
            if lam is None:
                lam, quadratic = div.curvature(loss_fn.hessian, start)
            d = div.explain(found, cfg.optimizer, names, buf.loss[r, 0], lam, quadratic)
        histories.append(
            History(
                cfg,
                names,
                shapes,
                buf.loss[r, : end + 1],
                buf.params[r, : end + 1],
                buf.grads[r, : end + 1],
                d,
            )
        )
    if progress is not None:
        progress(1.0)
    return Race(
        problem, histories, steps, method, time.perf_counter() - started, tuple(notes), loss_fn
    )


def _choose(
    loss_fn: Loss, trace: Any, method: str, runs: int, notes: list[str]
) -> tuple[Replay | None, str]:
    if method == "eager":
        return None, "eager"
    refusal = loss_fn.replay_refusal
    replay: Replay | None = None
    if refusal is None:
        try:
            replay = Replay(trace)
            refusal = replay.verify()
        except ReplayError as exc:
            refusal = str(exc)
    if refusal is not None:
        if method != "auto":
            raise problem_error("replay_refused", why=refusal)
        notes.append(Note(say("note_retraced", why=refusal)))
        return None, "eager"
    assert replay is not None
    if method == "batched" and not replay.batchable:
        raise problem_error("replay_axis")
    if method == "auto":
        method = "batched" if replay.batchable and runs > 1 else "replay"
    return replay, method


class _Ticker:
    """Progress and cancellation between chunks."""

    def __init__(
        self,
        progress: Callable[[float], None] | None,
        cancelled: Callable[[], bool] | None,
        total: int,
    ) -> None:
        self.progress, self.cancelled, self.total, self.done = progress, cancelled, total, 0
        self.last = time.perf_counter()

    def __call__(self, steps: int) -> None:
        self.done += steps
        if self.cancelled is not None and self.cancelled():
            raise Cancelled
        now = time.perf_counter()
        if self.progress is not None and now - self.last > 0.05:
            self.last = now
            self.progress(min(self.done / self.total, 1.0))


def _run_batched(
    replay: Replay, runs: Sequence[RunConfig], start: Sequence[Any], buf: _Buffers, tick: _Ticker
) -> None:
    """All runs at once: the replay with a run axis, then each optimizer's update."""
    n_runs, last = len(runs), buf.loss.shape[1] - 1
    x = np.array([[np.asarray(v) for v in start]] * n_runs, dtype=buf.params.dtype)  # (R, P)
    opts = [cfg.optimizer.build() for cfg in runs]
    connected = [g is not None for g in replay.trace.grads]
    cols = np.flatnonzero(connected)
    every = len(cols) == len(connected)
    states = [opt.init_state(x[0, cols]) for opt in opts]
    active = list(range(n_runs))
    columns = [x[:, p] for p in range(x.shape[1])]  # views: x is updated in place
    batch, zero = replay.batch_unchecked, np.zeros(n_runs, x.dtype)
    chunk = 512
    for k0 in range(0, last + 1, chunk):
        tick(0)
        k1 = min(k0 + chunk, last + 1)
        for k in range(k0, k1):
            loss, grads = batch(columns)
            buf.loss[:, k] = loss
            buf.params[:, k] = x
            g = buf.grads[:, k]
            for p, gp in enumerate(grads):
                g[:, p] = zero if gp is None else gp
            if k == last:
                break
            for r in active:
                if every:
                    x[r] = opts[r].update(x[r], g[r], states[r], k)
                else:
                    x[r, cols] = opts[r].update(x[r, cols], g[r, cols], states[r], k)
        tick((k1 - k0) * len(active))
        active = [r for r in active if not buf.check(r, k1 - 1)]
        if not active:
            return


def _run_one(
    loss_fn: Loss,
    replay: Replay | None,
    cfg: RunConfig,
    start: Sequence[Any],
    buf: _Buffers,
    r: int,
    tick: _Ticker,
) -> None:
    """One run: replayed (if possible) or a fresh tape per step, with the engine's update."""
    last = buf.loss.shape[1] - 1
    opt = cfg.optimizer.build()
    variables = loss_fn.variables(start) if replay is None else None
    values = list(start)
    states = [opt.init_state(v) for v in values]
    scalars = all(np.ndim(v) == 0 for v in values)
    chunk = 512 if replay is not None else 16
    for k0 in range(0, last + 1, chunk):
        tick(0)
        k1 = min(k0 + chunk, last + 1)
        for k in range(k0, k1):
            if replay is not None:
                loss, grads = replay(values)
            else:
                assert variables is not None
                t_loss, t_grads, _ = loss_fn.gradient(variables)
                loss = t_loss._value
                grads = [None if g is None else g._value for g in t_grads]
                values = [v._value for v in variables]
            buf.loss[r, k] = loss
            if scalars:
                buf.params[r, k] = values
                buf.grads[r, k] = [0 if g is None else g for g in grads]
            else:
                buf.params[r, k] = _flat(values)
                buf.grads[r, k] = _flat(
                    [
                        np.zeros_like(v) if g is None else g
                        for g, v in zip(grads, values, strict=True)
                    ]
                )
            if k == last:
                break
            if variables is not None:
                opt.apply_gradients(zip(t_grads, variables, strict=True))
                continue
            for i, g in enumerate(grads):
                if g is not None:
                    values[i] = _as_param(opt.update(values[i], g, states[i], k), values[i])
        tick(k1 - k0)
        if buf.check(r, k1 - 1):
            return


def write_csv(race: Race, path: str | Path) -> Path:
    """The histories as CSV: one row per run and step (float32 values keep 9 digits)."""
    path = Path(path)
    names = race.runs[0].names if race.runs else ()
    header = [
        "run",
        "optimizer",
        "step",
        "loss",
        *names,
        *(f"grad_{n}" for n in names),
        "update_size",
        "grad_norm",
    ]
    with path.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(header)
        for i, h in enumerate(race.runs, 1):
            fmt = _formatter(h.params.dtype)
            lfmt = _formatter(h.loss.dtype)
            for k in range(h.steps + 1):
                out.writerow(
                    [i, h.run.title, k, lfmt(h.loss[k])]
                    + [fmt(v) for v in h.params[k]]
                    + [fmt(v) for v in h.grads[k]]
                    + [f"{h.update[k]:.17g}", f"{h.grad_norm[k]:.17g}"]
                )
    return path


def _formatter(dtype: np.dtype) -> Callable[[Any], str]:
    digits = 9 if dtype == np.float32 else 17
    return lambda v: f"{float(v):.{digits}g}"
