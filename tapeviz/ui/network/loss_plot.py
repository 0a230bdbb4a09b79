"""Training and test loss per epoch: one run, or every raced run in the studio's colours.

Imported when the Network tab is first shown (pyqtgraph is not loaded at the window's start).
One run is drawn as Playground draws it (test loss dark, training loss grey); a race draws
each run in its ``PALETTE`` colour, training solid and test dashed, so the curves overlay.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QWidget

from tapeviz.models.descent.optimizer_config import PALETTE
from tapeviz.ui.network.frames import RunFrame
from tapeviz.ui.plots.step_plots import style_plot
from tapeviz.ui.theme import LIGHT, Theme

translate = QCoreApplication.translate  # lupdate reads translate("NetworkPanel", "…")


PLAY_INTERVAL_S = 0.1  # the curves redrawn at most 10 times a second while training
STEPS = (1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)  # an axis's end grows through these × 10ᵏ
FIRST_EPOCHS = 10.0  # the epoch axis spans at least 0 to 10 (whole ticks that read)


def nice_ceiling(v: float) -> float:
    """The smallest of ``STEPS`` × 10ᵏ not below ``v`` (1 for no positive finite ``v``)."""
    if not (v > 0 and math.isfinite(v)):
        return 1.0
    k = math.floor(math.log10(v))
    if not -300 < k < 300:  # (10ᵏ would under- or overflow: the value itself)
        return v
    ends = (m / 10.0**-k if k < 0 else m * 10.0**k for m in STEPS)  # (0.15, not 1.5 × 0.1)
    return next(e for e in ends if e >= v * (1 - 1e-9))


def sticky_range(values: Sequence[np.ndarray], floor: float) -> tuple[float, float]:
    """An axis's range for ``values``: from ``floor`` (lower if a value is) to a nice ceiling.

    The ends move only when the data cross them, so while a run trains the axes keep their
    ticks (pyqtgraph lays an axis out again, ~3-5 ms, whenever its range moves).
    """
    finite = [v[np.isfinite(v)] for v in values if v.size]
    finite = [v for v in finite if v.size]
    if not finite:
        return floor, floor + 1.0
    lo, hi = min(float(v.min()) for v in finite), max(float(v.max()) for v in finite)
    bottom = floor if lo >= floor else floor - nice_ceiling(floor - lo)
    return bottom, bottom + nice_ceiling(hi - bottom)


class EpochAxis(pg.AxisItem):
    """An axis of epochs whose ticks are whole epochs.

    Before the first epoch, 0 to 1 read "0.2 0.4 …", which ran together at presenter scale.
    """

    def tickSpacing(  # (pyqtgraph's names)
        self, minVal: float, maxVal: float, size: float
    ) -> list[tuple[float, float]]:
        """The spacings pyqtgraph would use that are whole epochs (1 if none is)."""
        levels = super().tickSpacing(minVal, maxVal, size)
        whole = [(s, o) for s, o in levels if s >= 1 and float(s).is_integer()]
        return whole or ([(1.0, 0.0)] if levels else [])  # (no range: no ticks)


class LossPlot(pg.PlotWidget):
    """Loss per epoch, one pair of curves (training, test) per run."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, axisItems={"bottom": EpochAxis("bottom")})
        self.setObjectName("networkLossPlot")
        self.setMenuEnabled(False)
        item = self.getPlotItem()
        item.hideButtons()
        item.setClipToView(True)
        item.setDownsampling(auto=True, mode="peak")
        self.getViewBox().setMouseEnabled(x=False, y=False)
        self.getViewBox().disableAutoRange()  # sticky ranges: see :func:`sticky_range`
        self.ranges: tuple[tuple[float, float], tuple[float, float]] = (
            (0.0, FIRST_EPOCHS),
            (0.0, 1.0),
        )
        self.setRange(xRange=self.ranges[0], yRange=self.ranges[1], padding=0.02)
        self.setLabel("bottom", translate("NetworkPanel", "epoch"))
        self.theme, self.scale = LIGHT, 1.0
        self.curves: list[tuple[pg.PlotDataItem, pg.PlotDataItem]] = []
        self._runs = 0
        self._drawn_at = 0.0  # when curves were last drawn while training
        self.setMinimumHeight(60)

    def restyle(self, theme: Theme, scale: float) -> None:
        """Theme colours and the presenter scale."""
        self.theme, self.scale = theme, float(scale)
        style_plot(self, theme, scale)
        item = self.getPlotItem()
        item.getAxis("bottom").label.setFont(self.font())
        # The top loss tick sits on the plot's top edge, its label centred on it: without a
        # title above, half of that label was cut off (at presenter scale, "0.8" read "0.").
        half = QFontMetricsF(item.getAxis("left").style["tickFont"]).height() / 2
        item.layout.setContentsMargins(1, math.ceil(half) + 1, 1, 1)
        self._pens()

    def _pens(self) -> None:
        width = 1.6 * max(1.0, self.scale)
        for k, (train, test) in enumerate(self.curves):
            if self._runs == 1:  # Playground's: test loss dark, training loss grey
                test.setPen(pg.mkPen(self.theme.text, width=width))
                train.setPen(pg.mkPen(self.theme.muted, width=width))
                continue
            colour = PALETTE[k % len(PALETTE)]
            train.setPen(pg.mkPen(colour, width=width))
            test.setPen(pg.mkPen(colour, width=width, style=Qt.PenStyle.DashLine))

    def show_runs(self, runs: Sequence[RunFrame], playing: bool = False) -> None:
        """Draw every run's losses so far (curves made or dropped to match the runs).

        While training, at most every ``PLAY_INTERVAL_S`` (the curves grow an epoch at a time;
        the axes move only when the data cross their nice ends); a paused frame is always drawn.
        """
        now = time.perf_counter()
        same = len(runs) == len(self.curves)
        if playing and same and now - self._drawn_at < PLAY_INTERVAL_S:
            return
        self._drawn_at = now if playing else 0.0
        if not same:
            for train, test in self.curves:
                self.removeItem(train)
                self.removeItem(test)
            self.curves = [(self.plot(), self.plot()) for _ in runs]
            self._runs = len(runs)
            self._pens()
        losses = []
        for (train, test), run in zip(self.curves, runs, strict=True):
            x, a, b = run.epochs, _finite(run.train_loss), _finite(run.test_loss)
            train.setData(x, a)
            test.setData(x, b)
            losses += [a, b]
        x0, x1 = sticky_range([r.epochs for r in runs], 0.0)
        x1 = max(x1, x0 + FIRST_EPOCHS)  # (0 to 1 had no whole epoch inside to label)
        self._set_ranges((x0, x1), sticky_range(losses, 0.0))

    def _set_ranges(self, x: tuple[float, float], y: tuple[float, float]) -> None:
        if (x, y) != self.ranges:
            self.ranges = (x, y)
            self.setRange(xRange=x, yRange=y, padding=0.02)


def _finite(values: np.ndarray) -> np.ndarray:
    """Values with inf and nan as nan (pyqtgraph skips them with connect="finite")."""
    return np.where(np.isfinite(values), values, np.nan)
