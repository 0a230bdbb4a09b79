"""``tf.nn``: activations, softmax, cross-entropies, normalisation helpers and gradient clipping.

Activations, softmax and the two softmax cross-entropies are primitives (one node each, with
TensorFlow's gradient kernels as rules); the rest is composed from ops exactly as TensorFlow
composes it, so its gradients are TensorFlow's too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tapeviz.engine import primitives as P
from tapeviz.engine.array_ops import (
    _axis,
    cast,
    identity,
    ones_like,
    reduce_mean,
    reduce_sum,
    reshape,
    stack,
    stop_gradient,
    zeros_like,
)
from tapeviz.engine.core import bind
from tapeviz.engine.elementwise import unary
from tapeviz.engine.errors import EngineTypeError, InvalidArgumentError
from tapeviz.engine.ops import (
    add,
    divide,
    exp,
    greater,
    greater_equal,
    log1p,
    maximum,
    minimum,
    multiply,
    negative,
    rsqrt,
    sqrt,
    square,
    subtract,
    where,
)
from tapeviz.engine.tensor import Tensor, TensorLike, convert_to_tensor

__all__ = [
    "batch_normalization",
    "bias_add",
    "clip_by_global_norm",
    "clip_by_norm",
    "elu",
    "gelu",
    "global_norm",
    "l2_loss",
    "l2_normalize",
    "log_softmax",
    "moments",
    "relu6",
    "selu",
    "sigmoid_cross_entropy_with_logits",
    "silu",
    "softmax",
    "softmax_cross_entropy_with_logits",
    "softsign",
    "sparse_softmax_cross_entropy_with_logits",
    "swish",
]

_elu = unary(P.elu_p, "elu", "")
_selu = unary(P.selu_p, "selu", "")
_relu6 = unary(P.relu6_p, "relu6", "")
_softsign = unary(P.softsign_p, "softsign", "")


def elu(features: Any, name: str | None = None) -> Tensor:
    """Elementwise ``x if x > 0 else eˣ − 1``."""
    return _elu(features)


def selu(features: Any, name: str | None = None) -> Tensor:
    """Scaled ELU: ``λ·x if x > 0 else λ·α·(eˣ − 1)`` (λ ≈ 1.0507, α ≈ 1.6733)."""
    return _selu(features)


def relu6(features: Any, name: str | None = None) -> Tensor:
    """Elementwise ``min(max(x, 0), 6)``."""
    return _relu6(features)


def softsign(features: Any, name: str | None = None) -> Tensor:
    """Elementwise ``x / (1 + |x|)``."""
    return _softsign(features)


def gelu(features: Any, approximate: bool = False, name: str | None = None) -> Tensor:
    """Gaussian error linear unit ``x·Φ(x)`` (``approximate``: the tanh formula)."""
    return bind(P.gelu_p, features, approximate=bool(approximate))


def silu(features: Any, beta: float = 1.0, name: str | None = None) -> Tensor:
    """Sigmoid linear unit (swish) ``x·σ(β·x)``."""
    return bind(P.silu_p, features, beta=float(beta))


swish = silu


def _axis_or_last(axis: Any) -> int:
    a = _axis(axis)
    if a is None:
        return -1
    if isinstance(a, tuple):
        raise InvalidArgumentError("softmax: axis must be a single integer", "softmax")
    return a


def softmax(logits: Any, axis: Any = None, name: str | None = None) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``axis`` (the last one by default)."""
    return bind(P.softmax_p, logits, axis=_axis_or_last(axis))


def log_softmax(logits: Any, axis: Any = None, name: str | None = None) -> Tensor:
    """``x − log(sum(exp(x)))`` along ``axis`` (the last one by default)."""
    return bind(P.log_softmax_p, logits, axis=_axis_or_last(axis))


def _tensor(x: Any, dtype: Any = None) -> TensorLike:
    if isinstance(x, TensorLike):
        return x
    return convert_to_tensor(x, dtype=dtype)


def _labels_like(labels: Any, logits: TensorLike, what: str) -> TensorLike:
    if labels is None or logits is None:
        raise EngineTypeError(f"{what}: give both labels= and logits=", what)
    return _cast_to(_tensor(labels, logits.dtype), logits.dtype)


def sigmoid_cross_entropy_with_logits(
    labels: Any = None, logits: Any = None, name: str | None = None
) -> Tensor:
    """Elementwise ``max(x, 0) − x·z + log(1 + e^−|x|)`` for logits x and labels z."""
    if logits is None:
        raise EngineTypeError(
            "sigmoid_cross_entropy_with_logits: give both labels= and logits=", "sigmoid_xent"
        )
    lg = _tensor(logits)
    z = _labels_like(labels, lg, "sigmoid_cross_entropy_with_logits")
    if tuple(z.shape) != tuple(lg.shape):
        raise InvalidArgumentError(
            f"logits and labels must have the same shape ({lg.shape} vs {z.shape})",
            "sigmoid_cross_entropy_with_logits",
        )
    zeros = zeros_like(lg)
    cond = greater_equal(lg, zeros)
    relu_logits = where(cond, lg, zeros)
    neg_abs_logits = where(cond, negative(lg), lg)
    return add(subtract(relu_logits, multiply(lg, z)), log1p(exp(neg_abs_logits)))


def softmax_cross_entropy_with_logits(
    labels: Any = None, logits: Any = None, axis: int = -1, name: str | None = None
) -> Tensor:
    """Per-row ``−Σ labels · log_softmax(logits)`` (the gradient is ``softmax − labels``)."""
    if logits is None:
        raise EngineTypeError(
            "softmax_cross_entropy_with_logits: give both labels= and logits=", "softmax_xent"
        )
    lg = _tensor(logits)
    lab = _labels_like(labels, lg, "softmax_cross_entropy_with_logits")
    return bind(P.softmax_cross_entropy_p, lab, lg, axis=int(axis))


def sparse_softmax_cross_entropy_with_logits(
    labels: Any = None, logits: Any = None, name: str | None = None
) -> Tensor:
    """Per-row ``−log softmax(logits)[label]`` for integer class labels."""
    what = "sparse_softmax_cross_entropy_with_logits"
    if labels is None or logits is None:
        raise EngineTypeError(f"{what}: give both labels= and logits=", what)
    lg = _tensor(logits)
    lab = _tensor(labels)
    if not lab.dtype.is_integer:
        raise EngineTypeError(
            f"Value passed to parameter 'labels' has DataType {lab.dtype.name} not in list of "
            "allowed values: int32, int64 (labels are class indices)",
            what,
        )
    if tuple(lab.shape) != tuple(lg.shape[:-1]):
        raise InvalidArgumentError(
            f"`labels.shape` must equal `logits.shape` except for the last dimension. "
            f"Received: labels.shape={tuple(lab.shape)} and logits.shape={tuple(lg.shape)}",
            what,
        )
    return bind(P.sparse_softmax_cross_entropy_p, lab, lg)


def l2_loss(t: Any, name: str | None = None) -> Tensor:
    """``sum(t²) / 2``."""
    return multiply(reduce_sum(square(t)), 0.5)


def l2_normalize(
    x: Any, axis: Any = None, epsilon: float = 1e-12, name: str | None = None, dim: Any = None
) -> Tensor:
    """``x / sqrt(max(sum(x²), ε))`` along ``axis``."""
    ax = axis if axis is not None else dim
    square_sum = reduce_sum(square(x), axis=ax, keepdims=True)
    return multiply(x, rsqrt(maximum(square_sum, epsilon)))


def moments(
    x: Any, axes: Any, shift: Any = None, keepdims: bool = False, name: str | None = None
) -> tuple[Tensor, Tensor]:
    """Mean and variance over ``axes`` (the variance's mean is a stop_gradient, as in TF)."""
    mean = reduce_mean(x, axis=axes, keepdims=True)
    variance = reduce_mean(square(subtract(x, stop_gradient(mean))), axis=axes, keepdims=True)
    if not keepdims:
        mean = _drop(mean, axes)
        variance = _drop(variance, axes)
    return mean, variance


def _drop(t: Tensor, axes: Any) -> Tensor:
    ax = _axis(axes)
    nd = len(t.shape)
    drop = {a % nd for a in ((ax,) if isinstance(ax, int) else (ax or range(nd)))}
    return reshape(t, tuple(d for i, d in enumerate(t.shape) if i not in drop))


def batch_normalization(
    x: Any,
    mean: Any,
    variance: Any,
    offset: Any,
    scale: Any,
    variance_epsilon: float,
    name: str | None = None,
) -> Tensor:
    """``(x − mean) / sqrt(variance + ε) · scale + offset``, TensorFlow's composite."""
    inv = rsqrt(add(variance, variance_epsilon))
    if scale is not None:
        inv = multiply(inv, scale)
    shift = (
        subtract(offset, multiply(mean, inv))
        if offset is not None
        else negative(multiply(mean, inv))
    )
    return add(multiply(x, inv), shift)


def bias_add(value: Any, bias: Any, data_format: Any = None, name: str | None = None) -> Tensor:
    """``value + bias``, the bias along the last axis."""
    return add(value, bias)


def clip_by_norm(t: Any, clip_norm: Any, axes: Any = None, name: str | None = None) -> Tensor:
    """Scale ``t`` so that its L2 norm (over ``axes``) is at most ``clip_norm``."""
    values = _tensor(t)
    l2sum = reduce_sum(multiply(values, values), axis=axes, keepdims=True)
    pred = greater(l2sum, 0)
    l2sum_safe = where(pred, l2sum, ones_like(l2sum))
    l2norm = where(pred, sqrt(l2sum_safe), l2sum)
    intermediate = multiply(values, clip_norm)
    return identity(divide(intermediate, maximum(l2norm, clip_norm)))


def global_norm(t_list: Sequence[Any], name: str | None = None) -> Tensor:
    """``sqrt(sum of every tensor's sum of squares)``; None entries are skipped."""
    if not isinstance(t_list, list | tuple):
        raise EngineTypeError(
            f"`t_list` should be a sequence of tensors. Received {type(t_list)}.", "global_norm"
        )
    halves = [l2_loss(t) for t in t_list if t is not None]
    if not halves:
        raise InvalidArgumentError("global_norm of an empty list", "global_norm")
    half = reduce_sum(stack(halves))
    return sqrt(multiply(half, 2.0))


def clip_by_global_norm(
    t_list: Sequence[Any], clip_norm: Any, use_norm: Any = None, name: str | None = None
) -> tuple[list[Tensor | None], Tensor]:
    """Scale every tensor by ``clip_norm / max(global_norm, clip_norm)``; returns (list, norm)."""
    if not isinstance(t_list, list | tuple):
        raise EngineTypeError(
            f"`t_list` should be a sequence of tensors. Received {type(t_list)}.",
            "clip_by_global_norm",
        )
    norm = global_norm(t_list) if use_norm is None else _tensor(use_norm)
    clip = _tensor(clip_norm, norm.dtype)
    scale = multiply(clip, minimum(divide(1.0, norm), divide(1.0, clip)))
    scale = add(scale, subtract(norm, norm))  # nan where the norm is inf or nan, as in TF
    clipped = [None if t is None else identity(multiply(t, _cast_to(scale, _tensor(t).dtype)))
               for t in t_list]  # fmt: skip
    return clipped, norm


def _cast_to(t: Any, dtype: Any) -> Any:
    return t if t.dtype is dtype else cast(t, dtype)
