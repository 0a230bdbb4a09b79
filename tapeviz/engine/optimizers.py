"""Keras-compatible optimizers: SGD (momentum, Nesterov), Adam, RMSprop, Adagrad, Adadelta.

Each optimizer's maths is ``update(value, grad, state, step)`` on plain numpy values, so a run can
be computed without Variables (the optimization studio does); ``apply_gradients`` applies the same
rule to Variables. Update order and defaults follow Keras 3 (``keras/src/optimizers/*.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.optimizer_base import Optimizer, State, _c


class SGD(Optimizer):
    """Gradient descent, optionally with (Nesterov) momentum: Keras' update rule."""

    default_name = "SGD"

    def __init__(
        self, learning_rate: float = 0.01, momentum: float = 0.0, nesterov: bool = False, **kw: Any
    ) -> None:
        super().__init__(learning_rate, **kw)
        if not 0 <= float(momentum) <= 1:
            raise InvalidArgumentError("momentum must be a float between [0, 1]", "SGD")
        self.momentum, self.nesterov = float(momentum), bool(nesterov)
        self.slot_names = ("momentum",) if self.momentum else ()

    def hyperparameters(self) -> dict[str, Any]:
        """Learning rate, momentum, nesterov."""
        return {"learning_rate": self._lr, "momentum": self.momentum, "nesterov": self.nesterov}

    def update(self, value: Any, grad: Any, state: State, step: int) -> Any:
        """``v −= lr·g``; momentum: ``m = β·m − lr·g; v += m`` (Nesterov ``v += β·m − lr·g``)."""
        lr = self.lr_like(value)
        if not self.momentum:
            return value - grad * lr
        beta = _c(self.momentum, value)
        m = state["momentum"] = state["momentum"] * beta - grad * lr
        return value + (m * beta - grad * lr if self.nesterov else m)


class Adam(Optimizer):
    """Adam with Keras' bias correction folded into the step size (ε outside the root)."""

    default_name = "adam"

    slot_names = ("m", "v")

    def __init__(
        self,
        learning_rate: float = 0.001,
        beta_1: float = 0.9,
        beta_2: float = 0.999,
        epsilon: float = 1e-7,
        amsgrad: bool = False,
        **kw: Any,
    ) -> None:
        super().__init__(learning_rate, **kw)
        self.beta_1, self.beta_2, self.epsilon = float(beta_1), float(beta_2), float(epsilon)
        self.amsgrad = bool(amsgrad)
        if self.amsgrad:
            self.slot_names = ("m", "v", "v_hat")

    def hyperparameters(self) -> dict[str, Any]:
        """Learning rate, β1, β2, ε, amsgrad."""
        return {"learning_rate": self._lr, "beta_1": self.beta_1, "beta_2": self.beta_2,
                "epsilon": self.epsilon, "amsgrad": self.amsgrad}  # fmt: skip

    def update(self, value: Any, grad: Any, state: State, step: int) -> Any:
        """``m += (g−m)(1−β1); v += (g²−v)(1−β2); x −= m·α / (√v + ε)``, α bias-corrected."""
        t = _c(step + 1, value)
        b1p = _c(self.beta_1, value) ** t
        b2p = _c(self.beta_2, value) ** t
        alpha = _c(self._lr, value) * np.sqrt(1 - b2p) / (1 - b1p)
        m = state["m"] = state["m"] + (grad - state["m"]) * _c(1 - self.beta_1, value)
        v = state["v"] = state["v"] + (grad * grad - state["v"]) * _c(1 - self.beta_2, value)
        if self.amsgrad:
            v = state["v_hat"] = np.maximum(state["v_hat"], v)
        return value - (m * alpha) / (np.sqrt(v) + _c(self.epsilon, value))


class RMSprop(Optimizer):
    """RMSprop (Keras): running mean of g², optional momentum and centering."""

    default_name = "rmsprop"

    def __init__(
        self,
        learning_rate: float = 0.001,
        rho: float = 0.9,
        momentum: float = 0.0,
        epsilon: float = 1e-7,
        centered: bool = False,
        **kw: Any,
    ) -> None:
        super().__init__(learning_rate, **kw)
        self.rho, self.momentum, self.epsilon = float(rho), float(momentum), float(epsilon)
        self.centered = bool(centered)
        names = ["velocity"]
        if self.momentum:
            names.append("momentum")
        if self.centered:
            names.append("average_gradient")
        self.slot_names = tuple(names)

    def hyperparameters(self) -> dict[str, Any]:
        """Learning rate, ρ, momentum, ε, centered."""
        return {"learning_rate": self._lr, "rho": self.rho, "momentum": self.momentum,
                "epsilon": self.epsilon, "centered": self.centered}  # fmt: skip

    def update(self, value: Any, grad: Any, state: State, step: int) -> Any:
        """``s = ρs + (1−ρ)g²; x −= lr·g / √(s + ε)`` (centered: ``s − ḡ²``)."""
        rho = _c(self.rho, value)
        vel = state["velocity"] = rho * state["velocity"] + _c(1 - self.rho, value) * (grad * grad)
        if self.centered:
            avg = state["average_gradient"] = (
                rho * state["average_gradient"] + _c(1 - self.rho, value) * grad
            )
            denominator = vel - avg * avg + _c(self.epsilon, value)
        else:
            denominator = vel + _c(self.epsilon, value)
        increment = _c(self._lr, value) * grad / np.sqrt(denominator)
        if self.momentum:
            mom = state["momentum"] = _c(self.momentum, value) * state["momentum"] + increment
            return value - mom
        return value - increment


class Adagrad(Optimizer):
    """Adagrad (Keras): accumulated g² scales each step; accumulator starts at 0.1."""

    default_name = "adagrad"

    slot_names = ("accumulator",)

    def __init__(
        self,
        learning_rate: float = 0.001,
        initial_accumulator_value: float = 0.1,
        epsilon: float = 1e-7,
        **kw: Any,
    ) -> None:
        super().__init__(learning_rate, **kw)
        self.initial_accumulator_value = float(initial_accumulator_value)
        self.epsilon = float(epsilon)

    def hyperparameters(self) -> dict[str, Any]:
        """Learning rate, initial accumulator value, ε."""
        return {"learning_rate": self._lr,
                "initial_accumulator_value": self.initial_accumulator_value,
                "epsilon": self.epsilon}  # fmt: skip

    def init_state(self, value: Any) -> State:
        """The accumulator starts at ``initial_accumulator_value``."""
        return {"accumulator": np.full_like(value, self.initial_accumulator_value)}

    def update(self, value: Any, grad: Any, state: State, step: int) -> Any:
        """``a += g²; x −= lr·g / √(a + ε)``."""
        acc = state["accumulator"] = state["accumulator"] + grad * grad
        return value - _c(self._lr, value) * grad / np.sqrt(acc + _c(self.epsilon, value))


class Adadelta(Optimizer):
    """Adadelta (Keras 3): running means of g² and of the steps scale each step."""

    default_name = "adadelta"

    slot_names = ("accumulated_grad", "accumulated_delta_var")

    def __init__(
        self, learning_rate: float = 0.001, rho: float = 0.95, epsilon: float = 1e-7, **kw: Any
    ) -> None:
        super().__init__(learning_rate, **kw)
        self.rho, self.epsilon = float(rho), float(epsilon)

    def hyperparameters(self) -> dict[str, Any]:
        """Learning rate, ρ, ε."""
        return {"learning_rate": self._lr, "rho": self.rho, "epsilon": self.epsilon}

    def update(self, value: Any, grad: Any, state: State, step: int) -> Any:
        """``a = ρa + (1−ρ)g²; Δ = −√(d + ε)·g / √(a + ε); d = ρd + (1−ρ)Δ²; x += lr·Δ``."""
        rho, rest, eps = _c(self.rho, value), _c(1 - self.rho, value), _c(self.epsilon, value)
        acc = state["accumulated_grad"] = rho * state["accumulated_grad"] + rest * (grad * grad)
        delta = -(np.sqrt(state["accumulated_delta_var"] + eps) * grad / np.sqrt(acc + eps))
        state["accumulated_delta_var"] = rho * state["accumulated_delta_var"] + rest * (
            delta * delta
        )
        return value + _c(self._lr, value) * delta


OPTIMIZERS: dict[str, Callable[..., Optimizer]] = {
    "SGD": SGD,
    "Adam": Adam,
    "RMSprop": RMSprop,
    "Adagrad": Adagrad,
    "Adadelta": Adadelta,
}


def get(identifier: str | Optimizer, **kwargs: Any) -> Optimizer:
    """An optimizer by name (``"adam"``) or the optimizer itself."""
    if isinstance(identifier, Optimizer):
        return identifier
    for name, cls in OPTIMIZERS.items():
        if name.lower() == str(identifier).lower():
            return cls(**kwargs)
    raise InvalidArgumentError(
        f"unknown optimizer {identifier!r}; choose one of {', '.join(OPTIMIZERS)}", "optimizers"
    )


__all__ = ["SGD", "Adadelta", "Adagrad", "Adam", "Optimizer", "RMSprop", "get"]
