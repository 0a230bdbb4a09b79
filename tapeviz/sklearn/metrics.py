"""``sklearn.metrics``: the scores courses print after training."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.sklearn._validation import check_consistent_length, column_1d

__all__ = [
    "accuracy_score",
    "confusion_matrix",
    "mean_absolute_error",
    "mean_squared_error",
    "r2_score",
]


def _target_type(y: np.ndarray) -> str:
    if y.dtype.kind == "f" and np.any(y != np.round(y)):
        return "continuous"
    return "binary" if len(np.unique(y)) <= 2 else "multiclass"


def _labels(y_true: Any, y_pred: Any) -> tuple[np.ndarray, np.ndarray]:
    t, p = column_1d(y_true, "y_true"), column_1d(y_pred, "y_pred")
    check_consistent_length(t, p)
    kinds = [_target_type(t), _target_type(p)]
    if "continuous" in kinds and kinds[0] != kinds[1]:
        a, b = sorted(kinds)
        raise ValueError(f"Classification metrics can't handle a mix of {a} and {b} targets")
    if kinds == ["continuous", "continuous"]:
        raise ValueError("continuous is not supported")
    return t, p


def accuracy_score(
    y_true: Any, y_pred: Any, *, normalize: bool = True, sample_weight: Any = None
) -> float:
    """The fraction (or, ``normalize=False``, the count) of labels predicted right."""
    t, p = _labels(y_true, y_pred)
    right = (t == p).astype(np.float64)
    if not normalize:
        w = 1.0 if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
        return float(np.sum(right * w))
    return float(np.average(right, weights=sample_weight))


def confusion_matrix(y_true: Any, y_pred: Any, *, labels: Any = None) -> np.ndarray:
    """``C[i, j]``: samples of true label ``i`` predicted as ``j`` (labels in sorted order)."""
    t, p = _labels(y_true, y_pred)
    classes = np.unique(np.concatenate([t, p])) if labels is None else np.asarray(labels)
    n = len(classes)
    order = np.argsort(classes, kind="stable")
    ranked = classes[order]

    def index(y: np.ndarray) -> np.ndarray:
        at = np.clip(np.searchsorted(ranked, y), 0, max(n - 1, 0))
        found = ranked[at] == y if n else np.zeros(len(y), dtype=bool)
        return np.where(found, order[at] if n else 0, -1)

    ti, pi = index(t), index(p)
    keep = (ti >= 0) & (pi >= 0)
    counts = np.bincount(ti[keep] * n + pi[keep], minlength=n * n)
    return counts.reshape(n, n).astype(np.int64)


def _regression(y_true: Any, y_pred: Any) -> tuple[np.ndarray, np.ndarray]:
    t = np.asarray(y_true, dtype=np.float64)
    p = np.asarray(y_pred, dtype=np.float64)
    t = t.reshape(-1, 1) if t.ndim == 1 else t
    p = p.reshape(-1, 1) if p.ndim == 1 else p
    check_consistent_length(t, p)
    if t.shape[1] != p.shape[1]:
        raise ValueError(
            f"y_true and y_pred have different number of output ({t.shape[1]}!={p.shape[1]})"
        )
    return t, p


def _averaged(per_output: np.ndarray, multioutput: str) -> Any:
    if multioutput == "raw_values":
        return per_output
    return float(np.mean(per_output))


def mean_squared_error(
    y_true: Any, y_pred: Any, *, sample_weight: Any = None, multioutput: str = "uniform_average"
) -> Any:
    """The mean of the squared errors."""
    t, p = _regression(y_true, y_pred)
    return _averaged(np.average((t - p) ** 2, axis=0, weights=sample_weight), multioutput)


def mean_absolute_error(
    y_true: Any, y_pred: Any, *, sample_weight: Any = None, multioutput: str = "uniform_average"
) -> Any:
    """The mean of the absolute errors."""
    t, p = _regression(y_true, y_pred)
    return _averaged(np.average(np.abs(t - p), axis=0, weights=sample_weight), multioutput)


def r2_score(
    y_true: Any, y_pred: Any, *, sample_weight: Any = None, multioutput: str = "uniform_average"
) -> Any:
    """The coefficient of determination: 1 − residual sum of squares / total sum of squares."""
    t, p = _regression(y_true, y_pred)
    if t.shape[0] < 2:
        return float("nan")
    w = 1.0 if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)[:, None]
    num = np.sum(w * (t - p) ** 2, axis=0)
    mean = np.average(t, axis=0, weights=sample_weight)
    den = np.sum(w * (t - mean) ** 2, axis=0)
    score = np.ones(t.shape[1])
    ok = den != 0
    score[ok] = 1 - num[ok] / den[ok]
    score[(num != 0) & ~ok] = 0.0
    return _averaged(score, multioutput)
