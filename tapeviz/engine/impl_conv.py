"""IMPL of the convolution and pooling primitives: NHWC numpy forwards, no loop over pixels.

A convolution is im2col: the windows of the padded input (``sliding_window_view``, no copy)
are gathered a block of images at a time into a matrix and multiplied by the filter matrix
(TensorFlow's own description of ``conv2d``); the blocks keep the gathered copy small however
large the batch. Its input gradient is a stride-1 convolution of the padded upstream with the
flipped filter, or, for strided convolutions, one matrix product per filter tap added into a
strided slice. Pools loop over the window's taps only (``max`` of ``kh·kw`` slices); the max
pool's gradient goes to the first maximum of each window in row-major order, as in TensorFlow.
:mod:`tapeviz.engine.impl_rules` merges :data:`IMPL_CONV` into ``IMPL``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from tapeviz.engine import primitives as P
from tapeviz.engine.conv_shapes import spatial
from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.guard import checkpoint
from tapeviz.engine.primitives import Primitive

IMPL_CONV: dict[Primitive, Callable[..., Any]] = {}
FLOAT_ONLY_CONV: frozenset[Primitive] = frozenset(
    {P.conv2d_p, P.conv2d_backprop_input_p, P.conv2d_backprop_filter_p, P.avg_pool_p,
     P.avg_pool_grad_p}
)  # fmt: skip

BLOCK = 1 << 22  # elements of one gathered im2col block (16 MB of float32)


def _rank4(x: np.ndarray, what: str, op: str) -> None:
    if x.ndim != 4:
        raise InvalidArgumentError(
            f"{op}: {what} must be 4-dimensional (batch, height, width, channels), "
            f"got shape {list(x.shape)}",
            op,
        )


def _pad(x: np.ndarray, pads: Any, value: Any = 0) -> np.ndarray:
    (t, b), (lo, hi) = pads
    if not (t or b or lo or hi):
        return x
    return np.pad(x, ((0, 0), (t, b), (lo, hi), (0, 0)), constant_values=value)


def _windows(
    xp: np.ndarray, k: Any, strides: Any, dilations: Any, out: Any
) -> np.ndarray:  # fmt: skip
    """The ``(n, oh, ow, kh, kw, c)`` windows of a padded input, as a view."""
    kh, kw = k
    (sh, sw), (dh, dw) = strides, dilations
    span = ((kh - 1) * dh + 1, (kw - 1) * dw + 1)
    win = sliding_window_view(xp, span, axis=(1, 2))  # (n, H', W', c, span_h, span_w)
    win = win[:, : (out[0] - 1) * sh + 1 : sh, : (out[1] - 1) * sw + 1 : sw, :, ::dh, ::dw]
    return win.transpose(0, 1, 2, 4, 5, 3)


def _blocks(n: int, per_image: int) -> Iterator[slice]:
    step = max(1, BLOCK // max(per_image, 1))
    for start in range(0, n, step):
        if start:
            checkpoint()  # a long convolution: let the sandbox check its time and Stop
        yield slice(start, start + step)


def _correlate(xp: np.ndarray, w: np.ndarray, strides: Any, dilations: Any, out: Any) -> Any:
    """``out[b, i, j, :] = Σ xp[b, i·s + di·d, j·s + dj·d, :] · w[di, dj]`` (xp padded)."""
    n = xp.shape[0]
    kh, kw, c, co = w.shape
    oh, ow = out
    result = np.empty((n, oh, ow, co), dtype=np.result_type(xp, w))
    if result.size == 0 or n == 0:
        return np.zeros_like(result)
    if xp.shape[1] < (kh - 1) * dilations[0] + 1 or xp.shape[2] < (kw - 1) * dilations[1] + 1:
        return np.zeros_like(result)
    if _few_outputs(c, co):  # the im2col copy would cost more than the products
        result[...] = 0
        for i, j, view in _tap_views(xp, (kh, kw), strides, dilations, out):
            result += np.matmul(view, w[i, j])  # one small product per row of windows
        return result
    win = _windows(xp, (kh, kw), strides, dilations, out)
    wmat = w.reshape(kh * kw * c, co)
    for part in _blocks(n, oh * ow * kh * kw * c):
        cols = win[part].reshape(-1, kh * kw * c)  # the im2col copy of this block
        result[part] = (cols @ wmat).reshape(-1, oh, ow, co)
    return result


def _few_outputs(c: int, co: int) -> bool:
    """Whether to multiply tap by tap in place: many input and few output channels."""
    return co < 16 <= c


def _tap_views(
    xp: np.ndarray, k: Any, strides: Any, dilations: Any, out: Any
) -> Iterator[tuple[int, int, np.ndarray]]:  # fmt: skip
    """Each filter tap ``(i, j)`` and the strided ``(n, oh, ow, c)`` view of ``xp`` it reads."""
    (sh, sw), (dh, dw), (oh, ow) = strides, dilations, out
    for i in range(k[0]):
        checkpoint()  # let the sandbox check its time and Stop between rows of taps
        for j in range(k[1]):
            yield i, j, xp[:, i * dh : i * dh + sh * (oh - 1) + 1 : sh,
                           j * dw : j * dw + sw * (ow - 1) + 1 : sw]  # fmt: skip


def _conv2d(x: Any, w: Any, *, strides: Any, padding: Any, dilations: Any) -> Any:
    x, w = np.asarray(x), np.asarray(w)
    _rank4(x, "input", "conv2d")
    _rank4(w, "filter", "conv2d")
    _same_depth(x.shape[3], w.shape[2], "conv2d")
    out, pads = spatial(x.shape[1:3], w.shape[:2], strides, dilations, padding, "conv2d")
    return _correlate(_pad(x, pads), w, strides, dilations, out)


def _same_depth(c: int, fc: int, op: str) -> None:
    if c != fc:
        raise InvalidArgumentError(
            f"input depth must be evenly divisible by filter depth: {c} vs {fc}"
            if fc == 0 or c % fc
            else f"{op}: input depth {c} differs from the filter's in_channels {fc} "
            "(grouped convolutions are not available in tapeviz)",
            op,
        )


def _check_out(g: np.ndarray, want: tuple[int, ...], op: str) -> None:
    if tuple(g.shape) != tuple(want):
        raise InvalidArgumentError(
            f"{op}: Size of out_backprop doesn't match computed: actual = {list(g.shape)}, "
            f"computed = {list(want)}",
            op,
        )


def _backprop_input(
    w: Any, g: Any, *, input_shape: Any, strides: Any, padding: Any, dilations: Any
) -> Any:
    """The input gradient of conv2d (``tf.nn.conv2d_transpose``), ``input_shape``-shaped."""
    w, g = np.asarray(w), np.asarray(g)
    op = "conv2d_backprop_input"
    _rank4(w, "filter", op)
    _rank4(g, "out_backprop", op)
    n, h, wd, c = (int(d) for d in input_shape)
    kh, kw, fc, co = w.shape
    _same_depth(c, fc, op)
    (oh, ow), ((t, b), (lo, hi)) = spatial((h, wd), (kh, kw), strides, dilations, padding, op)
    _check_out(g, (n, oh, ow, co), op)
    dtype = np.result_type(w, g)
    if g.size == 0 or n * h * wd * c == 0:
        return np.zeros((n, h, wd, c), dtype=dtype)
    if tuple(strides) == (1, 1):  # a convolution of the padded upstream with the flipped filter
        (dh, dw), flipped = dilations, w[::-1, ::-1].transpose(0, 1, 3, 2)
        eh, ew = (kh - 1) * dh + 1, (kw - 1) * dw + 1
        before, after = (eh - 1 - t, ew - 1 - lo), (h - oh + t, wd - ow + lo)
        gp = np.pad(g, ((0, 0), (max(before[0], 0), max(after[0], 0)),
                        (max(before[1], 0), max(after[1], 0)), (0, 0)))  # fmt: skip
        gp = gp[:, max(-before[0], 0) : gp.shape[1] - max(-after[0], 0),
                max(-before[1], 0) : gp.shape[2] - max(-after[1], 0)]  # fmt: skip
        return _correlate(gp, np.ascontiguousarray(flipped), (1, 1), dilations, (h, wd))
    dxp = np.zeros((n, h + t + b, wd + lo + hi, c), dtype=dtype)
    g2 = g.reshape(-1, co)
    (sh, sw), (dh, dw) = strides, dilations
    for i in range(kh):
        checkpoint()
        for j in range(kw):
            tap = (g2 @ w[i, j].T).reshape(n, oh, ow, c)
            dxp[:, i * dh : i * dh + sh * (oh - 1) + 1 : sh,
                j * dw : j * dw + sw * (ow - 1) + 1 : sw] += tap  # fmt: skip
    return dxp[:, t : t + h, lo : lo + wd]


def _backprop_filter(
    x: Any, g: Any, *, filter_shape: Any, strides: Any, padding: Any, dilations: Any
) -> Any:
    """The filter gradient of conv2d, ``filter_shape``-shaped."""
    x, g = np.asarray(x), np.asarray(g)
    op = "conv2d_backprop_filter"
    _rank4(x, "input", op)
    _rank4(g, "out_backprop", op)
    kh, kw, c, co = (int(d) for d in filter_shape)
    _same_depth(x.shape[3], c, op)
    out, pads = spatial(x.shape[1:3], (kh, kw), strides, dilations, padding, op)
    _check_out(g, (x.shape[0], *out, co), op)
    dw = np.zeros((kh * kw * c, co), dtype=np.result_type(x, g))
    if g.size and x.size and _few_outputs(c, co):
        dw = dw.reshape(kh, kw, c, co)
        xp, gt = _pad(x, pads), g.swapaxes(-1, -2)  # (n, oh, co, ow)
        for part in _blocks(x.shape[0], out[0] * c * co):
            for i, j, view in _tap_views(xp[part], (kh, kw), strides, dilations, out):
                dw[i, j] += np.matmul(gt[part], view).sum(axis=(0, 1)).T
    elif g.size and x.size:
        win = _windows(_pad(x, pads), (kh, kw), strides, dilations, out)
        for part in _blocks(x.shape[0], out[0] * out[1] * kh * kw * c):
            cols = win[part].reshape(-1, kh * kw * c)
            dw += cols.T @ g[part].reshape(-1, co)
    return dw.reshape(kh, kw, c, co)


IMPL_CONV[P.conv2d_p] = _conv2d
IMPL_CONV[P.conv2d_backprop_input_p] = _backprop_input
IMPL_CONV[P.conv2d_backprop_filter_p] = _backprop_filter


# -- pooling -------------------------------------------------------------------------------
def _taps(
    xp: np.ndarray, ksize: Any, strides: Any, out: Any
) -> Iterator[tuple[int, tuple[slice, slice]]]:  # fmt: skip
    """Each window tap's row-major index and the strided slice of ``xp`` it reads."""
    (kh, kw), (sh, sw), (oh, ow) = ksize, strides, out
    for i in range(kh):
        checkpoint()
        for j in range(kw):
            yield (
                i * kw + j,
                (slice(i, i + sh * (oh - 1) + 1, sh), slice(j, j + sw * (ow - 1) + 1, sw)),
            )


def _lowest(dtype: np.dtype) -> Any:
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _pool_geometry(x: np.ndarray, ksize: Any, strides: Any, padding: Any, op: str) -> Any:
    _rank4(x, "input", op)
    out, pads = spatial(x.shape[1:3], ksize, strides, (1, 1), padding, op)
    widest = (max(pads[0]), max(pads[1]))
    if not isinstance(padding, str) and any(p > k for p, k in zip(widest, ksize, strict=True)):
        raise InvalidArgumentError(
            f"{op}: explicit padding {list(pads)} cannot be greater than the window {list(ksize)}",
            op,
        )
    return out, pads


def _argmax(x: np.ndarray, ksize: Any, strides: Any, padding: Any, op: str) -> Any:
    """The max pool ``y``, each window's first argmax tap, the padded geometry."""
    out, pads = _pool_geometry(x, ksize, strides, padding, op)
    xp = _pad(x, pads, _lowest(x.dtype))
    shape = (x.shape[0], *out, x.shape[3])
    best = np.full(shape, _lowest(x.dtype), dtype=x.dtype)
    where = np.zeros(shape, dtype=np.int32)
    if best.size:
        for tap, (rows, cols) in _taps(xp, ksize, strides, out):
            view = xp[:, rows, cols]
            better = view > best
            np.copyto(best, view, where=better)
            where[better] = tap
    return best, where, out, pads


def _max_pool(x: Any, *, ksize: Any, strides: Any, padding: Any) -> Any:
    return _argmax(np.asarray(x), ksize, strides, padding, "max_pool")[0]


def _scatter_taps(
    g: np.ndarray, x_shape: Any, dtype: Any, ksize: Any, strides: Any, out: Any, pads: Any,
    weight: Callable[[int, np.ndarray], np.ndarray],
) -> np.ndarray:  # fmt: skip
    """Add ``weight(tap, g)`` into each tap's strided slice of a padded zero image; crop."""
    (t, b), (lo, hi) = pads
    n, h, w, c = x_shape
    dxp = np.zeros((n, h + t + b, w + lo + hi, c), dtype=dtype)
    if g.size:
        for tap, (rows, cols) in _taps(dxp, ksize, strides, out):
            dxp[:, rows, cols] += weight(tap, g)
    return dxp[:, t : t + h, lo : lo + w]


def _max_pool_grad(x: Any, g: Any, *, ksize: Any, strides: Any, padding: Any) -> Any:
    x, g = np.asarray(x), np.asarray(g)
    _, where, out, pads = _argmax(x, ksize, strides, padding, "max_pool_grad")
    _check_out(g, where.shape, "max_pool_grad")
    zero = np.zeros((), dtype=g.dtype)
    return _scatter_taps(g, x.shape, g.dtype, ksize, strides, out, pads,
                         lambda tap, gg: np.where(where == tap, gg, zero))  # fmt: skip


def _max_pool_grad_grad(x: Any, u: Any, *, ksize: Any, strides: Any, padding: Any) -> Any:
    """Each window's argmax value of ``u`` (x-shaped): the max pool's gradient, transposed."""
    x, u = np.asarray(x), np.asarray(u)
    _, where, out, pads = _argmax(x, ksize, strides, padding, "max_pool_grad_grad")
    _check_out(u, x.shape, "max_pool_grad_grad")
    up = _pad(u, pads)
    result = np.zeros(where.shape, dtype=u.dtype)
    if result.size:
        for tap, (rows, cols) in _taps(up, ksize, strides, out):
            np.copyto(result, up[:, rows, cols], where=where == tap)
    return result


def _counts(hw: Any, ksize: Any, strides: Any, out: Any, pads: Any) -> np.ndarray:
    """How many real (unpadded) elements each output window covers, ``(oh, ow, 1)``."""
    ones = _pad(np.ones((1, hw[0], hw[1], 1), dtype=np.int64), pads)
    total = np.zeros((1, *out, 1), dtype=np.int64)
    for _, (rows, cols) in _taps(ones, ksize, strides, out):
        total += ones[:, rows, cols]
    return np.maximum(total[0], 1)


def _avg_pool(x: Any, *, ksize: Any, strides: Any, padding: Any) -> Any:
    x = np.asarray(x)
    out, pads = _pool_geometry(x, ksize, strides, padding, "avg_pool")
    xp = _pad(x, pads)
    total = np.zeros((x.shape[0], *out, x.shape[3]), dtype=x.dtype)
    if total.size:
        for _, (rows, cols) in _taps(xp, ksize, strides, out):
            total += xp[:, rows, cols]
    return (total / _counts(x.shape[1:3], ksize, strides, out, pads).astype(x.dtype)).astype(
        x.dtype
    )


def _avg_pool_grad(g: Any, *, input_shape: Any, ksize: Any, strides: Any, padding: Any) -> Any:
    g = np.asarray(g)
    shape = tuple(int(d) for d in input_shape)
    out, pads = spatial(shape[1:3], ksize, strides, (1, 1), padding, "avg_pool_grad")
    _check_out(g, (shape[0], *out, shape[3]), "avg_pool_grad")
    share = g / _counts(shape[1:3], ksize, strides, out, pads).astype(g.dtype)
    return _scatter_taps(share.astype(g.dtype), shape, g.dtype, ksize, strides, out, pads,
                         lambda tap, gg: gg)  # fmt: skip


IMPL_CONV[P.max_pool_p] = _max_pool
IMPL_CONV[P.max_pool_grad_p] = _max_pool_grad
IMPL_CONV[P.max_pool_grad_grad_p] = _max_pool_grad_grad
IMPL_CONV[P.avg_pool_p] = _avg_pool
IMPL_CONV[P.avg_pool_grad_p] = _avg_pool_grad
