"""``F.conv1d`` and ``F.conv2d``: torch's argument rules, messages and graph on one NCHW record.

A convolution is one ``ConvolutionBackward0`` node holding one engine op (``conv_nchw``, bias
included), as in torch's graph; an unbatched input adds torch's ``UnsqueezeBackward0`` and
``SqueezeBackward1`` around it, and ``padding='same'`` with an even kernel pads first
(``ConstantPadNdBackward0``), as torch's ``convolution_same`` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tapeviz import engine as E
from tapeviz.engine import diagnostics
from tapeviz.engine.nchw_ops import conv_nchw
from tapeviz.torch import _shape as _S
from tapeviz.torch._size import type_name
from tapeviz.torch._tensor import Tensor, _type_word
from tapeviz.torch.nn._graph import node as _node
from tapeviz.torch.nn._graph import tensor_arg as _arg

__all__ = ["conv1d", "conv2d", "conv_params", "same_padding"]

_WARNED: dict[str, None] = {}


def conv_params(value: Any, n: int, name: str) -> tuple[int, ...]:
    """An int or a list of 1 or ``n`` ints as ``n`` ints (torch's ``expand_param_if_needed``)."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an int or a tuple of ints, got bool")
    if isinstance(value, int):
        return (int(value),) * n
    items = tuple(int(v) for v in value)
    if len(items) == 1:
        return items * n
    if len(items) != n:
        raise RuntimeError(
            f"expected {name} to be a single integer value or a list of {n} values to match the "
            f"convolution dimensions, but got {name}={list(items)}"
        )
    return items


def same_padding(
    sizes: Sequence[int], kernel: Sequence[int], dilation: Sequence[int]
) -> tuple[tuple[int, int], ...]:
    """Torch's ``padding='same'`` (stride 1): ``(left, right)`` per spatial dimension."""
    out = []
    for _, k, d in zip(sizes, kernel, dilation, strict=True):
        total = d * (k - 1)
        out.append((total // 2, total - total // 2))
    return tuple(out)


def _sizes(t: Tensor) -> list[int]:
    return [int(d) for d in t.shape]


def _check(x: Tensor, w: Tensor, b: Tensor | None, n: int, params: dict[str, Any]) -> None:
    """Torch's ``check_shape_forward`` (and its dtype checks), in torch's order."""
    stride, padding, dilation, groups = (params[k] for k in ("stride", "padding", "dilation",
                                                               "groups"))  # fmt: skip
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero")
    if w.ndim != x.ndim:
        raise RuntimeError(
            f"Expected {w.ndim}-dimensional input for {w.ndim}-dimensional weight {_sizes(w)}, "
            f"but got {x.ndim}-dimensional input of size {_sizes(x)} instead"
        )
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    ws = _sizes(w)
    if ws[0] < groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but "
            f"got weight of size {ws} instead"
        )
    if ws[0] % groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
            f"but got weight of size {ws} instead"
        )
    if x.shape[1] != ws[1] * groups:
        raise RuntimeError(
            f"Given groups={groups}, weight of size {ws}, expected input{_sizes(x)} to have "
            f"{ws[1] * groups} channels, but got {x.shape[1]} channels instead"
        )
    if b is not None and (b.ndim != 1 or b.shape[0] != ws[0]):
        raise RuntimeError(
            f"Given weight of size {ws}, expected bias to be 1-dimensional with {ws[0]} elements, "
            f"but got bias of size {_sizes(b)} instead"
        )
    padded = [x.shape[2 + i] + 2 * padding[i] for i in range(n)]
    effective = [dilation[i] * (ws[2 + i] - 1) + 1 for i in range(n)]
    if any(p < k for p, k in zip(padded, effective, strict=True)):
        raise RuntimeError(
            f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). "
            f"Kernel size: ({' x '.join(map(str, effective))}). Kernel size can't be greater "
            "than actual input size"
        )
    for other, what in ((w, "weight"), (b, "bias")):
        if other is not None and other.dtype is not x.dtype:
            raise RuntimeError(
                f"Input type ({type_name(x)}) and {what} type ({type_name(other)}) should be "
                "the same"
            )
    if not x.dtype.is_floating_point:
        raise RuntimeError(f"\"slow_conv2d_cpu\" not implemented for '{_type_word(x.dtype)}'")


def _convolution(
    op: str, n: int, input: Any, weight: Any, bias: Any, stride: Any, padding: Any,
    dilation: Any, groups: int,
) -> Tensor:  # fmt: skip
    x, w = _arg(input), _arg(weight)
    b = None if bias is None else _arg(bias)
    if x.ndim not in (n + 1, n + 2):
        raise RuntimeError(
            f"Expected {n + 1}D (unbatched) or {n + 2}D (batched) input to {op}, but got input "
            f"of size: {_sizes(x)}"
        )
    unbatched = x.ndim == n + 1
    if unbatched:
        x = _S.unsqueeze(x, 0)
    stride_t, dilation_t = conv_params(stride, n, "stride"), conv_params(dilation, n, "dilation")
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        if padding == "same" and any(s != 1 for s in stride_t):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        pads = same_padding(x.shape[2:], w.shape[2:], dilation_t) if padding == "same" else None
        padding_t = tuple(lo for lo, _ in pads) if pads else (0,) * n
        if pads and any(lo != hi for lo, hi in pads):
            x = _pad_same(x, pads)
    else:
        padding_t = conv_params(padding, n, "padding")
    params = {"stride": stride_t, "padding": padding_t, "dilation": dilation_t,
              "groups": int(groups)}  # fmt: skip
    _check(x, w, b, n, params)

    def fn(xt: Any, wt: Any, bt: Any) -> Any:
        return conv_nchw(xt, wt, bt, **params)

    out = _node("ConvolutionBackward0", fn, [x, w, b])
    return _S.squeeze(out, 0) if unbatched else out


def _pad_same(x: Tensor, pads: Sequence[tuple[int, int]]) -> Tensor:
    """Torch pads the extra ``right - left`` first, leaving a symmetric padding to the conv."""
    if "same" not in _WARNED:
        _WARNED["same"] = None
        diagnostics.warn(
            "Using padding='same' with even kernel lengths and odd dilation may require a "
            "zero-padded copy of the input be created",
            stacklevel=4,
        )
    widths = [[0, 0], [0, 0], *([0, hi - lo] for lo, hi in pads)]
    return _node("ConstantPadNdBackward0", lambda t: E.pad(t, widths), [x])


def conv1d(
    input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
    dilation: Any = 1, groups: int = 1,
) -> Tensor:  # fmt: skip
    """1-D cross-correlation of ``(N, C, L)`` (or ``(C, L)``) with ``(O, C/groups, K)``."""
    return _convolution("conv1d", 1, input, weight, bias, stride, padding, dilation, groups)


def conv2d(
    input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
    dilation: Any = 1, groups: int = 1,
) -> Tensor:  # fmt: skip
    """2-D cross-correlation of ``(N, C, H, W)`` (or ``(C, H, W)``) with ``(O, C/g, kH, kW)``."""
    return _convolution("conv2d", 2, input, weight, bias, stride, padding, dilation, groups)
