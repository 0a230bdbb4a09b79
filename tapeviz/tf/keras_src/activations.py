"""``keras.activations``: the activation functions layers accept by name (``"relu"``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tapeviz import engine as E
from tapeviz.engine.errors import InvalidArgumentError

__all__ = ["ACTIVATIONS", "get", "serialize"]


def linear(x: Any) -> Any:
    """The identity: ``x``."""
    return x


def relu(
    x: Any, negative_slope: float = 0.0, max_value: float | None = None, threshold: float = 0.0
) -> Any:
    """``max(x, 0)``; with ``negative_slope``, ``max_value`` and ``threshold`` as Keras."""
    if negative_slope == 0 and max_value is None and threshold == 0:
        return E.relu(x)
    if max_value == 6 and negative_slope == 0 and threshold == 0:
        return E.relu6(x)
    x = E.convert_to_tensor(x) if not isinstance(x, E.Tensor | E.Variable) else x
    out = E.where(E.greater(x, threshold), x, negative_slope * (x - threshold))
    return out if max_value is None else E.minimum(out, max_value)


def leaky_relu(x: Any, negative_slope: float = 0.2) -> Any:
    """``x`` if positive, else ``negative_slope · x``."""
    return E.leaky_relu(x, alpha=negative_slope)


def softmax(x: Any, axis: int = -1) -> Any:
    """Softmax along ``axis``."""
    return E.softmax(x, axis=axis)


def log_softmax(x: Any, axis: int = -1) -> Any:
    """Log-softmax along ``axis``."""
    return E.log_softmax(x, axis=axis)


def elu(x: Any, alpha: float = 1.0) -> Any:
    """``x`` if positive, else ``alpha · (eˣ − 1)``."""
    return E.elu(x) if alpha == 1.0 else E.where(E.greater(x, 0.0), x, alpha * E.expm1(x))


def gelu(x: Any, approximate: bool = False) -> Any:
    """Gaussian error linear unit."""
    return E.gelu(x, approximate=approximate)


def silu(x: Any) -> Any:
    """``x · σ(x)``."""
    return E.silu(x)


def exponential(x: Any) -> Any:
    """``eˣ``."""
    return E.exp(x)


def hard_sigmoid(x: Any) -> Any:
    """``relu6(x + 3) / 6`` (Keras 3's definition)."""
    return E.relu6(x + 3.0) / 6.0


def mish(x: Any) -> Any:
    """``x · tanh(softplus(x))``."""
    return x * E.tanh(E.softplus(x))


ACTIVATIONS: dict[str, Callable[..., Any]] = {
    "linear": linear, "relu": relu, "relu6": E.relu6, "leaky_relu": leaky_relu,
    "sigmoid": E.sigmoid, "tanh": E.tanh, "softmax": softmax, "log_softmax": log_softmax,
    "elu": elu, "selu": E.selu, "gelu": gelu, "silu": silu, "swish": silu,
    "softplus": E.softplus, "softsign": E.softsign, "exponential": exponential,
    "hard_sigmoid": hard_sigmoid, "mish": mish,
}  # fmt: skip


def get(identifier: Any) -> Callable[..., Any]:
    """An activation by name (``"relu"``), the function itself, or ``linear`` for None."""
    if identifier is None:
        return linear
    if callable(identifier):
        return identifier
    if isinstance(identifier, str) and identifier in ACTIVATIONS:
        return ACTIVATIONS[identifier]
    raise InvalidArgumentError(
        f"Could not interpret activation function identifier: {identifier}", "activations"
    )


def serialize(activation: Callable[..., Any]) -> str:
    """The name of an activation function."""
    for name, fn in ACTIVATIONS.items():
        if fn is activation:
            return name
    return getattr(activation, "__name__", str(activation))
