"""What the training thread posts to the window: plain data, copied, never shared while written.

A :class:`Frame` is one picture of the training (every run's epoch, losses and weights, the
first run's neurons over the input plane); :class:`Built` a new network (its data set, its
first weights) with its first frame. The window draws the newest frame and drops the others.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


class Series:
    """A growing float64 column (capacity doubles); ``view()`` is safe to read while it grows."""

    def __init__(self, capacity: int = 256) -> None:
        self._data = np.empty(capacity, np.float64)
        self.size = 0

    def append(self, value: float) -> None:
        """Add one value at the end."""
        if self.size == len(self._data):
            bigger = np.empty(2 * len(self._data), np.float64)
            bigger[: self.size] = self._data
            self._data = bigger  # the old array stays valid for views already handed out
        self._data[self.size] = value
        self.size += 1

    def view(self) -> np.ndarray:
        """The values so far (later appends never write inside it)."""
        return self._data[: self.size]


@dataclass(frozen=True)
class RunFrame:
    """One run (one optimizer) at a moment: where it is, its losses per epoch, its weights."""

    index: int
    label: str  # the optimizer and its settings: "Momentum lr 0.03 β 0.9"
    kind: str  # the optimizer alone: "Momentum"
    epoch: int
    step: int
    epochs: np.ndarray  # the epochs of the history (0 = before training)
    train_loss: np.ndarray
    test_loss: np.ndarray
    weights: tuple[tuple[np.ndarray, np.ndarray], ...]
    output: np.ndarray  # the output neuron over the input plane (res × res, row 0 at the top)
    diverged_at: int | None
    learning_rate: float

    @property
    def last_train(self) -> float:
        """The training loss of the last epoch (nan before any)."""
        return float(self.train_loss[-1]) if self.train_loss.size else float("nan")

    @property
    def last_test(self) -> float:
        """The test loss of the last epoch (nan before any)."""
        return float(self.test_loss[-1]) if self.test_loss.size else float("nan")


@dataclass(frozen=True)
class Frame:
    """Every run, the first run's layers over the input plane, the curvature, who is playing."""

    generation: int  # which network (a rebuild starts a new one)
    runs: tuple[RunFrame, ...]
    layers: tuple[np.ndarray, ...]  # per layer (inputs first): (neurons, res, res)
    playing: bool
    curvature: float | None = None  # λmax at the first run's current weights
    curvature_epoch: int = -1
    start_curvature: float | None = None  # λmax at the first weights (explains a divergence)
    steps_per_s: float = 0.0
    links: Any = None  # the first run's links drawn by the thread (a QImage), or None
    links_spec: Any = None  # what they were drawn for (the diagram's LinkSpec)
    atlas: Any = None  # the layers' heat maps made by the thread (strips), or None
    atlas_spec: Any = None  # what they were made for (the diagram's AtlasSpec)


@dataclass(frozen=True)
class Built:
    """A new network: its settings, data set, first weights and first frame."""

    generation: int
    config: Any  # NetworkConfig
    data: Any  # Dataset
    initial: tuple[tuple[np.ndarray, np.ndarray], ...]
    features: dict[str, np.ndarray] = field(default_factory=dict)  # every input, res × res
    frame: Frame | None = None


@dataclass(frozen=True)
class StepTape:
    """The tape of a run's step, recorded on request (for the window's graph)."""

    generation: int
    run: int
    step: int
    tape: Any  # an engine GradientTape
    names: dict[str, Any] = field(default_factory=dict)  # "dense/kernel" -> its Variable


def copy_weights(weights: Any) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """An independent copy of per-layer (W, b)."""
    return tuple((np.array(w, copy=True), np.array(b, copy=True)) for w, b in weights)


def finite_weights(weights: Any) -> bool:
    """Whether every weight and bias is a finite number."""
    return all(np.isfinite(w).all() and np.isfinite(b).all() for w, b in weights)
