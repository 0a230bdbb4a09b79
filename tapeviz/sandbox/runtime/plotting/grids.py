"""Histogram counts and contour grids and levels, computed as matplotlib does."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapeviz.sandbox import figures as F
from tapeviz.sandbox.runtime.checks import budget
from tapeviz.sandbox.runtime.plotting.recorder import not_available, numbers

MAX_BINS = 10_000


def hist_counts(
    x: Any, bins: Any, range_: Any, density: bool, weights: Any, cumulative: bool
) -> tuple[np.ndarray, np.ndarray]:
    """(counts per dataset as rows, bin edges): a 2-D ``x`` is one dataset per column."""
    if isinstance(x, list | tuple) and x and all(
        isinstance(v, list | tuple | np.ndarray) for v in x
    ) and len({np.size(v) for v in x}) > 1:  # fmt: skip
        data = [numbers(v, "x").reshape(-1) for v in x]  # datasets of different lengths
    else:
        arr = numbers(x, "x")
        data = [arr.reshape(-1)] if arr.ndim < 2 else [arr[:, j] for j in range(arr.shape[1])]
    if len(data) > 16:
        raise not_available("hist() of more than 16 datasets at once")
    w = None if weights is None else numbers(weights, "weights").reshape(-1)
    finite = [d[np.isfinite(d)] for d in data]
    if isinstance(bins, int | np.integer) and not isinstance(bins, bool):
        if not 0 < int(bins) <= MAX_BINS:
            raise ValueError(f"bins must be between 1 and {MAX_BINS:,}")
        if range_ is None:
            joined = np.concatenate(finite) if finite else np.zeros(0)
            lo, hi = (float(joined.min()), float(joined.max())) if joined.size else (0.0, 1.0)
        else:
            lo, hi = (float(v) for v in numbers(range_, "range").reshape(-1)[:2])
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        edges = np.linspace(lo, hi, int(bins) + 1)
    elif isinstance(bins, str):
        raise not_available(f"hist(bins={bins[:20]!r})")
    else:
        edges = numbers(bins, "bins").reshape(-1)
        if edges.size < 2 or edges.size > MAX_BINS + 1 or np.any(np.diff(edges) < 0):
            raise ValueError("bins must increase monotonically, with 2 to 10,001 edges")
    budget().check_size(len(edges) * len(data), "the histogram")
    ww = None
    if w is not None:
        if len(data) != 1:
            raise not_available("hist(weights=...) of several datasets")
        if w.size != data[0].size:
            raise ValueError("weights should have the same shape as x")
        ww = w[np.isfinite(data[0])]
    rows = []
    for d in finite:
        counts, _ = np.histogram(d, bins=edges, weights=ww)
        counts = counts.astype(np.float64)
        if density and counts.sum() > 0:
            counts = counts / (counts.sum() * np.diff(edges))
        if cumulative:
            counts = np.cumsum(counts) * (np.diff(edges) if density else 1.0)
        rows.append(counts)
    return np.array(rows), edges


def _grid_axes(X: np.ndarray, Y: np.ndarray, z: np.ndarray) -> tuple[Any, Any, Any]:
    if X.ndim == 1 and Y.ndim == 1:
        if (len(Y), len(X)) != z.shape:
            raise TypeError(
                f"Length of x ({len(X)}) must match number of columns in z ({z.shape[1]}) "
                f"and length of y ({len(Y)}) must match number of rows in z ({z.shape[0]})"
            )
        return X, Y, z
    if X.shape != z.shape or Y.shape != z.shape:
        raise TypeError(f"Shapes of x {X.shape} and z {z.shape} do not match")
    if np.allclose(X, X[:1, :]) and np.allclose(Y, Y[:, :1]):  # np.meshgrid(x, y)
        return X[0, :].copy(), Y[:, 0].copy(), z
    if np.allclose(X, X[:, :1]) and np.allclose(Y, Y[:1, :]):  # indexing="ij"
        return X[:, 0].copy(), Y[0, :].copy(), z.T.copy()
    raise not_available("contour over a grid that is not rectangular (use np.meshgrid)")


def contour_grid(args: tuple[Any, ...], levels: Any, what: str) -> tuple[Any, Any, Any, Any]:
    """(x, y, z, levels) from ``([X, Y,] Z, [levels])``."""
    rest = list(args)
    if len(rest) in (2, 4):
        levels = rest.pop()
    if len(rest) == 1:
        z = numbers(rest[0], "Z")
        if z.ndim != 2:
            raise TypeError(f"Input z must be 2D, not {z.ndim}D")
        x, y = np.arange(z.shape[1], dtype=np.float64), np.arange(z.shape[0], dtype=np.float64)
    elif len(rest) == 3:
        z = numbers(rest[2], "Z")
        if z.ndim != 2:
            raise TypeError(f"Input z must be 2D, not {z.ndim}D")
        x, y, z = _grid_axes(numbers(rest[0], "X"), numbers(rest[1], "Y"), z)
    else:
        raise TypeError(f"{what} takes Z, or X, Y, Z (and levels)")
    if max(z.shape) > F.MAX_GRID or min(z.shape) < 2:
        raise not_available(f"{what} of a grid smaller than 2×2 or larger than "
                            f"{F.MAX_GRID}×{F.MAX_GRID}")  # fmt: skip
    return x, y, z, levels


def _nice(step: float) -> float:
    power = 10.0 ** math.floor(math.log10(step))
    for m in (1.0, 2.0, 2.5, 5.0, 10.0):
        if step <= m * power * 1.0000001:
            return m * power
    return 10.0 * power


def contour_levels(z: np.ndarray, levels: Any, filled: bool) -> np.ndarray:
    """The levels: given, or about ``levels`` (default 7) round numbers over z's range."""
    finite = z[np.isfinite(z)]
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    if levels is not None and not isinstance(levels, int | np.integer):
        out = numbers(levels, "levels").reshape(-1)
        if out.size > 1000 or np.any(np.diff(out) <= 0):
            raise ValueError("Contour levels must be increasing (and at most 1,000)")
        return out
    n = 7 if levels is None else int(levels)
    if not 0 < n <= 1000:
        raise ValueError("the number of levels is between 1 and 1,000")
    if hi <= lo:
        return np.array([lo])
    step = _nice((hi - lo) / n)
    start, stop = math.floor(lo / step) * step, math.ceil(hi / step) * step
    out = np.arange(start, stop + step * 0.5, step)
    if not filled:  # lines only where the data reaches
        inside = out[(out > lo) & (out < hi)]
        out = inside if inside.size else np.array([(lo + hi) / 2])
    return np.round(out, 12)
