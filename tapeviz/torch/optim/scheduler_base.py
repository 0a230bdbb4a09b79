"""The base of torch's learning-rate schedulers: ``step()``, the chainable and closed forms."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

from tapeviz.engine import diagnostics
from tapeviz.torch.optim.optimizer import Optimizer

__all__ = ["LRScheduler", "LambdaScheduler", "take_state"]

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

    _is_initial = False  # True during the constructor's step

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
        self._initial_step()

    def _initial_step(self) -> None:
        """The constructor's step (``_is_initial`` while it runs: resuming keeps the rate)."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

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
        if epoch is not None:
            diagnostics.warn(_EPOCH_DEPRECATION, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch: int | None = None) -> None:
        """Advance (or go to ``epoch``: the closed form where there is one) and set the rates."""
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
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
        take_state(self, state_dict)


_LRScheduler = LRScheduler


def _groups_lr(s: LRScheduler) -> list[float]:
    return [group["lr"] for group in s.optimizer.param_groups]


class LambdaScheduler(LRScheduler):
    """What ``LambdaLR`` and ``MultiplicativeLR`` share: one ``lr_lambda`` per param group."""

    def __init__(self, optimizer: Optimizer, lr_lambda: Any, last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        n = len(optimizer.param_groups)
        if not isinstance(lr_lambda, list | tuple):
            self.lr_lambdas: list[Callable[[int], float]] = [lr_lambda] * n
        elif len(lr_lambda) != n:
            raise ValueError(f"Expected {n} lr_lambdas, but got {len(lr_lambda)}")
        else:
            self.lr_lambdas = list(lr_lambda)
        super().__init__(optimizer, last_epoch)

    def state_dict(self) -> dict[str, Any]:
        """The attributes, with the lambdas' own attributes (functions are not saved)."""
        out = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}
        out["lr_lambdas"] = [
            None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
            for fn in self.lr_lambdas
        ]
        return out


def take_state(obj: Any, state_dict: Any, skip: tuple[str, ...] = ()) -> None:
    """A scheduler's ``load_state_dict``: the saved values of the attributes it has.

    Only names the scheduler already has are taken (a state dict from a script cannot add
    attributes the code reads, nor replace its optimizer); learning-rate lambdas stay the
    scheduler's own functions, as torch keeps them.
    """
    if not isinstance(state_dict, dict):
        raise TypeError(f"state_dict must be a dict, got {type(state_dict).__name__}")
    own = obj.__dict__
    for key, value in state_dict.items():
        if key in ("optimizer", "lr_lambdas", *skip):
            continue
        if not isinstance(key, str) or key not in own:
            raise KeyError(f"unexpected key {key!r} in the scheduler's state_dict")
        own[key] = value
