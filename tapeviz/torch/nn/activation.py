"""The activation layers: ``ReLU``, ``Tanh``, ``Sigmoid``, ``Softmax``, ``GELU``, ..."""

from __future__ import annotations

from tapeviz.torch._tensor import Tensor
from tapeviz.torch.nn import functional as F
from tapeviz.torch.nn.module import Module

__all__ = [
    "ELU", "GELU", "SELU", "Hardtanh", "LeakyReLU", "LogSigmoid", "LogSoftmax", "ReLU", "ReLU6",
    "SiLU", "Sigmoid", "Softmax", "Softplus", "Tanh",
]  # fmt: skip


class ReLU(Module):
    """``max(0, x)``."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        """``relu(input)``."""
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        """``inplace=True`` when in place, else nothing."""
        return "inplace=True" if self.inplace else ""


class Hardtanh(Module):
    """``x`` clipped to ``[min_val, max_val]``."""

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace

    def forward(self, input: Tensor) -> Tensor:
        """``hardtanh(input)``."""
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        """``min_val=-1.0, max_val=1.0``."""
        inplace = ", inplace=True" if self.inplace else ""
        return f"min_val={self.min_val}, max_val={self.max_val}{inplace}"


class ReLU6(Hardtanh):
    """``min(max(0, x), 6)``."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        """``inplace=True`` when in place, else nothing."""
        return "inplace=True" if self.inplace else ""


class Sigmoid(Module):
    """``1 / (1 + exp(-x))``."""

    def forward(self, input: Tensor) -> Tensor:
        """``sigmoid(input)``."""
        return F.sigmoid(input)


class Tanh(Module):
    """The hyperbolic tangent."""

    def forward(self, input: Tensor) -> Tensor:
        """``tanh(input)``."""
        return F.tanh(input)


class SiLU(Module):
    """``x * sigmoid(x)``."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        """``silu(input)``."""
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        """``inplace=True`` when in place, else nothing."""
        return "inplace=True" if self.inplace else ""


class LogSigmoid(Module):
    """``log(sigmoid(x))``."""

    def forward(self, input: Tensor) -> Tensor:
        """``logsigmoid(input)``."""
        return F.logsigmoid(input)


class LeakyReLU(Module):
    """``x`` where positive, else ``negative_slope * x``."""

    def __init__(self, negative_slope: float = 1e-2, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        """``leaky_relu(input)``."""
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        """``negative_slope=0.01``."""
        inplace = ", inplace=True" if self.inplace else ""
        return f"negative_slope={self.negative_slope}{inplace}"


class GELU(Module):
    """``x * Phi(x)`` (``approximate='tanh'``: the tanh formula)."""

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input: Tensor) -> Tensor:
        """``gelu(input)``."""
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        """``approximate='none'``."""
        return f"approximate={self.approximate!r}"


class ELU(Module):
    """``x`` where positive, else ``alpha * (exp(x) - 1)``."""

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        """``elu(input)``."""
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        """``alpha=1.0``."""
        inplace = ", inplace=True" if self.inplace else ""
        return f"alpha={self.alpha}{inplace}"


class SELU(Module):
    """The self-normalising ELU."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        """``selu(input)``."""
        return F.selu(input, self.inplace)

    def extra_repr(self) -> str:
        """``inplace=True`` when in place, else nothing."""
        return "inplace=True" if self.inplace else ""


class Softplus(Module):
    """``log(1 + exp(beta * x)) / beta`` (linear above ``threshold``)."""

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input: Tensor) -> Tensor:
        """``softplus(input)``."""
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        """``beta=1.0, threshold=20.0``."""
        return f"beta={self.beta}, threshold={self.threshold}"


class Softmax(Module):
    """``exp(x) / sum(exp(x))`` along ``dim``."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        """``softmax(input, dim)``."""
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        """``dim=1``."""
        return f"dim={self.dim}"


class LogSoftmax(Module):
    """``log(softmax(x))`` along ``dim``."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        """``log_softmax(input, dim)``."""
        return F.log_softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        """``dim=1``."""
        return f"dim={self.dim}"
