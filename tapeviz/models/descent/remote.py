"""The studio's computations in the worker process, and their results back as plain data.

A race evaluates the user's loss thousands of times, so it runs where user code runs: in a
worker (:mod:`tapeviz.sandbox.process`). The window sends the problem (text and table) and the
settings; the worker computes the histories and the backdrop and sends arrays back; the window
keeps only those. ``tape_at`` asks for the tape of one step, ``backdrop`` for a new slice.
The worker side registers as handlers (:func:`register`); each ``*_in_worker`` function below is
the window side.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tapeviz.models.descent import divergence as div
from tapeviz.models.descent.backdrop import Backdrop, sample_backdrop
from tapeviz.models.descent.messages import refusal_doc
from tapeviz.models.descent.optimizer_config import RunConfig
from tapeviz.models.descent.problem import SCRIPT_LIMITS, Loss, Problem, ProblemError
from tapeviz.models.descent.race_cache import RaceCache
from tapeviz.models.descent.runs import Cancelled, History, Race
from tapeviz.models.descent.surface import Grid
from tapeviz.sandbox import RunResult, VariableSpec
from tapeviz.sandbox.process import results, results_decode
from tapeviz.sandbox.process.client import HARD_KILL, POOL, Pool, WorkerFailure
from tapeviz.sandbox.process.isolated import failure_error, variables_doc
from tapeviz.sandbox.process.wire import Frame, ProtocolError, Writer, need, text
from tapeviz.sandbox.runtime.limits import Limits

RACE_TIMEOUT = 600.0  # seconds: a race of 200,000 steps is long; Stop ends it sooner
STEP_TIMEOUT = 30.0
CACHE = RaceCache()  # in the worker: the last problem's loss, histories and backdrops


# -- problems -------------------------------------------------------------------------------
def problem_doc(problem: Problem, writer: Writer) -> dict[str, Any]:
    """A problem as request data."""
    return {
        "source": problem.source,
        "mode": problem.mode,
        "variables": variables_doc(problem.variables, writer),
    }


def decode_problem(doc: Any, frame: Frame) -> Problem:
    """A problem from request data, checked."""
    rows = []
    for v in need(doc, "variables", list):
        value = frame.array(need(v, "value", dict))
        try:
            rows.append(
                VariableSpec(
                    text(v, "name", 200),
                    value[()] if value.ndim == 0 else value,
                    text(v, "kind", 20),
                    text(v, "dtype", 20),
                )
            )
        except ValueError as exc:
            raise ProtocolError(str(exc)) from None
    return Problem(text(doc, "source", 20_000_000), tuple(rows), text(doc, "mode", 20))


def _loss(problem: Problem) -> Loss:
    return CACHE.loss(problem)


# -- races ----------------------------------------------------------------------------------
def _history_doc(h: History, writer: Writer) -> dict[str, Any]:
    d = h.divergence
    return {
        "run": h.run.to_dict(),
        "names": list(h.names),
        "shapes": [list(s) for s in h.shapes],
        "loss": writer.array(h.loss),
        "params": writer.array(h.params),
        "grads": writer.array(h.grads),
        "divergence": None
        if d is None
        else {
            "step": d.step,
            "reason": d.reason,
            "advice": d.advice,
            "fields": dict(d.fields),
            "lam_max": d.lam_max,
            "quadratic": d.quadratic,
        },
    }


def _history(doc: Any, frame: Frame) -> History:
    try:
        run = RunConfig.from_dict(need(doc, "run", dict))
    except ValueError as exc:
        raise ProtocolError(str(exc)) from None
    names = tuple(text({"n": n}, "n", 200) for n in need(doc, "names", list))
    shapes = tuple(tuple(_dims(s)) for s in need(doc, "shapes", list))
    loss = frame.array(need(doc, "loss", dict), ndim=1)
    params = frame.array(need(doc, "params", dict), ndim=2)
    grads = frame.array(need(doc, "grads", dict), ndim=2)
    width = sum(math.prod(s) for s in shapes)
    if not (params.shape == grads.shape == (len(loss), width) and len(names) == width):
        raise ProtocolError("a history's arrays do not fit together")
    if len(loss) == 0:
        raise ProtocolError("an empty history")
    d = need(doc, "divergence", (dict, type(None)))
    found = None
    if d is not None:
        reason, advice = text(d, "reason", 40), text(d, "advice", 40, None)
        if reason not in div.REASONS or (advice is not None and advice not in div.ADVICE):
            raise ProtocolError("an unknown divergence reason")
        fields = {str(k)[:40]: str(v)[:200] for k, v in need(d, "fields", dict).items()}
        lam = need(d, "lam_max", (float, int, type(None)))
        found = div.Divergence(
            need(d, "step", int),
            reason,
            advice,
            fields,
            None if lam is None else float(lam),
            need(d, "quadratic", bool),
        )
    return History(run, names, shapes, loss, params, grads, found)


def _dims(value: Any) -> list[int]:
    if not isinstance(value, list) or len(value) > 32:
        raise ProtocolError("a bad shape")
    if not all(type(d) is int and 0 <= d < 2**31 for d in value):
        raise ProtocolError("a bad shape")
    return value


def _backdrop_doc(b: Backdrop, writer: Writer) -> dict[str, Any]:
    g = b.grid
    return {
        "kind": b.kind,
        "ex": b.ex,
        "ey": b.ey,
        "x_range": list(b.x_range),
        "y_range": list(b.y_range),
        "sliced": b.sliced,
        "at": [writer.array(np.asarray(v)) for v in b.at],
        "grid": None
        if g is None
        else {
            "xs": writer.array(g.xs),
            "ys": writer.array(g.ys),
            "z": writer.array(g.z),
            "levels": writer.array(g.levels),
            "log": g.log,
        },
        "contours": [[lv, writer.array(x), writer.array(y)] for lv, x, y in b.contours],
        "curve": None if b.curve is None else [writer.array(b.curve[0]), writer.array(b.curve[1])],
    }


def _range(doc: Any, key: str) -> tuple[float, float]:
    value = need(doc, key, list)
    if len(value) != 2 or not all(type(v) in (int, float) for v in value):
        raise ProtocolError(f"a bad {key}")
    return float(value[0]), float(value[1])


def _backdrop(doc: Any, frame: Frame) -> Backdrop:
    kind = text(doc, "kind", 20)
    if kind not in ("curve", "surface"):
        raise ProtocolError("an unknown backdrop kind")
    g = need(doc, "grid", (dict, type(None)))
    grid = None
    if g is not None:
        xs, ys = frame.array(g["xs"], ndim=1), frame.array(g["ys"], ndim=1)
        z = frame.array(g["z"], ndim=2)
        if z.shape != (len(ys), len(xs)):
            raise ProtocolError("a grid whose values do not fit its axes")
        grid = Grid(xs, ys, z, frame.array(g["levels"], ndim=1), need(g, "log", bool))
    contours = []
    for c in need(doc, "contours", list):
        if not (isinstance(c, list) and len(c) == 3 and type(c[0]) in (int, float)):
            raise ProtocolError("a bad contour")
        contours.append((float(c[0]), frame.array(c[1]), frame.array(c[2])))
    curve_doc = need(doc, "curve", (list, type(None)))
    curve = None
    if curve_doc is not None:
        if len(curve_doc) != 2:
            raise ProtocolError("a bad curve")
        curve = (frame.array(curve_doc[0], ndim=1), frame.array(curve_doc[1], ndim=1))
    at = tuple(a[()] if a.ndim == 0 else a for a in (frame.array(v) for v in need(doc, "at", list)))
    return Backdrop(
        kind,
        need(doc, "ex", int),
        need(doc, "ey", int),
        _range(doc, "x_range"),
        _range(doc, "y_range"),
        grid,
        contours,
        curve,
        need(doc, "sliced", bool),
        at,
    )


def _race_doc(race: Race, writer: Writer) -> dict[str, Any]:
    return {
        "runs": [_history_doc(h, writer) for h in race.runs],
        "steps": race.steps,
        "method": race.method,
        "elapsed": race.elapsed,
        "notes": [results.note_doc(n) for n in race.notes],
    }


def _race(doc: Any, frame: Frame, problem: Problem) -> Race:
    runs = [_history(h, frame) for h in need(doc, "runs", list)]
    if not runs:
        raise ProtocolError("a race without runs")
    said = (results_decode.decode_note(n) for n in need(doc, "notes", list)[:100])
    notes = tuple(n for n in said if n)  # (an unreadable note says nothing)
    race = Race(
        problem,
        runs,
        need(doc, "steps", int),
        text(doc, "method", 20),
        need(doc, "elapsed", float),
        notes,
    )
    race.tape_source = lambda values: tape_in_worker(problem, values)
    return race


# -- worker side ----------------------------------------------------------------------------
def _values(doc: Any, frame: Frame) -> list[Any]:
    return [
        a[()] if a.ndim == 0 else a for a in (frame.array(v) for v in need(doc, "values", list))
    ]


def _pair(doc: Any) -> tuple[str, str] | None:
    pair = doc.get("pair")
    if pair is None:
        return None
    if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)):
        raise ProtocolError("a bad slice pair")
    return pair[0][:200], pair[1][:200]


def _opt_range(doc: Any, key: str) -> tuple[float, float] | None:
    return None if doc.get(key) is None else _range(doc, key)


def race_handler(args: Any, frame: Frame, ctx: Any) -> tuple[Any, Writer]:
    """``race``: the runs not computed before (:data:`CACHE`) and the backdrop."""
    problem = decode_problem(need(args, "problem", dict), frame)
    writer = Writer()
    try:
        runs = [RunConfig.from_dict(r) for r in need(args, "runs", list)]
        race = CACHE.race(
            problem,
            runs,
            need(args, "steps", int),
            progress=lambda f: ctx.progress(0.9 * f),
            cancelled=ctx.cancelled,
        )
        at = _values(args, frame) if args.get("values") is not None else None
        backdrop = CACHE.backdrop(
            race, _opt_range(args, "x_range"), _opt_range(args, "y_range"), _pair(args), at
        )
    except Cancelled:
        return {"cancelled": True}, writer
    except ValueError as exc:  # a ProblemError among them
        return refusal_doc(exc), writer
    return {"race": _race_doc(race, writer), "backdrop": _backdrop_doc(backdrop, writer)}, writer


def backdrop_handler(args: Any, frame: Frame, ctx: Any) -> tuple[Any, Writer]:
    """``backdrop``: sample the curve or surface again (a slice at another point)."""
    problem = decode_problem(need(args, "problem", dict), frame)
    writer = Writer()
    try:
        b = sample_backdrop(
            _loss(problem),
            problem.start(),
            text(args, "kind", 20),
            need(args, "ex", int),
            need(args, "ey", int),
            _range(args, "x_range"),
            _range(args, "y_range"),
            _values(args, frame),
        )
    except ValueError as exc:  # a ProblemError among them
        return refusal_doc(exc), writer
    return {"backdrop": _backdrop_doc(b, writer)}, writer


def tape_handler(args: Any, frame: Frame, ctx: Any) -> tuple[Any, Writer]:
    """``tape_at``: the loss's tape at given parameter values, as the sandbox records it."""
    problem = decode_problem(need(args, "problem", dict), frame)
    writer = Writer()
    try:
        result = _loss(problem).result_at(_values(args, frame))
    except ValueError as exc:  # a ProblemError among them
        return refusal_doc(exc), writer
    return {"result": results.encode(result, writer)}, writer


def register(handlers: dict[str, Any]) -> None:
    """Add the studio's requests to a worker's handler table (answer_checks reads them)."""
    handlers["race"] = race_handler
    handlers["backdrop"] = backdrop_handler
    handlers["tape_at"] = tape_handler


# -- window side ----------------------------------------------------------------------------
def _answer(frame: Frame) -> Any:
    doc = frame.doc.get("result") if isinstance(frame.doc, dict) else None
    if not isinstance(doc, dict):
        raise ProtocolError("an answer without a result")
    if "problem" in doc:
        raise ProblemError.from_doc(doc)
    return doc


def _call(op: str, args: Any, writer: Writer, pool: Pool | None, **kw: Any) -> Frame:
    pool = pool or POOL
    pool.require("tapeviz.models.kernel")  # the module that registers these requests
    try:
        return pool.call(op, args, writer, affinity="descent", **kw)  # the worker's CACHE
    except WorkerFailure as exc:
        # the kernel ended a script loss's run at its own limit, or the window ended the request
        own = exc.reason == "time" and exc.message == HARD_KILL
        seconds = SCRIPT_LIMITS.wall_time if own else kw.get("timeout", 0)
        raise ProblemError.of(failure_error(exc, Limits(wall_time=seconds))) from None


def race_in_worker(
    problem: Problem,
    runs: Sequence[RunConfig],
    steps: int,
    *,
    x_range: tuple[float, float] | None = None,
    y_range: tuple[float, float] | None = None,
    pair: Sequence[str] | None = None,
    at: Sequence[Any] | None = None,
    progress: Callable[[float], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    pool: Pool | None = None,
) -> tuple[Race, Backdrop]:
    """Compute a race and its backdrop in a worker; Cancelled or ProblemError as locally."""
    writer = Writer()
    args = {
        "problem": problem_doc(problem, writer),
        "runs": [r.to_dict() for r in runs],
        "steps": int(steps),
        "x_range": None if x_range is None else list(x_range),
        "y_range": None if y_range is None else list(y_range),
        "pair": None if pair is None else list(pair),
        "values": None if at is None else [writer.array(np.asarray(v)) for v in at],
    }
    try:
        frame = _call(
            "race", args, writer, pool, timeout=RACE_TIMEOUT, cancelled=cancelled, progress=progress
        )
    except ProblemError as exc:
        if cancelled is not None and cancelled():
            raise Cancelled() from None
        raise exc from None
    doc = _answer(frame)
    if doc.get("cancelled") is True:
        raise Cancelled()
    return _race(need(doc, "race", dict), frame, problem), _backdrop(
        need(doc, "backdrop", dict), frame
    )


def backdrop_in_worker(
    race: Race, backdrop: Backdrop, at: Sequence[Any], pool: Pool | None = None
) -> Backdrop:
    """The same backdrop sampled through another point (a slice of more than two elements)."""
    writer = Writer()
    args = {
        "problem": problem_doc(race.problem, writer),
        "kind": backdrop.kind,
        "ex": backdrop.ex,
        "ey": backdrop.ey,
        "x_range": list(backdrop.x_range),
        "y_range": list(backdrop.y_range),
        "values": [writer.array(np.asarray(v)) for v in at],
    }
    frame = _call("backdrop", args, writer, pool, timeout=STEP_TIMEOUT)
    return _backdrop(need(_answer(frame), "backdrop", dict), frame)


def tape_in_worker(problem: Problem, values: Sequence[Any], pool: Pool | None = None) -> RunResult:
    """The loss's tape at ``values``, recorded in a worker (for the graph at a step)."""
    writer = Writer()
    args = {
        "problem": problem_doc(problem, writer),
        "values": [writer.array(np.asarray(v)) for v in values],
    }
    frame = _call("tape_at", args, writer, pool, timeout=STEP_TIMEOUT)
    doc = need(_answer(frame), "result", dict)
    return results_decode.decode(frame.part(doc))
