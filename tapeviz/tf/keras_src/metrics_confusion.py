"""Keras' confusion-matrix metrics: true/false positives/negatives, precision and recall.

Keras' rules: a label is positive when it is not 0; a prediction is positive when it is
greater than the threshold (0.5 unless given; several thresholds give one value each); counts
are weighted by ``sample_weight``; precision and recall are 0 while their denominator is.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.engine.tensor import Tensor, constant
from tapeviz.tf.keras_src.metrics import METRICS, Metric, _np

__all__ = [
    "FalseNegatives", "FalsePositives", "Precision", "Recall", "TrueNegatives", "TruePositives",
]  # fmt: skip


def _thresholds(thresholds: Any) -> tuple[list[float], bool]:
    """The thresholds as a list, and whether one was given alone (a scalar result)."""
    if thresholds is None:
        return [0.5], True
    if isinstance(thresholds, int | float):
        return [float(thresholds)], True
    return [float(t) for t in thresholds], False


class _Confusion(Metric):
    """Counts of one cell of the confusion matrix per threshold (``kinds``: which cells)."""

    kinds: tuple[str, ...] = ()

    def __init__(self, thresholds: Any = None, name: str | None = None, dtype: Any = None) -> None:
        super().__init__(name, dtype)
        self.thresholds, self._scalar = _thresholds(thresholds)
        n = len(self.thresholds)
        self._cells = {k: self.add_variable(shape=(n,), name=k) for k in self.kinds}

    def _counts(self, y_true: Any, y_pred: Any, sample_weight: Any) -> dict[str, np.ndarray]:
        t = _np(y_true).reshape(-1) != 0
        p = _np(y_pred).astype(np.float64).reshape(-1)
        if t.shape != p.shape:
            raise ValueError(f"y_true and y_pred have different sizes: {t.size} and {p.size}")
        w = np.ones_like(p) if sample_weight is None else np.broadcast_to(
            _np(sample_weight).astype(np.float64).reshape(-1), p.shape
        )  # fmt: skip
        pos = p[None, :] > np.asarray(self.thresholds)[:, None]  # (thresholds, samples)
        cells = {
            "true_positives": pos & t, "false_positives": pos & ~t,
            "true_negatives": ~pos & ~t, "false_negatives": ~pos & t,
        }  # fmt: skip
        return {k: (cells[k] * w).sum(axis=1) for k in self.kinds}

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        """Add the batch's counts."""
        for k, add in self._counts(y_true, y_pred, sample_weight).items():
            v = self._cells[k]
            v.assign((np.asarray(v._value, np.float64) + add).astype(np.float32))

    def _value(self) -> np.ndarray:
        return np.asarray(self._cells[self.kinds[0]]._value, np.float32)

    def _ratio(self) -> np.ndarray:
        """``first / (first + second)`` of the two cells (0 while the sum is 0)."""
        tp, other = (np.asarray(self._cells[k]._value, np.float32) for k in self.kinds)
        total = tp + other
        return np.where(total > 0, tp / np.where(total > 0, total, 1), 0).astype(np.float32)

    def result(self) -> Tensor:
        """The count (one per threshold when several were given)."""
        out = self._value()
        return constant(out[0] if self._scalar else out)

    def get_config(self) -> dict[str, Any]:
        """Name, dtype and thresholds."""
        return {**super().get_config(), "thresholds": self.thresholds}


def _cell(cls_name: str, kind: str) -> type:
    doc = f"The (weighted) number of {kind.replace('_', ' ')}."
    return type(cls_name, (_Confusion,), {"kinds": (kind,), "default_name": kind, "__doc__": doc})


TruePositives = _cell("TruePositives", "true_positives")
FalsePositives = _cell("FalsePositives", "false_positives")
TrueNegatives = _cell("TrueNegatives", "true_negatives")
FalseNegatives = _cell("FalseNegatives", "false_negatives")


class Precision(_Confusion):
    """``tp / (tp + fp)``: how many predicted positives are positive."""

    kinds = ("true_positives", "false_positives")
    default_name = "precision"

    _value = _Confusion._ratio


class Recall(_Confusion):
    """``tp / (tp + fn)``: how many positives are predicted positive."""

    kinds = ("true_positives", "false_negatives")
    default_name = "recall"

    _value = _Confusion._ratio


METRICS.update({cls.default_name: cls for cls in (  # compile(metrics=["precision", ...])
    TruePositives, FalsePositives, TrueNegatives, FalseNegatives, Precision, Recall)})  # fmt: skip
