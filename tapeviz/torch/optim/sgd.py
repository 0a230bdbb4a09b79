"""``torch.optim.SGD``: momentum, dampening, Nesterov, weight decay, maximize."""

from __future__ import annotations

from typing import Any

from tapeviz.torch.optim.optimizer import (
    Optimizer,
    _check,
    _grad_of,
    _new_tensor,
    _params_with_grad,
    _value,
    _write,
)

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent, with torch's update rule (``p -= lr * buf``)."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        momentum: float = 0,
        dampening: float = 0,
        weight_decay: float = 0,
        nesterov: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        _check(lr >= 0.0, "learning rate", lr)
        _check(momentum >= 0.0, "momentum value", momentum)
        _check(weight_decay >= 0.0, "weight_decay value", weight_decay)
        defaults = dict(
            lr=lr,
            momentum=momentum,
            dampening=dampening,
            weight_decay=weight_decay,
            nesterov=nesterov,
            maximize=maximize,
            foreach=foreach,
            differentiable=differentiable,
            fused=fused,
        )
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def _update(self, group: dict[str, Any]) -> None:
        lr, momentum, dampening = group["lr"], group["momentum"], group["dampening"]
        wd, nesterov = group["weight_decay"], group["nesterov"]
        for p in _params_with_grad(group):
            x = _value(p)
            f = x.dtype.type
            g = _grad_of(p, group["maximize"])
            if wd != 0:
                g = g + f(wd) * x
            if momentum != 0:
                state = self.state[p]
                buf = state.get("momentum_buffer")
                if buf is None:
                    state["momentum_buffer"] = _new_tensor(g, like=p)
                    b = g
                else:
                    b = _value(buf) * f(momentum) + f(1 - dampening) * g
                    _write(buf, b)
                g = g + f(momentum) * b if nesterov else b
            _write(p, x + f(-lr) * g)
