"""VJP rules of the NCHW (torch-layout) convolution and pooling primitives.

The convolution's input and weight gradients are TensorFlow's ``conv2d_backprop_input`` and
``conv2d_backprop_filter`` on channels-last views, one group at a time; the bias gradient sums
``ḡ`` over every axis but the channels. The max pool sends ``ḡ`` to each window's maximum (a
scatter-add at fixed indices); the average pools share it over their windows. Rules run on numpy
values, or on Tensors inside an enclosing tape, where they bind differentiable primitives (so
a second derivative works too). Imported by :mod:`tapeviz.engine.vjp_rules`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.engine import numeric as N
from tapeviz.engine import primitives as P
from tapeviz.engine.array_ops import concat
from tapeviz.engine.core import bind
from tapeviz.engine.impl_conv import IMPL_CONV
from tapeviz.engine.impl_nchw import (
    adaptive_matrix,
    as_2d,
    avg_divisor,
    avg_pool_grad,
    max_pool_argmax,
    scatter_max,
)
from tapeviz.engine.primitives import Primitive
from tapeviz.engine.tensor import TensorLike, constant
from tapeviz.engine.vjp_table import defvjp


def _op(prim: Primitive, *args: Any, **params: Any) -> Any:
    """Run ``prim`` on raw values, or bind it (recorded) when any argument is a Tensor."""
    if any(isinstance(a, TensorLike) for a in args):
        return bind(prim, *args, **params)
    return IMPL_CONV[prim](*args, **params)


def _raw(x: Any) -> np.ndarray:
    return np.asarray(x._value if isinstance(x, TensorLike) else x)


def _join(parts: list[Any], axis: int) -> Any:
    if len(parts) == 1:
        return parts[0]
    if any(isinstance(p, TensorLike) for p in parts):
        return concat(parts, axis=axis)
    return np.concatenate(parts, axis=axis)


def _group(x: Any, groups: int, gi: int) -> Any:
    """Group ``gi``'s slice of the last (channel) axis of a channels-last value."""
    if groups == 1:
        return x
    size = N.shape(x)[-1] // groups
    return N.getitem(x, (Ellipsis, slice(gi * size, (gi + 1) * size)))


def _four(v: Any) -> Any:
    """A 1-D convolution's ``(N, C, L)`` value as ``(N, C, 1, L)``."""
    s = N.shape(v)
    return v if len(s) == 4 else N.reshape(v, (s[0], s[1], 1, s[2]))


def _tf_params(p: dict[str, Any]) -> dict[str, Any]:
    (ph, pw) = p["padding"]
    return {"strides": tuple(p["stride"]), "padding": ((ph, ph), (pw, pw)),
            "dilations": tuple(p["dilation"])}  # fmt: skip


def _conv_x(g: Any, ans: Any, x: Any, w: Any, b: Any = None, **params: Any) -> Any:
    p, shape = as_2d(params), tuple(N.shape(x))
    groups = int(p["groups"])
    n, c, h, wd = (shape[0], shape[1], 1, shape[2]) if len(shape) == 3 else shape
    gh = N.transpose(_four(g), (0, 2, 3, 1))  # NHWC
    wt = N.transpose(_four(w), (2, 3, 1, 0))  # HWIO
    parts = [
        _op(P.conv2d_backprop_input_p, _group(wt, groups, gi), _group(gh, groups, gi),
            input_shape=(n, h, wd, c // groups), **_tf_params(p))
        for gi in range(groups)
    ]  # fmt: skip
    dx = N.transpose(_join(parts, 3), (0, 3, 1, 2))
    return N.reshape(dx, shape) if len(shape) == 3 else dx


def _conv_w(g: Any, ans: Any, x: Any, w: Any, b: Any = None, **params: Any) -> Any:
    p, shape = as_2d(params), tuple(N.shape(w))
    groups = int(p["groups"])
    o, cg, kh, kw = (shape[0], shape[1], 1, shape[2]) if len(shape) == 3 else shape
    xh = N.transpose(_four(x), (0, 2, 3, 1))
    gh = N.transpose(_four(g), (0, 2, 3, 1))
    parts = [
        _op(P.conv2d_backprop_filter_p, _group(xh, groups, gi), _group(gh, groups, gi),
            filter_shape=(kh, kw, cg, o // groups), **_tf_params(p))
        for gi in range(groups)
    ]  # fmt: skip
    dw = N.transpose(_join(parts, 3), (3, 2, 0, 1))  # (O, C/groups, kh, kw)
    return N.reshape(dw, shape) if len(shape) == 3 else dw


def _conv_b(g: Any, ans: Any, x: Any, w: Any, b: Any = None, **params: Any) -> Any:
    nd = len(N.shape(g))
    return N.reduce_sum(g, axis=(0, *range(2, nd)))


_CONV_TEXT = ("x̄ += conv_transpose(ḡ, w)", "w̄ += Σ over windows of x · ḡ")
defvjp(P.conv_nchw_p, _conv_x, _conv_w, text=_CONV_TEXT)
defvjp(P.conv_bias_nchw_p, _conv_x, _conv_w, _conv_b,
       text=(*_CONV_TEXT, "b̄ += Σ ḡ over all but the channels"))  # fmt: skip


def _max_pool_x(g: Any, ans: Any, x: Any, **params: Any) -> Any:
    shape = tuple(N.shape(x))
    where = max_pool_argmax(_raw(x), **params)[1]  # fixed: the max pool is piecewise linear
    if not isinstance(g, TensorLike):
        return scatter_max(g, where, shape)
    h, w = shape[-2:]
    planes = int(np.prod(shape[:-2], dtype=np.int64))
    offsets = (np.arange(planes, dtype=np.int64) * (h * w)).reshape(*shape[:-2], 1, 1)
    flat = N.scatter_add(N.reshape(g, (-1,)), constant((where + offsets).reshape(-1)), 0,
                         (planes * h * w,))  # fmt: skip
    return N.reshape(flat, shape)


defvjp(P.max_pool_nchw_p, _max_pool_x, text=("x̄ += ḡ at each window's (first) maximum",))


def _avg_pool_x(g: Any, ans: Any, x: Any, **params: Any) -> Any:
    shape = tuple(N.shape(x))
    if not isinstance(g, TensorLike):
        return avg_pool_grad(g, shape, params)
    # On Tensors: the same linear map as one 0/1 window matrix per axis (small inputs only).
    (kh, kw), (sh, sw), (ph, pw) = params["kernel_size"], params["stride"], params["padding"]
    div = avg_divisor(shape, params)
    rows = _window_matrix(shape[-2], kh, sh, ph, div.shape[0], g.dtype.np)
    cols = _window_matrix(shape[-1], kw, sw, pw, div.shape[1], g.dtype.np)
    share = g / constant(div.astype(g.dtype.np))
    return N.matmul(N.matmul(constant(rows), share, transpose_a=True), constant(cols))


def _window_matrix(size: int, k: int, stride: int, pad: int, out: int, dtype: Any) -> np.ndarray:
    """``(out, size)``: 1 where output ``i``'s window covers input ``r``."""
    start = np.arange(out)[:, None] * stride - pad
    r = np.arange(size)[None, :]
    return ((r >= start) & (r < start + k)).astype(dtype)


defvjp(P.avg_pool_nchw_p, _avg_pool_x, text=("x̄ += ḡ / divisor, shared over each window",))


def _adaptive_x(g: Any, ans: Any, x: Any, *, output_size: tuple[int, int]) -> Any:
    shape = tuple(N.shape(x))
    dtype = g.dtype.np if isinstance(g, TensorLike) else np.asarray(g).dtype
    rows = adaptive_matrix(shape[-2], output_size[0], dtype)
    cols = adaptive_matrix(shape[-1], output_size[1], dtype)
    if isinstance(g, TensorLike):
        rows, cols = constant(rows), constant(cols)
    return N.matmul(N.matmul(rows, g, transpose_a=True), cols)


defvjp(P.adaptive_avg_pool_nchw_p, _adaptive_x,
       text=("x̄ += ḡ shared equally over each adaptive window",))  # fmt: skip
