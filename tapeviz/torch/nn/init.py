"""``torch.nn.init``: fill a tensor in place (no graph), with torch's gain and fan rules.

The random numbers are torch's own (``torch.manual_seed``'s generator, :mod:`._cpu_rng`), so a
seeded script starts from the weights torch gives it (``nn.Linear(1, 1)`` after
``torch.manual_seed(42)``: 0.7645, 0.8300). Each function keeps the tensor's engine id, so a
parameter stays one tensor in the timeline.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine import diagnostics
from tapeviz.engine.tensor import Tensor as _ETensor
from tapeviz.engine.tensor import freeze as _freeze
from tapeviz.torch._autograd import no_grad as _no_grad
from tapeviz.torch._creation import _rng
from tapeviz.torch._tensor import Tensor

__all__ = [
    "calculate_gain", "constant_", "eye_", "kaiming_normal_", "kaiming_uniform_", "normal_",
    "ones_", "orthogonal_", "trunc_normal_", "uniform_", "xavier_normal_", "xavier_uniform_",
    "zeros_",
]  # fmt: skip

_LINEAR = (
    "linear",
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
)


def _write(tensor: Tensor, value: Any) -> Tensor:
    """Set ``tensor``'s values in place (its engine id and name kept), under no_grad."""
    dt = tensor._t.dtype
    arr = np.asarray(value).astype(dt.np).reshape(tuple(tensor.shape))
    with _no_grad():
        tensor._become(Tensor._wrap(_ETensor(_freeze(arr), dt)))
    return tensor


def calculate_gain(nonlinearity: str, param: Any = None) -> float:
    """The recommended gain for a nonlinearity (``relu``: sqrt(2), ``tanh``: 5/3, ...)."""
    if nonlinearity in _LINEAR or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif (not isinstance(param, bool) and isinstance(param, int)) or isinstance(param, float):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    if tensor.dim() < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    receptive = int(np.prod(tuple(tensor.shape)[2:], dtype=np.int64))
    return tensor.size(1) * receptive, tensor.size(0) * receptive


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    mode = mode.lower()
    valid = ["fan_in", "fan_out"]
    if mode not in valid:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator: Any = None) -> Tensor:
    """Fill with samples from U(a, b)."""
    return _write(tensor, _rng(generator).uniform(tuple(tensor.shape), tensor._t.dtype.np, a, b))


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator: Any = None) -> Tensor:
    """Fill with samples from N(mean, std²)."""
    shape = tuple(tensor.shape)
    return _write(tensor, _rng(generator).normal(shape, tensor._t.dtype.np, mean, std))


def trunc_normal_(
    tensor: Tensor,
    mean: float = 0.0,
    std: float = 1.0,
    a: float = -2.0,
    b: float = 2.0,
    generator: Any = None,
) -> Tensor:
    """Fill with samples from N(mean, std²) truncated to ``[a, b]``."""
    if mean < a - 2 * std or mean > b + 2 * std:
        diagnostics.warn(
            "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of "
            "values may be incorrect.",
            stacklevel=2,
        )
    rng = _rng(generator)  # (redraws out of range: not torch's erfinv method, so not its numbers)
    shape, dt = tuple(tensor.shape), tensor._t.dtype.np
    out = rng.normal(shape, dt, mean, std).astype(np.float64)
    bad = (out < a) | (out > b)
    for _ in range(1000):
        if not bad.any():
            break
        out[bad] = rng.normal((int(bad.sum()),), dt, mean, std)
        bad = (out < a) | (out > b)
    return _write(tensor, np.clip(out, a, b))


def constant_(tensor: Tensor, val: float) -> Tensor:
    """Fill with ``val``."""
    return _write(tensor, np.full(tuple(tensor.shape), val))


def ones_(tensor: Tensor) -> Tensor:
    """Fill with ones."""
    return constant_(tensor, 1.0)


def zeros_(tensor: Tensor) -> Tensor:
    """Fill with zeros."""
    return constant_(tensor, 0.0)


def eye_(tensor: Tensor) -> Tensor:
    """Fill a matrix with the identity."""
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _write(tensor, np.eye(*tuple(tensor.shape)))


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    """Glorot uniform: U(-a, a) with ``a = gain * sqrt(6 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    """Glorot normal: N(0, std²) with ``std = gain * sqrt(2 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def _kaiming_std(tensor: Tensor, a: float, mode: str, nonlinearity: str) -> float | None:
    if 0 in tuple(tensor.shape):
        diagnostics.warn("Initializing zero-element tensors is a no-op", stacklevel=3)
        return None
    fan = _calculate_correct_fan(tensor, mode)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def kaiming_uniform_(
    tensor: Tensor,
    a: float = 0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    generator: Any = None,
) -> Tensor:
    """He uniform: U(-b, b) with ``b = gain * sqrt(3 / fan)``."""
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(
    tensor: Tensor,
    a: float = 0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    generator: Any = None,
) -> Tensor:
    """He normal: N(0, std²) with ``std = gain / sqrt(fan)``."""
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    return normal_(tensor, 0.0, std, generator)


def orthogonal_(tensor: Tensor, gain: float = 1, generator: Any = None) -> Tensor:
    """Fill with a (semi-)orthogonal matrix, scaled by ``gain``."""
    if tensor.ndimension() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    flat = _rng(generator).normal((rows, cols), tensor._t.dtype.np, 0.0, 1.0).astype(np.float64)
    if rows < cols:
        flat = flat.T
    q, r = np.linalg.qr(flat)
    q = q * np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    return _write(tensor, q * gain)


def _deprecated(new: Callable[..., Tensor]) -> Callable[..., Tensor]:
    old = new.__name__[:-1]

    def fn(*args: Any, **kwargs: Any) -> Tensor:
        diagnostics.warn(
            f"`nn.init.{old}` is now deprecated in favor of `nn.init.{new.__name__}`.",
            stacklevel=2,
        )
        return new(*args, **kwargs)

    fn.__name__ = old
    fn.__doc__ = f"Deprecated: ``{new.__name__}``."
    return fn


uniform = _deprecated(uniform_)
normal = _deprecated(normal_)
constant = _deprecated(constant_)
xavier_uniform = _deprecated(xavier_uniform_)
xavier_normal = _deprecated(xavier_normal_)
kaiming_uniform = _deprecated(kaiming_uniform_)
kaiming_normal = _deprecated(kaiming_normal_)
orthogonal = _deprecated(orthogonal_)
