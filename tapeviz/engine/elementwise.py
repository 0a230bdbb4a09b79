"""The fast path of elementwise ops: float operands of one dtype, without broadcasting.

A seed script, a micrograd-style chain and every optimizer step use float tensors of one
dtype, scalars or arrays of one shape. For those operands the result is no larger than an operand
(no size check), its dtype is the operands' dtype, float maths raises nothing (it warns), and a
Python number only needs converting to that dtype. Everything else (broadcasting, mixed dtypes,
integers, big arrays, errors) goes to :func:`tapeviz.engine.core.bind`, the one general path.
Both record the same op: the general path an :class:`~tapeviz.engine.core.OpRecord`, this
one the same fields as columns, which become that record when something reads it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numpy import ndarray

from tapeviz.engine import tensor as _tensor
from tapeviz.engine.core import (
    NUMBERS,
    STATE,
    bind,
    number,
    read_variable,
    record,
)
from tapeviz.engine.dtypes import DType
from tapeviz.engine.guard import GUARD
from tapeviz.engine.impl_rules import IMPL
from tapeviz.engine.primitives import Primitive
from tapeviz.engine.tensor import Tensor, Variable

# Tensors are made inline as ``t = _new(Tensor)`` and four slot stores, which is what
# ``Tensor(value, dtype)`` does without its Python-level ``__init__`` call; the id still comes from
# the tensor module's counter, read when the tensor is made (the sandbox server replaces it).
_new = object.__new__


def _constant(v: float, dt: Any) -> Tensor:
    """A Python number's constant tensor in ``dt`` (the cached scalar when there is one)."""
    c = NUMBERS[dt].get(v) if v else None
    if c is None:
        c = number(v, dt)
    t = _new(Tensor)
    t._value = c
    t.dtype = dt
    t.id = next(_tensor._ids)
    t.name = None
    return t


_BIG = 1_000_000  # results this large go through bind(): check_elements() calls checkpoint()


def _small(size: int) -> bool:
    """Whether a result of ``size`` elements is below every size check bind() would make."""
    limit = GUARD.max_elements
    return size < _BIG and (limit is None or size <= limit)


def _same_or_bias(vx: ndarray, vy: ndarray) -> bool:
    """Whether ``vx ∘ vy`` has ``vx``'s shape: same shapes, or a row ``(k,)`` on ``(n, k)``."""
    sx, sy = vx.shape, vy.shape
    return sx == sy or (len(sy) == 1 and len(sx) == 2 and sx[1] == sy[0])


def _array_result(out: Any, dt: DType) -> Any:
    """An elementwise op's array result made read-only, or None if bind() must handle it."""
    if type(out) is not ndarray or out.dtype is not dt.np:
        return None
    out.setflags(write=False)
    return out


def _named(op: Callable[..., Tensor], name: str, doc: str) -> Callable[..., Tensor]:
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    op.__module__ = "tapeviz.engine.ops"
    return op


def binary(prim: Primitive, name: str, doc: str) -> Callable[..., Tensor]:
    """The user-facing function ``name(x, y)`` of a two-operand elementwise primitive."""
    impl = IMPL[prim]

    def op(x: Any, y: Any, name: str | None = None) -> Tensor:
        tx, ty = type(x), type(y)
        if tx is Variable:
            x, tx = read_variable(x), Tensor
        if ty is Variable:
            y, ty = read_variable(y), Tensor
        if tx is Tensor:
            dt = x.dtype
            if not dt.is_floating:
                return bind(prim, x, y)
            if ty is not Tensor:
                if ty is not float and ty is not int:
                    return bind(prim, x, y)
                y = _constant(y, dt)
            elif y.dtype is not dt:
                return bind(prim, x, y)
        elif ty is Tensor and (tx is float or tx is int) and y.dtype.is_floating:
            dt = y.dtype
            x = _constant(x, dt)
        else:
            return bind(prim, x, y)
        vx, vy = x._value, y._value
        scalar, kx, ky = dt.scalar, type(vx), type(vy)
        if kx is scalar and ky is scalar:
            out = impl(vx, vy)
            if type(out) is not scalar:
                return bind(prim, x, y)
        elif (
            (kx is ndarray and (ky is scalar or (ky is ndarray and _same_or_bias(vx, vy))))
            or (kx is scalar and ky is ndarray)
        ) and _small(vx.size if kx is ndarray else vy.size):  # the result is x's shape
            out = _array_result(impl(vx, vy), dt)
            if out is None:
                return bind(prim, x, y)
        else:
            return bind(prim, x, y)
        t = _new(Tensor)
        t._value = out
        t.dtype = dt
        t.id = next(_tensor._ids)
        t.name = None
        active = STATE.active
        if active:
            if len(active) == 1:  # one tape records: record()'s work inline, as columns
                r = active[0]
                tracked = r._tracked
                watched = x.id in tracked or y.id in tracked
                if watched:
                    tracked[t.id] = None
                r._pending += (prim, x, y, t, watched, r._scope)  # (columns: core.Recorder)
            else:
                record(active, prim, (x, y), t)
        return t

    return _named(op, name, doc)


def unary(prim: Primitive, name: str, doc: str) -> Callable[..., Tensor]:
    """The user-facing function ``name(x)`` of a one-operand elementwise primitive."""
    impl = IMPL[prim]

    def op(x: Any, name: str | None = None) -> Tensor:
        tx = type(x)
        if tx is Variable:
            x, tx = read_variable(x), Tensor
        if tx is not Tensor or not x.dtype.is_floating:
            return bind(prim, x)
        dt = x.dtype
        v = x._value
        scalar, kind = dt.scalar, type(v)
        if kind is scalar:
            out = impl(v)
            if type(out) is not scalar:
                return bind(prim, x)
        elif kind is ndarray and _small(v.size):
            out = _array_result(impl(v), dt)
            if out is None:
                return bind(prim, x)
        else:
            return bind(prim, x)
        t = _new(Tensor)
        t._value = out
        t.dtype = dt
        t.id = next(_tensor._ids)
        t.name = None
        active = STATE.active
        if active:
            if len(active) == 1:  # one tape records: record()'s work inline, as columns
                r = active[0]
                tracked = r._tracked
                watched = x.id in tracked
                if watched:
                    tracked[t.id] = None
                r._pending += (prim, x, None, t, watched, r._scope)
            else:
                record(active, prim, (x,), t)
        return t

    return _named(op, name, doc)
