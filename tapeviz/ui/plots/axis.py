"""Axes: tick labels that never overlap (presenter-size fonts), labels, log10 values and ticks.

Also :func:`value_range`, a padded range over the finite values (the step plots, the History).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QFontMetricsF

GAP = 1.3  # label starts at least this many label widths apart
OVERHANG = 15.0  # px an upright axis's label may reach past its ends (pyqtgraph's default)


def set_axis_label(plot: pg.PlotWidget, side: str, text: str) -> None:
    """Label an axis, leaving a shown label of the same text alone.

    pyqtgraph redraws the axis (its ticks and their texts, ~2 ms) on every ``setLabel``, and a
    new race of the same parameters sets the same labels again.
    """
    axis = plot.getPlotItem().getAxis(side)
    if axis.labelText != text or not axis.label.isVisible():
        plot.setLabel(side, text)


def _coarser(spacing: float) -> float:
    """The next round spacing up: 1 → 2 → 5 → 10 (× a power of ten)."""
    power = 10.0 ** math.floor(math.log10(spacing))
    mantissa = spacing / power
    return (2.0 if mantissa < 1.5 else 5.0 if mantissa < 3.5 else 10.0) * power


class SpacedAxis(pg.AxisItem):
    """An axis whose major ticks are at least GAP label widths (heights, upright) apart.

    pyqtgraph always shows at least 2.25 tick intervals, so big labels on a narrow plot
    ("500 1000 1500" in 180 px at 18 pt) run together, and on a short one ("1.0 0.8 0.6 …"
    in 50 px) lie on each other. Three labelled ticks are kept while their labels keep a space
    apart; fewer when even three would touch, as long as one label still fits inside the axis.
    """

    def tickSpacing(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, float]]:
        """Coarser major ticks than pyqtgraph's while their labels would touch (override)."""
        levels = super().tickSpacing(minVal, maxVal, size)
        span = abs(maxVal - minVal)
        if not levels or size <= 0 or span == 0 or self._tickSpacing is not None:
            return levels
        metrics = QFontMetricsF(self.style.get("tickFont") or self.font())
        upright = self.orientation in ("left", "right")
        pad = metrics.horizontalAdvance(" ")
        major = levels[0][0]
        per_unit = size / span
        lo, hi = min(minVal, maxVal), max(minVal, maxVal)
        for _ in range(12):
            coarser = _coarser(major)
            first = math.ceil(lo / major)
            ticks = [k * major for k in range(first, min(first + 6, math.floor(hi / major) + 1))]
            labels = self.tickStrings(ticks, self.scale, major)
            if not labels:
                break
            need = metrics.height() if upright else max(map(metrics.horizontalAdvance, labels))
            intervals = math.floor(hi / coarser) - math.ceil(lo / coarser)  # (coarser ticks)
            # Three ticks whose labels keep a space apart beat two with roomier gaps.
            room = GAP * need if intervals >= 2 else need + (pad if not upright else need / 5)
            if major * per_unit >= room:
                break  # these fit
            # pyqtgraph hides a label past the ends across; upright ones may pass them by 15 px
            half = max(need / 2 - (OVERHANG if upright else 0.0), 0.0) / per_unit
            if math.floor((hi - half) / coarser) < math.ceil((lo + half) / coarser):
                break  # no coarser tick's label would be shown
            major = coarser
        if major == levels[0][0]:
            return levels
        return [(major, 0.0), (major / 5.0, 0.0)]


def log_or_linear(values: Sequence[np.ndarray], log: bool) -> tuple[list[np.ndarray], bool]:
    """log10 of every array when asked and every finite value is positive; else as given."""
    finite = [v[np.isfinite(v)] for v in values]
    ok = log and all((f > 0).all() for f in finite) and any(f.size for f in finite)
    if not ok:
        return [np.asarray(v, dtype=np.float64) for v in values], False
    with np.errstate(all="ignore"):
        return [np.log10(np.asarray(v, dtype=np.float64)) for v in values], True


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def log_ticks(lo: float, hi: float) -> list[list[tuple[float, str]]]:
    """Ticks for an axis showing log10 values (pyqtgraph's own overlap on short ranges).

    Decades are labelled (and 2 and 5 on a short range); 2…9 in between are plain ticks.
    """
    first, last = int(np.floor(lo)), int(np.ceil(hi))
    step = max(1, -(-(last - first) // 6))  # at most ~7 labelled decades
    major = []
    for e in range(first, last + 1, step):
        text = f"{10.0**e:g}" if -3 <= e <= 3 else f"10{str(e).translate(_SUPERSCRIPT)}"
        major.append((float(e), text))
    minor = []
    for e in range(first, last + 1):
        for m in range(2, 10):
            v = e + float(np.log10(m))
            if lo <= v <= hi:
                label = f"{m * 10.0**e:g}" if hi - lo < 1.2 and m in (2, 5) else ""
                minor.append((v, label))
    return [major, minor]


def value_range(values: Sequence[np.ndarray], pad: float = 0.08) -> tuple[float, float]:
    """A padded range over the finite values (never empty)."""
    parts = [v[np.isfinite(v)] for v in values]
    flat = np.concatenate(parts) if parts else np.zeros(0)
    if flat.size == 0:
        return -1.0, 1.0
    lo, hi = float(flat.min()), float(flat.max())
    span = hi - lo if hi > lo else max(abs(hi), 1.0)
    return lo - pad * span, hi + pad * span
