"""``BatchNorm1d``/``BatchNorm2d`` (running statistics, momentum) and ``LayerNorm``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tapeviz.engine.tensor import Tensor as _ETensor
from tapeviz.engine.tensor import freeze as _freeze
from tapeviz.torch import _dtypes as _D
from tapeviz.torch._autograd import no_grad as _no_grad
from tapeviz.torch._tensor import Tensor
from tapeviz.torch.nn import functional as F
from tapeviz.torch.nn.module import Module
from tapeviz.torch.nn.parameter import Parameter

__all__ = ["BatchNorm1d", "BatchNorm2d", "LayerNorm"]


def _full(shape: tuple[int, ...], value: float, dtype: Any = None) -> Tensor:
    want = _D.DEFAULT.value if dtype is None else _D.as_torch(dtype)
    return Tensor._wrap(_ETensor(_freeze(np.full(shape, value, want._engine.np)), want._engine))


class _BatchNorm(Module):
    _dims: tuple[int, ...] = (2, 3)

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = Parameter(_full((num_features,), 1.0, dtype))
            self.bias = Parameter(_full((num_features,), 0.0, dtype))
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", _full((num_features,), 0.0, dtype))
            self.register_buffer("running_var", _full((num_features,), 1.0, dtype))
            self.register_buffer("num_batches_tracked", _full((), 0, _D.int64))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)

    def reset_running_stats(self) -> None:
        """Running mean 0, running variance 1, no batches tracked."""
        if self.track_running_stats:
            with _no_grad():
                self.running_mean.zero_()
                self.running_var.fill_(1)
                self.num_batches_tracked.zero_()

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() not in self._dims:
            want = " or ".join(f"{d}D" for d in self._dims)
            raise ValueError(f"expected {want} input (got {input.dim()}D input)")

    def forward(self, input: Tensor) -> Tensor:
        """Normalise with the batch's statistics (training) or the running ones (eval)."""
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            with _no_grad():
                self.num_batches_tracked.add_(1)
            n = int(self.num_batches_tracked.item())
            factor = 1.0 / float(n) if self.momentum is None else self.momentum
        use_batch = self.training or (self.running_mean is None and self.running_var is None)
        keep = not self.training or self.track_running_stats
        return F.batch_norm(
            input,
            self.running_mean if keep else None,
            self.running_var if keep else None,
            self.weight,
            self.bias,
            use_batch,
            factor,
            self.eps,
        )

    def extra_repr(self) -> str:
        """``3, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True``."""
        return (
            f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
            f"affine={self.affine}, track_running_stats={self.track_running_stats}"
        )


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of ``(N, C)`` or ``(N, C, L)`` inputs per channel ``C``."""

    _dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of ``(N, C, H, W)`` inputs per channel ``C``."""

    _dims = (4,)


class LayerNorm(Module):
    """Normalise each sample over its last dimensions (``normalized_shape``)."""

    def __init__(
        self,
        normalized_shape: int | Sequence[int],
        eps: float = 1e-5,
        elementwise_affine: bool = True,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else normalized_shape
        self.normalized_shape = tuple(int(d) for d in shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(_full(self.normalized_shape, 1.0, dtype))
            if bias:
                self.bias = Parameter(_full(self.normalized_shape, 0.0, dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def forward(self, input: Tensor) -> Tensor:
        """The normalised input, scaled and shifted."""
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        """``(4,), eps=1e-05, elementwise_affine=True``."""
        return (
            f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"
        )
