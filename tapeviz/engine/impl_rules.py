"""IMPL[prim]: the numpy forward of each primitive, on numpy arrays and numpy scalars."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine import primitives as P
from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.impl_conv import FLOAT_ONLY_CONV, IMPL_CONV
from tapeviz.engine.impl_decomp import FLOAT_ONLY_DECOMP, IMPL_DECOMP
from tapeviz.engine.impl_linalg import FLOAT_ONLY_LINALG, IMPL_LINALG
from tapeviz.engine.impl_nchw import FLOAT_ONLY_NCHW, IMPL_NCHW
from tapeviz.engine.impl_nn import FLOAT_ONLY_NN, IMPL_NN
from tapeviz.engine.primitives import Primitive

IMPL: dict[Primitive, Callable[..., Any]] = {}

# Ops that TensorFlow defines for floating dtypes only; bind() refuses other dtypes.
FLOAT_ONLY: frozenset[Primitive] = frozenset(
    {
        P.sqrt_p, P.rsqrt_p, P.exp_p, P.log_p, P.log1p_p, P.expm1_p, P.sin_p, P.cos_p,
        P.tan_p, P.tanh_p, P.sigmoid_p, P.softplus_p, P.leaky_relu_p, P.floor_p,
        P.divide_no_nan_p, P.norm_p, P.dense_linear_p, P.dense_relu_p,
        P.dense_tanh_p, P.dense_sigmoid_p, P.square_loss_p, P.hinge_loss_p,
    }
) | FLOAT_ONLY_NN | FLOAT_ONLY_LINALG | FLOAT_ONLY_DECOMP | FLOAT_ONLY_CONV  # fmt: skip
FLOAT_ONLY |= FLOAT_ONLY_NCHW  # torch's layout (impl_nchw.py)

IMPL[P.add_p] = operator.add
IMPL[P.subtract_p] = operator.sub
IMPL[P.multiply_p] = operator.mul
IMPL[P.divide_p] = operator.truediv
IMPL[P.floordiv_p] = operator.floordiv
IMPL[P.mod_p] = operator.mod
IMPL[P.negative_p] = operator.neg
IMPL[P.pow_p] = operator.pow
IMPL[P.reciprocal_p] = np.reciprocal
IMPL[P.sqrt_p] = np.sqrt
IMPL[P.exp_p] = np.exp
IMPL[P.log_p] = np.log
IMPL[P.log1p_p] = np.log1p
IMPL[P.expm1_p] = np.expm1
IMPL[P.sin_p] = np.sin
IMPL[P.cos_p] = np.cos
IMPL[P.tan_p] = np.tan
IMPL[P.tanh_p] = np.tanh
IMPL[P.abs_p] = np.abs
IMPL[P.sign_p] = np.sign
IMPL[P.floor_p] = np.floor
IMPL[P.round_p] = np.round  # half to even, like TensorFlow
IMPL[P.maximum_p] = np.maximum
IMPL[P.minimum_p] = np.minimum
IMPL[P.where_p] = np.where
IMPL[P.less_p] = operator.lt
IMPL[P.less_equal_p] = operator.le
IMPL[P.greater_p] = operator.gt
IMPL[P.greater_equal_p] = operator.ge
IMPL[P.equal_p] = np.equal
IMPL[P.not_equal_p] = np.not_equal
IMPL[P.logical_and_p] = np.logical_and
IMPL[P.logical_or_p] = np.logical_or
IMPL[P.logical_not_p] = np.logical_not


def _identity(x: Any) -> Any:
    return x


IMPL[P.identity_p] = _identity
IMPL[P.stop_gradient_p] = _identity


def _square(x: Any) -> Any:
    return x * x


IMPL[P.square_p] = _square


def _rsqrt(x: Any) -> Any:
    return np.reciprocal(np.sqrt(x))


IMPL[P.rsqrt_p] = _rsqrt


def _divide_no_nan(x: Any, y: Any) -> Any:
    safe = np.where(y == 0, np.ones_like(y), y)
    return np.where(y == 0, np.zeros_like(x * y), x / safe)


IMPL[P.divide_no_nan_p] = _divide_no_nan


def _sigmoid(x: Any) -> Any:
    e = np.exp(-np.abs(x))  # never overflows
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e))


IMPL[P.sigmoid_p] = _sigmoid


def _softplus(x: Any) -> Any:
    return np.logaddexp(0, x)


IMPL[P.softplus_p] = _softplus


_RELU_ZERO = {np.float32: np.float32(0), np.float64: np.float64(0)}


def _relu(x: Any) -> Any:
    zero = _RELU_ZERO.get(type(x))
    if zero is not None:  # a float32/64 scalar: np.maximum's result without a ufunc call
        return x if x > zero or x != x else zero  # nan stays nan; -0.0 gives +0.0
    return np.maximum(x, 0)


IMPL[P.relu_p] = _relu


def _leaky_relu(x: Any, *, alpha: float = 0.2) -> Any:
    return np.where(x > 0, x, x * alpha)


IMPL[P.leaky_relu_p] = _leaky_relu


def _clip_by_value(x: Any, lo: Any, hi: Any) -> Any:
    # tf.clip_by_value is maximum(minimum(t, hi), lo): the result keeps t's shape.
    out = np.maximum(np.minimum(x, hi), lo)
    if np.shape(out) != np.shape(x):
        raise InvalidArgumentError(
            f"clip_by_value of {np.shape(x)} with bounds of shapes {np.shape(lo)} and "
            f"{np.shape(hi)}: the bounds would broadcast the result to {np.shape(out)}",
            "clip_by_value",
        )
    return out


IMPL[P.clip_by_value_p] = _clip_by_value


def _matmul(a: Any, b: Any, *, transpose_a: bool = False, transpose_b: bool = False) -> Any:
    if type(a) is np.ndarray and type(b) is np.ndarray and a.ndim == 2 and b.ndim == 2:
        a2 = a.T if transpose_a else a  # the common case, without numpy's Python wrappers
        b2 = b.T if transpose_b else b
        if a2.shape[1] == b2.shape[0]:
            return a2 @ b2
    sa, sb = np.shape(a), np.shape(b)
    if len(sa) < 2 or len(sb) < 2:
        raise InvalidArgumentError(
            f"matmul of {sa} and {sb} shapes: both operands must have rank ≥ 2 "
            "(reshape a vector to (1, n) or (n, 1) first)",
            "matmul",
        )
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    if np.shape(a)[-1] != np.shape(b)[-2]:
        raise InvalidArgumentError(
            f"matmul of {sa} and {sb} shapes: the inner dimensions {np.shape(a)[-1]} and "
            f"{np.shape(b)[-2]} must be equal",
            "matmul",
        )
    return np.matmul(a, b)


IMPL[P.matmul_p] = _matmul


# Reductions call the ufuncs' reduce directly (not np.sum/np.mean), so that numpy's overflow
# warnings are attributed to this module and silenced by the engine's warning filter.
def _reduce_sum(x: Any, *, axis: Any = None, keepdims: bool = False) -> Any:
    arr = np.asarray(x)
    return np.add.reduce(arr, axis=axis, dtype=arr.dtype, keepdims=keepdims)


IMPL[P.reduce_sum_p] = _reduce_sum


def _reduce_mean(x: Any, *, axis: Any = None, keepdims: bool = False) -> Any:
    arr = np.asarray(x)
    total = np.add.reduce(arr, axis=axis, dtype=arr.dtype, keepdims=keepdims)
    n = max(1, arr.size if axis is None else arr.size // max(1, np.size(total)))
    if arr.dtype.kind in "iu":  # TensorFlow's integer mean is an integer division
        return total // n
    return total / n


IMPL[P.reduce_mean_p] = _reduce_mean


# The fused ops (tapeviz/engine/fused.py): the kernels of the ops they fuse, in their order.
def _dense(f: Callable[[Any], Any] | None) -> Callable[..., Any]:
    """The kernel of ``f(a @ W + w₀)`` for ``b = [W; w₀]``: matmul's, add's, then f's."""
    if f is None:
        return lambda a, b: _matmul(a, b[:-1]) + b[-1]
    return lambda a, b: f(_matmul(a, b[:-1]) + b[-1])


IMPL[P.dense_linear_p] = _dense(None)
IMPL[P.dense_relu_p] = _dense(_relu)
IMPL[P.dense_tanh_p] = _dense(np.tanh)
IMPL[P.dense_sigmoid_p] = _dense(_sigmoid)


def _square_loss(a: Any, b: Any) -> Any:
    """``mean(square(a − b)) · ½``, each op's kernel (the ½ in the operands' dtype)."""
    return _reduce_mean(_square(a - b)) * a.dtype.type(0.5)


def _hinge_loss(a: Any, b: Any) -> Any:
    """``mean(relu(1 − b · a))``, each op's kernel (the 1 in the operands' dtype)."""
    return _reduce_mean(_relu(a.dtype.type(1.0) - b * a))


IMPL[P.square_loss_p] = _square_loss
IMPL[P.hinge_loss_p] = _hinge_loss


def _reduce_max(x: Any, *, axis: Any = None, keepdims: bool = False) -> Any:
    return np.maximum.reduce(np.asarray(x), axis=axis, keepdims=keepdims)


def _reduce_min(x: Any, *, axis: Any = None, keepdims: bool = False) -> Any:
    return np.minimum.reduce(np.asarray(x), axis=axis, keepdims=keepdims)


IMPL[P.reduce_max_p] = _reduce_max
IMPL[P.reduce_min_p] = _reduce_min


def _argmax(x: Any, *, axis: int = 0, output_type: Any = np.int64) -> Any:
    return np.argmax(x, axis=axis).astype(output_type)


def _argmin(x: Any, *, axis: int = 0, output_type: Any = np.int64) -> Any:
    return np.argmin(x, axis=axis).astype(output_type)


IMPL[P.argmax_p] = _argmax
IMPL[P.argmin_p] = _argmin


def _norm(x: Any, *, ord: Any = "euclidean", axis: Any = None, keepdims: bool = False) -> Any:
    arr = np.asarray(x)
    if ord in ("euclidean", "fro", 2, 2.0):
        return np.sqrt(np.add.reduce(arr * arr, axis=axis, keepdims=keepdims))
    if ord in (1, 1.0):
        return np.add.reduce(np.abs(arr), axis=axis, keepdims=keepdims)
    if ord == np.inf:
        return np.maximum.reduce(np.abs(arr), axis=axis, keepdims=keepdims)
    raise InvalidArgumentError(f"norm: unsupported ord {ord!r} (use 'euclidean', 1 or inf)", "norm")


IMPL[P.norm_p] = _norm


def _stack(*xs: Any, axis: int = 0) -> Any:
    return np.stack(xs, axis=axis)


def _concat(*xs: Any, axis: int = 0) -> Any:
    return np.concatenate([np.atleast_1d(x) if np.ndim(x) == 0 else x for x in xs], axis=axis)


IMPL[P.stack_p] = _stack
IMPL[P.concat_p] = _concat


def _reshape(x: Any, *, shape: tuple[int, ...]) -> Any:
    return np.reshape(x, shape)


def _transpose(x: Any, *, perm: tuple[int, ...] | None = None) -> Any:
    return np.transpose(x, perm)


def _broadcast_to(x: Any, *, shape: tuple[int, ...]) -> Any:
    return np.broadcast_to(x, shape)


def _getitem(x: Any, *, key: Any) -> Any:
    return np.asarray(x)[key]


def _cast(x: Any, *, dtype: Any) -> Any:
    return np.asarray(x).astype(dtype.np)


IMPL[P.reshape_p] = _reshape
IMPL[P.transpose_p] = _transpose
IMPL[P.broadcast_to_p] = _broadcast_to
IMPL[P.getitem_p] = _getitem
IMPL[P.cast_p] = _cast


def _has_array(key: Any) -> bool:
    parts = key if isinstance(key, tuple) else (key,)
    return any(isinstance(k, np.ndarray | list) for k in parts)


def scatter_impl(g: Any, *, shape: tuple[int, ...], key: Any) -> Any:
    """Zeros of ``shape`` with ``g`` added at ``key`` (repeated indices accumulate)."""
    out = np.zeros(shape, dtype=np.asarray(g).dtype)
    if _has_array(key):
        np.add.at(out, key, g)
    else:
        out[key] += g
    return out


IMPL[P.scatter_p] = scatter_impl

# The activation, extra maths, linear algebra and indexing primitives (their own modules).
IMPL.update(IMPL_NN)
IMPL.update(IMPL_LINALG)
IMPL.update(IMPL_DECOMP)
IMPL.update(IMPL_CONV)
IMPL.update(IMPL_NCHW)
