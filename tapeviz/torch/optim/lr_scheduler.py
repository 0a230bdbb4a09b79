"""``torch.optim.lr_scheduler``: step, multi-step, exponential, lambda and cosine schedules.

ReduceLROnPlateau, which follows a metric instead of the epoch, is in
:mod:`~tapeviz.torch.optim.plateau` (re-exported here).

torch's chainable forms, so the learning rates match torch's step by step.
"""

from __future__ import annotations

import math
import types
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from tapeviz.engine import diagnostics
from tapeviz.torch.optim.optimizer import Optimizer
from tapeviz.torch.optim.plateau import ReduceLROnPlateau

__all__ = [
    "CosineAnnealingLR", "ExponentialLR", "LRScheduler", "LambdaLR", "MultiStepLR",
    "ReduceLROnPlateau", "StepLR",
]  # fmt: skip

_EPOCH_DEPRECATION = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where "
    "possible. Please use `scheduler.step()` to step the scheduler. During the deprecation, if "
    "epoch is different from None, the closed form is used instead of the new chainable form, "
    "where available. Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)


def _mark_steps(opt: Optimizer) -> None:
    """Let the scheduler tell whether ``opt.step`` was called (torch's warning).

    torch wraps ``opt.step`` in a function of its own; here the optimizers' own ``step`` marks
    the call (a wrapper function would be a callable the sandbox does not know). A ``step`` the
    script wrote itself is given the benefit of the doubt: no warning.
    """
    if type(opt).step is not Optimizer.step:
        opt._opt_called = True  # type: ignore[attr-defined]


class LRScheduler:
    """Base class: sets each param group's ``lr`` at every ``step()``."""

    def __init__(
        self, optimizer: Optimizer, last_epoch: int = -1, verbose: Any = "deprecated"
    ) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        "param 'initial_lr' is not specified in param_groups[{i}] when resuming "
                        "an optimizer".replace("{i}", str(i))
                    )
        self.base_lrs: list[float] = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        _mark_steps(optimizer)
        self._get_lr_called_within_step = False
        self._step_count = 0
        self.step()

    def get_last_lr(self) -> list[float]:
        """The learning rates the last ``step()`` set."""
        return self._last_lr

    def get_lr(self) -> list[float]:
        """The learning rates of this step (the chainable form)."""
        raise NotImplementedError

    def _warn_get_lr(self) -> None:
        if not self._get_lr_called_within_step:
            diagnostics.warn(
                "To get the last learning rate computed by the scheduler, please use "
                "`get_last_lr()`.",
                stacklevel=3,
            )

    def step(self, epoch: int | None = None) -> None:
        """Advance one epoch and set the learning rates."""
        if self._step_count == 1 and not getattr(self.optimizer, "_opt_called", False):
            diagnostics.warn(
                "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch "
                "1.1.0 and later, you should call them in the opposite order: "
                "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will "
                "result in PyTorch skipping the first value of the learning rate schedule. See "
                "more details at "
                "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
                stacklevel=2,
            )
        self._step_count += 1
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                diagnostics.warn(_EPOCH_DEPRECATION, stacklevel=2)
                self.last_epoch = epoch
                closed = getattr(self, "_get_closed_form_lr", None)
                values = closed() if closed is not None else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values, strict=False):
            group["lr"] = lr
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def state_dict(self) -> dict[str, Any]:
        """Every attribute but the optimizer."""
        return {k: v for k, v in self.__dict__.items() if k != "optimizer"}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Take the attributes of ``state_dict``."""
        self.__dict__.update(state_dict)


_LRScheduler = LRScheduler


def _groups_lr(s: LRScheduler) -> list[float]:
    return [group["lr"] for group in s.optimizer.param_groups]


class LambdaLR(LRScheduler):
    """``lr = initial_lr * lr_lambda(epoch)``."""

    def __init__(
        self,
        optimizer: Optimizer,
        lr_lambda: Any,
        last_epoch: int = -1,
        verbose: Any = "deprecated",
    ) -> None:
        self.optimizer = optimizer
        if not isinstance(lr_lambda, list | tuple):
            self.lr_lambdas: list[Callable[[int], float]] = [lr_lambda] * len(
                optimizer.param_groups
            )
        else:
            if len(lr_lambda) != len(optimizer.param_groups):
                raise ValueError(
                    f"Expected {len(optimizer.param_groups)} lr_lambdas, but got {len(lr_lambda)}"
                )
            self.lr_lambdas = list(lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        """``base_lr * lambda(last_epoch)`` per group."""
        self._warn_get_lr()
        return [
            base * fn(self.last_epoch)
            for fn, base in zip(self.lr_lambdas, self.base_lrs, strict=True)
        ]

    def state_dict(self) -> dict[str, Any]:
        """The attributes, with the lambdas' own attributes (functions are not saved)."""
        out = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}
        out["lr_lambdas"] = [
            None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
            for fn in self.lr_lambdas
        ]
        return out


class StepLR(LRScheduler):
    """Multiply the learning rate by ``gamma`` every ``step_size`` epochs."""

    def __init__(
        self,
        optimizer: Optimizer,
        step_size: int,
        gamma: float = 0.1,
        last_epoch: int = -1,
        verbose: Any = "deprecated",
    ) -> None:
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        """The previous rate, times ``gamma`` at each multiple of ``step_size``."""
        self._warn_get_lr()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return _groups_lr(self)
        return [lr * self.gamma for lr in _groups_lr(self)]

    def _get_closed_form_lr(self) -> list[float]:
        return [base * self.gamma ** (self.last_epoch // self.step_size) for base in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiply the learning rate by ``gamma`` at each milestone epoch."""

    def __init__(
        self,
        optimizer: Optimizer,
        milestones: Iterable[int],
        gamma: float = 0.1,
        last_epoch: int = -1,
        verbose: Any = "deprecated",
    ) -> None:
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        """The previous rate, times ``gamma`` (per repeat) at a milestone."""
        self._warn_get_lr()
        if self.last_epoch not in self.milestones:
            return _groups_lr(self)
        return [lr * self.gamma ** self.milestones[self.last_epoch] for lr in _groups_lr(self)]

    def _get_closed_form_lr(self) -> list[float]:
        milestones = sorted(self.milestones.elements())
        return [
            base * self.gamma ** bisect_right(milestones, self.last_epoch) for base in self.base_lrs
        ]


class ExponentialLR(LRScheduler):
    """Multiply the learning rate by ``gamma`` every epoch."""

    def __init__(
        self, optimizer: Optimizer, gamma: float, last_epoch: int = -1, verbose: Any = "deprecated"
    ) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        """The previous rate times ``gamma`` (unchanged at epoch 0)."""
        self._warn_get_lr()
        if self.last_epoch == 0:
            return _groups_lr(self)
        return [lr * self.gamma for lr in _groups_lr(self)]

    def _get_closed_form_lr(self) -> list[float]:
        return [base * self.gamma**self.last_epoch for base in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Anneal from the initial rate to ``eta_min`` along a half cosine over ``T_max`` epochs."""

    def __init__(
        self,
        optimizer: Optimizer,
        T_max: int,
        eta_min: float = 0.0,
        last_epoch: int = -1,
        verbose: Any = "deprecated",
    ) -> None:
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        """Torch's recursive form of the cosine schedule."""
        self._warn_get_lr()
        t, n, lo = self.last_epoch, self.T_max, self.eta_min
        if t == 0:
            return _groups_lr(self)
        if self._step_count == 1 and t > 0:
            return [
                lo + (base - lo) * (1 + math.cos(t * math.pi / n)) / 2 for base in self.base_lrs
            ]
        if (t - 1 - n) % (2 * n) == 0:
            return [
                lr + (base - lo) * (1 - math.cos(math.pi / n)) / 2
                for base, lr in zip(self.base_lrs, _groups_lr(self), strict=True)
            ]
        return [
            (1 + math.cos(math.pi * t / n)) / (1 + math.cos(math.pi * (t - 1) / n)) * (lr - lo) + lo
            for lr in _groups_lr(self)
        ]

    def _get_closed_form_lr(self) -> list[float]:
        return [
            self.eta_min
            + (base - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
            for base in self.base_lrs
        ]
