"""Warm-up and one-cycle schedules, and the two that combine schedulers.

Constant, linear, polynomial, multiplicative, warm restarts and one cycle; sequential and
chained.

Each follows torch's own chainable form step by step (so the printed rates are torch's), its
closed form where torch has one (``step(epoch)``), its checks and its messages.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

from tapeviz.torch.optim.optimizer import Optimizer
from tapeviz.torch.optim.plateau import ReduceLROnPlateau
from tapeviz.torch.optim.scheduler_base import LambdaScheduler, LRScheduler, _groups_lr, take_state

__all__ = [
    "ChainedScheduler", "ConstantLR", "CosineAnnealingWarmRestarts", "LinearLR",
    "MultiplicativeLR", "OneCycleLR", "PolynomialLR", "SequentialLR",
]  # fmt: skip


def _per_group(name: str, optimizer: Optimizer, value: Any) -> list[Any]:
    """One value per param group (a list or tuple must have one per group)."""
    if isinstance(value, list | tuple):
        if len(value) != len(optimizer.param_groups):
            raise ValueError(
                f"{name} must have the same length as optimizer.param_groups. {name} has "
                f"{len(value)} values, param_groups has {len(optimizer.param_groups)}."
            )
        return list(value)
    return [value] * len(optimizer.param_groups)


class ConstantLR(LRScheduler):
    """Multiply the rate by ``factor`` for the first ``total_iters`` epochs."""

    def __init__(self, optimizer: Optimizer, factor: float = 1.0 / 3, total_iters: int = 5,
                 last_epoch: int = -1, verbose: Any = "deprecated") -> None:  # fmt: skip
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor, self.total_iters = factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        """``factor`` times the rate at epoch 0, back to the rate at ``total_iters``."""
        self._warn_get_lr()
        if self.last_epoch == 0:
            return [lr * self.factor for lr in _groups_lr(self)]
        if self.last_epoch != self.total_iters:
            return _groups_lr(self)
        return [lr * (1.0 / self.factor) for lr in _groups_lr(self)]

    def _get_closed_form_lr(self) -> list[float]:
        on = self.last_epoch >= self.total_iters
        return [base * (self.factor + on * (1 - self.factor)) for base in self.base_lrs]


class LinearLR(LRScheduler):
    """Scale the rate by a factor going linearly from ``start_factor`` to ``end_factor``."""

    def __init__(self, optimizer: Optimizer, start_factor: float = 1.0 / 3,
                 end_factor: float = 1.0, total_iters: int = 5, last_epoch: int = -1,
                 verbose: Any = "deprecated") -> None:  # fmt: skip
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and "
                             "less or equal to 1.")  # fmt: skip
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor, self.end_factor = start_factor, end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        """The previous rate times the ratio of this epoch's factor to the last one's."""
        self._warn_get_lr()
        a, b, n, t = self.start_factor, self.end_factor, self.total_iters, self.last_epoch
        if t == 0:
            return [lr * a for lr in _groups_lr(self)]
        if self._is_initial or t > n:
            return _groups_lr(self)
        return [lr * (1.0 + (b - a) / (n * a + (t - 1) * (b - a))) for lr in _groups_lr(self)]

    def _get_closed_form_lr(self) -> list[float]:
        a, b, n = self.start_factor, self.end_factor, self.total_iters
        return [base * (a + (b - a) * min(n, self.last_epoch) / n) for base in self.base_lrs]


class PolynomialLR(LRScheduler):
    """Decay the rate as ``(1 - epoch / total_iters) ** power``, to 0 at ``total_iters``."""

    def __init__(self, optimizer: Optimizer, total_iters: int = 5, power: float = 1.0,
                 last_epoch: int = -1, verbose: Any = "deprecated") -> None:  # fmt: skip
        self.total_iters, self.power = total_iters, power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        """The previous rate times this epoch's decay over the last one's."""
        self._warn_get_lr()
        n, t = self.total_iters, self.last_epoch
        if self._is_initial or t > n:
            return _groups_lr(self)
        decay = ((1.0 - t / n) / (1.0 - (t - 1) / n)) ** self.power
        return [lr * decay for lr in _groups_lr(self)]

    def _get_closed_form_lr(self) -> list[float]:
        n = self.total_iters
        return [base * (1.0 - min(n, self.last_epoch) / n) ** self.power for base in self.base_lrs]


class MultiplicativeLR(LambdaScheduler):
    """Multiply the rate by ``lr_lambda(epoch)`` every epoch."""

    def __init__(self, optimizer: Optimizer, lr_lambda: Any, last_epoch: int = -1,
                 verbose: Any = "deprecated") -> None:  # fmt: skip
        for fn in lr_lambda if isinstance(lr_lambda, list | tuple) else [lr_lambda]:
            if not callable(fn):
                raise TypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")
        super().__init__(optimizer, lr_lambda, last_epoch)

    def get_lr(self) -> list[float]:
        """The previous rate times ``lr_lambda(last_epoch)`` (unchanged by the first step)."""
        self._warn_get_lr()
        if self._is_initial:
            return _groups_lr(self)
        return [lr * fn(self.last_epoch) for fn, lr in zip(self.lr_lambdas, _groups_lr(self),
                                                           strict=True)]  # fmt: skip


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing from the initial rate to ``eta_min``, restarting every ``T_i`` epochs."""

    def __init__(self, optimizer: Optimizer, T_0: int, T_mult: int = 1, eta_min: float = 0.0,
                 last_epoch: int = -1, verbose: Any = "deprecated") -> None:  # fmt: skip
        if not isinstance(T_0, int) or T_0 <= 0:
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if not isinstance(T_mult, int) or T_mult < 1:
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, float | int):
            raise ValueError(f"Expected float or int eta_min, but got {eta_min} of type "
                             f"{type(eta_min)}")  # fmt: skip
        self.T_0, self.T_i, self.T_mult, self.eta_min = T_0, T_0, T_mult, eta_min
        self.T_cur: float = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        """``eta_min + (base - eta_min)(1 + cos(π T_cur / T_i)) / 2``."""
        self._warn_get_lr()
        lo, c = self.eta_min, math.cos(math.pi * self.T_cur / self.T_i)
        return [lo + (base - lo) * (1 + c) / 2 for base in self.base_lrs]

    def step(self, epoch: float | None = None) -> None:
        """Advance one epoch, or go to ``epoch`` (fractions allowed: ``epoch + i / iters``)."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur %= self.T_i
                self.T_i *= self.T_mult
        elif epoch < 0:
            raise ValueError(f"Expected non-negative epoch, but got {epoch}")
        elif epoch >= self.T_0:
            if self.T_mult == 1:
                self.T_cur = epoch % self.T_0
            else:
                n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                self.T_cur = epoch - self.T_0 * (self.T_mult**n - 1) / (self.T_mult - 1)
                self.T_i = self.T_0 * self.T_mult**n
        else:
            self.T_i, self.T_cur = self.T_0, epoch
        self.last_epoch = math.floor(epoch)
        self._get_lr_called_within_step = True
        try:
            values = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values, strict=False):
            group["lr"] = lr
        self._last_lr = _groups_lr(self)


class OneCycleLR(LRScheduler):
    """The 1cycle policy: up to ``max_lr`` and down far below the start (momentum inversely)."""

    def __init__(self, optimizer: Optimizer, max_lr: Any, total_steps: int | None = None,
                 epochs: int | None = None, steps_per_epoch: int | None = None,
                 pct_start: float = 0.3, anneal_strategy: str = "cos",
                 cycle_momentum: bool = True, base_momentum: Any = 0.85,
                 max_momentum: Any = 0.95, div_factor: float = 25.0,
                 final_div_factor: float = 1e4, three_phase: bool = False,
                 last_epoch: int = -1, verbose: Any = "deprecated") -> None:  # fmt: skip
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if total_steps is not None:
            if not isinstance(total_steps, int) or total_steps <= 0:
                raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
            self.total_steps = total_steps
        elif epochs is not None and steps_per_epoch is not None:
            for name, v in (("epochs", epochs), ("steps_per_epoch", steps_per_epoch)):
                if not isinstance(v, int) or v <= 0:
                    raise ValueError(f"Expected positive integer {name}, but got {v}")
            self.total_steps = epochs * steps_per_epoch
        else:
            raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")
        n = self.total_steps
        up = float(pct_start * n) - 1
        phases = [(up, "initial_lr", "max_lr", "max_momentum", "base_momentum")]
        if three_phase:
            phases += [(float(2 * pct_start * n) - 2, "max_lr", "initial_lr", "base_momentum",
                        "max_momentum"),
                       (n - 1, "initial_lr", "min_lr", "max_momentum", "max_momentum")]  # fmt: skip
        else:
            phases.append((n - 1, "max_lr", "min_lr", "base_momentum", "max_momentum"))
        self._phases = phases
        if not isinstance(pct_start, float) or not 0 <= pct_start <= 1:
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")  # fmt: skip
        self.anneal_strategy = anneal_strategy
        if last_epoch == -1:
            for top, group in zip(_per_group("max_lr", optimizer, max_lr),
                                  optimizer.param_groups, strict=True):  # fmt: skip
                group["initial_lr"] = top / div_factor
                group["max_lr"] = top
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise ValueError("optimizer must support momentum or beta1 with "
                                 "`cycle_momentum` option enabled")  # fmt: skip
            self.use_beta1 = "betas" in optimizer.defaults
            if last_epoch == -1:
                for hi, lo, group in zip(_per_group("max_momentum", optimizer, max_momentum),
                                         _per_group("base_momentum", optimizer, base_momentum),
                                         optimizer.param_groups, strict=True):  # fmt: skip
                    self._set_momentum(group, hi)
                    group["max_momentum"], group["base_momentum"] = hi, lo
        super().__init__(optimizer, last_epoch)

    def _set_momentum(self, group: dict[str, Any], m: float) -> None:
        if self.use_beta1:
            group["betas"] = (m, *group["betas"][1:])
        else:
            group["momentum"] = m

    def _anneal(self, start: float, end: float, pct: float) -> float:
        if self.anneal_strategy == "cos":
            return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
        return (end - start) * pct + start

    def get_lr(self) -> list[float]:
        """The rate (and momentum) of this step's phase, annealed by its share of the phase."""
        self._warn_get_lr()
        k = self.last_epoch
        if k > self.total_steps:
            raise ValueError(f"Tried to step {k} times. The specified number of total steps is "
                             f"{self.total_steps}")  # fmt: skip
        out = []
        for group in self.optimizer.param_groups:
            start = 0.0
            for i, (end, lr0, lr1, m0, m1) in enumerate(self._phases):
                if k <= end or i == len(self._phases) - 1:
                    pct = (k - start) / (end - start)
                    out.append(self._anneal(group[lr0], group[lr1], pct))
                    if self.cycle_momentum:
                        self._set_momentum(group, self._anneal(group[m0], group[m1], pct))
                    break
                start = end
        return out


class SequentialLR(LRScheduler):
    """Several schedulers one after another, switching at the ``milestones`` epochs."""

    def __init__(self, optimizer: Optimizer, schedulers: Sequence[Any], milestones: Sequence[int],
                 last_epoch: int = -1, verbose: Any = "deprecated") -> None:  # fmt: skip
        _check_parts(self, optimizer, schedulers)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                "Sequential Schedulers expects number of schedulers provided to be one more than "
                f"the number of milestone points, but got number of schedulers {len(schedulers)} "
                f"and the number of milestones to be equal to {len(milestones)}"
            )
        self._schedulers, self._milestones = list(schedulers), list(milestones)
        self.last_epoch, self.optimizer = last_epoch + 1, optimizer
        for group in optimizer.param_groups:
            group["lr"] = group["initial_lr"]
        _undo(self)  # (the schedulers' own first steps, taken when they were made)
        self._schedulers[0]._initial_step()
        self._last_lr = self._schedulers[0].get_last_lr()

    def step(self, epoch: int | None = None) -> None:
        """Step the scheduler of this epoch (a new one starts from its own epoch 0)."""
        self.last_epoch += 1
        i = bisect_right(self._milestones, self.last_epoch)
        part = self._schedulers[i]
        if i > 0 and self._milestones[i - 1] == self.last_epoch:
            part._update_lr(0)
        else:
            part.step()
        self._last_lr = part.get_last_lr()

    def state_dict(self) -> dict[str, Any]:
        """Every attribute but the optimizer, with each scheduler's own state."""
        return _state(self)

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Take the attributes and each scheduler's state."""
        _load(self, state_dict)


class ChainedScheduler(LRScheduler):
    """Several schedulers stepped together, each on the rate the one before it set."""

    def __init__(self, schedulers: Sequence[Any], optimizer: Optimizer | None = None) -> None:
        optimizer = optimizer or (schedulers[0].optimizer if schedulers else None)
        _check_parts(self, optimizer, schedulers, chained=True)
        self._schedulers, self.optimizer = list(schedulers), optimizer
        self._last_lr = _groups_lr(self._schedulers[-1])

    def step(self, epoch: int | None = None) -> None:
        """Step every scheduler, in order."""
        for s in self._schedulers:
            s.step()
        self._last_lr = _groups_lr(self._schedulers[-1])

    def state_dict(self) -> dict[str, Any]:
        """Every attribute but the optimizer, with each scheduler's own state."""
        return _state(self)

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Take the attributes and each scheduler's state."""
        _load(self, state_dict)


def _check_parts(owner: Any, optimizer: Any, parts: Sequence[Any], chained: bool = False) -> None:
    name = type(owner).__name__
    if len(parts) < 1:
        what = "at least one scheduler to be chained" if chained else "at least one scheduler"
        raise ValueError(f"{name} expects {what}, but got no scheduler.")
    for k, s in enumerate(parts):
        if not isinstance(s, LRScheduler | ReduceLROnPlateau):
            raise TypeError(f"{name} at index {k} should have `optimizer` as its attribute.")
        if isinstance(s, ReduceLROnPlateau):
            raise ValueError(
                f"{name} does not support `ReduceLROnPlateau` scheduler as it requires "
                "additional kwargs to be specified when calling `step`, but got one at index "
                f"{k} in the given schedulers sequence."
            )
        if s.optimizer is not optimizer:
            raise ValueError(
                f"{name} expects all schedulers to belong to the same optimizer, but got "
                f"scheduler {type(s).__name__} at index {k} has {s.optimizer}, which is "
                f"different from {type(optimizer).__name__}."
            )


def _undo(s: Any) -> None:
    """Take back one epoch of every scheduler inside ``s`` (recursively)."""
    for part in s._schedulers:
        if hasattr(part, "_schedulers"):
            _undo(part)
        else:
            part.last_epoch -= 1


def _state(s: Any) -> dict[str, Any]:
    out = {k: v for k, v in s.__dict__.items() if k not in ("optimizer", "_schedulers")}
    out["_schedulers"] = [part.state_dict() for part in s._schedulers]
    return out


def _load(s: Any, state_dict: dict[str, Any]) -> None:
    parts = state_dict["_schedulers"]
    take_state(s, state_dict, skip=("_schedulers",))
    for part, state in zip(s._schedulers, parts, strict=True):
        part.load_state_dict(state)
