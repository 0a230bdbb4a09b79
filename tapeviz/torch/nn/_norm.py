"""``batch_norm``, ``layer_norm`` and ``embedding`` (the functions behind their layers)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tapeviz import engine as E
from tapeviz.engine.tensor import Tensor as _ETensor
from tapeviz.engine.tensor import freeze as _freeze
from tapeviz.torch import _dtypes as _D
from tapeviz.torch._autograd import no_grad as _no_grad
from tapeviz.torch._size import type_name
from tapeviz.torch._tensor import Tensor
from tapeviz.torch.nn._graph import node as _node
from tapeviz.torch.nn._graph import scalar as _scalar
from tapeviz.torch.nn._graph import tensor_arg as _arg
from tapeviz.torch.nn._graph import values as _values


def _normalised(t: Any, axes: tuple[int, ...], eps: Any) -> Any:
    mean = E.reduce_mean(t, axes, True)
    centred = E.subtract(t, mean)
    var = E.reduce_mean(E.square(centred), axes, True)
    return E.multiply(centred, E.rsqrt(E.add(var, eps)))


def _affine(y: Any, w: Any, b: Any, shape: tuple[int, ...]) -> Any:
    if w is not None:
        y = E.multiply(y, E.reshape(w, shape))
    if b is not None:
        y = E.add(y, E.reshape(b, shape))
    return y


def _write(t: Tensor, value: np.ndarray) -> None:
    with _no_grad():
        t._become(Tensor._wrap(_ETensor(_freeze(value.astype(t._t.dtype.np)), t._t.dtype)))


def batch_norm(
    input: Tensor,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Normalise over the batch (and length) per channel; update the running stats in training."""
    x = _arg(input)
    shape = tuple(x.shape)
    if training and shape[0] * int(np.prod(shape[2:], dtype=np.int64)) == 1:
        raise ValueError(
            f"Expected more than 1 value per channel when training, got input size {x.size()}"
        )
    axes = (0, *range(2, x.ndim))
    bshape = (1, shape[1], *(1,) * (x.ndim - 2)) if x.ndim > 1 else (shape[0],)
    e = _scalar(x.dtype, eps)
    if training or running_mean is None or running_var is None:

        def fn(t: Any, w: Any, b: Any) -> Any:
            return _affine(_normalised(t, axes, e), w, b, bshape)

        out = _node("NativeBatchNormBackward0", fn, [x, weight, bias])
        if training and running_mean is not None and running_var is not None:
            v = _values(x).astype(np.float64)
            n = v.size // shape[1]
            mean = v.mean(axis=axes)
            var = v.var(axis=axes) * (n / (n - 1)) if n > 1 else v.var(axis=axes)
            m = float(momentum)
            _write(running_mean, m * mean + (1 - m) * _values(running_mean).astype(np.float64))
            _write(running_var, m * var + (1 - m) * _values(running_var).astype(np.float64))
        return out
    rm = E.reshape(running_mean._t, bshape)
    rv = E.reshape(running_var._t, bshape)

    def infer(t: Any, w: Any, b: Any) -> Any:
        y = E.multiply(E.subtract(t, rm), E.rsqrt(E.add(rv, e)))
        return _affine(y, w, b, bshape)

    return _node("NativeBatchNormBackward0", infer, [x, weight, bias])


def layer_norm(
    input: Tensor,
    normalized_shape: Sequence[int],
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    """Normalise over the last ``len(normalized_shape)`` dimensions of each sample."""
    x = _arg(input)
    norm = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    k = len(norm)
    if tuple(x.shape[x.ndim - k :]) != norm or k > x.ndim:
        raise RuntimeError(
            f"Given normalized_shape={list(norm)}, expected input with shape "
            f"[*, {', '.join(str(d) for d in norm)}], but got input of size{x.size()}"
        )
    axes = tuple(range(x.ndim - k, x.ndim))
    e = _scalar(x.dtype, eps)

    def fn(t: Any, w: Any, b: Any) -> Any:
        return _affine(_normalised(t, axes, e), w, b, norm)

    return _node("NativeLayerNormBackward0", fn, [x, weight, bias])


def embedding(
    input: Tensor,
    weight: Tensor,
    padding_idx: int | None = None,
    max_norm: float | None = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    """The rows of ``weight`` at the indices ``input`` (``EmbeddingBackward0``)."""
    idx_t = _arg(input)
    if idx_t.dtype not in (_D.int64, _D.int32):
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got {type_name(idx_t)} instead (while checking arguments "
            "for embedding)"
        )
    idx = _values(idx_t).astype(np.int64)
    n = weight.shape[0]
    if idx.size and (idx.min() < -n or idx.max() >= n or idx.min() < 0):
        raise IndexError("index out of range in self")
    pad = None
    if padding_idx is not None:
        pad = padding_idx + n if padding_idx < 0 else padding_idx
    mask = None if pad is None else np.expand_dims(idx == pad, -1)

    def fn(w: Any) -> Any:
        rows = E.gather(w, idx, axis=0)
        if mask is not None and mask.any():
            rows = E.where(mask, E.stop_gradient(rows), rows)  # no gradient for the padding row
        return rows

    return _node("EmbeddingBackward0", fn, [weight])
