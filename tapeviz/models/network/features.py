"""The input features Playground offers, as columns computed from the raw points (no Qt).

``playground/src/playground.ts`` (``INPUTS``): x₁, x₂, x₁², x₂², x₁·x₂, sin x₁, sin x₂. The
columns are computed in the points' dtype (float64 for a :class:`Dataset`'s points) and come in
:data:`~tapeviz.models.network.config.FEATURES` order, whatever order ``features`` lists.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tapeviz.models.network.config import FEATURES

COLUMNS: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "x1": lambda a, b: a,
    "x2": lambda a, b: b,
    "x1sq": lambda a, b: a * a,
    "x2sq": lambda a, b: b * b,
    "x1x2": lambda a, b: a * b,
    "sinx1": lambda a, b: np.sin(a),
    "sinx2": lambda a, b: np.sin(b),
}


def feature_grids(gx: np.ndarray, gy: np.ndarray) -> dict[str, np.ndarray]:
    """Every input feature over a plane's meshes (the diagram's input squares), float64."""
    return {name: np.asarray(f(gx, gy), np.float64) for name, f in COLUMNS.items()}


def feature_columns(x: np.ndarray, features: tuple[str, ...]) -> np.ndarray:
    """``(n, k)`` columns of ``x`` (``(n, 2)`` raw points), one per switched-on feature."""
    x = np.asarray(x)
    if x.ndim != 2 or x.shape[1] != 2:
        raise ValueError(f"points: expected an (n, 2) array, got shape {x.shape}")
    unknown = [f for f in features if f not in COLUMNS]
    if unknown:
        raise ValueError(f"features: unknown {', '.join(unknown)}")
    a, b = x[:, 0], x[:, 1]
    cols = [COLUMNS[f](a, b) for f in FEATURES if f in features]
    if not cols:
        return np.empty((len(x), 0), dtype=x.dtype)
    return np.column_stack(cols)
