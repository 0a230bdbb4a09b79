"""``torch.nn.functional``: activations, ``linear``, convolution, pooling, normalisation, losses.

Each function records the nodes torch records (``AddmmBackward0`` for ``linear`` on a matrix,
``LogSoftmaxBackward0`` then ``NllLossBackward0`` for ``cross_entropy``), each node holding the
engine ops that compute it, so the stepper shows a loss's arithmetic inside its node.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tapeviz import engine as E
from tapeviz.engine import diagnostics
from tapeviz.engine.tensor import Tensor as _ETensor
from tapeviz.engine.tensor import freeze as _freeze
from tapeviz.torch import _dtypes as _D
from tapeviz.torch import _ops as _O
from tapeviz.torch import _reduce as _R
from tapeviz.torch._creation import _rng
from tapeviz.torch._tensor import Tensor, _dim
from tapeviz.torch.nn._convolution import conv1d, conv2d
from tapeviz.torch.nn._graph import node as _node
from tapeviz.torch.nn._graph import scalar as _scalar
from tapeviz.torch.nn._graph import tensor_arg as _arg
from tapeviz.torch.nn._graph import values as _values
from tapeviz.torch.nn._graph import word as _word
from tapeviz.torch.nn._losses import (
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    cross_entropy,
    huber_loss,
    l1_loss,
    mse_loss,
    nll_loss,
    smooth_l1_loss,
)
from tapeviz.torch.nn._norm import batch_norm, embedding, layer_norm
from tapeviz.torch.nn._pooling import (
    adaptive_avg_pool1d,
    adaptive_avg_pool2d,
    avg_pool1d,
    avg_pool2d,
    max_pool1d,
    max_pool2d,
)

__all__ = [
    "adaptive_avg_pool1d", "adaptive_avg_pool2d", "avg_pool1d", "avg_pool2d", "batch_norm",
    "binary_cross_entropy", "binary_cross_entropy_with_logits", "conv1d", "conv2d",
    "cosine_similarity", "cross_entropy", "dropout", "elu", "embedding", "gelu", "hardtanh",
    "huber_loss", "l1_loss", "layer_norm", "leaky_relu", "linear", "log_softmax", "logsigmoid",
    "max_pool1d", "max_pool2d", "mse_loss", "nll_loss", "normalize", "one_hot", "pad", "relu",
    "relu6", "selu", "sigmoid", "silu", "smooth_l1_loss", "softmax", "softplus", "tanh",
]  # fmt: skip


# -- activations ---------------------------------------------------------------------------------


def _maybe_inplace(input: Tensor, out: Tensor, inplace: bool) -> Tensor:
    if not inplace:
        return out
    input._check_inplace()
    return input._become(out)


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """``max(0, x)``, recorded as ``ReluBackward0``."""
    x = _arg(input)
    return _maybe_inplace(x, _node("ReluBackward0", E.relu, [x]), inplace)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """``min(max(0, x), 6)``."""
    return hardtanh(input, 0.0, 6.0, inplace)


def hardtanh(
    input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False
) -> Tensor:
    """``x`` clipped to ``[min_val, max_val]``."""
    x = _arg(input)
    want = x.dtype

    def fn(t: Any) -> Any:
        return E.clip_by_value(t, _scalar(want, min_val), _scalar(want, max_val))

    return _maybe_inplace(x, _node("HardtanhBackward0", fn, [x]), inplace)


def sigmoid(input: Tensor) -> Tensor:
    """``1 / (1 + exp(-x))``."""
    return _O.sigmoid(input)


def tanh(input: Tensor) -> Tensor:
    """The hyperbolic tangent."""
    return _O.tanh(input)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * sigmoid(x)``."""
    x = _arg(input)
    return _maybe_inplace(x, _node("SiluBackward0", E.silu, [x]), inplace)


def logsigmoid(input: Tensor) -> Tensor:
    """``log(sigmoid(x))``, computed stably."""
    x = _arg(input)
    return _node("LogSigmoidBackward0", E.log_sigmoid, [x])


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """``x`` where positive, else ``negative_slope * x``."""
    x = _arg(input)
    out = _node("LeakyReluBackward0", lambda t: E.leaky_relu(t, negative_slope), [x])
    return _maybe_inplace(x, out, inplace)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """``x * Phi(x)`` (``approximate='tanh'``: the tanh formula)."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    x = _arg(input)
    return _node("GeluBackward0", lambda t: E.gelu(t, approximate == "tanh"), [x])


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``x`` where positive, else ``alpha * (exp(x) - 1)``."""
    x = _arg(input)
    want = x.dtype

    def fn(t: Any) -> Any:
        if alpha == 1.0:
            return E.elu(t)
        return E.where(
            E.greater(t, _scalar(want, 0)), t, E.multiply(E.elu(t), _scalar(want, alpha))
        )

    return _maybe_inplace(x, _node("EluBackward0", fn, [x]), inplace)


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    """``scale * elu(x, alpha)`` with the self-normalising constants."""
    x = _arg(input)
    return _maybe_inplace(x, _node("EluBackward0", E.selu, [x]), inplace)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """``log(1 + exp(beta * x)) / beta`` (``x`` itself where ``beta * x > threshold``)."""
    x = _arg(input)
    want = x.dtype

    def fn(t: Any) -> Any:
        bt = t if beta == 1 else E.multiply(t, _scalar(want, beta))
        soft = E.softplus(bt)
        if beta != 1:
            soft = E.divide(soft, _scalar(want, beta))
        return E.where(E.greater(bt, _scalar(want, threshold)), t, soft)

    return _node("SoftplusBackward0", fn, [x])


def _softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    diagnostics.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
        "dim=X as an argument.",
        stacklevel=stacklevel,
    )
    return 0 if ndim in (0, 1, 3) else 1


def _softmax_like(kind: str, input: Tensor, dim: Any, dtype: Any, stacklevel: int) -> Tensor:
    x = _arg(input)
    if dim is None:
        dim = _softmax_dim(kind, x.ndim, stacklevel + 1)
    if dtype is not None:
        x = x.to(_D.as_torch(dtype))
    axis = _dim(int(dim), x.ndim)
    if kind == "softmax":
        return _node("SoftmaxBackward0", lambda t: E.softmax(t, axis), [x])
    return _node("LogSoftmaxBackward0", lambda t: E.log_softmax(t, axis), [x])


def softmax(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None
) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``dim``."""
    return _softmax_like("softmax", input, dim, dtype, _stacklevel)


def log_softmax(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None
) -> Tensor:
    """``log(softmax(x))`` along ``dim``, computed stably."""
    return _softmax_like("log_softmax", input, dim, dtype, _stacklevel)


# -- linear, dropout, one_hot, normalize, pad ----------------------------------------------------


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias``: ``AddmmBackward0`` for a matrix input, as torch."""
    x, w = _arg(input), _arg(weight)
    b = None if bias is None else _arg(bias)
    if x.ndim == 0 or w.ndim == 0:
        raise RuntimeError(
            f"both arguments to linear need to be at least 1D, but they are {x.ndim}D and {w.ndim}D"
        )
    for other in (w, b):
        if other is not None and other.dtype is not x.dtype:
            raise RuntimeError(
                f"mat1 and mat2 must have the same dtype, but got {_word(x.dtype)} and "
                f"{_word(other.dtype)}"
            )
    k = x.shape[-1]
    rows = int(np.prod(x.shape[:-1], dtype=np.int64))
    wk = w.shape[-1] if w.ndim == 2 else w.shape[0]
    if k != wk:
        if x.ndim == 1 and b is None:
            raise RuntimeError(f"size mismatch, got input ({k}), other ({wk})")
        out_f = w.shape[0] if w.ndim == 2 else 1
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({rows}x{k} and {wk}x{out_f})"
        )

    def affine(t: Any, wt: Any, bt: Any) -> Any:
        flat = t if t.ndim == 2 else E.reshape(t, (rows, k))
        prod = E.matmul(flat, wt, transpose_b=True)
        return prod if bt is None else E.add(prod, bt)

    def addmm(bt: Any, t: Any, wt: Any) -> Any:  # torch's addmm(bias, input, weight.t())
        return affine(t, wt, bt)

    if b is not None and x.ndim == 2:
        return _node("AddmmBackward0", addmm, [b, x, w])
    if b is not None:
        flat = _node("AddmmBackward0", addmm, [b, x, w])
        shape = (*x.shape[:-1], flat.shape[-1])
        return _node("ViewBackward0", lambda t: E.reshape(t, shape), [flat])
    return _O.matmul(x, w.t())


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by ``1/(1-p)`` (training)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    x = _arg(input)
    if not training or p == 0 or x.numel() == 0:
        return x
    want = x.dtype
    if p == 1:
        noise = np.zeros(x.shape, want._engine.np)
    else:
        keep = _rng().side_stream().random(tuple(x.shape)) < (1.0 - p)  # (torch: MKL's mask)
        noise = keep.astype(want._engine.np) / want._engine.np.type(1.0 - p)
    mask = _ETensor(_freeze(noise), want._engine)
    out = _node("MulBackward0", lambda t: E.multiply(t, mask), [x])
    return _maybe_inplace(x, out, inplace)


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """Class indices as one-hot rows (int64)."""
    t = _arg(tensor)
    if t.dtype is not _D.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    v = _values(t)
    if num_classes == -1:
        if v.size == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(v.max()) + 1
    if v.size and v.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if v.size and v.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    out = np.eye(int(num_classes), dtype=np.int64)[v.astype(np.int64)]
    return Tensor._wrap(_ETensor(_freeze(out), _D.int64._engine))


def normalize(
    input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out: Any = None
) -> Tensor:
    """``input / max(norm(input, p, dim), eps)``."""
    x = _arg(input)
    denom = _O.clamp(_R.norm(x, p, dim, keepdim=True), min=eps)
    return _O.div(x, denom.expand_as(x))


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """``sum(x1/|x1| * x2/|x2|)`` along ``dim`` (each norm at least ``eps``)."""
    a, b = _arg(x1), _arg(x2)
    na = _O.clamp(_R.norm(a, 2, dim, keepdim=True), min=eps)
    nb = _O.clamp(_R.norm(b, 2, dim, keepdim=True), min=eps)
    return _R.sum(_O.mul(_O.div(a, na), _O.div(b, nb)), dim)


def pad(
    input: Tensor, pad: Sequence[int], mode: str = "constant", value: float | None = None
) -> Tensor:
    """Pad (crop, for negative sizes) the last dimensions: ``(left, right, top, bottom, ...)``."""
    if mode != "constant":
        raise NotImplementedError(f"pad mode {mode!r} is not supported in tapeviz; use 'constant'")
    x = _arg(input)
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > x.ndim:
        raise RuntimeError(
            "Padding length should be less than or equal to two times the input dimension but "
            f"got padding length {len(pad)} and input of dimension {x.ndim}"
        )
    widths = [[0, 0] for _ in range(x.ndim)]
    for i in range(len(pad) // 2):
        widths[x.ndim - 1 - i] = [int(pad[2 * i]), int(pad[2 * i + 1])]
    fill = _scalar(x.dtype, 0 if value is None else value)

    def fn(t: Any) -> Any:
        grow = [[max(a, 0), max(b, 0)] for a, b in widths]
        out = E.pad(t, grow, constant_values=fill) if any(a or b for a, b in grow) else t
        key = tuple(slice(-a if a < 0 else None, b if b < 0 else None) for a, b in widths)
        return E.getitem(out, key) if any(a < 0 or b < 0 for a, b in widths) else E.identity(out)

    return _node("ConstantPadNdBackward0", fn, [x])
