"""Op functions of the NCHW (torch-layout) convolution and pooling primitives: one bind each.

The arguments arrive checked and normalised by :mod:`tapeviz.torch` (tuples of ints, one per
spatial dimension); see :mod:`tapeviz.engine.impl_nchw` for what each primitive computes.
"""

from __future__ import annotations

from typing import Any

from tapeviz.engine import primitives as P
from tapeviz.engine.core import bind
from tapeviz.engine.tensor import Tensor

__all__ = ["adaptive_avg_pool_nchw", "avg_pool_nchw", "conv_nchw", "max_pool_nchw"]


def conv_nchw(
    x: Any, w: Any, b: Any = None, *, stride: tuple[int, ...], padding: tuple[int, ...],
    dilation: tuple[int, ...], groups: int = 1,
) -> Tensor:  # fmt: skip
    """Cross-correlation of ``(N, C, *spatial)`` ``x`` with ``(O, C/groups, *kernel)`` ``w``."""
    params = {"stride": tuple(stride), "padding": tuple(padding), "dilation": tuple(dilation),
              "groups": int(groups)}  # fmt: skip
    if b is None:
        return bind(P.conv_nchw_p, x, w, **params)
    return bind(P.conv_bias_nchw_p, x, w, b, **params)


def max_pool_nchw(
    x: Any, *, kernel_size: tuple[int, int], stride: tuple[int, int], padding: tuple[int, int],
    dilation: tuple[int, int] = (1, 1), ceil_mode: bool = False,
) -> Tensor:  # fmt: skip
    """The maximum of each window of the last two axes."""
    return bind(
        P.max_pool_nchw_p, x, kernel_size=tuple(kernel_size), stride=tuple(stride),
        padding=tuple(padding), dilation=tuple(dilation), ceil_mode=bool(ceil_mode),
    )  # fmt: skip


def avg_pool_nchw(
    x: Any, *, kernel_size: tuple[int, int], stride: tuple[int, int], padding: tuple[int, int],
    ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: int | None = None,
) -> Tensor:  # fmt: skip
    """The mean of each window of the last two axes (torch's divisors)."""
    override = None if divisor_override is None else int(divisor_override)
    return bind(
        P.avg_pool_nchw_p, x, kernel_size=tuple(kernel_size), stride=tuple(stride),
        padding=tuple(padding), ceil_mode=bool(ceil_mode),
        count_include_pad=bool(count_include_pad), divisor_override=override,
    )  # fmt: skip


def adaptive_avg_pool_nchw(x: Any, output_size: tuple[int, int]) -> Tensor:
    """The mean of torch's adaptive windows of the last two axes, ``output_size`` of them."""
    return bind(P.adaptive_avg_pool_nchw_p, x,
                output_size=(int(output_size[0]), int(output_size[1])))  # fmt: skip
