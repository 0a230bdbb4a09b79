"""Trace-replay: record the loss once on a tape, then re-run its records with the engine's rules.

A :class:`Trace` is one eager evaluation of a loss and its gradient (a GradientTape's records).
:class:`Replay` compiles it into a flat program: the forward ops that depend on the parameters
(the others are constants and keep their recorded values) run through ``IMPL``, and the
backward pass repeats :class:`tapeviz.engine.backward.BackwardPass` (same records, same order,
same ``VJP`` rules, same accumulation) on the replayed values. Same rules, same inputs: the
same numbers as a fresh tape, bit for bit, without the tape's bookkeeping.

When every value on the trace is a scalar and every op is elementwise, several runs replay at
once with a leading run axis (``Replay.batch``). Numpy computes ``pow``, ``floordiv`` and
``mod`` of numpy scalars with its own scalar C code, which can differ from the array ufunc in
the last bit; those ops run on object arrays of numpy scalars in the batched replay, so each
element takes exactly the eager path's scalar route.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tapeviz.engine import primitives as P
from tapeviz.engine.backward import relevant_records
from tapeviz.engine.core import OpRecord
from tapeviz.engine.impl_rules import IMPL
from tapeviz.engine.vjp_rules import rule_for
from tapeviz.models.descent.messages import DIFFERS, REFUSALS

ELEMENTWISE = frozenset(
    {
        P.add_p,
        P.subtract_p,
        P.multiply_p,
        P.divide_p,
        P.divide_no_nan_p,
        P.floordiv_p,
        P.mod_p,
        P.negative_p,
        P.pow_p,
        P.square_p,
        P.sqrt_p,
        P.rsqrt_p,
        P.reciprocal_p,
        P.exp_p,
        P.log_p,
        P.log1p_p,
        P.expm1_p,
        P.sin_p,
        P.cos_p,
        P.tan_p,
        P.tanh_p,
        P.sigmoid_p,
        P.softplus_p,
        P.relu_p,
        P.leaky_relu_p,
        P.abs_p,
        P.sign_p,
        P.floor_p,
        P.round_p,
        P.maximum_p,
        P.minimum_p,
        P.clip_by_value_p,
        P.where_p,
        P.less_p,
        P.less_equal_p,
        P.greater_p,
        P.greater_equal_p,
        P.equal_p,
        P.not_equal_p,
        P.logical_and_p,
        P.logical_or_p,
        P.logical_not_p,
        P.identity_p,
        P.stop_gradient_p,
        P.cast_p,
    }
)
# numpy scalars compute these with scalarmath.c, arrays with the ufunc loop (may differ by 1 ulp).
SCALAR_MATH = frozenset({P.pow_p, P.floordiv_p, P.mod_p})


@dataclass(frozen=True)
class Trace:
    """One recorded evaluation: the tape's records, the parameters (ids, values) and the loss."""

    records: tuple[OpRecord, ...]
    param_ids: tuple[int, ...]
    params: tuple[Any, ...]  # the parameter values the trace was recorded at
    loss_id: int
    loss: Any  # the loss value the tape computed
    grads: tuple[Any, ...]  # the tape's gradient per parameter (None: not connected)


def _freeze(out: Any) -> Any:
    """What ``bind`` does to an op's result: 0-d arrays become numpy scalars."""
    if type(out) is np.ndarray:
        return out[()] if out.ndim == 0 else out
    return out if isinstance(out, np.generic) else np.asarray(out)


def _ones_like(value: Any) -> Any:
    """The backward pass's seed: what ``numeric.ones_like`` gives for a raw value."""
    return value.dtype.type(1) if isinstance(value, np.generic) else np.ones_like(value)


def _objects(value: Any) -> Any:
    """A run-axis array as an object array of numpy scalars (the scalar-math route)."""
    if type(value) is not np.ndarray or value.dtype == object:
        return value
    return np.array(list(value), dtype=object)


def _from_objects(value: Any, dtype: np.dtype) -> Any:
    return value.astype(dtype) if type(value) is np.ndarray and value.dtype == object else value


def _loop(fn: Callable[..., Any], args: Sequence[Any], params: dict[str, Any], dtype: Any) -> Any:
    """``fn`` run once per run on numpy scalars (for rules the object route cannot take)."""
    n = next(len(a) for a in args if type(a) is np.ndarray)
    out = [fn(*[a[r] if type(a) is np.ndarray else a for a in args], **params) for r in range(n)]
    return np.array(out, dtype=dtype)


@dataclass(frozen=True)
class Forward:
    """One replayed forward op: ``vals[out] = fn(*vals[args], **params)``."""

    prim: P.Primitive
    fn: Callable[..., Any]
    args: tuple[int, ...]
    out: int
    params: dict[str, Any]
    route: str  # batched replay: "array", "objects" (scalar math) or "loop" (one run at a time)
    dtype: np.dtype


@dataclass(frozen=True)
class _Backward:
    out: int
    args: tuple[int, ...]
    paths: tuple[tuple[int, Callable[..., Any]], ...]  # (input slot, rule) in input order
    params: dict[str, Any]
    route: str


class ReplayError(ValueError):
    """The trace cannot be replayed (the caller falls back to a fresh tape per step)."""


class Replay:
    """A trace compiled to a flat program; call it with parameter values for loss and grads."""

    def __init__(self, trace: Trace) -> None:
        self.trace = trace
        slots: dict[int, int] = {pid: i for i, pid in enumerate(trace.param_ids)}
        self.n_params = len(trace.param_ids)
        consts: dict[int, Any] = {}
        live: set[int] = set(trace.param_ids)
        forward: list[Forward] = []
        routes: dict[int, str] = {}
        records = list(trace.records)
        scalar_only = True
        for rec in records:
            if not any(x.id in live for x in rec.inputs):
                continue
            for x in rec.inputs:
                if x.id not in slots:
                    slots[x.id] = len(slots)
                    consts[slots[x.id]] = x._value
            out = rec.outputs[0]
            slots[out.id] = len(slots)
            live.add(out.id)
            values = [x._value for x in rec.inputs] + [out._value]
            scalar_only &= rec.primitive in ELEMENTWISE and all(np.ndim(v) == 0 for v in values)
            routes[out.id] = _route(rec, live)
            forward.append(
                Forward(
                    rec.primitive,
                    IMPL[rec.primitive],
                    tuple(slots[x.id] for x in rec.inputs),
                    slots[out.id],
                    dict(rec.params),
                    routes[out.id],
                    np.asarray(out._value).dtype,
                )
            )
        if trace.loss_id not in live:
            raise ReplayError(REFUSALS["independent"])
        self.loss_slot = slots[trace.loss_id]
        steps, reach = relevant_records(records, list(trace.param_ids))
        backward = []
        for rec in reversed(steps):
            paths = []
            for i, x in enumerate(rec.inputs):
                rule = rule_for(rec.primitive, i) if x.id in reach else None
                if rule is not None:
                    paths.append((slots[x.id], rule))
            backward.append(
                _Backward(
                    slots[rec.outputs[0].id],
                    tuple(slots[x.id] for x in rec.inputs),
                    tuple(paths),
                    dict(rec.params),
                    routes[rec.outputs[0].id],
                )
            )
        self.forward, self.backward = forward, backward
        self.size = len(slots)
        self._template: list[Any] = [consts.get(k) for k in range(self.size)]
        self._ones: dict[tuple[int, ...], np.ndarray] = {}
        self.param_dtypes = [np.asarray(v).dtype for v in trace.params]
        self.batchable = scalar_only and all(np.ndim(v) == 0 for v in trace.params)

    def slots(self, params: Sequence[Any]) -> list[Any]:
        """The value table before the forward ops run: parameters first, then constants."""
        vals = self._template.copy()
        vals[: self.n_params] = params
        return vals

    def __call__(self, params: Sequence[Any]) -> tuple[Any, list[Any]]:
        """Loss and gradients (None where not connected) of one run: exactly a fresh tape's."""
        vals = self.slots(params)
        with np.errstate(all="ignore"):
            for op in self.forward:
                a = op.args
                if len(a) == 2:
                    out = op.fn(vals[a[0]], vals[a[1]], **op.params)
                elif len(a) == 1:
                    out = op.fn(vals[a[0]], **op.params)
                else:
                    out = op.fn(*[vals[s] for s in a], **op.params)
                vals[op.out] = _freeze(out)
            adj: list[Any] = [None] * self.size
            loss = vals[self.loss_slot]
            adj[self.loss_slot] = _ones_like(loss)
            for st in self.backward:
                g = adj[st.out]
                if g is None:
                    continue
                ans = vals[st.out]
                args = [vals[s] for s in st.args]
                for slot, rule in st.paths:
                    c = rule(g, ans, *args, **st.params)
                    if c is None:
                        continue
                    before = adj[slot]
                    adj[slot] = c if before is None else before + c
        return loss, [self._as_grad(adj[i], i) for i in range(self.n_params)]

    def value(self, params: Sequence[Any]) -> Any:
        """The loss alone (forward ops only) for one run."""
        vals = self.slots(params)
        with np.errstate(all="ignore"):
            for op in self.forward:
                vals[op.out] = _freeze(op.fn(*[vals[s] for s in op.args], **op.params))
        return vals[self.loss_slot]

    def _as_grad(self, value: Any, i: int) -> Any:
        """What ``as_tensor_result`` makes of an adjoint: the parameter's dtype."""
        if value is None:
            return None
        dtype = self.param_dtypes[i]
        if isinstance(value, np.generic) and value.dtype == dtype:
            return value
        return _freeze(np.asarray(value, dtype=dtype))

    def batch(self, params: Sequence[np.ndarray]) -> tuple[np.ndarray, list[np.ndarray | None]]:
        """Loss and gradients of R runs at once: each parameter is an (R,) array of scalars."""
        if not self.batchable:
            raise ReplayError(REFUSALS["axis"])
        with np.errstate(all="ignore"):
            return self.batch_unchecked(params)

    def batch_unchecked(
        self, params: Sequence[np.ndarray]
    ) -> tuple[np.ndarray, list[np.ndarray | None]]:
        """:meth:`batch` for hot loops: the caller checked ``batchable`` and set np.errstate."""
        vals = self.slots(params)
        objs: dict[int, Any] = {}  # slot -> object array of numpy scalars (scalar-math ops)
        for op in self.forward:
            a = op.args
            if op.route == "array":
                if len(a) == 2:
                    out = op.fn(vals[a[0]], vals[a[1]], **op.params)
                else:
                    out = op.fn(*[vals[s] for s in a], **op.params)
            elif op.route == "objects":
                for s in a:
                    if s not in objs:
                        objs[s] = _objects(vals[s])
                res = op.fn(*[objs[s] for s in a], **op.params)
                objs[op.out] = res
                out = res.astype(op.dtype)
            else:
                out = _loop(op.fn, [vals[s] for s in a], op.params, op.dtype)
            vals[op.out] = out
        loss = vals[self.loss_slot]
        adj: list[Any] = [None] * self.size
        seed = self._ones.get(loss.shape)
        if seed is None or seed.dtype != loss.dtype:
            seed = self._ones[loss.shape] = np.ones_like(loss)  # adjoints are never mutated
        adj[self.loss_slot] = seed
        for st in self.backward:
            g = adj[st.out]
            if g is None:
                continue
            dtype = g.dtype
            if st.route == "objects":  # ḡ stays an array: the rules only multiply by it
                ans, args = objs[st.out], [objs[s] for s in st.args]
            else:
                ans, args = vals[st.out], [vals[s] for s in st.args]
            for slot, rule in st.paths:
                if st.route == "array":
                    c = rule(g, ans, *args, **st.params)
                elif st.route == "objects":
                    c = _from_objects(rule(g, ans, *args, **st.params), dtype)
                else:
                    c = _loop(rule, [g, ans, *args], st.params, dtype)
                if c is None:
                    continue
                before = adj[slot]
                adj[slot] = c if before is None else before + c
        grads = [
            None if adj[i] is None else np.asarray(adj[i], dtype=self.param_dtypes[i])
            for i in range(self.n_params)
        ]
        return loss, grads

    def verify(self) -> str | None:
        """Replay the trace's own start; None if every value matches the tape bit for bit."""
        start = list(self.trace.params)
        loss, grads = self(start)
        reasons = []
        if not _same(loss, self.trace.loss):
            reasons.append(DIFFERS["loss"])
        for g, want in zip(grads, self.trace.grads, strict=True):
            if (g is None) != (want is None) or (g is not None and not _same(g, want)):
                reasons.append(DIFFERS["gradient"])
        if self.batchable:
            cols = [np.array([v, v], dtype=np.asarray(v).dtype) for v in start]
            bloss, bgrads = self.batch(cols)
            if not _same(bloss[0], loss) or any(
                (g is not None) and not _same(b[0], g) for b, g in zip(bgrads, grads, strict=True)
            ):
                reasons.append(DIFFERS["batched"])
        return REFUSALS["differ"].format(what=reasons[0]) if reasons else None  # (the first)


def _route(rec: OpRecord, live: set[int]) -> str:
    """How the batched replay runs an op: plain arrays unless numpy's scalar math differs."""
    if rec.primitive not in SCALAR_MATH:
        return "array"
    # the pow rule for a live exponent takes logs, which object arrays do not support
    exponent_live = rec.primitive is P.pow_p and rec.inputs[1].id in live
    return "loop" if exponent_live else "objects"


def _same(a: Any, b: Any) -> bool:
    """Bitwise equality of two numeric values (nan equals nan)."""
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and bool(np.array_equal(a, b, equal_nan=True))
