"""Window arithmetic of convolution and pooling (TensorFlow's rules), and their size guards.

Every conv and pool primitive takes ``strides`` and ``dilations`` (``ksize`` for pools) as
pairs ``(rows, cols)`` and ``padding`` as ``"SAME"``, ``"VALID"`` or explicit amounts
``((top, bottom), (left, right))``. :func:`window` turns one spatial size into TensorFlow's
output size and padding (``GetWindowedOutputSizeVerbose``); the module registers, with the
engine's size guard, checks that refuse an op's result, padded copy or work from the operands'
shapes before numpy allocates anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tapeviz.engine import primitives as P
from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.guard import (
    GUARD,
    ResourceLimitError,
    check_elements,
    register_precheck,
    shape_size,
)

__all__ = ["Padding", "spatial", "window"]

Padding = Any  # "SAME", "VALID" or ((top, bottom), (left, right))


def _trunc_div(a: int, b: int) -> int:
    """C++ integer division (towards zero), as TensorFlow computes output sizes."""
    return a // b if a >= 0 else -((-a) // b)


def window(
    size: int, k: int, stride: int, dilation: int, padding: Padding, axis: int, op: str
) -> tuple[int, int, int]:
    """Output size and padding ``(out, before, after)`` of one spatial dimension."""
    k_eff = (k - 1) * dilation + 1
    if padding == "VALID":
        out, lo, hi = _trunc_div(size - k_eff + stride, stride), 0, 0
    elif padding == "SAME":
        out = (size + stride - 1) // stride
        needed = max(0, (out - 1) * stride + k_eff - size)
        lo, hi = needed // 2, needed - needed // 2
    else:
        lo, hi = padding[axis]
        out = _trunc_div(size + lo + hi - k_eff + stride, stride)
    if out < 0:
        raise InvalidArgumentError(
            f"Computed output size would be negative: {out} [input_size: {size}, "
            f"effective_filter_size: {k_eff}, stride: {stride}]",
            op,
        )
    return out, lo, hi


def spatial(
    hw: Sequence[int],
    k: Sequence[int],
    strides: Sequence[int],
    dilations: Sequence[int],
    padding: Padding,
    op: str,
) -> tuple[tuple[int, int], tuple[tuple[int, int], tuple[int, int]]]:
    """Output ``(oh, ow)`` and padding ``((top, bottom), (left, right))`` of an NHWC op."""
    oh, t, b = window(int(hw[0]), int(k[0]), strides[0], dilations[0], padding, 0, op)
    ow, left, right = window(int(hw[1]), int(k[1]), strides[1], dilations[1], padding, 1, op)
    return (oh, ow), ((t, b), (left, right))


# -- size guards (the sandbox's limits) ----------------------------------------------------
def _work(count: int, what: str) -> None:
    cap = GUARD.max_flops
    if cap is not None and count > cap:
        raise ResourceLimitError(
            f"{what} would take {count:,} multiply-adds, more than the limit of {cap:,}",
            what,
            "tensor size",
            what,
            count,
            cap,
            "work",
        )


def _geometry(what: str, x: Sequence[int], k: Sequence[int], params: dict[str, Any]) -> Any:
    """``(n, oh, ow)`` of a windowed NHWC op after refusing its padded copy of ``x`` if too big.

    None where the shapes are wrong: the op itself then reports them.
    """
    if len(x) != 4 or len(k) != 2:
        return None
    try:
        dilations = params.get("dilations", (1, 1))
        (oh, ow), ((t, b), (lo, hi)) = spatial(
            x[1:3], k, params["strides"], dilations, params["padding"], what
        )
    except (InvalidArgumentError, TypeError, ValueError, IndexError, KeyError):
        return None
    n, h, w, c = (max(int(d), 0) for d in x)
    check_elements(n * (h + max(t, 0) + max(b, 0)) * (w + max(lo, 0) + max(hi, 0)) * c, what)
    return n, max(oh, 0), max(ow, 0)


def _conv2d(shapes: list[tuple[int, ...]], params: dict[str, Any]) -> None:
    x, f = shapes
    geo = _geometry("conv2d", x, f[:2], params) if len(f) == 4 else None
    if geo is not None:
        n, oh, ow = geo
        check_elements(n * oh * ow * int(f[3]), "conv2d")
        _work(n * oh * ow * shape_size(f), "conv2d")


def _backprop_input(shapes: list[tuple[int, ...]], params: dict[str, Any]) -> None:
    f, x = shapes[0], tuple(params["input_shape"])
    check_elements(shape_size(x), "conv2d_backprop_input")
    geo = _geometry("conv2d_backprop_input", x, f[:2], params) if len(f) == 4 else None
    if geo is not None:
        n, oh, ow = geo
        _work(n * oh * ow * shape_size(f), "conv2d_backprop_input")


def _backprop_filter(shapes: list[tuple[int, ...]], params: dict[str, Any]) -> None:
    x, f = shapes[0], tuple(params["filter_shape"])
    check_elements(shape_size(f), "conv2d_backprop_filter")
    geo = _geometry("conv2d_backprop_filter", x, f[:2], params) if len(f) == 4 else None
    if geo is not None:
        n, oh, ow = geo
        _work(n * oh * ow * shape_size(f), "conv2d_backprop_filter")


def _pool(name: str) -> Any:
    def check(shapes: list[tuple[int, ...]], params: dict[str, Any]) -> None:
        x = tuple(params.get("input_shape", shapes[0]))
        if "input_shape" in params or len(shapes) > 1:  # a gradient: the result is x-shaped
            check_elements(shape_size(x), name)
        geo = _geometry(name, x, params["ksize"], params)
        if geo is not None:
            n, oh, ow = geo
            check_elements(n * oh * ow * int(x[3]), name)
            _work(n * oh * ow * int(x[3]) * shape_size(params["ksize"]), name)

    return check


for _prim, _check in (
    (P.conv2d_p, _conv2d), (P.conv2d_backprop_input_p, _backprop_input),
    (P.conv2d_backprop_filter_p, _backprop_filter),
    *[(p, _pool(p.name)) for p in (P.max_pool_p, P.avg_pool_p, P.max_pool_grad_p,
                                    P.max_pool_grad_grad_p, P.avg_pool_grad_p)],
):  # fmt: skip
    register_precheck(_prim, _check)
