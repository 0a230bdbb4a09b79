"""``Conv1d`` and ``Conv2d``: torch's attributes, initialisation, checks and ``print(net)`` text."""

from __future__ import annotations

import math
from typing import Any

from tapeviz.torch._tensor import Tensor
from tapeviz.torch.nn import functional as F
from tapeviz.torch.nn import init
from tapeviz.torch.nn.layers import _empty
from tapeviz.torch.nn.module import Module
from tapeviz.torch.nn.parameter import Parameter

__all__ = ["Conv1d", "Conv2d"]

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


def _ntuple(value: Any, n: int) -> tuple[Any, ...]:
    """Torch's ``_pair``/``_single``: an iterable as a tuple, anything else repeated ``n`` times."""
    if isinstance(value, list | tuple):
        return tuple(value)
    return (value,) * n


class _ConvNd(Module):
    """What ``Conv1d`` and ``Conv2d`` share (torch's ``_ConvNd``)."""

    _n = 2

    def __init__(
        self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
        padding: Any = 0, dilation: Any = 1, groups: int = 1, bias: bool = True,
        padding_mode: str = "zeros", device: Any = None, dtype: Any = None,
    ) -> None:  # fmt: skip
        super().__init__()
        n = self._n
        kernel, stride_t, dilation_t = (_ntuple(v, n) for v in (kernel_size, stride, dilation))
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(
                    f"Invalid padding string {padding!r}, should be one of {{'valid', 'same'}}"
                )
            if padding == "same" and any(s != 1 for s in stride_t):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(
                "padding_mode must be one of {'zeros', 'reflect', 'replicate', 'circular'}, but "
                f"got padding_mode='{padding_mode}'"
            )
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel
        self.stride = stride_t
        self.padding = padding if isinstance(padding, str) else _ntuple(padding, n)
        self.dilation = dilation_t
        self.transposed = False
        self.output_padding = (0,) * n
        self.groups = groups
        self.padding_mode = padding_mode
        self._reversed_padding_repeated_twice = self._reversed_padding()
        self.weight = Parameter(_empty((out_channels, in_channels // groups, *kernel), dtype))
        if bias:
            self.bias = Parameter(_empty((out_channels,), dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def _reversed_padding(self) -> list[int]:
        """``F.pad``'s widths for the non-zero padding modes (last dimension first)."""
        out: list[int] = []
        if isinstance(self.padding, str):
            if self.padding == "valid":
                return [0, 0] * self._n
            for d, k in zip(reversed(self.dilation), reversed(self.kernel_size), strict=True):
                total = d * (k - 1)
                out += [total // 2, total - total // 2]
            return out
        for p in reversed(self.padding):
            out += [p, p]
        return out

    def reset_parameters(self) -> None:
        """Torch's default initialisation: kaiming_uniform_(a=sqrt(5)) and a matching bias."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def _conv_forward(self, input: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
        conv = F.conv2d if self._n == 2 else F.conv1d
        if self.padding_mode != "zeros":
            padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return conv(padded, weight, bias, self.stride, 0, self.dilation, self.groups)
        return conv(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input: Tensor) -> Tensor:
        """The convolution of ``input`` with ``weight`` (plus ``bias``)."""
        return self._conv_forward(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        """``1, 6, kernel_size=(5, 5), stride=(1, 1)`` and the options that differ."""
        n = self._n
        s = (
            f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}"
        )
        if self.padding != (0,) * n:
            s += f", padding={self.padding}"
        if self.dilation != (1,) * n:
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * n:
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class Conv2d(_ConvNd):
    """2-D convolution over ``(N, C, H, W)`` (or ``(C, H, W)``) inputs."""

    _n = 2


class Conv1d(_ConvNd):
    """1-D convolution over ``(N, C, L)`` (or ``(C, L)``) inputs."""

    _n = 1
