"""``Linear``, ``Identity``, ``Flatten``, ``Unflatten``, ``Dropout`` and ``Embedding``."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from tapeviz.engine.tensor import Tensor as _ETensor
from tapeviz.engine.tensor import freeze as _frozen
from tapeviz.torch import _dtypes as _D
from tapeviz.torch import _shape as _S
from tapeviz.torch._tensor import Tensor
from tapeviz.torch.nn import functional as F
from tapeviz.torch.nn import init
from tapeviz.torch.nn.module import Module
from tapeviz.torch.nn.parameter import Parameter

__all__ = ["Dropout", "Embedding", "Flatten", "Identity", "Linear", "Unflatten"]


def _empty(shape: tuple[int, ...], dtype: Any = None) -> Tensor:
    want = _D.DEFAULT.value if dtype is None else _D.as_torch(dtype)
    return Tensor._wrap(_ETensor(_frozen(np.zeros(shape, want._engine.np)), want._engine))


class Identity(Module):
    """Returns its input unchanged."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Any) -> Any:
        """The input itself."""
        return input


class Linear(Module):
    """``y = x @ weight.T + bias``, initialised as torch does: U(-1/sqrt(in), 1/sqrt(in))."""

    def __init__(
        self,
        in_features: int,
        out_features: int,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(_empty((out_features, in_features), dtype))
        if bias:
            self.bias = Parameter(_empty((out_features,), dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Torch's default initialisation: kaiming_uniform_(a=sqrt(5)) and a matching bias."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        """``input @ weight.T + bias`` (one ``AddmmBackward0`` node for a matrix input)."""
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        """``in_features=2, out_features=3, bias=True``."""
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"bias={self.bias is not None}"
        )


class Flatten(Module):
    """Merge dimensions ``start_dim..end_dim`` (by default all but the batch dimension)."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:
        """The flattened input."""
        return _S.flatten(input, self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        """``start_dim=1, end_dim=-1``."""
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split dimension ``dim`` into ``unflattened_size``."""

    def __init__(self, dim: int | str, unflattened_size: Sequence[int]) -> None:
        super().__init__()
        if not isinstance(unflattened_size, list | tuple):
            raise TypeError(
                f"unflattened_size must be tuple of ints, but found type "
                f"{type(unflattened_size).__name__}"
            )
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input: Tensor) -> Tensor:
        """The input with dimension ``dim`` split."""
        shape = list(input.shape)
        d = int(self.dim) % len(shape)
        new = (*shape[:d], *self.unflattened_size, *shape[d + 1 :])
        return _S.view(input, new)

    def extra_repr(self) -> str:
        """``dim=1, unflattened_size=(2, 5)``."""
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


class Dropout(Module):
    """In training, zero elements with probability ``p`` and scale the rest by ``1/(1-p)``."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        """Masked and scaled in training mode; the input itself in eval mode."""
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        """``p=0.5, inplace=False``."""
        return f"p={self.p}, inplace={self.inplace}"


class Embedding(Module):
    """A lookup table: row ``i`` of ``weight`` for index ``i`` (initialised N(0, 1))."""

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        padding_idx: int | None = None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
        _weight: Tensor | None = None,
        _freeze: bool = False,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        if padding_idx is not None:
            if padding_idx > 0 and padding_idx >= num_embeddings:
                raise AssertionError("Padding_idx must be within num_embeddings")
            if padding_idx < 0:
                if padding_idx < -num_embeddings:
                    raise AssertionError("Padding_idx must be within num_embeddings")
                padding_idx = num_embeddings + padding_idx
        self.padding_idx = padding_idx
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.sparse = sparse
        if _weight is None:
            self.weight = Parameter(_empty((num_embeddings, embedding_dim), dtype), not _freeze)
            self.reset_parameters()
        else:
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    def reset_parameters(self) -> None:
        """N(0, 1) weights, the padding row zero."""
        init.normal_(self.weight)
        if self.padding_idx is not None:
            w = np.array(self.weight._t._value)
            w[self.padding_idx] = 0
            init._write(self.weight, w)

    def forward(self, input: Tensor) -> Tensor:
        """The rows of ``weight`` at the indices in ``input``."""
        return F.embedding(
            input,
            self.weight,
            self.padding_idx,
            self.max_norm,
            self.norm_type,
            self.scale_grad_by_freq,
            self.sparse,
        )

    def extra_repr(self) -> str:
        """``10, 3`` and the options that differ from the defaults."""
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq is not False:
            s += ", scale_grad_by_freq=True"
        if self.sparse is not False:
            s += ", sparse=True"
        return s

    @classmethod
    def from_pretrained(
        cls, embeddings: Tensor, freeze: bool = True, padding_idx: int | None = None
    ) -> Embedding:
        """An embedding whose weight is ``embeddings`` (frozen by default)."""
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = tuple(embeddings.shape)
        return cls(rows, cols, padding_idx, _weight=embeddings, _freeze=freeze)
