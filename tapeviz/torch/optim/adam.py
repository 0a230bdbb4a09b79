"""``torch.optim.Adam`` and ``AdamW`` (decoupled weight decay), with ``amsgrad``."""

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

__all__ = ["Adam", "AdamW"]


class Adam(Optimizer):
    """Adam: bias-corrected moving averages of the gradient and its square."""

    _decoupled = False

    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        amsgrad: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        _check(lr >= 0.0, "learning rate", lr)
        _check(eps >= 0.0, "epsilon value", eps)
        _check(0.0 <= betas[0] < 1.0, "beta parameter at index 0", betas[0])
        _check(0.0 <= betas[1] < 1.0, "beta parameter at index 1", betas[1])
        _check(weight_decay >= 0.0, "weight_decay value", weight_decay)
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            amsgrad=amsgrad,
            maximize=maximize,
            foreach=foreach,
            capturable=capturable,
            differentiable=differentiable,
            fused=fused,
        )
        super().__init__(params, defaults)

    def _update(self, group: dict[str, Any]) -> None:
        beta1, beta2 = group["betas"]
        lr, eps, wd, amsgrad = group["lr"], group["eps"], group["weight_decay"], group["amsgrad"]
        for p in _params_with_grad(group):
            state = self.state[p]
            if not state:
                state["step"] = _new_tensor(0.0, dtype=_D.float32)
                state["exp_avg"] = _new_tensor(np.zeros(tuple(p.shape)), like=p)
                state["exp_avg_sq"] = _new_tensor(np.zeros(tuple(p.shape)), like=p)
                if amsgrad:
                    state["max_exp_avg_sq"] = _new_tensor(np.zeros(tuple(p.shape)), like=p)
            x = _value(p)
            f = x.dtype.type
            g = _grad_of(p, group["maximize"])
            step = _step_count(state)
            if wd != 0:
                if self._decoupled:
                    x = x * f(1 - lr * wd)
                else:
                    g = g + f(wd) * x
            m = _lerp(_value(state["exp_avg"]), g, 1 - beta1)
            v = _value(state["exp_avg_sq"]) * f(beta2) + f(1 - beta2) * g * g
            _write(state["exp_avg"], m)
            _write(state["exp_avg_sq"], v)
            bias_correction1 = 1 - beta1**step
            bias_correction2 = 1 - beta2**step
            step_size = lr / bias_correction1
            bias_correction2_sqrt = bias_correction2**0.5
            if amsgrad:
                v = np.maximum(_value(state["max_exp_avg_sq"]), v)
                _write(state["max_exp_avg_sq"], v)
            denom = np.sqrt(v) / f(bias_correction2_sqrt) + f(eps)
            _write(p, x + f(-step_size) * m / denom)


class AdamW(Adam):
    """Adam with decoupled weight decay: ``p *= 1 - lr * weight_decay`` before the update."""

    _decoupled = True

    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        amsgrad: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        super().__init__(
            params,
            lr,
            betas,
            eps,
            weight_decay,
            amsgrad,
            foreach=foreach,
            maximize=maximize,
            capturable=capturable,
            differentiable=differentiable,
            fused=fused,
        )
