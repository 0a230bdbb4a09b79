"""``RMSprop``, ``Adagrad`` and ``Adadelta``: per-element step sizes from squared gradients."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.torch import _dtypes as _D
from tapeviz.torch.optim.optimizer import (
    Optimizer,
    _check,
    _grad_of,
    _lerp,
    _new_tensor,
    _params_with_grad,
    _step_count,
    _value,
    _write,
)

__all__ = ["Adadelta", "Adagrad", "RMSprop"]


def _zeros(p: Any) -> Any:
    return _new_tensor(np.zeros(tuple(p.shape)), like=p)


class RMSprop(Optimizer):
    """RMSprop: divide by a moving average of squared gradients (``centered``, ``momentum``)."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-2,
        alpha: float = 0.99,
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum: float = 0,
        centered: bool = False,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        _check(lr >= 0.0, "learning rate", lr)
        _check(eps >= 0.0, "epsilon value", eps)
        _check(momentum >= 0.0, "momentum value", momentum)
        _check(weight_decay >= 0.0, "weight_decay value", weight_decay)
        _check(alpha >= 0.0, "alpha value", alpha)
        defaults = dict(
            lr=lr,
            momentum=momentum,
            alpha=alpha,
            eps=eps,
            centered=centered,
            weight_decay=weight_decay,
            capturable=capturable,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _update(self, group: dict[str, Any]) -> None:
        lr, alpha, eps = group["lr"], group["alpha"], group["eps"]
        wd, momentum, centered = group["weight_decay"], group["momentum"], group["centered"]
        for p in _params_with_grad(group):
            state = self.state[p]
            if not state:
                state["step"] = _new_tensor(0.0, dtype=_D.float32)
                state["square_avg"] = _zeros(p)
                if momentum > 0:
                    state["momentum_buffer"] = _zeros(p)
                if centered:
                    state["grad_avg"] = _zeros(p)
            x = _value(p)
            f = x.dtype.type
            g = _grad_of(p, group["maximize"])
            _step_count(state)
            if wd != 0:
                g = g + f(wd) * x
            sq = _value(state["square_avg"]) * f(alpha) + f(1 - alpha) * g * g
            _write(state["square_avg"], sq)
            if centered:
                ga = _lerp(_value(state["grad_avg"]), g, 1 - alpha)
                _write(state["grad_avg"], ga)
                avg = np.sqrt(sq + f(-1) * ga * ga)
            else:
                avg = np.sqrt(sq)
            avg = avg + f(eps)
            if momentum > 0:
                buf = _value(state["momentum_buffer"]) * f(momentum) + g / avg
                _write(state["momentum_buffer"], buf)
                _write(p, x + f(-lr) * buf)
            else:
                _write(p, x + f(-lr) * g / avg)


class Adagrad(Optimizer):
    """Adagrad: divide by the root of the sum of all squared gradients so far."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-2,
        lr_decay: float = 0,
        weight_decay: float = 0,
        initial_accumulator_value: float = 0,
        eps: float = 1e-10,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        _check(lr >= 0.0, "learning rate", lr)
        _check(lr_decay >= 0.0, "lr_decay value", lr_decay)
        _check(weight_decay >= 0.0, "weight_decay value", weight_decay)
        _check(
            initial_accumulator_value >= 0.0,
            "initial_accumulator_value value",
            initial_accumulator_value,
        )
        _check(eps >= 0.0, "epsilon value", eps)
        defaults = dict(
            lr=lr,
            lr_decay=lr_decay,
            eps=eps,
            weight_decay=weight_decay,
            initial_accumulator_value=initial_accumulator_value,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            fused=fused,
        )
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                state["step"] = _new_tensor(0.0, dtype=_D.float32)
                init = group["initial_accumulator_value"]
                state["sum"] = _new_tensor(np.full(tuple(p.shape), init), like=p)

    def _update(self, group: dict[str, Any]) -> None:
        lr, lr_decay, eps, wd = group["lr"], group["lr_decay"], group["eps"], group["weight_decay"]
        for p in _params_with_grad(group):
            state = self.state[p]
            x = _value(p)
            f = x.dtype.type
            step = _step_count(state)
            g = _grad_of(p, group["maximize"])
            if wd != 0:
                g = g + f(wd) * x
            clr = lr / (1 + (step - 1) * lr_decay)
            total = _value(state["sum"]) + f(1) * g * g
            _write(state["sum"], total)
            std = np.sqrt(total) + f(eps)
            _write(p, x + f(-clr) * g / std)


class Adadelta(Optimizer):
    """Adadelta: steps scaled by the ratio of moving RMS of updates and of gradients."""

    def __init__(
        self,
        params: Any,
        lr: float = 1.0,
        rho: float = 0.9,
        eps: float = 1e-6,
        weight_decay: float = 0,
        foreach: bool | None = None,
        *,
        capturable: bool = False,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        _check(lr >= 0.0, "learning rate", lr)
        _check(0.0 <= rho <= 1.0, "rho value", rho)
        _check(eps >= 0.0, "epsilon value", eps)
        _check(weight_decay >= 0.0, "weight_decay value", weight_decay)
        defaults = dict(
            lr=lr,
            rho=rho,
            eps=eps,
            weight_decay=weight_decay,
            maximize=maximize,
            capturable=capturable,
            foreach=foreach,
            differentiable=differentiable,
        )
        super().__init__(params, defaults)

    def _update(self, group: dict[str, Any]) -> None:
        lr, rho, eps, wd = group["lr"], group["rho"], group["eps"], group["weight_decay"]
        for p in _params_with_grad(group):
            state = self.state[p]
            if not state:
                state["step"] = _new_tensor(0.0, dtype=_D.float32)
                state["square_avg"] = _zeros(p)
                state["acc_delta"] = _zeros(p)
            x = _value(p)
            f = x.dtype.type
            _step_count(state)
            g = _grad_of(p, group["maximize"])
            if wd != 0:
                g = g + f(wd) * x
            sq = _value(state["square_avg"]) * f(rho) + f(1 - rho) * g * g
            _write(state["square_avg"], sq)
            std = np.sqrt(sq + f(eps))
            delta = np.sqrt(_value(state["acc_delta"]) + f(eps)) / std * g
            acc = _value(state["acc_delta"]) * f(rho) + f(1 - rho) * delta * delta
            _write(state["acc_delta"], acc)
            _write(p, x + f(-lr) * delta)
