"""``F.max_pool1d/2d``, ``F.avg_pool1d/2d`` and ``F.adaptive_avg_pool1d/2d``, as torch runs them.

The 2-D pools are one node each (``MaxPool2DWithIndicesBackward0``, ``AvgPool2DBackward0``,
``AdaptiveAvgPool2DBackward0``) holding one NCHW engine op; the 1-D ones are torch's own
composition (``unsqueeze(-2)``, the 2-D pool, ``squeeze(-2)``), and an adaptive pool to a
single pixel is torch's ``mean((-1, -2), keepdim=True)`` (``MeanBackward1``).
"""

from __future__ import annotations

from typing import Any

from tapeviz.engine.impl_nchw import max_pool_argmax, pool_out
from tapeviz.engine.nchw_ops import adaptive_avg_pool_nchw, avg_pool_nchw, max_pool_nchw
from tapeviz.engine.tensor import Tensor as _ETensor
from tapeviz.engine.tensor import freeze as _freeze
from tapeviz.torch import _dtypes as _D
from tapeviz.torch import _reduce as _R
from tapeviz.torch import _shape as _S
from tapeviz.torch._tensor import Tensor, _type_word
from tapeviz.torch.nn._graph import node as _node
from tapeviz.torch.nn._graph import tensor_arg as _arg
from tapeviz.torch.nn._graph import values as _values

__all__ = [
    "adaptive_avg_pool1d", "adaptive_avg_pool2d", "avg_pool1d", "avg_pool2d", "max_pool1d",
    "max_pool2d",
]  # fmt: skip

_PAIR_RULE = {
    "kernel_size": "must either be a single int, or a tuple of two ints",
    "stride": "must either be omitted, a single int, or a tuple of two ints",
    "padding": "must either be a single int, or a tuple of two ints",
    "dilation": "must be either a single int, or a tuple of two ints",
}


def _ints(value: Any) -> tuple[int, ...]:
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,)
    return tuple(int(v) for v in value)


def _pair(op: str, what: str, value: Any, default: Any = None) -> tuple[int, int]:
    """Torch's reading of an ``int[2]`` pooling argument (one int counts for both)."""
    items = () if value is None else _ints(value)
    if not items and default is not None:
        return default
    if len(items) not in (1, 2):
        raise RuntimeError(f"{op}: {what} {_PAIR_RULE[what]}")
    return (items[0], items[-1])


def _single(op: str, what: str, value: Any, default: int | None = None) -> int:
    """Torch's ``check1d``: exactly one int (stride may be omitted)."""
    items = () if value is None else _ints(value)
    if not items and default is not None:
        return default
    if len(items) != 1:
        raise RuntimeError(f"{op}() argument '{what}' should contain one int (got {len(items)})")
    return items[0]


def _dims(x: Tensor, op: str) -> None:
    if x.ndim not in (2, 3):
        raise RuntimeError(
            f"Expected 2 to 3 dimensions, but got {x.ndim}-dimensional tensor for argument #1 "
            f"'self' (while checking arguments for {op})"
        )


def _geometry(x: Tensor, k: Any, s: Any, p: Any, d: Any, ceil_mode: bool) -> tuple[int, int]:
    """Torch's ``pooling_output_shape`` and ``pool2d_shape_check``, in their order."""
    if x.ndim not in (3, 4) or 0 in tuple(x.shape)[1:] or (x.ndim == 3 and x.shape[0] == 0):
        raise RuntimeError(
            "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
            f"got:{[int(v) for v in x.shape]}"
        )
    out = []
    for axis in (0, 1):
        size = int(x.shape[-2 + axis])
        if s[axis] == 0:
            raise RuntimeError("stride should not be zero")
        if p[axis] < 0:
            raise RuntimeError(f"pad must be non-negative, but got pad: {p[axis]}")
        if p[axis] > ((k[axis] - 1) * d[axis] + 1) // 2:
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got pad={p[axis]}, "
                f"kernel_size={k[axis]} and dilation={d[axis]}"
            )
        out.append(pool_out(size, k[axis], p[axis], s[axis], d[axis], ceil_mode))
    if k[0] <= 0 or k[1] <= 0:
        raise RuntimeError(
            f"kernel size should be greater than zero, but got kH: {k[0]} kW: {k[1]}"
        )
    if s[0] <= 0 or s[1] <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got dH: {s[0]} dW: {s[1]}")
    if d[0] <= 0 or d[1] <= 0:
        raise RuntimeError(
            f"dilation should be greater than zero, but got dilationH: {d[0]} dilationW: {d[1]}"
        )
    if out[0] < 1 or out[1] < 1:
        c, h, w = (int(v) for v in tuple(x.shape)[-3:])
        raise RuntimeError(
            f"Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{out[0]}x{out[1]}). "
            "Output size is too small"
        )
    return out[0], out[1]


# -- max pooling ---------------------------------------------------------------------------------
def max_pool2d(
    input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
    ceil_mode: bool = False, return_indices: bool = False,
) -> Any:  # fmt: skip
    """The maximum of each window: one ``MaxPool2DWithIndicesBackward0`` node."""
    op = "max_pool2d"
    x = _arg(input)
    k = _pair(op, "kernel_size", kernel_size)
    params = {"kernel_size": k, "stride": _pair(op, "stride", stride, default=k),
              "padding": _pair(op, "padding", padding),
              "dilation": _pair(op, "dilation", dilation),
              "ceil_mode": bool(ceil_mode)}  # fmt: skip
    if x.dtype is _D.bool_:
        raise RuntimeError(f"\"max_pool2d\" not implemented for '{_type_word(x.dtype)}'")
    _geometry(x, k, params["stride"], params["padding"], params["dilation"], bool(ceil_mode))
    out = _node("MaxPool2DWithIndicesBackward0", lambda t: max_pool_nchw(t, **params), [x])
    if not return_indices:
        return out
    where = max_pool_argmax(_values(x), **params)[1]
    return out, Tensor._wrap(_ETensor(_freeze(where), _D.int64._engine))


def max_pool1d(
    input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
    ceil_mode: bool = False, return_indices: bool = False,
) -> Any:  # fmt: skip
    """The maximum of each window of the last axis (the 2-D pool on a height of 1)."""
    op = "max_pool1d"
    x = _arg(input)
    _dims(x, op)
    k = _single(op, "kernel_size", kernel_size)
    s = _single(op, "stride", stride, default=k)
    p, d = _single(op, "padding", padding), _single(op, "dilation", dilation)
    got = max_pool2d(_S.unsqueeze(x, -2), (1, k), (1, s), (0, p), (1, d), ceil_mode,
                     return_indices)  # fmt: skip
    if return_indices:
        return _S.squeeze(got[0], -2), _S.squeeze(got[1], -2)
    return _S.squeeze(got, -2)


# -- average pooling -----------------------------------------------------------------------------
def avg_pool2d(
    input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
    count_include_pad: bool = True, divisor_override: int | None = None,
) -> Tensor:  # fmt: skip
    """The mean of each window: one ``AvgPool2DBackward0`` node."""
    op = "avg_pool2d"
    x = _arg(input)
    k = _pair(op, "kernel_size", kernel_size)
    params = {"kernel_size": k, "stride": _pair(op, "stride", stride, default=k),
              "padding": _pair(op, "padding", padding), "ceil_mode": bool(ceil_mode),
              "count_include_pad": bool(count_include_pad),
              "divisor_override": divisor_override}  # fmt: skip
    if divisor_override is not None and int(divisor_override) == 0:
        raise RuntimeError("divisor must be not zero")
    if not x.dtype.is_floating_point:
        raise RuntimeError(f"\"avg_pool2d\" not implemented for '{_type_word(x.dtype)}'")
    _geometry(x, k, params["stride"], params["padding"], (1, 1), bool(ceil_mode))
    return _node("AvgPool2DBackward0", lambda t: avg_pool_nchw(t, **params), [x])


def avg_pool1d(
    input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
    count_include_pad: bool = True,
) -> Tensor:  # fmt: skip
    """The mean of each window of the last axis (the 2-D pool on a height of 1)."""
    op = "avg_pool1d"
    x = _arg(input)
    _dims(x, op)
    k = _single(op, "kernel_size", kernel_size)
    s = _single(op, "stride", stride, default=k)
    p = _single(op, "padding", padding)
    out = avg_pool2d(_S.unsqueeze(x, -2), (1, k), (1, s), (0, p), ceil_mode, count_include_pad)
    return _S.squeeze(out, -2)


# -- adaptive average pooling --------------------------------------------------------------------
def _with_default(output_size: Any, sizes: tuple[int, ...]) -> Any:
    """Torch's ``_list_with_default``: None entries take the input's size."""
    if isinstance(output_size, int):
        return output_size
    items = list(output_size)
    if len(sizes) <= len(items):
        raise ValueError(f"Input dimension should be at least {len(items) + 1}")
    return [d if v is None else v for v, d in zip(items, sizes[-len(items) :], strict=True)]


def adaptive_avg_pool2d(input: Any, output_size: Any) -> Tensor:
    """The mean of torch's adaptive windows (a single pixel: ``mean((-1, -2), keepdim=True)``)."""
    x = _arg(input)
    size = _ints(_with_default(output_size, tuple(int(v) for v in x.shape)))
    if len(size) == 1:
        size = size * 2
    if len(size) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    if size[0] < 0 or size[1] < 0:
        raise RuntimeError(
            "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
            f"received {{{size[0]}, {size[1]}}}"
        )
    if size == (1, 1):
        return _R.mean(x, (-1, -2), keepdim=True)
    for axis in (-2, -1):
        if x.ndim >= 2 and x.shape[axis] == 0:
            raise RuntimeError(
                "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch "
                f"dimensions, but input has sizes {[int(v) for v in x.shape]} with dimension "
                f"{axis + x.ndim} being empty"
            )
    if x.ndim not in (3, 4):
        raise RuntimeError(
            f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {[int(v) for v in x.shape]}"
        )
    if not x.dtype.is_floating_point:
        raise RuntimeError(f"\"adaptive_avg_pool2d\" not implemented for '{_type_word(x.dtype)}'")
    return _node("AdaptiveAvgPool2DBackward0", lambda t: adaptive_avg_pool_nchw(t, size), [x])


def adaptive_avg_pool1d(input: Any, output_size: Any) -> Tensor:
    """The mean of torch's adaptive windows of the last axis."""
    x = _arg(input)
    _dims(x, "adaptive_avg_pool1d")
    size = _single("adaptive_avg_pool1d", "output_size", output_size)
    return _S.squeeze(adaptive_avg_pool2d(_S.unsqueeze(x, -2), (1, size)), -2)
