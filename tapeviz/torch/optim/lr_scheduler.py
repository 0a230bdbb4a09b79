"""``torch.optim.lr_scheduler``: step, multi-step, exponential, lambda and cosine schedules.

The warm-up and one-cycle schedules (constant, linear, polynomial, multiplicative, warm
restarts, one cycle, sequential, chained) are in :mod:`~tapeviz.torch.optim.warmup`, the base
class in :mod:`~tapeviz.torch.optim.scheduler_base` (both re-exported here).

ReduceLROnPlateau, which follows a metric instead of the epoch, is in
:mod:`~tapeviz.torch.optim.plateau` (re-exported here).

All follow torch's chainable forms, so the learning rates match torch's step by step.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable
from typing import Any

from tapeviz.torch.optim.optimizer import Optimizer
from tapeviz.torch.optim.plateau import ReduceLROnPlateau
from tapeviz.torch.optim.scheduler_base import LambdaScheduler, LRScheduler, _groups_lr
from tapeviz.torch.optim.warmup import (
    ChainedScheduler,
    ConstantLR,
    CosineAnnealingWarmRestarts,
    LinearLR,
    MultiplicativeLR,
    OneCycleLR,
    PolynomialLR,
    SequentialLR,
)

__all__ = [
    "ChainedScheduler", "ConstantLR", "CosineAnnealingLR", "CosineAnnealingWarmRestarts",
    "ExponentialLR", "LRScheduler", "LambdaLR", "LinearLR", "MultiStepLR", "MultiplicativeLR",
    "OneCycleLR", "PolynomialLR", "ReduceLROnPlateau", "SequentialLR", "StepLR",
]  # fmt: skip


class LambdaLR(LambdaScheduler):
    """``lr = initial_lr * lr_lambda(epoch)``."""

    def __init__(
        self,
        optimizer: Optimizer,
        lr_lambda: Any,
        last_epoch: int = -1,
        verbose: Any = "deprecated",
    ) -> None:
        super().__init__(optimizer, lr_lambda, last_epoch)

    def get_lr(self) -> list[float]:
        """``base_lr * lambda(last_epoch)`` per group."""
        self._warn_get_lr()
        return [
            base * fn(self.last_epoch)
            for fn, base in zip(self.lr_lambdas, self.base_lrs, strict=True)
        ]


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
