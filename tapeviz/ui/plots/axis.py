"""A bottom axis whose tick labels never overlap, even with presenter-size fonts; axis labels."""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtGui import QFontMetricsF

GAP = 1.3  # label starts at least this many label widths apart


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
    """An axis whose major ticks are at least GAP label widths apart.

    pyqtgraph always shows at least 2.25 tick intervals, so big labels on a narrow plot
    ("500 1000 1500" in 180 px at 18 pt) run together.
    """

    def tickSpacing(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, float]]:
        """Coarser major ticks than pyqtgraph's while their labels would touch (override)."""
        levels = super().tickSpacing(minVal, maxVal, size)
        span = abs(maxVal - minVal)
        if not levels or size <= 0 or span == 0 or self._tickSpacing is not None:
            return levels
        metrics = QFontMetricsF(self.style.get("tickFont") or self.font())
        major = levels[0][0]
        per_unit = size / span
        lo, hi = min(minVal, maxVal), max(minVal, maxVal)
        for _ in range(12):
            coarser = _coarser(major)
            if math.floor(hi / coarser) - math.ceil(lo / coarser) < 2:
                break  # fewer than three ticks left (the end ones may not be labelled): stop
            first = math.ceil(lo / major)
            ticks = [k * major for k in range(first, min(first + 6, math.floor(hi / major) + 1))]
            labels = self.tickStrings(ticks, self.scale, major)
            if not labels or major * per_unit >= GAP * max(map(metrics.horizontalAdvance, labels)):
                break
            major = coarser
        if major == levels[0][0]:
            return levels
        return [(major, 0.0), (major / 5.0, 0.0)]
