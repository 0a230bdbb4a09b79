"""Learning-rate schedules (``keras.optimizers.schedules``): the rate as a function of the step.

An optimizer given a schedule evaluates it at its ``iterations`` before each step, as Keras 3
does; ``optimizer.learning_rate`` is then the scheduled value (a float32 tensor).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.tensor import Tensor, TensorLike, constant

__all__ = [
    "CosineDecay",
    "ExponentialDecay",
    "InverseTimeDecay",
    "LearningRateSchedule",
    "PiecewiseConstantDecay",
    "PolynomialDecay",
]


def _step(step: Any) -> float:
    return float(step._value) if isinstance(step, TensorLike) else float(step)


class LearningRateSchedule:
    """Base class: ``schedule(step)`` is the learning rate at optimizer step ``step``."""

    def value(self, step: float) -> float:
        """The learning rate at ``step`` as a Python float."""
        raise NotImplementedError

    def __call__(self, step: Any) -> Tensor:
        return constant(np.float32(self.value(_step(step))))

    def get_config(self) -> dict[str, Any]:
        """The constructor arguments."""
        return dict(vars(self))


class ExponentialDecay(LearningRateSchedule):
    """``initial · decay_rate ** (step / decay_steps)`` (floored with ``staircase``)."""

    def __init__(
        self,
        initial_learning_rate: float,
        decay_steps: int,
        decay_rate: float,
        staircase: bool = False,
        name: str = "ExponentialDecay",
    ) -> None:
        if decay_steps <= 0:
            raise InvalidArgumentError(
                f"Argument `decay_steps` must be > 0. Received: decay_steps={decay_steps}",
                "ExponentialDecay",
            )
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps, self.decay_rate, self.staircase = decay_steps, decay_rate, staircase
        self.name = name

    def value(self, step: float) -> float:
        """The decayed rate."""
        p = step / self.decay_steps
        return self.initial_learning_rate * self.decay_rate ** (
            math.floor(p) if self.staircase else p
        )


class InverseTimeDecay(LearningRateSchedule):
    """``initial / (1 + decay_rate · step / decay_steps)``."""

    def __init__(
        self,
        initial_learning_rate: float,
        decay_steps: int,
        decay_rate: float,
        staircase: bool = False,
        name: str = "InverseTimeDecay",
    ) -> None:
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps, self.decay_rate, self.staircase = decay_steps, decay_rate, staircase
        self.name = name

    def value(self, step: float) -> float:
        """The decayed rate."""
        p = step / self.decay_steps
        return self.initial_learning_rate / (
            1 + self.decay_rate * (math.floor(p) if self.staircase else p)
        )


class PiecewiseConstantDecay(LearningRateSchedule):
    """``values[i]`` while ``step <= boundaries[i]``, the last value after."""

    def __init__(
        self, boundaries: Sequence[float], values: Sequence[float], name: str = "PiecewiseConstant"
    ) -> None:
        if len(boundaries) != len(values) - 1:
            raise InvalidArgumentError(
                "The length of boundaries should be 1 less than the length of values. "
                f"Received: boundaries={list(boundaries)} of length {len(boundaries)}, and "
                f"values={list(values)} of length {len(values)}.",
                "PiecewiseConstantDecay",
            )
        self.boundaries, self.values, self.name = list(boundaries), list(values), name

    def value(self, step: float) -> float:
        """The rate of the piece ``step`` is in."""
        for b, v in zip(self.boundaries, self.values, strict=False):
            if step <= b:
                return v
        return self.values[-1]


class PolynomialDecay(LearningRateSchedule):
    """From ``initial`` to ``end`` over ``decay_steps`` as ``(1 − step/decay_steps)^power``."""

    def __init__(
        self,
        initial_learning_rate: float,
        decay_steps: int,
        end_learning_rate: float = 0.0001,
        power: float = 1.0,
        cycle: bool = False,
        name: str = "PolynomialDecay",
    ) -> None:
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.end_learning_rate, self.power, self.cycle, self.name = (
            end_learning_rate,
            power,
            cycle,
            name,
        )

    def value(self, step: float) -> float:
        """The decayed rate."""
        steps = self.decay_steps
        if self.cycle:
            steps = steps * max(1.0, math.ceil(step / steps)) if step else steps
        else:
            step = min(step, steps)
        frac = (1 - step / steps) ** self.power
        return (self.initial_learning_rate - self.end_learning_rate) * frac + self.end_learning_rate


class CosineDecay(LearningRateSchedule):
    """Half a cosine from ``initial`` down to ``alpha · initial`` over ``decay_steps``."""

    def __init__(
        self,
        initial_learning_rate: float,
        decay_steps: int,
        alpha: float = 0.0,
        name: str = "CosineDecay",
        warmup_target: float | None = None,
        warmup_steps: int = 0,
    ) -> None:
        self.initial_learning_rate, self.decay_steps, self.alpha = (
            initial_learning_rate,
            decay_steps,
            alpha,
        )
        self.name, self.warmup_target, self.warmup_steps = name, warmup_target, warmup_steps

    def value(self, step: float) -> float:
        """The decayed rate."""
        start = self.initial_learning_rate
        if self.warmup_target is not None and step < self.warmup_steps:
            return start + (self.warmup_target - start) * step / max(1, self.warmup_steps)
        if self.warmup_target is not None:
            start, step = self.warmup_target, step - self.warmup_steps
        p = min(step, self.decay_steps) / self.decay_steps
        cosine = 0.5 * (1 + math.cos(math.pi * p))
        return start * ((1 - self.alpha) * cosine + self.alpha)
