"""IMPL of convolution and pooling in torch's layout: NCHW primitives with torch's window rules.

``tapeviz.torch`` binds these so that one torch op (``F.conv2d``, ``F.max_pool2d``, ...) is
one record, as it is one node of torch's graph: no NHWC transposes around TensorFlow's ops.

* ``conv_nchw(x, w)`` and ``conv_bias_nchw(x, w, b)``: ``x`` ``(N, C, H, W)`` or ``(N, C,
  L)``, ``w`` ``(O, C/groups, kH, kW)`` (or ``(O, C/groups, K)``), bias ``(O,)``; params
  ``stride``, ``padding`` (zeros on both sides), ``dilation`` (tuples, one entry per spatial
  dimension) and ``groups``. Each group is the engine's im2col correlation
  (:mod:`tapeviz.engine.impl_conv`) on a channels-last view.
* ``max_pool_nchw(x)`` and ``avg_pool_nchw(x)`` pool the last two axes (any leading axes) with
  torch's output size (``ceil_mode`` included), ``-inf`` (max) or zero (average) padding, the
  first maximum of each window in row-major order (NaN wins, as in torch's CPU kernel) and
  torch's divisors (``count_include_pad``, ``divisor_override``).
* ``adaptive_avg_pool_nchw(x)``: torch's adaptive windows ``[⌊i·H/oh⌋, ⌈(i+1)·H/oh⌉)``, as one
  averaging matrix per axis.

:mod:`tapeviz.engine.impl_rules` merges :data:`IMPL_NCHW` into ``IMPL``; the module also
registers size guards for the sandbox's limits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from tapeviz.engine import primitives as P
from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.guard import (
    GUARD,
    ResourceLimitError,
    check_elements,
    checkpoint,
    register_precheck,
    shape_size,
)
from tapeviz.engine.impl_conv import _correlate
from tapeviz.engine.primitives import Primitive

__all__ = [
    "FLOAT_ONLY_NCHW", "IMPL_NCHW", "adaptive_matrix", "as_2d", "avg_divisor", "avg_pool_grad",
    "conv_out", "max_pool_argmax", "pool_out", "scatter_max",
]  # fmt: skip

IMPL_NCHW: dict[Primitive, Callable[..., Any]] = {}
FLOAT_ONLY_NCHW: frozenset[Primitive] = frozenset(
    {P.conv_nchw_p, P.conv_bias_nchw_p, P.avg_pool_nchw_p, P.adaptive_avg_pool_nchw_p}
)


# -- window arithmetic (torch's) -----------------------------------------------------------------
def conv_out(size: int, k: int, pad: int, stride: int, dilation: int) -> int:
    """Torch's convolution output size ``⌊(size + 2·pad − dilation·(k − 1) − 1) / stride⌋ + 1``."""
    return (size + 2 * pad - dilation * (k - 1) - 1) // stride + 1


def pool_out(size: int, k: int, pad: int, stride: int, dilation: int, ceil_mode: bool) -> int:
    """Torch's ``pooling_output_shape``: floor or ceil, the last window starting inside."""
    out = (size + 2 * pad - dilation * (k - 1) - 1 + (stride - 1 if ceil_mode else 0)) // stride
    out += 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def _pool_geometry(shape: Sequence[int], params: dict[str, Any]) -> tuple[int, int]:
    (kh, kw), (sh, sw), (ph, pw) = params["kernel_size"], params["stride"], params["padding"]
    dh, dw = params.get("dilation", (1, 1))
    ceil = bool(params["ceil_mode"])
    return pool_out(shape[-2], kh, ph, sh, dh, ceil), pool_out(shape[-1], kw, pw, sw, dw, ceil)


def _padded(x: np.ndarray, params: dict[str, Any], out: tuple[int, int], fill: Any) -> np.ndarray:
    """``x`` padded so every window's taps are strided slices (top/left by ``padding``)."""
    (kh, kw), (sh, sw), (ph, pw) = params["kernel_size"], params["stride"], params["padding"]
    dh, dw = params.get("dilation", (1, 1))
    h, w = x.shape[-2:]
    bottom = max((out[0] - 1) * sh + (kh - 1) * dh + 1 - ph - h, 0)
    right = max((out[1] - 1) * sw + (kw - 1) * dw + 1 - pw - w, 0)
    if not (ph or pw or bottom or right):
        return x
    widths = [(0, 0)] * (x.ndim - 2) + [(ph, bottom), (pw, right)]
    return np.pad(x, widths, constant_values=fill)


def _taps(params: dict[str, Any], out: tuple[int, int]) -> Iterator[tuple[int, int, Any]]:
    """Each window tap ``(i, j)`` and the strided slice of the padded input it reads."""
    (kh, kw), (sh, sw) = params["kernel_size"], params["stride"]
    dh, dw = params.get("dilation", (1, 1))
    oh, ow = out
    for i in range(kh):
        checkpoint()  # let the sandbox check its time and Stop between rows of taps
        for j in range(kw):
            yield i, j, (Ellipsis, slice(i * dh, i * dh + sh * (oh - 1) + 1, sh),
                         slice(j * dw, j * dw + sw * (ow - 1) + 1, sw))  # fmt: skip


def _planes(x: np.ndarray, op: str) -> None:
    if x.ndim < 3:
        raise InvalidArgumentError(
            f"{op}: input must have at least 3 dimensions (channels, height, width), got shape "
            f"{list(x.shape)}",
            op,
        )


# -- convolution ---------------------------------------------------------------------------------
def as_2d(params: dict[str, Any]) -> dict[str, Any]:
    """A 1-D convolution's params as a 2-D one's (a height of 1)."""
    if len(params["stride"]) == 2:
        return params
    return {"stride": (1, *params["stride"]), "padding": (0, *params["padding"]),
            "dilation": (1, *params["dilation"]), "groups": params["groups"]}  # fmt: skip


def _conv(x: Any, w: Any, b: Any = None, **params: Any) -> np.ndarray:
    x, w = np.asarray(x), np.asarray(w)
    op = "conv_nchw"
    if x.ndim not in (3, 4) or w.ndim != x.ndim:
        raise InvalidArgumentError(
            f"{op}: input and weight must both be 3-D or both 4-D, got shapes {list(x.shape)} "
            f"and {list(w.shape)}",
            op,
        )
    one_d = x.ndim == 3
    if one_d:
        x, w = x[:, :, None, :], w[:, :, None, :]
    p = as_2d(params)
    groups = int(p["groups"])
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    if cg * groups != c or o % groups:
        raise InvalidArgumentError(
            f"{op}: weight {list(w.shape)} with groups={groups} does not fit input {list(x.shape)}",
            op,
        )
    (sh, sw), (ph, pw), (dh, dw) = p["stride"], p["padding"], p["dilation"]
    out = (conv_out(h, kh, ph, sh, dh), conv_out(wd, kw, pw, sw, dw))
    if out[0] < 1 or out[1] < 1:
        raise InvalidArgumentError(f"{op}: the kernel is larger than the padded input", op)
    xp = x.transpose(0, 2, 3, 1)  # channels last: the engine's im2col runs on NHWC
    if ph or pw:
        xp = np.pad(xp, ((0, 0), (ph, ph), (pw, pw), (0, 0)))
    wt = w.transpose(2, 3, 1, 0)  # (kh, kw, C/groups, O)
    og = o // groups
    if groups == 1:
        y = _correlate(xp, np.ascontiguousarray(wt), (sh, sw), (dh, dw), out)
    else:
        y = np.empty((n, *out, o), dtype=np.result_type(x, w))
        for gi in range(groups):
            y[..., gi * og : (gi + 1) * og] = _correlate(
                xp[..., gi * cg : (gi + 1) * cg],
                np.ascontiguousarray(wt[..., gi * og : (gi + 1) * og]),
                (sh, sw), (dh, dw), out,
            )  # fmt: skip
    if b is not None:
        y = y + np.asarray(b)
    y = np.ascontiguousarray(y.transpose(0, 3, 1, 2))
    return y[:, :, 0, :] if one_d else y


IMPL_NCHW[P.conv_nchw_p] = _conv
IMPL_NCHW[P.conv_bias_nchw_p] = _conv


# -- max pooling ---------------------------------------------------------------------------------
def _lowest(dtype: np.dtype) -> Any:
    if dtype.kind == "f":
        return -np.inf
    if dtype.kind == "b":
        return False
    return np.iinfo(dtype).min


def max_pool_argmax(x: Any, **params: Any) -> tuple[np.ndarray, np.ndarray]:
    """The max pool and each window's flat ``row·W + col`` index of its maximum (torch's)."""
    x = np.asarray(x)
    _planes(x, "max_pool_nchw")
    w = x.shape[-1]
    out = _pool_geometry(x.shape, params)
    (sh, sw), (ph, pw) = params["stride"], params["padding"]
    dh, dw = params.get("dilation", (1, 1))
    rows = np.arange(out[0]) * sh - ph  # each window's first row and column (may be padding)
    cols = np.arange(out[1]) * sw - pw
    first_r = np.where(rows < 0, rows + (-rows + dh - 1) // dh * dh, rows)
    first_c = np.where(cols < 0, cols + (-cols + dw - 1) // dw * dw, cols)
    shape = (*x.shape[:-2], *out)
    best = np.full(shape, _lowest(x.dtype), dtype=x.dtype)
    where = np.empty(shape, dtype=np.int64)
    where[...] = first_r[:, None] * w + first_c[None, :]  # torch starts at the first real tap
    if best.size == 0:
        return best, where
    xp = _padded(x, params, out, _lowest(x.dtype))
    floats = x.dtype.kind == "f"
    for i, j, key in _taps(params, out):
        view = xp[key]
        better = view > best
        if floats:
            better |= np.isnan(view)
        if better.any():
            np.copyto(best, view, where=better)
            tap = (rows + i * dh)[:, None] * w + (cols + j * dw)[None, :]
            np.copyto(where, np.broadcast_to(tap, shape), where=better)
    return best, where


def _max_pool(x: Any, **params: Any) -> np.ndarray:
    return max_pool_argmax(x, **params)[0]


def scatter_max(g: np.ndarray, where: np.ndarray, x_shape: Sequence[int]) -> np.ndarray:
    """``g`` added into an ``x_shape`` zero array at each window's maximum."""
    h, w = x_shape[-2:]
    planes = shape_size(x_shape[:-2])
    offsets = (np.arange(planes, dtype=np.int64) * (h * w)).reshape(*x_shape[:-2], 1, 1)
    flat = np.bincount(
        (where + offsets).ravel(), weights=np.asarray(g).ravel(), minlength=planes * h * w
    )
    return flat.reshape(tuple(x_shape)).astype(np.asarray(g).dtype, copy=False)


IMPL_NCHW[P.max_pool_nchw_p] = _max_pool


# -- average pooling -----------------------------------------------------------------------------
def _avg_axis(size: int, k: int, pad: int, stride: int, out: int) -> tuple[np.ndarray, ...]:
    start = np.arange(out) * stride - pad
    end = np.minimum(start + k, size + pad)
    return end - start, np.minimum(end, size) - np.maximum(start, 0)


def avg_divisor(shape: Sequence[int], params: dict[str, Any]) -> np.ndarray:
    """Each window's divisor ``(oh, ow)``: torch's (padding counted or not, or the override)."""
    out = _pool_geometry(shape, params)
    (kh, kw), (sh, sw), (ph, pw) = params["kernel_size"], params["stride"], params["padding"]
    with_pad_h, real_h = _avg_axis(int(shape[-2]), kh, ph, sh, out[0])
    with_pad_w, real_w = _avg_axis(int(shape[-1]), kw, pw, sw, out[1])
    override = params.get("divisor_override")
    if override is not None:
        return np.full(out, int(override), dtype=np.int64)
    if params["count_include_pad"]:
        div = with_pad_h[:, None] * with_pad_w[None, :]
    else:
        div = np.maximum(real_h, 0)[:, None] * np.maximum(real_w, 0)[None, :]
    return np.maximum(div, 1)  # an empty window (all padding) averages nothing: 0, as torch


def _avg_pool(x: Any, **params: Any) -> np.ndarray:
    x = np.asarray(x)
    _planes(x, "avg_pool_nchw")
    out = _pool_geometry(x.shape, params)
    total = np.zeros((*x.shape[:-2], *out), dtype=x.dtype)
    if total.size:
        xp = _padded(x, params, out, 0)
        for _, _, key in _taps(params, out):
            total += xp[key]
    return (total / avg_divisor(x.shape, params).astype(x.dtype)).astype(x.dtype, copy=False)


def avg_pool_grad(g: Any, x_shape: Sequence[int], params: dict[str, Any]) -> np.ndarray:
    """The average pool's input gradient: each window's ``g / divisor`` shared over its taps."""
    g = np.asarray(g)
    out = _pool_geometry(x_shape, params)
    share = (g / avg_divisor(x_shape, params).astype(g.dtype)).astype(g.dtype, copy=False)
    h, w = x_shape[-2:]
    (ph, pw) = params["padding"]
    dxp = _padded(np.zeros(tuple(x_shape), dtype=g.dtype), params, out, 0)
    dxp = np.array(dxp)  # writable even when no padding was added
    if g.size:
        for _, _, key in _taps(params, out):
            dxp[key] += share
    return np.ascontiguousarray(dxp[..., ph : ph + h, pw : pw + w])


IMPL_NCHW[P.avg_pool_nchw_p] = _avg_pool


# -- adaptive average pooling --------------------------------------------------------------------
def adaptive_matrix(size: int, out: int, dtype: Any) -> np.ndarray:
    """``(out, size)``: row ``i`` averages ``[⌊i·size/out⌋, ⌈(i+1)·size/out⌉)`` (torch's)."""
    m = np.zeros((out, size), dtype=dtype)
    for i in range(out):
        start, end = (i * size) // out, -(-((i + 1) * size) // out)
        m[i, start:end] = 1.0 / (end - start)
    return m


def _adaptive_avg_pool(x: Any, *, output_size: tuple[int, int]) -> np.ndarray:
    x = np.asarray(x)
    _planes(x, "adaptive_avg_pool_nchw")
    rows = adaptive_matrix(x.shape[-2], output_size[0], x.dtype)
    cols = adaptive_matrix(x.shape[-1], output_size[1], x.dtype)
    return np.matmul(np.matmul(rows, x), cols.T)


IMPL_NCHW[P.adaptive_avg_pool_nchw_p] = _adaptive_avg_pool


# -- size guards (the sandbox's limits) ----------------------------------------------------------
def _work(count: int, what: str) -> None:
    cap = GUARD.max_flops
    if cap is not None and count > cap:
        raise ResourceLimitError(
            f"{what} would take {count:,} multiply-adds, more than the limit of {cap:,}",
            what, "tensor size", what, count, cap, "work",
        )  # fmt: skip


def _conv_check(shapes: list[tuple[int, ...]], params: dict[str, Any]) -> None:
    x, w = shapes[0], shapes[1]
    if len(x) not in (3, 4) or len(w) != len(x):
        return  # the op reports the shapes
    p = as_2d(params)
    x4 = (x[0], x[1], 1, x[2]) if len(x) == 3 else x
    w4 = (w[0], w[1], 1, w[2]) if len(w) == 3 else w
    (sh, sw), (ph, pw), (dh, dw) = p["stride"], p["padding"], p["dilation"]
    oh, ow = conv_out(x4[2], w4[2], ph, sh, dh), conv_out(x4[3], w4[3], pw, sw, dw)
    check_elements(x4[0] * x4[1] * (x4[2] + 2 * ph) * (x4[3] + 2 * pw), "conv_nchw")
    check_elements(x4[0] * w4[0] * max(oh, 0) * max(ow, 0), "conv_nchw")
    _work(x4[0] * max(oh, 0) * max(ow, 0) * shape_size(w4), "conv_nchw")


def _pool_check(name: str) -> Callable[..., None]:
    def check(shapes: list[tuple[int, ...]], params: dict[str, Any]) -> None:
        x = shapes[0]
        if len(x) < 3:
            return
        oh, ow = _pool_geometry(x, params)
        out = shape_size(x[:-2]) * max(oh, 0) * max(ow, 0)
        check_elements(out, name)
        _work(out * shape_size(params["kernel_size"]), name)

    return check


def _adaptive_check(shapes: list[tuple[int, ...]], params: dict[str, Any]) -> None:
    x = shapes[0]
    if len(x) < 3:
        return
    oh, ow = params["output_size"]
    planes = shape_size(x[:-2])
    check_elements(planes * oh * ow, "adaptive_avg_pool_nchw")
    _work(planes * int(x[-2]) * (int(x[-1]) * ow + oh * ow), "adaptive_avg_pool_nchw")


register_precheck(P.conv_nchw_p, _conv_check)
register_precheck(P.conv_bias_nchw_p, _conv_check)
register_precheck(P.max_pool_nchw_p, _pool_check("max_pool_nchw"))
register_precheck(P.avg_pool_nchw_p, _pool_check("avg_pool_nchw"))
register_precheck(P.adaptive_avg_pool_nchw_p, _adaptive_check)
