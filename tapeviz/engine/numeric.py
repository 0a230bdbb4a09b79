"""The few functions VJP rules call, on raw numpy values or on Tensors.

A gradient taken while no tape records runs its rules on plain numpy values (fast). A gradient
taken inside another tape runs the same rules on Tensors, so every op of the gradient is recorded
and can itself be differentiated (higher-order derivatives). Operators (``g * y``) work on both.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.engine import ops
from tapeviz.engine.tensor import TensorLike


def shape(x: Any) -> tuple[int, ...]:
    """Shape of a raw value or tensor."""
    return np.shape(x._value) if isinstance(x, TensorLike) else np.shape(x)


def is_float(x: Any) -> bool:
    """Whether the value has a floating dtype."""
    return x.dtype.is_floating if isinstance(x, TensorLike) else np.asarray(x).dtype.kind == "f"


def _unary(np_fn: Any, op_fn: Any) -> Any:
    def fn(x: Any) -> Any:
        return op_fn(x) if isinstance(x, TensorLike) else np_fn(x)

    fn.__name__ = op_fn.__name__
    return fn


cos = _unary(np.cos, ops.cos)
sin = _unary(np.sin, ops.sin)
sign = _unary(np.sign, ops.sign)
log = _unary(np.log, ops.log)
exp = _unary(np.exp, ops.exp)
reciprocal = _unary(np.reciprocal, ops.reciprocal)


def sigmoid(x: Any) -> Any:
    """Logistic sigmoid."""
    if isinstance(x, TensorLike):
        return ops.sigmoid(x)
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e))


_ZEROS: dict[np.dtype, Any] = {}
_ONES: dict[np.dtype, Any] = {}


def zeros_like(x: Any) -> Any:
    """Zeros shaped like ``x`` (not recorded: a constant)."""
    if isinstance(x, np.generic):
        z = _ZEROS.get(x.dtype)
        if z is None:
            z = _ZEROS[x.dtype] = x.dtype.type(0)
        return z
    return ops.zeros_like(x) if isinstance(x, TensorLike) else np.zeros_like(x)


def ones_like(x: Any) -> Any:
    """Ones shaped like ``x``."""
    if isinstance(x, np.generic):
        o = _ONES.get(x.dtype)
        if o is None:
            o = _ONES[x.dtype] = x.dtype.type(1)
        return o
    return ops.ones_like(x) if isinstance(x, TensorLike) else np.ones_like(x)


_ONES_0D: dict[Any, np.ndarray] = {}


def one_minus(x: Any) -> Any:
    """``1 - x``; for arrays with a 0-d one of their dtype (numpy converts a Python 1 slowly)."""
    if type(x) is np.ndarray:
        one = _ONES_0D.get(x.dtype)
        if one is None:
            one = _ONES_0D[x.dtype] = np.ones((), x.dtype)
            one.setflags(write=False)
        return one - x
    return 1 - x


def mask(g: Any, m: Any) -> Any:
    """``g`` times a boolean mask (``g · 1[m]``; nan stays nan, as in TF's ReluGrad)."""
    if isinstance(g, TensorLike):
        return g * ops.cast(m, g.dtype)
    return g * m


def _any_tensor(x: Any, y: Any, c: Any = None) -> bool:
    return isinstance(x, TensorLike) or isinstance(y, TensorLike) or isinstance(c, TensorLike)


def where(c: Any, x: Any, y: Any) -> Any:
    """Select ``x`` where ``c`` else ``y`` (rules only pass same-shaped ``x`` and ``y``)."""
    if type(c) is np.bool_:
        return x if c else y
    return ops.where(c, x, y) if _any_tensor(c, x, y) else np.where(c, x, y)


def equal(x: Any, y: Any) -> Any:
    """Elementwise equality."""
    return ops.equal(x, y) if _any_tensor(x, y) else np.equal(x, y)


def divide_no_nan(x: Any, y: Any) -> Any:
    """``x / y`` with 0 where ``y`` is 0."""
    if _any_tensor(x, y):
        return ops.divide_no_nan(x, y)
    safe = np.where(y == 0, np.ones_like(y), y)
    return np.where(y == 0, np.zeros_like(x * y), x / safe)


def floordiv(x: Any, y: Any) -> Any:
    """Floor division."""
    return ops.floordiv(x, y) if _any_tensor(x, y) else x // y


def pow(x: Any, y: Any) -> Any:
    """``x ** y``."""
    return ops.pow(x, y) if _any_tensor(x, y) else x**y


def cast_like(g: Any, x: Any) -> Any:
    """Cast ``g`` to the dtype of ``x``."""
    if isinstance(g, TensorLike):
        return ops.cast(g, x.dtype)
    return np.asarray(g).astype(np.asarray(x).dtype)[()]


def reduce_sum(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """Sum over axes."""
    if isinstance(x, TensorLike):
        return ops.reduce_sum(x, axis=axis, keepdims=keepdims)
    arr = np.asarray(x)
    return np.add.reduce(arr, axis=axis, keepdims=keepdims, dtype=arr.dtype)


def reshape(x: Any, shape: tuple[int, ...]) -> Any:
    """Reshape."""
    return ops.reshape(x, shape) if isinstance(x, TensorLike) else np.reshape(x, shape)


def broadcast_to(x: Any, shape: tuple[int, ...]) -> Any:
    """Broadcast to a shape."""
    return ops.broadcast_to(x, shape) if isinstance(x, TensorLike) else np.broadcast_to(x, shape)


def transpose(x: Any, perm: tuple[int, ...] | None) -> Any:
    """Permute dimensions."""
    return ops.transpose(x, perm) if isinstance(x, TensorLike) else np.transpose(x, perm)


def matmul(a: Any, b: Any, transpose_a: bool = False, transpose_b: bool = False) -> Any:
    """Matrix product with optional transposes."""
    if _any_tensor(a, b):
        return ops.matmul(a, b, transpose_a=transpose_a, transpose_b=transpose_b)
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    return np.matmul(a, b)


def getitem(x: Any, key: Any) -> Any:
    """``x[key]``."""
    return ops.getitem(x, key) if isinstance(x, TensorLike) else np.asarray(x)[key]


def scatter(g: Any, shape_: tuple[int, ...], key: Any) -> Any:
    """Zeros of ``shape_`` with ``g`` added at ``key`` (the gradient of indexing)."""
    if isinstance(g, TensorLike):
        from tapeviz.engine import primitives as P
        from tapeviz.engine.core import bind

        return bind(P.scatter_p, g, shape=shape_, key=key)
    from tapeviz.engine.impl_rules import scatter_impl

    return scatter_impl(g, shape=shape_, key=key)


def unbroadcast(g: Any, target_shape: tuple[int, ...]) -> Any:
    """Sum ``g`` over the axes broadcasting added, so it has ``target_shape``."""
    gshape = shape(g)
    if gshape == target_shape:
        return g
    lead = len(gshape) - len(target_shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, d in enumerate(target_shape) if d == 1 and gshape[lead + i] != 1
    )
    return reshape(reduce_sum(g, axis=axes), target_shape)
