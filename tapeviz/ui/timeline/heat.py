"""Every parameter's elements over the steps as a heat strip: a row per element, a column per step.

The parameters are stacked top to bottom, each named at its top left; each is coloured from
−max|value| (blue) through the background to +max|value| (vermillion) over the loop, so a
weight that grows or changes sign shows as its row changing colour; grey, a value the worker
sent as a summary (its elements unknown). A tensor of more than
:data:`MAX_ROWS` elements shows that many, evenly spaced; a long loop, :data:`MAX_COLUMNS`
steps, evenly spaced.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QRectF
from PySide6.QtWidgets import QGraphicsItem, QWidget

from tapeviz.models.timeline.timeline import Timeline
from tapeviz.ui.plots.axis import SpacedAxis
from tapeviz.ui.plots.step_plots import style_plot
from tapeviz.ui.plots.title import set_title
from tapeviz.ui.theme import LIGHT, Theme, font

translate = QCoreApplication.translate  # lupdate reads translate("Timeline", "…")
MAX_ROWS = 64  # elements of one tensor shown
MAX_COLUMNS = 800  # steps shown
NEGATIVE, POSITIVE = "#0072B2", "#D55E00"  # the palette's blue and vermillion


def evenly(count: int, most: int) -> np.ndarray:
    """At most ``most`` indices of ``range(count)``, evenly spaced, first and last included."""
    if count <= most:
        return np.arange(count, dtype=np.int64)
    return np.unique(np.linspace(0, count - 1, most).round().astype(np.int64))


def strip_of(tl: Timeline) -> tuple[np.ndarray, list[tuple[float, str]], list[int]]:
    """(columns × rows) values in −1…1, each block's name at its top, the blocks' edges.

    A block of few elements is drawn taller (its rows repeated), so every name has room.
    """
    columns = evenly(tl.steps + 1, MAX_COLUMNS)
    blocks, names = [], []
    for j, p in enumerate(tl.parameters):
        elements = evenly(p.size, MAX_ROWS)
        values = tl.matrix(j, columns, elements)
        with np.errstate(all="ignore"):
            finite = np.abs(values[np.isfinite(values)])
            top = float(finite.max()) if finite.size else 0.0
            scaled = values / top if top > 0 else np.zeros_like(values)
        blocks.append(np.clip(scaled, -1, 1))  # nan: a value the worker sent as a summary
        shown = p.name if p.size == len(elements) else f"{p.name} ({len(elements)}/{p.size:,})"
        names.append(shown)
    least = max(1, sum(b.shape[1] for b in blocks) // 8)
    blocks = [np.repeat(b, -(-least // b.shape[1]), axis=1) if b.shape[1] < least else b
              for b in blocks]  # fmt: skip
    tops = np.concatenate([[0], np.cumsum([b.shape[1] for b in blocks])]).astype(int).tolist()
    image = np.concatenate(blocks, axis=1) if blocks else np.zeros((len(columns), 0))
    return image, list(zip(tops, names, strict=False)), tops[1:-1]


class HeatStrip(pg.PlotWidget):
    """The parameters' elements per step (``timelineHeatStrip``; see the module docstring)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, axisItems={"bottom": SpacedAxis("bottom")})
        self.setObjectName("timelineHeatStrip")
        self.setMenuEnabled(False)
        set_title(self, translate("OptimizationStudio", "Parameters"))
        self.setLabel("bottom", translate("OptimizationStudio", "step"))
        tip = translate(
            "Timeline", "Each tensor's elements per step: blue −max|v|, red +max|v|, grey unknown"
        )
        self.setToolTip(tip)
        self.getPlotItem().hideButtons()
        self.getViewBox().setMouseEnabled(x=False, y=False)
        self.getViewBox().invertY(True)  # the first parameter on top, as the legend lists them
        self.image = pg.ImageItem(axisOrder="col-major")
        self.addItem(self.image)
        self.cursor = pg.InfiniteLine(0, angle=90, movable=False)
        self.cursor.setZValue(30)
        self.addItem(self.cursor, ignoreBounds=True)
        self.lines: list[pg.InfiniteLine] = []
        self.labels: list[pg.TextItem] = []
        self.hideAxis("left")  # the tensors are named inside the strip: it keeps its width
        self.theme, self.scale = LIGHT, 1.0
        self.revision = 0  # bumped whenever more than the cursor changes (export layers)
        self.values = np.zeros((0, 0))  # the strip shown, in −1…1 (nan: unknown)

    def _colours(self, image: np.ndarray) -> np.ndarray:
        """RGBA bytes of values in −1…1; grey where a value is unknown (nan)."""
        cmap = pg.ColorMap([0.0, 0.5, 1.0], [NEGATIVE, self.theme.background, POSITIVE])
        known = np.isfinite(image)
        rgba = cmap.map((np.where(known, image, 0.0) + 1) / 2, mode="byte")
        rgba[~known] = pg.mkColor(self.theme.muted).getRgb()
        return np.ascontiguousarray(rgba.reshape(*image.shape, 4))

    def draw(self, tl: Timeline | None) -> None:
        """The strip of ``tl``'s parameters (None clears)."""
        self.revision += 1
        for item in (*self.lines, *self.labels):
            self.removeItem(item)
        self.lines, self.labels = [], []
        if tl is None or not tl.parameters:
            self.image.clear()
            return
        image, names, edges = strip_of(tl)
        self.values = image
        self.image.setImage(self._colours(image), autoLevels=False)
        n = tl.steps + 1
        self.image.setRect(QRectF(-0.5, 0.0, float(n), float(image.shape[1])))
        fill = pg.mkBrush(self.theme.color(self.theme.background, 190))
        for top, name in names:
            label = pg.TextItem(name, color=self.theme.text, anchor=(0, 0), fill=fill)
            label.setFont(font(8 * self.scale))
            label.setPos(0, top)
            label.setZValue(20)
            self.addItem(label, ignoreBounds=True)
            self.labels.append(label)
        pen = pg.mkPen(self.theme.muted, width=max(1.0, self.scale))
        for edge in edges:
            line = pg.InfiniteLine(edge, angle=0, movable=False, pen=pen)
            line.setZValue(10)  # over the image
            self.addItem(line, ignoreBounds=True)
            self.lines.append(line)
        self.setXRange(0, max(n - 1, 1), padding=0.02)
        self.setYRange(0, max(image.shape[1], 1), padding=0)

    def set_cursor(self, k: int) -> None:
        """Move the cursor to step ``k``."""
        self.cursor.setValue(k)

    def moving_items(self) -> list[QGraphicsItem]:
        """What :meth:`set_cursor` changes."""
        return [self.cursor]

    def restyle(self, theme: Theme, scale: float) -> None:
        """Theme colours and presenter-mode scale."""
        self.revision += 1
        self.theme, self.scale = theme, scale
        style_plot(self, theme, scale)
        pen = pg.mkPen(theme.text, width=1.5 * scale)
        pen.setCosmetic(True)
        self.cursor.setPen(pen)
        if self.values.size:
            self.image.setImage(self._colours(self.values), autoLevels=False)

    def clicked_step(self, event: Any) -> int:
        """The step under a click."""
        return round(self.getViewBox().mapSceneToView(event.scenePos()).x())
