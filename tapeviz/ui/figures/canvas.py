"""One figure, drawn: its axes laid out on the figure's grid as matplotlib does, each a PlotItem.

The canvas keeps the figure's data and draws it again for a theme or a presenter scale, so the
colours, fonts and line widths always follow the window. PNG export renders it at twice its
size; SVG export paints its scene into a QSvgGenerator (pyqtgraph's own SVG exporter fails on
Qt ≥ 6.11).
"""

from __future__ import annotations

import math
import time
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QEvent, QPoint, QRectF, QSize, Signal
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QWidget

from tapeviz.sandbox import figures as F
from tapeviz.ui.figures.series import MANY_LINES, Look, colormap, draw, escaped
from tapeviz.ui.plots.step_plots import log_ticks
from tapeviz.ui.theme import LIGHT, Theme, font
from tapeviz.ui.turns import later, until_done

FEW_SERIES = 40  # a figure of no more series is drawn at once, whatever the time it takes
SERIES_S = 0.015  # seconds of series drawn per turn (then its paint: 15-30 ms for 500 lines)
LEGEND_ROWS = 30  # a legend's rows (more: the figure's heading says how many are left out)
# Series kinds whose data bounds are the axes' range (bars have bases and widths, a text or a
# reference line its own extent: those axes are still ranged by pyqtgraph, once all are drawn)
RANGED = ("line", "points")
DISMANTLE_S = 0.012  # seconds of a replaced figure's items removed per turn (see dismantle)

# Where a legend goes: pyqtgraph offsets (positive from the left/top, negative from the right).
LEGEND_OFFSETS = {
    "best": (-10, 10), "upper right": (-10, 10), "upper left": (10, 10), "lower left": (10, -10),
    "lower right": (-10, -10), "right": (-10, 60), "center left": (10, 60),
    "center right": (-10, 60), "lower center": (60, -10), "upper center": (60, 10),
    "center": (60, 60),
}  # fmt: skip


class FigureCanvas(pg.GraphicsLayoutWidget):
    """A :class:`~tapeviz.sandbox.figures.Figure` as pyqtgraph plots (``plots``, one per axes)."""

    finished = Signal()  # the series that waited for their turns are drawn

    def __init__(
        self, figure: F.Figure, theme: Theme = LIGHT, scale: float = 1.0,
        parent: QWidget | None = None,
    ) -> None:  # fmt: skip
        super().__init__(parent)
        self.setObjectName("figureCanvas")
        self.figure, self.theme, self.scale = figure, theme, scale
        self.plots: list[pg.PlotItem] = []
        self.items: list[list[Any]] = []  # per axes: what each series drew (its first item)
        self.colorbars: list[pg.ColorBarItem] = []
        self.legends: list[pg.LegendItem] = []
        self.thinned: list[tuple[int, int]] = []  # (drawn, of) for scatters thinned to draw
        self.labels: dict[int, int] = {}  # a legend's labelled series (by id), listed or not
        self._generation = 0  # bumped by every draw: the turns of an older one end
        self._deadline = 0.0  # when this turn's series stop (perf_counter)
        # An axes' series still to draw (axes, plot, look, legend, drawn, its colorbar after them,
        # its auto range)
        self._waiting: list[tuple[Any, ...]] = []
        self.draw()

    @property
    def aspect(self) -> float:
        """Height over width, from the figure's size in inches."""
        w, h = self.figure.size
        return h / w

    def restyle(self, theme: Theme, scale: float) -> None:
        """Draw again in ``theme`` at the presenter ``scale`` (drawn so already: nothing to do)."""
        if (theme, scale) == (self.theme, self.scale) and not self.aside:
            return  # (a new figure's panel restyles it once made: it was drawn twice)
        self.theme, self.scale = theme, scale
        self.draw()

    aside = False  # whether what was drawn is set aside, the figure not drawn again yet

    @property
    def many(self) -> bool:
        """Whether the figure has more than :data:`FEW_SERIES` series (drawn by turns)."""
        return sum(len(ax.series) for ax in self.figure.axes) > FEW_SERIES

    def set_aside(self) -> None:
        """Take a big drawing out of sight now; its series go by turns (a small one: nothing).

        Taking its items out of the scene, or hiding them, runs Python for each (38 and 20 ms
        for 500 lines): the old layout stays in the scene, out of sight, until its series went
        a turn at a time.
        """
        if sum(map(len, self.items)) <= FEW_SERIES:
            return
        old, self.ci = self.ci, pg.GraphicsLayout()
        old.setPos(-1e7, -1e7)
        self.centralWidget = None  # (else setCentralItem takes it out of the scene at once)
        self.setCentralItem(self.ci)
        plots, legends = self.plots, self.legends
        until_done(lambda: _remove_some(plots, legends), self, partial(_out_of_scene, old))
        self.plots, self.items, self.legends, self.aside = [], [], [], True
        self._generation += 1  # (its series still waiting are never drawn)
        self._waiting = []

    def draw(self) -> None:
        """(Re)build every plot from the figure's data."""
        self.set_aside()  # (a theme, a scale: what it drew goes by turns)
        self.aside = False
        self.ci.clear()  # (not self.clear: pyqtgraph bound it to the first layout)
        self._generation += 1
        self._waiting = []
        self._deadline = time.perf_counter() + SERIES_S if self.many else math.inf  # (all axes)
        self.plots, self.items, self.colorbars, self.thinned = [], [], [], []
        self.legends, self.labels = [], {}
        self.setBackground(self.theme.background)
        fig, layout = self.figure, self.ci.layout
        top = 0
        if fig.title:
            self.ci.addLabel(escaped(fig.title), row=0, col=0, colspan=fig.cols,
                             color=self.theme.text, size=f"{12 * self.scale:.0f}pt",
                             bold=True)  # fmt: skip
            top = 1
        for r in range(fig.rows):
            layout.setRowStretchFactor(r + top, 1)
        for c in range(fig.cols):
            layout.setColumnStretchFactor(c, 1)
        for ax in fig.axes:
            plot = pg.PlotItem()
            self.ci.addItem(plot, row=ax.row + top, col=ax.col, rowspan=ax.rowspan,
                            colspan=ax.colspan)  # fmt: skip
            self.plots.append(plot)
            self.items.append(self._draw_axes(ax, plot))

    # -- one axes ------------------------------------------------------------------------------
    def _draw_axes(self, ax: F.Axes, plot: pg.PlotItem) -> list[Any]:
        theme, scale = self.theme, self.scale
        look = Look(theme, scale, xlog=ax.xscale == "log", ylog=ax.yscale == "log",
                    many=sum(s.kind == "line" for s in ax.series) > MANY_LINES)  # fmt: skip
        plot.setMenuEnabled(False)
        plot.hideButtons()
        vb = plot.getViewBox()
        vb.setDefaultPadding(0.05)  # matplotlib's margins
        legend = None
        if ax.legend is not None:
            legend = pg.LegendItem(offset=LEGEND_OFFSETS.get(ax.legend, (-10, 10)),
                                   labelTextColor=theme.text,
                                   labelTextSize=f"{9 * scale:.0f}pt")  # fmt: skip
            legend.setParentItem(vb)
            legend.setBrush(pg.mkBrush(QColor(theme.background)))
            legend.setPen(pg.mkPen(theme.muted))
            self.legends.append(legend)
        drawn: list[Any] = []
        self._series(ax, plot, look, legend, drawn)
        if ax.title:
            plot.setTitle(escaped(ax.title), color=theme.text, size=f"{11 * scale:.0f}pt")
        for side, text in (("bottom", ax.xlabel), ("left", ax.ylabel)):
            axis = plot.getAxis(side)
            axis.enableAutoSIPrefix(False)
            axis.setPen(pg.mkPen(theme.muted, width=max(1.0, scale)))
            axis.setTextPen(pg.mkPen(theme.text))
            axis.setStyle(tickFont=font(9 * scale))
            if text:
                plot.setLabel(side, escaped(text), color=theme.text,
                              **{"font-size": f"{10 * scale:.0f}pt"})  # fmt: skip
        if ax.grid:
            plot.showGrid(x=True, y=True, alpha=0.25)
        if not ax.frame:
            plot.hideAxis("left")
            plot.hideAxis("bottom")
        self._ranges(ax, plot, look)
        if ax.equal:
            vb.setAspectLocked(True)
        bar = ax.colorbar_for
        if 0 <= bar < len(drawn):
            self._colorbar(ax, plot, drawn[bar])
        if len(drawn) < len(ax.series):  # the rest on turns of their own (see _series)
            # Ranged from the figure's data now: each new line made every line before it and
            # the axes update again (most of a turn's time, and growing), and pyqtgraph's own
            # range once all were drawn updated each of 500 lines again (120-140 ms).
            auto = vb.autoRangeEnabled()
            vb.disableAutoRange()
            if all(s.kind in RANGED for s in ax.series):
                found = {a: _bounds(ax, a, tf) for a, tf, on in (("x", look.tx, auto[0]),
                         ("y", look.ty, auto[1])) if on}  # fmt: skip
                vb.setRange(xRange=found.get("x"), yRange=found.get("y"))  # (default padding)
                auto = (False, False)
            self._waiting.append((ax, plot, look, legend, drawn, bar >= len(drawn), auto))
            if len(self._waiting) == 1:
                later(partial(self._more, self._generation), self)
        return drawn

    def _series(self, ax: F.Axes, plot: pg.PlotItem, look: Look, legend: Any,
                drawn: list[Any]) -> None:  # fmt: skip
        """Draw ``ax``'s series after the ``drawn`` ones until this turn's time is up.

        An axes of 500 lines took the window 1.2 s in one go: the rest wait for a turn. The
        time is the turn's, whatever the axes (a 3×3 grid of 200 lines each: 381 ms when each
        axes had its own).
        """
        for s in ax.series[len(drawn) :]:
            if time.perf_counter() > self._deadline:
                return
            sample = draw(s, plot, look)
            drawn.append(sample)
            label = getattr(s, "label", "")
            self.thinned.extend(look.thinned)
            look.thinned.clear()
            if legend is not None and sample is not None and label and not label.startswith("_"):
                # (each row re-sizes the legend: 5 ms a row at 350 rows, a turn for 4 lines)
                listed = self.labels[id(legend)] = self.labels.get(id(legend), 0) + 1
                if listed <= LEGEND_ROWS:
                    legend.addItem(sample, escaped(label))

    @property
    def unlisted(self) -> list[tuple[int, int]]:
        """(listed, of) for each legend with more labelled series than it lists."""
        return [(LEGEND_ROWS, n) for n in self.labels.values() if n > LEGEND_ROWS]

    def _more(self, generation: int, budget: float = SERIES_S) -> None:
        """The series still waiting: a turn's worth (all of them for an infinite ``budget``)."""
        if generation != self._generation or not self._waiting:
            return  # drawn again meanwhile (a theme, a scale), or finished (an export)
        self._deadline = time.perf_counter() + budget
        while self._waiting and time.perf_counter() <= self._deadline:
            ax, plot, look, legend, drawn, bar, auto = self._waiting[0]
            self._series(ax, plot, look, legend, drawn)
            if len(drawn) == len(ax.series):
                self._waiting.pop(0)
                if bar:
                    self._colorbar(ax, plot, drawn[ax.colorbar_for])
                plot.getViewBox().enableAutoRange(x=auto[0], y=auto[1])
        if self._waiting:
            later(partial(self._more, generation), self)
        else:
            self.finished.emit()

    def dismantle(self, budget: float | None = None) -> bool:
        """Remove the figure's series for ``budget`` seconds (a turn's); whether none is left.

        Deleting an axes of 500 lines at once blocked the window 100-200 ms (each item's Python
        side and its signal connections go with it): a replaced figure goes a turn's worth at a
        time, then the canvas itself (see :meth:`PlotsPanel.set_figures`).
        """
        self._generation += 1  # (the series still waiting are never drawn)
        self._waiting, self.items = [], []
        return _remove_some(self.plots, self.legends, budget)

    @property
    def building(self) -> bool:
        """Whether series wait for their turn to be drawn."""
        return bool(self._waiting)

    def finish(self) -> None:
        """Draw the series still waiting, now (an export takes the figure next)."""
        if self._waiting:
            self._more(self._generation, math.inf)
            self._settle()

    def _settle(self) -> None:
        """Size the axes for the ranges just found, as a paint and a layout pass would.

        An axis takes the width of its labels when it paints them: exported at once, a figure
        whose lines had waited kept the left axis of its first range (its labels cut).
        """
        self.render_image(1.0)  # (painted: each axis takes its labels' width)
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest.value)
        self.ci.layout.activate()

    def _ranges(self, ax: F.Axes, plot: pg.PlotItem, look: Look) -> None:
        vb = plot.getViewBox()
        images = [s for s in ax.series if s.kind == "image"]
        for lim, axis_name, tf, log, ticks in (
            (ax.xlim, "x", look.tx, look.xlog, ax.xticks),
            (ax.ylim, "y", look.ty, look.ylog, ax.yticks),
        ):
            side = "bottom" if axis_name == "x" else "left"
            lo_hi = None
            if lim is not None:
                lo, hi = (float(v) for v in tf(np.array(lim)))
                if np.isfinite(lo) and np.isfinite(hi) and lo != hi:
                    lo_hi = (min(lo, hi), max(lo, hi))
                    (vb.setXRange if axis_name == "x" else vb.setYRange)(*lo_hi, padding=0)
                    if lo > hi:
                        (vb.invertX if axis_name == "x" else vb.invertY)(True)
            elif axis_name == "y" and any(s.extent[2] > s.extent[3] for s in images):
                vb.invertY(True)  # imshow's default: row 0 at the top
            if ticks is not None:
                plot.getAxis(side).setTicks(
                    [[(float(tf(np.array([p]))[0]), escaped(t)) for p, t in ticks]]
                )
            elif log:
                lo, hi = lo_hi or _bounds(ax, axis_name, tf)
                plot.getAxis(side).setTicks(log_ticks(lo, hi))

    def _colorbar(self, ax: F.Axes, plot: pg.PlotItem, item: Any) -> None:
        s = ax.series[ax.colorbar_for]
        mapped = s.kind == "points" and s.values is not None
        if mapped or (s.kind == "image" and s.values.ndim == 2):
            values = s.values
        elif s.kind == "contour":
            values = s.levels
        else:
            return
        finite = values[np.isfinite(values)]
        lo = getattr(s, "vmin", None)
        hi = getattr(s, "vmax", None)
        lo = float(finite.min()) if lo is None and finite.size else (lo or 0.0)
        hi = float(finite.max()) if hi is None and finite.size else (hi or 1.0)
        if hi <= lo:
            hi = lo + 1.0
        bar = pg.ColorBarItem(values=(lo, hi), colorMap=colormap(s.cmap),
                              label=escaped(ax.colorbar) or None, interactive=False,
                              width=int(18 * self.scale), colorMapMenu=False,
                              pen=self.theme.muted)  # fmt: skip
        target = item if s.kind == "image" else pg.ImageItem(np.zeros((2, 2)))
        bar.setImageItem(target, insert_in=plot)
        bar.setLevels((lo, hi))
        axis = bar.axis
        axis.setTextPen(pg.mkPen(self.theme.text))
        axis.setStyle(tickFont=font(8 * self.scale))
        self.colorbars.append(bar)

    # -- export ---------------------------------------------------------------------------------
    def render_image(self, factor: float = 2.0) -> QImage:
        """The figure as an image, ``factor`` × its size on screen."""
        self.finish()
        size = self.size()
        image = QImage(QSize(round(size.width() * factor), round(size.height() * factor)),
                       QImage.Format.Format_RGB32)  # fmt: skip
        image.fill(QColor(self.theme.background))
        painter = QPainter(image)
        painter.setRenderHints(QPainter.RenderHint.Antialiasing
                               | QPainter.RenderHint.TextAntialiasing)  # fmt: skip
        painter.scale(factor, factor)
        QWidget.render(self, painter, QPoint(0, 0))
        painter.end()
        return image

    def export_png(self, path: str | Path) -> Path:
        """Write the figure as PNG (twice the on-screen size); OSError if it cannot be written."""
        path = Path(path)
        if not self.render_image().save(str(path), "PNG"):
            raise OSError(f"cannot write {path}")
        return path

    def export_svg(self, path: str | Path) -> Path:
        """Write the figure as SVG (vectors); OSError if it cannot be written."""
        self.finish()
        path = Path(path)
        gen = QSvgGenerator()
        gen.setFileName(str(path))
        gen.setSize(self.size())
        gen.setViewBox(QRectF(0, 0, self.width(), self.height()))
        gen.setTitle(self.figure.title or f"tapeviz figure {self.figure.number}")
        painter = QPainter()
        if not painter.begin(gen):
            raise OSError(f"cannot write {path}")
        painter.fillRect(QRectF(0, 0, self.width(), self.height()), QColor(self.theme.background))
        source = self.mapToScene(self.viewport().rect()).boundingRect()
        self.scene().render(painter, QRectF(0, 0, self.width(), self.height()), source)
        painter.end()
        if not path.exists():
            raise OSError(f"cannot write {path}")
        return path


def _remove_some(plots: list[Any], legends: list[Any], budget: float | None = None) -> bool:
    """Remove the series of ``plots`` and the rows of ``legends`` for a turn; whether all went."""
    deadline = time.perf_counter() + (DISMANTLE_S if budget is None else budget)
    for legend in legends:  # first: its rows hold the series' samples
        legend.hide()  # (its removeItem re-sized it for each row: 1.4 s for 500 rows)
        rows = legend.items
        while rows:
            for part in rows.pop():  # (its sample, its label)
                legend.layout.removeItem(part)
                if part.scene() is not None:
                    part.scene().removeItem(part)
            if time.perf_counter() > deadline:
                return False
    for plot in plots:
        items = plot.items
        while items:
            item = items[-1]
            plot.removeItem(item)
            if items and items[-1] is item:  # (not removable: it goes with its plot)
                items.pop()
            if time.perf_counter() > deadline:
                return False
    return True


def _out_of_scene(layout: pg.GraphicsLayout) -> None:
    """Take a set-aside layout, its series removed, out of its scene."""
    if (scene := layout.scene()) is not None:
        scene.removeItem(layout)


def _bounds(ax: F.Axes, axis: str, tf: Any) -> tuple[float, float]:
    """The range of an axis' data as placed (for log ticks)."""
    parts = []
    for s in ax.series:
        keys = {"x": ("x",), "y": ("y", "y1", "y2")}[axis]
        if s.kind == "bars":
            keys = ("x",) if (axis == "x") != s.horizontal else ("height",)
        for k in keys:
            v = getattr(s, k, None)
            if isinstance(v, np.ndarray):
                parts.append(np.ravel(tf(v)))
    flat = np.concatenate(parts) if parts else np.zeros(0)
    flat = flat[np.isfinite(flat)]
    return (float(flat.min()), float(flat.max())) if flat.size else (0.0, 1.0)
