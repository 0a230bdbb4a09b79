"""IMPL of the activation, softmax, cross-entropy and extra maths primitives (numpy forwards).

:mod:`tapeviz.engine.impl_rules` merges :data:`IMPL_NN` into ``IMPL``; this module only defines
the functions, so it imports nothing from the other rule modules.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine import primitives as P
from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.primitives import Primitive

IMPL_NN: dict[Primitive, Callable[..., Any]] = {}

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946
FLOAT_ONLY_NN: frozenset[Primitive] = frozenset(
    {
        P.elu_p, P.selu_p, P.gelu_p, P.softsign_p, P.silu_p, P.softmax_p, P.log_softmax_p,
        P.softmax_cross_entropy_p, P.sinh_p, P.cosh_p, P.asin_p, P.acos_p, P.atan_p,
        P.asinh_p, P.acosh_p, P.atanh_p, P.atan2_p, P.erf_p, P.erfc_p, P.ceil_p, P.is_nan_p,
        P.is_inf_p, P.is_finite_p, P.reduce_logsumexp_p,
    }
)  # fmt: skip


def _like(out: Any, x: Any) -> Any:
    """``out`` in the dtype of ``x`` (float16, and np.where of mixed branches, need the cast)."""
    return np.asarray(out, dtype=np.asarray(x).dtype)[()]


def _elu(x: Any) -> Any:
    return _like(np.where(x > 0, x, np.expm1(np.minimum(x, 0))), x)


def _selu(x: Any) -> Any:
    neg = SELU_ALPHA * np.expm1(np.minimum(x, 0))
    return _like(SELU_SCALE * np.where(x > 0, x, neg), x)


def _erf_values(x: Any, fn: Callable[[float], float]) -> Any:
    arr = np.asarray(x)
    out = np.frompyfunc(fn, 1, 1)(arr.astype(np.float64))
    return np.asarray(out, dtype=np.float64).astype(arr.dtype)[()]


def _erf(x: Any) -> Any:
    return _erf_values(x, math.erf)


def _erfc(x: Any) -> Any:
    return _erf_values(x, math.erfc)


_SQRT_2_OVER_PI = 0.7978845608028654
_GELU_COEFF = 0.044715


def _gelu(x: Any, *, approximate: bool = False) -> Any:
    if approximate:
        inner = _SQRT_2_OVER_PI * (x + _GELU_COEFF * x * x * x)
        return _like(0.5 * x * (1.0 + np.tanh(inner)), x)
    return _like(0.5 * x * (1.0 + _erf(np.asarray(x) / math.sqrt(2.0))), x)


def _relu6(x: Any) -> Any:
    return _like(np.minimum(np.maximum(x, 0), 6), x)


def _softsign(x: Any) -> Any:
    return _like(x / (1 + np.abs(x)), x)


def _sigmoid(x: Any) -> Any:
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e))


def _silu(x: Any, *, beta: float = 1.0) -> Any:
    return _like(x * _sigmoid(np.asarray(x) * np.asarray(beta, dtype=np.asarray(x).dtype)), x)


def _check_axis(x: Any, axis: int, op: str) -> int:
    nd = np.ndim(x)
    if nd == 0:
        raise InvalidArgumentError(f"{op} needs a tensor of rank ≥ 1, got a scalar", op)
    if not -nd <= axis < nd:
        raise InvalidArgumentError(f"{op}: axis {axis} is out of range for rank {nd}", op)
    return axis


def _wide(x: Any) -> np.ndarray:
    """float32 and float16 values in float64: the softmax family rounds once, at the end."""
    arr = np.asarray(x)
    return arr.astype(np.float64) if arr.dtype.itemsize < 8 else arr


def _log_softmax(x: Any, *, axis: int = -1) -> Any:
    _check_axis(x, axis, "log_softmax")
    arr = _wide(x)
    m = np.maximum.reduce(arr, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    shifted = arr - m
    return _like(shifted - np.log(np.add.reduce(np.exp(shifted), axis=axis, keepdims=True)), x)


def _softmax(x: Any, *, axis: int = -1) -> Any:
    _check_axis(x, axis, "softmax")
    arr = _wide(x)
    e = np.exp(arr - np.maximum.reduce(arr, axis=axis, keepdims=True))
    return _like(e / np.add.reduce(e, axis=axis, keepdims=True), x)


def _xent_shapes(labels: Any, logits: Any, op: str) -> None:
    if np.shape(labels) != np.shape(logits):
        raise InvalidArgumentError(
            f"logits and labels must be broadcastable: logits_size={list(np.shape(logits))} "
            f"labels_size={list(np.shape(labels))}",
            op,
        )


def _softmax_cross_entropy(labels: Any, logits: Any, *, axis: int = -1) -> Any:
    _xent_shapes(labels, logits, "softmax_cross_entropy_with_logits")
    logp = _log_softmax(_wide(logits), axis=axis)
    return _like(-np.add.reduce(_wide(labels) * logp, axis=axis), logits)


def _sparse_softmax_cross_entropy(labels: Any, logits: Any) -> Any:
    labels, logits = np.asarray(labels), np.asarray(logits)
    if logits.ndim == 0 or labels.shape != logits.shape[:-1]:
        raise InvalidArgumentError(
            f"labels shape {list(labels.shape)} must equal logits shape {list(logits.shape)} "
            "without its last dimension (one class index per row of logits)",
            "sparse_softmax_cross_entropy_with_logits",
        )
    n = logits.shape[-1]
    if labels.size and (labels.min() < 0 or labels.max() >= n):
        bad = labels[(labels < 0) | (labels >= n)].reshape(-1)[0]
        raise InvalidArgumentError(
            f"Received a label value of {bad} which is outside the valid range of [0, {n}).",
            "sparse_softmax_cross_entropy_with_logits",
        )
    logp = _log_softmax(_wide(logits), axis=-1)
    picked = np.take_along_axis(logp, labels[..., None].astype(np.int64), axis=-1)[..., 0]
    return _like(-picked, logits)


IMPL_NN[P.elu_p] = _elu
IMPL_NN[P.selu_p] = _selu
IMPL_NN[P.gelu_p] = _gelu
IMPL_NN[P.relu6_p] = _relu6
IMPL_NN[P.softsign_p] = _softsign
IMPL_NN[P.silu_p] = _silu
IMPL_NN[P.softmax_p] = _softmax
IMPL_NN[P.log_softmax_p] = _log_softmax
IMPL_NN[P.softmax_cross_entropy_p] = _softmax_cross_entropy
IMPL_NN[P.sparse_softmax_cross_entropy_p] = _sparse_softmax_cross_entropy

# -- more maths ----------------------------------------------------------------------------
IMPL_NN[P.sinh_p] = np.sinh
IMPL_NN[P.cosh_p] = np.cosh
IMPL_NN[P.asin_p] = np.arcsin
IMPL_NN[P.acos_p] = np.arccos
IMPL_NN[P.atan_p] = np.arctan
IMPL_NN[P.asinh_p] = np.arcsinh
IMPL_NN[P.acosh_p] = np.arccosh
IMPL_NN[P.atanh_p] = np.arctanh
IMPL_NN[P.atan2_p] = np.arctan2
IMPL_NN[P.erf_p] = _erf
IMPL_NN[P.erfc_p] = _erfc
IMPL_NN[P.ceil_p] = np.ceil
IMPL_NN[P.is_nan_p] = np.isnan
IMPL_NN[P.is_inf_p] = np.isinf
IMPL_NN[P.is_finite_p] = np.isfinite


def _reduce_prod(x: Any, *, axis: Any = None, keepdims: bool = False) -> Any:
    arr = np.asarray(x)
    return np.multiply.reduce(arr, axis=axis, dtype=arr.dtype, keepdims=keepdims)


def _reduce_logsumexp(x: Any, *, axis: Any = None, keepdims: bool = False) -> Any:
    # TensorFlow's composite: max + log(sum(exp(x - max))), the max taken as 0 if infinite.
    arr = np.asarray(x)
    m = np.maximum.reduce(arr, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0).astype(arr.dtype)
    total = np.add.reduce(np.exp(arr - m), axis=axis, keepdims=True)
    out = np.log(total) + m
    if not keepdims:
        out = np.squeeze(out, axis=axis) if axis is not None else out.reshape(())
    return _like(out, x)


def _reduce_any(x: Any, *, axis: Any = None, keepdims: bool = False) -> Any:
    return np.logical_or.reduce(np.asarray(x), axis=axis, keepdims=keepdims)


def _reduce_all(x: Any, *, axis: Any = None, keepdims: bool = False) -> Any:
    return np.logical_and.reduce(np.asarray(x), axis=axis, keepdims=keepdims)


def _running(fn: Any, x: Any, axis: int, exclusive: bool, reverse: bool, identity: int) -> Any:
    arr = np.asarray(x)
    if arr.ndim == 0:
        raise InvalidArgumentError("cumsum/cumprod need a tensor of rank ≥ 1", "cumsum")
    if reverse:
        arr = np.flip(arr, axis)
    out = fn.accumulate(arr, axis=axis, dtype=arr.dtype)
    if exclusive:
        pad = np.full_like(np.take(out, [0], axis=axis), identity)
        out = np.concatenate([pad, np.delete(out, -1, axis=axis)], axis=axis)
    if reverse:
        out = np.flip(out, axis)
    return np.ascontiguousarray(out)


def _cumsum(x: Any, *, axis: int = 0, exclusive: bool = False, reverse: bool = False) -> Any:
    return _running(np.add, x, axis, exclusive, reverse, 0)


def _cumprod(x: Any, *, axis: int = 0, exclusive: bool = False, reverse: bool = False) -> Any:
    return _running(np.multiply, x, axis, exclusive, reverse, 1)


IMPL_NN[P.reduce_prod_p] = _reduce_prod
IMPL_NN[P.reduce_logsumexp_p] = _reduce_logsumexp
IMPL_NN[P.reduce_any_p] = _reduce_any
IMPL_NN[P.reduce_all_p] = _reduce_all
IMPL_NN[P.cumsum_p] = _cumsum
IMPL_NN[P.cumprod_p] = _cumprod
