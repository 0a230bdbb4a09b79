"""``MaxPool1d/2d``, ``AvgPool1d/2d`` and ``AdaptiveAvgPool1d/2d``, printed as torch prints them."""

from __future__ import annotations

from typing import Any

from tapeviz.torch._tensor import Tensor
from tapeviz.torch.nn import functional as F
from tapeviz.torch.nn.module import Module

__all__ = [
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AvgPool1d", "AvgPool2d", "MaxPool1d", "MaxPool2d",
]  # fmt: skip


def _single(value: Any) -> tuple[Any, ...]:
    return tuple(value) if isinstance(value, list | tuple) else (value,)


class _MaxPoolNd(Module):
    """What the max pools share: the arguments as given (torch keeps them so)."""

    def __init__(
        self, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
        return_indices: bool = False, ceil_mode: bool = False,
    ) -> None:  # fmt: skip
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self) -> str:
        """``kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False``."""
        return (
            f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
            f"dilation={self.dilation}, ceil_mode={self.ceil_mode}"
        )


class MaxPool2d(_MaxPoolNd):
    """The maximum of each window of ``(N, C, H, W)`` (or ``(C, H, W)``) inputs."""

    def forward(self, input: Tensor) -> Any:
        """``F.max_pool2d`` with the module's arguments."""
        return F.max_pool2d(
            input, self.kernel_size, self.stride, self.padding, self.dilation,
            ceil_mode=self.ceil_mode, return_indices=self.return_indices,
        )  # fmt: skip


class MaxPool1d(_MaxPoolNd):
    """The maximum of each window of ``(N, C, L)`` (or ``(C, L)``) inputs."""

    def forward(self, input: Tensor) -> Any:
        """``F.max_pool1d`` with the module's arguments."""
        return F.max_pool1d(
            input, self.kernel_size, self.stride, self.padding, self.dilation,
            ceil_mode=self.ceil_mode, return_indices=self.return_indices,
        )  # fmt: skip


class _AvgPoolNd(Module):
    def extra_repr(self) -> str:
        """``kernel_size=2, stride=2, padding=0``."""
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool2d(_AvgPoolNd):
    """The mean of each window of ``(N, C, H, W)`` (or ``(C, H, W)``) inputs."""

    def __init__(
        self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
        count_include_pad: bool = True, divisor_override: int | None = None,
    ) -> None:  # fmt: skip
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input: Tensor) -> Tensor:
        """``F.avg_pool2d`` with the module's arguments."""
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)  # fmt: skip


class AvgPool1d(_AvgPoolNd):
    """The mean of each window of ``(N, C, L)`` (or ``(C, L)``) inputs."""

    def __init__(
        self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
        count_include_pad: bool = True,
    ) -> None:  # fmt: skip
        super().__init__()
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if stride is not None else kernel_size)
        self.padding = _single(padding)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input: Tensor) -> Tensor:
        """``F.avg_pool1d`` with the module's arguments."""
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)  # fmt: skip


class _AdaptiveAvgPoolNd(Module):
    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size

    def extra_repr(self) -> str:
        """``output_size=(1, 1)``."""
        return f"output_size={self.output_size}"


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    """The mean of ``output_size`` adaptive windows of ``(N, C, H, W)`` inputs."""

    def forward(self, input: Tensor) -> Tensor:
        """``F.adaptive_avg_pool2d`` to the module's output size."""
        return F.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd):
    """The mean of ``output_size`` adaptive windows of ``(N, C, L)`` inputs."""

    def forward(self, input: Tensor) -> Tensor:
        """``F.adaptive_avg_pool1d`` to the module's output size."""
        return F.adaptive_avg_pool1d(input, self.output_size)
