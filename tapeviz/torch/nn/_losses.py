"""The loss functions of ``torch.nn.functional``, with torch's nodes, numbers and messages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz import engine as E
from tapeviz.engine import diagnostics
from tapeviz.torch import _dtypes as _D
from tapeviz.torch import _ops as _O
from tapeviz.torch import _reduce as _R
from tapeviz.torch._tensor import Tensor
from tapeviz.torch.nn._graph import broadcast_shape as _broadcast
from tapeviz.torch.nn._graph import cast as _cast
from tapeviz.torch.nn._graph import floats as _floats
from tapeviz.torch.nn._graph import node as _node
from tapeviz.torch.nn._graph import reduce as _reduce
from tapeviz.torch.nn._graph import reduction_of as _reduction
from tapeviz.torch.nn._graph import scalar as _scalar
from tapeviz.torch.nn._graph import tensor_arg as _arg
from tapeviz.torch.nn._graph import values as _values
from tapeviz.torch.nn._graph import word as _word

# Called after the losses below with (torch's loss class name, input, target, the loss): the
# Network view watches which model output a loss was computed from (nn._net_view registers one).
LOSS_NOTES: list[Callable[[str, Any, Any, Any], None]] = []


def _noted(name: str, input: Any, target: Any, out: Tensor) -> Tensor:
    for note in LOSS_NOTES:
        note(name, input, target, out)
    return out


def _warn_size(x: Tensor, y: Tensor) -> None:
    if tuple(y.shape) != tuple(x.shape):
        diagnostics.warn(
            f"Using a target size ({y.size()}) that is different to the input size ({x.size()}). "
            "This will likely lead to incorrect results due to broadcasting. Please ensure they "
            "have the same size.",
            stacklevel=3,
        )


def mse_loss(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    """Mean (or sum) of squared differences, recorded as ``MseLossBackward0``."""
    x, y = _arg(input), _arg(target)
    _warn_size(x, y)
    how = _reduction(size_average, reduce, reduction)
    _broadcast(x.shape, y.shape)
    want = _floats(x, y)

    def fn(a: Any, b: Any) -> Any:
        return _reduce(E.square(E.subtract(_cast(a, want), _cast(b, want))), how)

    return _noted("MSELoss", input, target, _node("MseLossBackward0", fn, [x, y]))


def l1_loss(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    """Mean (or sum) of absolute differences: ``(input - target).abs().mean()`` as torch runs it."""
    x, y = _arg(input), _arg(target)
    _warn_size(x, y)
    how = _reduction(size_average, reduce, reduction)
    diff = _O.abs(_O.sub(x, y))
    return _R.mean(diff) if how == "mean" else _R.sum(diff) if how == "sum" else diff


def _piecewise(name: str, x: Tensor, y: Tensor, how: str, width: float, huber: bool) -> Tensor:
    _broadcast(x.shape, y.shape)
    want = _floats(x, y)
    w, half = _scalar(want, width), _scalar(want, 0.5)

    def fn(a: Any, b: Any) -> Any:
        z = E.abs(E.subtract(_cast(a, want), _cast(b, want)))
        quad = E.multiply(E.multiply(half, z), z)
        if huber:
            lin = E.multiply(w, E.subtract(z, E.multiply(half, w)))
        else:
            quad = E.divide(quad, w)
            lin = E.subtract(z, E.multiply(half, w))
        return _reduce(E.where(E.less(z, w), quad, lin), how)

    return _node(name, fn, [x, y])


def smooth_l1_loss(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    beta: float = 1.0,
) -> Tensor:
    """Squared below ``beta`` (halved, over ``beta``), absolute above."""
    x, y = _arg(input), _arg(target)
    _warn_size(x, y)
    how = _reduction(size_average, reduce, reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0.0:
        return l1_loss(x, y, reduction=how)
    return _piecewise("SmoothL1LossBackward0", x, y, how, beta, huber=False)


def huber_loss(
    input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0
) -> Tensor:
    """Squared (halved) below ``delta``, ``delta`` times absolute above."""
    x, y = _arg(input), _arg(target)
    _warn_size(x, y)
    how = _reduction(None, None, reduction)
    return _piecewise("HuberLossBackward0", x, y, how, delta, huber=True)


def _safe_log(v: Any, ok: Any, want: _D.dtype, one_minus: bool) -> Any:
    """``max(log(v), -100)`` (``log1p(-v)``), -100 where ``ok`` fails, with no NaN gradient."""
    floor = _scalar(want, -100.0)
    safe = E.where(ok, v, _scalar(want, 0.0 if one_minus else 1.0))
    logged = E.log1p(E.negative(safe)) if one_minus else E.log(safe)
    return E.where(ok, E.maximum(logged, floor), floor)


def binary_cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    """``-w (y log x + (1-y) log(1-x))`` with torch's clamp of the logs at -100."""
    x, y = _arg(input), _arg(target)
    how = _reduction(size_average, reduce, reduction)
    if tuple(y.shape) != tuple(x.shape):
        raise ValueError(
            f"Using a target size ({y.size()}) that is different to the input size ({x.size()}) "
            "is deprecated. Please ensure they have the same size."
        )
    xv, yv = _values(x), _values(y)
    if not np.all((xv >= 0) & (xv <= 1)):
        raise RuntimeError("all elements of input should be between 0 and 1")
    if not np.all((yv >= 0) & (yv <= 1)):
        raise RuntimeError("all elements of target should be between 0 and 1")
    w = None if weight is None else _arg(weight)
    if w is not None:
        _broadcast(y.shape, w.shape)
    want = _floats(x, y, w)
    lo_ok, hi_ok = xv > 0, xv < 1

    def fn(a: Any, b: Any, c: Any) -> Any:
        a, b = _cast(a, want), _cast(b, want)
        log_x = _safe_log(a, lo_ok, want, one_minus=False)
        log_1mx = _safe_log(a, hi_ok, want, one_minus=True)
        loss = E.subtract(
            E.multiply(E.subtract(b, _scalar(want, 1.0)), log_1mx), E.multiply(b, log_x)
        )
        if c is not None:
            loss = E.multiply(loss, _cast(c, want))
        return _reduce(loss, how)

    return _noted("BCELoss", input, target, _node("BinaryCrossEntropyBackward0", fn, [x, y, w]))


def binary_cross_entropy_with_logits(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    pos_weight: Tensor | None = None,
) -> Tensor:
    """Sigmoid and binary cross-entropy in one stable formula (``pos_weight`` weighs positives)."""
    x, y = _arg(input), _arg(target)
    how = _reduction(size_average, reduce, reduction)
    if tuple(y.shape) != tuple(x.shape):
        raise ValueError(f"Target size ({y.size()}) must be the same as input size ({x.size()})")
    w = None if weight is None else _arg(weight)
    pw = None if pos_weight is None else _arg(pos_weight)
    want = _floats(x, y, w, pw)
    one = _scalar(want, 1.0)

    def fn(a: Any, b: Any, c: Any, p: Any) -> Any:
        a, b = _cast(a, want), _cast(b, want)
        log_sig = E.log_sigmoid(a)
        if p is not None:
            log_sig = E.multiply(
                log_sig, E.add(E.multiply(E.subtract(_cast(p, want), one), b), one)
            )
        loss = E.subtract(E.multiply(E.subtract(one, b), a), log_sig)
        if c is not None:
            loss = E.multiply(loss, _cast(c, want))
        return _reduce(loss, how)

    out = _node("BinaryCrossEntropyWithLogitsBackward0", fn, [x, y, w, pw])
    return _noted("BCEWithLogitsLoss", input, target, out)


# -- nll_loss and cross_entropy ------------------------------------------------------------------


def _check_nll(x: Tensor, y: Tensor, weight: Tensor | None) -> None:
    if x.ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {x.ndim})")
    if x.ndim != 1 and y.ndim >= 1 and x.shape[0] != y.shape[0]:
        raise ValueError(
            f"Expected input batch_size ({x.shape[0]}) to match target batch_size ({y.shape[0]})."
        )
    if x.ndim <= 2 and y.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if x.ndim == 1 and y.ndim == 1 and x.shape[0] != y.shape[0]:
        raise RuntimeError(f"size mismatch (got input: {list(x.shape)}, target: {list(y.shape)})")
    if x.ndim >= 3 and tuple(y.shape) != (x.shape[0], *x.shape[2:]):
        expected = [x.shape[0], *x.shape[2:]]
        raise RuntimeError(f"Expected target size {expected}, got {list(y.shape)}")
    if y.dtype not in (_D.int64, _D.uint8):
        raise RuntimeError(f"expected scalar type Long but found {_word(y.dtype)}")
    c = x.shape[0 if x.ndim == 1 else 1]
    if weight is not None and (weight.ndim != 1 or weight.numel() != c):
        raise RuntimeError(
            f"weight tensor should be defined either for all {c} classes or no classes but got "
            f"weight tensor of shape: {list(weight.shape)}"
        )


def _picks(
    x: Tensor, t: np.ndarray, weight: Tensor | None, ignore_index: int
) -> tuple[Any, np.ndarray]:
    """The index key of each target's log-probability, and each target's weight (0: ignored)."""
    c = x.shape[0 if x.ndim == 1 else 1]
    ignored = t == ignore_index
    bad = t[~ignored & ((t < 0) | (t >= c))]
    if bad.size:
        raise IndexError(f"Target {int(bad.flat[0])} is out of bounds.")
    safe = np.where(ignored, 0, t).astype(np.int64)
    w = np.ones(c) if weight is None else _values(weight).astype(np.float64)
    wi = np.where(ignored, 0.0, w[safe]).astype(x.dtype._engine.np)
    if x.ndim == 1:
        return int(safe), wi
    grids = list(np.indices(safe.shape, sparse=True))
    return (grids[0], safe, *grids[1:]), wi


def nll_loss(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: Any = None,
    ignore_index: int = -100,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    """Negative log-likelihood of the target classes (from log-probabilities)."""
    x, y = _arg(input), _arg(target)
    how = _reduction(size_average, reduce, reduction)
    w = None if weight is None else _arg(weight)
    _check_nll(x, y, w)
    key, wi = _picks(x, _values(y).astype(np.int64), w, ignore_index)
    total = wi.sum(dtype=np.float64).astype(wi.dtype)

    def fn(lp: Any) -> Any:
        losses = E.negative(E.multiply(E.getitem(lp, key), wi))
        if how == "none":
            return losses
        summed = E.reduce_sum(losses)
        return E.divide(summed, total) if how == "mean" else summed

    return _node("NllLossBackward0" if x.ndim <= 2 else "NllLoss2DBackward0", fn, [x])


def _log_softmax(x: Tensor, dim: int) -> Tensor:
    return _node("LogSoftmaxBackward0", lambda t: E.log_softmax(t, dim), [x])


def _prob_target(lp: Tensor, y: Tensor, w: Tensor | None, how: str, smoothing: float) -> Tensor:
    cdim = 0 if lp.ndim == 1 else 1
    c = lp.shape[cdim]
    want = lp.dtype
    wshape = tuple(c if i == cdim else 1 for i in range(lp.ndim))
    count = _scalar(want, lp.numel() / c)

    def fn(a: Any, b: Any, ww: Any) -> Any:
        b = _cast(b, want)
        if smoothing > 0:
            b = E.add(E.multiply(b, _scalar(want, 1 - smoothing)), _scalar(want, smoothing / c))
        prod = E.multiply(a, b)
        if ww is not None:
            prod = E.multiply(prod, E.reshape(_cast(ww, want), wshape))
        if how == "none":
            return E.negative(E.reduce_sum(prod, cdim))
        neg = E.negative(E.reduce_sum(prod))
        return E.divide(neg, count) if how == "mean" else neg

    return _node("DivBackward0" if how == "mean" else "NegBackward0", fn, [lp, y, w])


def cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: Any = None,
    ignore_index: int = -100,
    reduce: Any = None,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    """``log_softmax`` then ``nll_loss`` (class indices), or against class probabilities."""
    x, y = _arg(input), _arg(target)
    how = _reduction(size_average, reduce, reduction)
    w = None if weight is None else _arg(weight)
    cdim = 0 if x.ndim == 1 else 1
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing:g}")
    if tuple(x.shape) == tuple(y.shape):
        if not y.dtype.is_floating_point:
            raise RuntimeError(
                f"Expected floating point type for target with class probabilities, got "
                f"{_word(y.dtype)}"
            )
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        out = _prob_target(_log_softmax(x, cdim), y, w, how, label_smoothing)
        return _noted("CrossEntropyLoss", input, target, out)
    lp = _log_softmax(x, cdim)
    nll = nll_loss(lp, y, w, ignore_index=ignore_index, reduction=how)
    if label_smoothing != 0:
        nll = _smoothed(lp, y, w, nll, ignore_index, how, label_smoothing)
    return _noted("CrossEntropyLoss", input, target, nll)


def _smoothed(
    lp: Tensor,
    y: Tensor,
    w: Tensor | None,
    nll: Tensor,
    ignore_index: int,
    how: str,
    smoothing: float,
) -> Tensor:
    cdim = 0 if lp.ndim == 1 else 1
    c = lp.shape[cdim]
    want = lp.dtype
    t = _values(y).astype(np.int64)
    keep = (t != ignore_index).astype(want._engine.np)
    wshape = tuple(c if i == cdim else 1 for i in range(lp.ndim))
    if w is None:
        denom = keep.sum(dtype=np.float64)
    else:
        wv = _values(w).astype(np.float64)
        denom = wv[np.where(t != ignore_index, t, 0)][t != ignore_index].sum()

    def fn(a: Any, n: Any, ww: Any) -> Any:
        part = a if ww is None else E.multiply(a, E.reshape(_cast(ww, want), wshape))
        smooth = E.multiply(E.negative(E.reduce_sum(part, cdim)), keep)
        if how == "mean":
            smooth = E.divide(E.reduce_sum(smooth), _scalar(want, denom))
        elif how == "sum":
            smooth = E.reduce_sum(smooth)
        return E.add(
            E.multiply(n, _scalar(want, 1 - smoothing)),
            E.multiply(smooth, _scalar(want, smoothing / c)),
        )

    return _node("AddBackward0", fn, [lp, nll, w])
