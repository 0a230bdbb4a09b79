"""A Keras fit's ``history.history`` beside the per-step plots: one curve per key, by epoch.

Each key (``loss``, a metric) gets a colour; its ``val_`` twin the same colour, dashed (one
legend entry says so for all of them). The
cursor moves through the epoch as the timeline's step does: at an epoch's last batch it stands
on that epoch's values (what ``History`` recorded at its end). A click goes to that epoch's
last step.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QGraphicsItem, QWidget

from tapeviz.models.descent.optimizer_config import PALETTE
from tapeviz.models.timeline.fits import Epochs
from tapeviz.ui.plots.axis import SpacedAxis
from tapeviz.ui.plots.run_legend import RunLegend
from tapeviz.ui.plots.step_plots import log_or_linear, log_ticks, style_plot, value_range
from tapeviz.ui.plots.title import set_title
from tapeviz.ui.theme import LIGHT, Theme

translate = QCoreApplication.translate  # lupdate reads translate("Timeline", "…")


def history_keys(history: dict[str, np.ndarray]) -> list[str]:
    """The keys in Keras' order (sorted), each ``val_`` key right after its twin."""
    base = sorted({k.removeprefix("val_") for k in history})
    return [k for b in base for k in (b, f"val_{b}") if k in history]


def key_colour(key: str, keys: list[str]) -> str:
    """A key's colour: its twin's (``val_loss`` as ``loss``)."""
    bases = list(dict.fromkeys(k.removeprefix("val_") for k in keys))
    return PALETTE[(bases.index(key.removeprefix("val_")) + 1) % len(PALETTE)]


class HistoryPlot(pg.PlotWidget):
    """The per-epoch logs of a fit (``timelineHistoryPlot``; see the module docstring)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            parent, axisItems={"bottom": SpacedAxis("bottom"), "left": SpacedAxis("left")}
        )
        self.theme, self.scale = LIGHT, 1.0
        self.setObjectName("timelineHistoryPlot")
        self.setMenuEnabled(False)
        set_title(self, translate("Timeline", "History"))
        self.setLabel("bottom", translate("Timeline", "epoch"))
        self.getPlotItem().hideButtons()
        self.getViewBox().setMouseEnabled(x=False, y=False)
        self.cursor = pg.InfiniteLine(0, angle=90, movable=False)
        self.cursor.setZValue(30)
        self.addItem(self.cursor, ignoreBounds=True)
        self.run_legend = RunLegend(self)  # in a band above the data: it hides no epoch
        self.legend = self.run_legend.legend
        self.getViewBox().geometryChanged.connect(self.fit_legend)
        self.curves: list[pg.PlotDataItem] = []
        self.epochs: Epochs | None = None
        self.keys: list[str] = []
        self.revision = 0  # bumped whenever more than the cursor changes (export layers)
        # (keys, theme, scale) the curves were made for: the next draw of the same only moves
        # their data (a streamed fit redraws its History at every snapshot)
        self._made_for: tuple[list[str], Theme, float] | None = None

    def draw(self, epochs: Epochs | None, log: bool) -> None:
        """One curve per ``history`` key against the epoch (1, 2, …); None clears."""
        self.revision += 1
        keys = history_keys(epochs.history) if epochs is not None else []
        if epochs is not None and keys and self._made_for == (keys, self.theme, self.scale):
            self.epochs = epochs  # a streamed fit's next snapshot: the same curves, more epochs
            x, values, log = self._series(epochs, log)
            for curve, y in zip(self.curves, values, strict=True):
                curve.setData(x, y)
            self._ranges(x, values, log)
            return
        for curve in self.curves:
            self.removeItem(curve)
        self.curves, self.epochs, self._made_for = [], epochs, None
        self.legend.clear()
        self.keys = keys
        if epochs is None or not self.keys:
            return
        x, values, log = self._series(epochs, log)
        for key, y in zip(self.keys, values, strict=True):
            colour = key_colour(key, self.keys)
            style = Qt.PenStyle.DashLine if key.startswith("val_") else Qt.PenStyle.SolidLine
            pen = pg.mkPen(colour, width=2 * self.scale, style=style)
            curve = pg.PlotDataItem(x, y, pen=pen, connect="finite", symbol="o",
                                    symbolSize=5 * self.scale, symbolPen=None,
                                    symbolBrush=colour)  # fmt: skip
            curve.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
            self.addItem(curve)
            self.curves.append(curve)
            if not key.startswith("val_"):
                self.legend.addItem(curve, key)
        if any(k.startswith("val_") for k in self.keys):  # one entry for every val_ twin
            dashed = pg.mkPen(self.theme.muted, width=2 * self.scale, style=Qt.PenStyle.DashLine)
            self.legend.addItem(pg.PlotDataItem(pen=dashed), "val_…")
        self.fit_legend()
        self._made_for = (list(self.keys), self.theme, self.scale)
        self._ranges(x, values, log)

    def _series(self, epochs: Epochs, log: bool) -> tuple[np.ndarray, list[np.ndarray], bool]:
        """The epochs' x (1, 2, …), each key's values (log₁₀ if asked and possible), and log."""
        x = epochs.numbers.astype(np.float64) + 1
        values, log = log_or_linear([epochs.history[k] for k in self.keys], log)
        return x, values, log

    def _ranges(self, x: np.ndarray, values: list[np.ndarray], log: bool) -> None:
        lo, hi = value_range(values)
        self.getPlotItem().getAxis("left").setTicks(log_ticks(lo, hi) if log else None)
        self.setLabel("left", "log₁₀" if log else "")
        first, last = float(x[0]), float(x[-1])
        self.setXRange(first - 1, max(last, first), padding=0.02)
        self.setYRange(lo, hi, padding=0)

    def fit_legend(self) -> None:
        """The keys' legend above the data, at the presenter size."""
        self.run_legend.fit(8 * self.scale)

    def position(self, k: int) -> float:
        """Where step ``k`` stands on the epoch axis: its epoch's number + the batches done."""
        e = self.epochs
        if e is None or not e.count:
            return 0.0
        i = e.of_step(k)
        return float(e.numbers[i]) + (int(k) - int(e.starts[i]) + 1) / max(1, e.steps_in(i))

    def set_cursor(self, k: int) -> None:
        """Move the cursor to step ``k``."""
        self.cursor.setValue(self.position(k))

    def step_at(self, x: float) -> int | None:
        """The last step of the epoch plotted nearest ``x`` (None: no epochs)."""
        e = self.epochs
        if e is None or not e.count:
            return None
        i = int(np.argmin(np.abs(e.numbers + 1 - x)))
        return int(e.starts[i]) + e.steps_in(i) - 1

    def moving_items(self) -> list[QGraphicsItem]:
        """What :meth:`set_cursor` changes."""
        return [self.cursor]

    def restyle(self, theme: Theme, scale: float) -> None:
        """Theme colours and presenter-mode scale."""
        self.revision += 1
        self.theme, self.scale = theme, scale
        style_plot(self, theme, scale)
        pen = pg.mkPen(theme.muted, width=1.5 * scale)
        pen.setCosmetic(True)
        self.cursor.setPen(pen)
        self.legend.setLabelTextColor(theme.text)
        self.fit_legend()

    def clicked_step(self, event: Any) -> int | None:
        """The step a click asks for (see :meth:`step_at`)."""
        return self.step_at(self.getViewBox().mapSceneToView(event.scenePos()).x())
