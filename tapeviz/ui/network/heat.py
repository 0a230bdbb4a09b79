"""Playground's colours: a value in −1…1 as orange (−1) … the middle (0) … blue (+1), as QImages.

A neuron's output over the input plane arrives as a numpy grid (row 0 at the top); it becomes
one small QImage through a 256-entry lookup table (a few microseconds for 50 × 50), which the
diagram scales when it paints. The middle colour follows the theme: Playground's light grey
on the light theme, a dark grey on the dark one, so a neuron near zero reads as "nothing".
"""

from __future__ import annotations

import numpy as np
from PySide6.QtGui import QColor, QImage

from tapeviz.ui.theme import Theme

NEGATIVE, POSITIVE = "#F59322", "#0877BD"  # Playground's orange and blue
MIDDLE = {"light": "#E8EAEB", "dark": "#3A3D40"}
LEVELS = 256


def colour_table(theme: Theme) -> np.ndarray:
    """256 ARGB colours from orange through the theme's middle to blue (uint32)."""
    ends = [QColor(NEGATIVE), QColor(MIDDLE.get(theme.name, MIDDLE["light"])), QColor(POSITIVE)]
    rgb = np.array([[c.red(), c.green(), c.blue()] for c in ends], dtype=np.float64)
    t = np.linspace(-1.0, 1.0, LEVELS)
    low = np.clip(-t, 0, 1)[:, None]  # weight of orange (t < 0)
    high = np.clip(t, 0, 1)[:, None]
    mixed = rgb[1] * (1 - low - high) + rgb[0] * low + rgb[2] * high
    r, g, b = (np.round(mixed).astype(np.uint32).T[i] for i in range(3))
    return (0xFF000000 | (r << 16) | (g << 8) | b).astype(np.uint32)


def value_colour(table: np.ndarray, value: float) -> QColor:
    """The colour of one value in −1…1 (a data point's label, a weight's sign)."""
    v = 0.0 if not np.isfinite(value) else float(np.clip(value, -1.0, 1.0))
    return QColor.fromRgba(int(table[round((v + 1) / 2 * (LEVELS - 1))]))


def indices(values: np.ndarray, discretize: bool = False) -> np.ndarray:
    """Lookup-table rows for ``values`` (clipped to −1…1; nan shows as the middle)."""
    v = np.asarray(values, dtype=np.float64)
    if discretize:
        v = np.where(v >= 0, 1.0, np.where(v < 0, -1.0, 0.0))
    rows = (v + 1.0) * ((LEVELS - 1) / 2) + 0.5
    np.clip(rows, 0.0, LEVELS - 1.0, out=rows)  # (±inf clip to the ends; nan stays)
    if np.isnan(rows).any():
        rows[np.isnan(rows)] = (LEVELS - 1) / 2 + 0.5
    return rows.astype(np.intp)


def heat_image(values: np.ndarray, table: np.ndarray, discretize: bool = False) -> QImage:
    """A (rows, columns) grid of values as an opaque QImage (row 0 at the top)."""
    grid = np.ascontiguousarray(table[indices(values, discretize)])
    h, w = grid.shape
    return QImage(grid.data, w, h, 4 * w, QImage.Format.Format_RGB32).copy()


def scaled_for_display(grid: np.ndarray) -> np.ndarray:
    """An input feature's grid divided by its largest |value| (x₁ from −6 to 6 shows as −1…1)."""
    with np.errstate(all="ignore"):
        finite = np.abs(grid[np.isfinite(grid)])
        top = float(finite.max()) if finite.size else 0.0
    return grid / top if top > 0 else np.zeros_like(grid)
