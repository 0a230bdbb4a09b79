"""The few functions VJP rules call, on raw numpy values or on Tensors.

A gradient taken while no tape records runs its rules on plain numpy values (fast). A gradient
taken inside another tape runs the same rules on Tensors, so every op of the gradient is recorded
and can itself be differentiated (higher-order derivatives). Operators (``g * y``) work on both.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy import generic, ndarray  # module-level names: np.X is not a fast attribute read

from tapeviz.engine import impl_linalg, impl_nn, linalg_ops, math_ops, nn_ops, ops, shape_ops
from tapeviz.engine.tensor import TensorLike, constant


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
sqrt = _unary(np.sqrt, ops.sqrt)
tanh = _unary(np.tanh, ops.tanh)
absolute = _unary(np.abs, ops.abs)
sinh = _unary(np.sinh, math_ops.sinh)
cosh = _unary(np.cosh, math_ops.cosh)
erf = _unary(impl_nn._erf, math_ops.erf)
diag = _unary(impl_linalg._diag, linalg_ops.diag)
diag_part = _unary(impl_linalg._diag_part, linalg_ops.diag_part)


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
    if isinstance(x, generic):
        z = _ZEROS.get(x.dtype)
        if z is None:
            z = _ZEROS[x.dtype] = x.dtype.type(0)
        return z
    return ops.zeros_like(x) if isinstance(x, TensorLike) else np.zeros_like(x)


def ones_like(x: Any) -> Any:
    """Ones shaped like ``x``."""
    if isinstance(x, generic):
        o = _ONES.get(x.dtype)
        if o is None:
            o = _ONES[x.dtype] = x.dtype.type(1)
        return o
    return ops.ones_like(x) if isinstance(x, TensorLike) else np.ones_like(x)


_ONES_0D: dict[Any, np.ndarray] = {}


def one_minus(x: Any) -> Any:
    """``1 - x``; for arrays with a 0-d one of their dtype (numpy converts a Python 1 slowly)."""
    if type(x) is ndarray:
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
    if type(a) is ndarray and type(b) is ndarray and a.ndim == 2 and b.ndim == 2:  # the common
        return (a.T if transpose_a else a) @ (b.T if transpose_b else b)  # case, without wrappers
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
    if type(g) is ndarray and g.ndim == 2 and target_shape == g.shape[1:]:  # a bias: (n, k) -> (k,)
        return g.sum(0, dtype=g.dtype)
    gshape = shape(g)
    if gshape == target_shape:
        return g
    lead = len(gshape) - len(target_shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, d in enumerate(target_shape) if d == 1 and gshape[lead + i] != 1
    )
    return reshape(reduce_sum(g, axis=axes), target_shape)


# -- helpers of the activation, linear-algebra and indexing rules ----------------------------
def softmax(x: Any, axis: int) -> Any:
    """Softmax along ``axis``."""
    if isinstance(x, TensorLike):
        return nn_ops.softmax(x, axis=axis)
    return impl_nn._softmax(x, axis=axis)


def cumsum(x: Any, axis: int, exclusive: bool = False, reverse: bool = False) -> Any:
    """Running sum along ``axis``."""
    if isinstance(x, TensorLike):
        return math_ops.cumsum(x, axis=axis, exclusive=exclusive, reverse=reverse)
    return impl_nn._cumsum(x, axis=axis, exclusive=exclusive, reverse=reverse)


def cumprod(x: Any, axis: int, exclusive: bool = False, reverse: bool = False) -> Any:
    """Running product along ``axis``."""
    if isinstance(x, TensorLike):
        return math_ops.cumprod(x, axis=axis, exclusive=exclusive, reverse=reverse)
    return impl_nn._cumprod(x, axis=axis, exclusive=exclusive, reverse=reverse)


def solve(a: Any, b: Any, adjoint: bool = False) -> Any:
    """``X`` with ``a @ X = b`` (``adjoint``: with ``aᵀ``)."""
    if _any_tensor(a, b):
        return linalg_ops.solve(a, b, adjoint=adjoint)
    return impl_linalg._solve(a, b, adjoint=adjoint)


def inv(a: Any, adjoint: bool = False) -> Any:
    """Matrix inverse (``adjoint``: of ``aᵀ``)."""
    if isinstance(a, TensorLike):
        return linalg_ops.inv(a, adjoint=adjoint)
    return impl_linalg._inv(a, adjoint=adjoint)


def einsum(equation: str, *xs: Any) -> Any:
    """Einstein summation of an explicit, ellipsis-free equation."""
    if any(isinstance(x, TensorLike) for x in xs):
        dtype = next(x.dtype for x in xs if isinstance(x, TensorLike))
        return linalg_ops.einsum(
            equation, *[x if isinstance(x, TensorLike) else constant(x, dtype) for x in xs]
        )
    return np.einsum(equation, *xs)


def eye_like(n: int, like: Any) -> Any:
    """An ``n × n`` identity of ``like``'s dtype (a constant Tensor if ``like`` is a Tensor)."""
    if isinstance(like, TensorLike):
        return constant(np.eye(n, dtype=like.dtype.np))
    return np.eye(n, dtype=np.asarray(like).dtype)


def gather(x: Any, indices: Any, axis: int) -> Any:
    """Slices of ``x`` at ``indices`` along ``axis``."""
    if isinstance(x, TensorLike):
        return shape_ops.gather(x, indices, axis=axis)
    return impl_linalg._gather(x, _raw(indices), axis=axis)


def scatter_add(updates: Any, indices: Any, axis: int, shape_: tuple[int, ...]) -> Any:
    """Zeros of ``shape_`` with ``updates`` added at ``indices`` along ``axis``."""
    if isinstance(updates, TensorLike):
        from tapeviz.engine import primitives as P
        from tapeviz.engine.core import bind

        idx = indices if isinstance(indices, TensorLike) else constant(np.asarray(indices))
        return bind(P.scatter_add_p, updates, idx, axis=axis, shape=shape_)
    return impl_linalg._scatter_add(updates, _raw(indices), axis=axis, shape=shape_)


def _raw(x: Any) -> Any:
    return x._value if isinstance(x, TensorLike) else x


def maximum(x: Any, y: Any) -> Any:
    """Elementwise maximum."""
    return ops.maximum(x, y) if _any_tensor(x, y) else np.maximum(x, y)


def log_softmax(x: Any, axis: int) -> Any:
    """Log-softmax along ``axis``."""
    if isinstance(x, TensorLike):
        return nn_ops.log_softmax(x, axis=axis)
    return impl_nn._log_softmax(x, axis=axis)


def one_hot_like(labels: Any, depth: int, like: Any) -> Any:
    """One-hot rows of integer ``labels`` in ``like``'s dtype (a constant; no gradient)."""
    idx = np.asarray(_raw(labels))
    hot = (idx[..., None] == np.arange(depth)).astype(np.asarray(_raw(like)).dtype)
    return constant(hot) if isinstance(like, TensorLike) else hot
