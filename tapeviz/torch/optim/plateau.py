"""``torch.optim.lr_scheduler.ReduceLROnPlateau``: lower the learning rate when a metric stalls."""

from __future__ import annotations

import math
from typing import Any

from tapeviz.torch.optim.optimizer import Optimizer
from tapeviz.torch.optim.scheduler_base import take_state

__all__ = ["ReduceLROnPlateau"]


class ReduceLROnPlateau:
    """Multiply each group's ``lr`` by ``factor`` after ``patience`` epochs without improvement.

    torch's rules: ``step(metric)`` once per epoch; "better" is relative (``threshold_mode``
    'rel': below ``best · (1 − threshold)`` for 'min') or absolute; after a reduction,
    ``cooldown`` epochs count no bad epochs; no ``lr`` goes below its ``min_lr``, and a change
    smaller than ``eps`` is not made.
    """

    def __init__(
        self,
        optimizer: Optimizer,
        mode: str = "min",
        factor: float = 0.1,
        patience: int = 10,
        threshold: float = 1e-4,
        threshold_mode: str = "rel",
        cooldown: int = 0,
        min_lr: float | list[float] = 0,
        eps: float = 1e-8,
    ) -> None:
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        groups = optimizer.param_groups
        if isinstance(min_lr, list | tuple):
            if len(min_lr) != len(groups):
                raise ValueError(f"expected {len(groups)} min_lrs, got {len(min_lr)}")
            self.default_min_lr = None
            self.min_lrs = [float(v) for v in min_lr]
        else:
            self.default_min_lr = float(min_lr)
            self.min_lrs = [float(min_lr)] * len(groups)
        if mode not in ("min", "max"):
            raise ValueError(f"mode {mode} is unknown!")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError(f"threshold mode {threshold_mode} is unknown!")
        self.factor, self.patience, self.cooldown = float(factor), int(patience), int(cooldown)
        self.mode, self.threshold, self.threshold_mode = mode, float(threshold), threshold_mode
        self.eps = float(eps)
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.best = self.mode_worse
        self.num_bad_epochs = 0
        self.cooldown_counter = 0
        self.last_epoch = 0
        self._last_lr = [float(g["lr"]) for g in groups]

    @property
    def in_cooldown(self) -> bool:
        """Whether the epochs after a reduction are still running out."""
        return self.cooldown_counter > 0

    def is_better(self, a: float, best: float) -> bool:
        """Whether metric ``a`` improves on ``best`` (mode and threshold rules)."""
        if self.mode == "min":
            if self.threshold_mode == "rel":
                return a < best * (1.0 - self.threshold)
            return a < best - self.threshold
        if self.threshold_mode == "rel":
            return a > best * (self.threshold + 1.0)
        return a > best + self.threshold

    def step(self, metrics: Any, epoch: int | None = None) -> None:
        """Record one epoch's metric; lower the learning rates after too many bad epochs."""
        current = float(metrics.item() if hasattr(metrics, "item") else metrics)
        self.last_epoch = self.last_epoch + 1 if epoch is None else int(epoch)
        if self.is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            for i, group in enumerate(self.optimizer.param_groups):
                old = float(group["lr"])
                new = max(old * self.factor, self.min_lrs[i])
                if old - new > self.eps:
                    group["lr"] = new
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = [float(g["lr"]) for g in self.optimizer.param_groups]

    def get_last_lr(self) -> list[float]:
        """The learning rates after the last ``step()``."""
        return self._last_lr

    def state_dict(self) -> dict[str, Any]:
        """Every attribute but the optimizer."""
        return {k: v for k, v in self.__dict__.items() if k != "optimizer"}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Take the attributes of ``state_dict``."""
        take_state(self, state_dict)
