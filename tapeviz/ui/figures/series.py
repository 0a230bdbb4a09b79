"""Each kind of series of :mod:`tapeviz.sandbox.figures` as pyqtgraph items on a PlotItem.

``draw(series, plot, look)`` adds the items and returns a legend sample (or None). Positions go
through ``look.tx``/``look.ty`` (log10 on a log axis), sizes are matplotlib's points at the
presenter scale, and pure black turns into the theme's text colour on a dark background.

Fills (images, filled contours, fill_between) lie under lines, and scatter points on top of
both with a thin edge: a classifier's points coloured by the same colormap as its
``contourf`` decision regions vanished into them (:data:`LAYER`).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont

from tapeviz.sandbox import figures as F
from tapeviz.ui.theme import Theme, font

PT = 96 / 72  # pixels per point on screen
LAYER = {"image": -20.0, "contour_filled": -20.0, "fill": -10.0, "points": 10.0}  # z values
EDGE = 0.6  # points: the scatter markers' edge
MAX_MARKERS = 20_000  # scatter points drawn per series (more are thinned evenly, and said so)
_DASH = {"-": Qt.PenStyle.SolidLine, "--": Qt.PenStyle.DashLine, ":": Qt.PenStyle.DotLine,
         "-.": Qt.PenStyle.DashDotLine}  # fmt: skip
# matplotlib's marker codes → pyqtgraph's symbols.
SYMBOLS = {"o": "o", ".": "o", ",": "s", "s": "s", "^": "t1", "v": "t", "<": "t3", ">": "t2",
           "x": "x", "+": "+", "*": "star", "d": "d", "D": "d", "p": "p", "h": "h", "H": "h",
           "8": "o", "|": "|", "_": "_", "P": "+", "X": "x"}  # fmt: skip


MANY_LINES = 100  # lines in one axes from which they are drawn 1 px wide (see Look.pen)


def colormap(name: str) -> pg.ColorMap:
    """A pyqtgraph colormap for one of :data:`~tapeviz.sandbox.figures.COLORMAPS`."""
    stops = F.colormap_stops(name)
    return pg.ColorMap(np.linspace(0.0, 1.0, len(stops)), [QColor(s) for s in stops])


@dataclass
class Look:
    """How a figure is drawn: theme, presenter scale, and each axis' transform."""

    theme: Theme
    scale: float = 1.0
    xlog: bool = False
    ylog: bool = False
    thinned: list[tuple[int, int]] = field(default_factory=list)  # (drawn, of) per scatter
    many: bool = False  # an axes of more than MANY_LINES lines: drawn 1 px wide (see pen)

    def color(self, rgba: str) -> QColor:
        """A ``#rrggbbaa`` colour for this theme (black reads as text on a dark background)."""
        c = QColor(rgba[:7])
        c.setAlpha(int(rgba[7:9], 16))
        if self.theme.name == "dark" and rgba[:7] == "#000000":
            text = QColor(self.theme.text)
            text.setAlpha(c.alpha())
            return text
        return c

    def pen(self, rgba: str, width: float, style: str = "-") -> Any:
        """A pen of ``width`` points (1 px in an axes of many lines)."""
        # A wide pen is stroked: 500 lines of 2-3 px took 41-44 ms to paint, of 1 px 12-14 ms
        # (each turn that draws more of them paints them all again).
        px = 1.0 if self.many else max(width * PT * self.scale, 0.5)
        pen = pg.mkPen(self.color(rgba), width=px)
        pen.setStyle(_DASH.get(style, Qt.PenStyle.SolidLine))
        pen.setCosmetic(True)
        return pen

    def font(self, points: float) -> QFont:
        """The UI font at ``points`` × the presenter scale."""
        return font(points * self.scale)

    def tx(self, x: np.ndarray) -> np.ndarray:
        """The x values as placed on the axis."""
        return _log(x) if self.xlog else np.asarray(x, dtype=np.float64)

    def ty(self, y: np.ndarray) -> np.ndarray:
        """The y values as placed on the axis."""
        return _log(y) if self.ylog else np.asarray(y, dtype=np.float64)


def _log(v: np.ndarray) -> np.ndarray:
    a = np.asarray(v, dtype=np.float64)
    with np.errstate(all="ignore"):
        return np.where(a > 0, np.log10(np.where(a > 0, a, 1.0)), np.nan)


def escaped(text: str) -> str:
    """A label as pyqtgraph shows it (HTML): mathtext as Unicode, everything else literal."""
    return html.escape(F.plain_text(text))


def _line(s: F.Line, plot: pg.PlotItem, look: Look) -> Any:
    symbol = SYMBOLS.get(s.marker) if s.marker else None
    size = s.marker_size * PT * look.scale * (0.5 if s.marker == "." else 1.0)
    item = pg.PlotDataItem(
        look.tx(s.x), look.ty(s.y), connect="finite",
        pen=look.pen(s.color, s.width, s.style) if s.style else None, symbol=symbol,
        symbolSize=size, symbolBrush=pg.mkBrush(look.color(s.color)),
        symbolPen=pg.mkPen(look.color(s.color)),
    )  # fmt: skip
    plot.addItem(item)
    item.setDownsampling(auto=True)  # (after adding: they need the item's view box)
    item.setClipToView(True)
    return item


def _points(s: F.Points, plot: pg.PlotItem, look: Look) -> Any:
    n = len(s.x)
    if n > MAX_MARKERS:  # pyqtgraph takes seconds per 100,000 markers: draw an even subset
        keep = np.linspace(0, n - 1, MAX_MARKERS).astype(np.int64)
        look.thinned.append((MAX_MARKERS, n))
        s = F.Points(**{k: (v[keep] if isinstance(v, np.ndarray) and len(v) == n else v)
                        for k, v in vars(s).items()})  # fmt: skip
        n = MAX_MARKERS
    if s.sizes is not None:
        sizes = np.sqrt(np.maximum(s.sizes, 0.0)) * PT * look.scale
    else:
        sizes = np.full(n, 6.0 * PT * look.scale)
    if s.values is not None:
        lo, hi = _range(s.values, s.vmin, s.vmax)
        t = np.clip(np.nan_to_num((s.values - lo) / (hi - lo)), 0.0, 1.0)
        palette = [pg.mkBrush(c) for c in colormap(s.cmap).map(np.linspace(0, 1, 256), "qcolor")]
        brushes = [palette[i] for i in np.round(t * 255).astype(np.int64)]  # 256 brushes
    elif s.colors is not None:
        codes, index = np.unique(np.round(s.colors * 255).astype(np.int64), axis=0,
                                 return_inverse=True)  # fmt: skip
        palette = [pg.mkBrush(QColor(*map(int, c))) for c in codes]
        brushes = [palette[i] for i in np.ravel(index)]
    else:
        brushes = [pg.mkBrush(look.color(s.color))] * n
    edge = look.pen("#000000b3", EDGE)  # (black: the theme's text colour on a dark background)
    item = pg.ScatterPlotItem(
        x=look.tx(s.x), y=look.ty(s.y), size=sizes, brush=brushes, pen=edge,
        symbol=SYMBOLS.get(s.marker, "o"),
    )  # fmt: skip
    item.setZValue(LAYER["points"])  # above the fills, whatever the order of the calls
    plot.addItem(item)
    return item


def _range(values: np.ndarray, vmin: float | None, vmax: float | None) -> tuple[float, float]:
    finite = values[np.isfinite(values)]
    lo = vmin if vmin is not None else (float(finite.min()) if finite.size else 0.0)
    hi = vmax if vmax is not None else (float(finite.max()) if finite.size else 1.0)
    return (lo, hi) if hi > lo else (lo - 0.5, lo + 0.5)


def _bars(s: F.Bars, plot: pg.PlotItem, look: Look) -> Any:
    brush = pg.mkBrush(look.color(s.color))
    pen = look.pen(s.edge, 0.8) if s.edge[7:] != "00" else pg.mkPen(None)
    if s.horizontal:
        lo, hi = look.tx(s.base), look.tx(s.base + s.height)
        y0, y1 = look.ty(s.x - s.width / 2), look.ty(s.x + s.width / 2)
    else:
        lo, hi = look.ty(s.base), look.ty(s.base + s.height)
        y0, y1 = look.tx(s.x - s.width / 2), look.tx(s.x + s.width / 2)
    ok = np.isfinite(lo) & np.isfinite(hi) & np.isfinite(y0) & np.isfinite(y1)
    lo, hi, y0, y1 = lo[ok], hi[ok], y0[ok], y1[ok]
    if s.horizontal:
        item = pg.BarGraphItem(x0=lo, width=hi - lo, y0=y0, height=y1 - y0, brush=brush, pen=pen)
    else:
        item = pg.BarGraphItem(x0=y0, width=y1 - y0, y0=lo, height=hi - lo, brush=brush, pen=pen)
    plot.addItem(item)
    return item


def _image(s: F.Image, plot: pg.PlotItem, look: Look) -> Any:
    left, right, bottom, top = s.extent
    values = s.values
    first, last = (top, bottom) if s.origin == "upper" else (bottom, top)
    if first > last:  # row 0 sits at the larger y: flip so row 0 is at the lower edge
        values = values[::-1]
        first, last = last, first
    if left > right:
        values = values[:, ::-1]
        left, right = right, left
    item = pg.ImageItem(np.ascontiguousarray(values), axisOrder="row-major")
    if values.ndim == 2:
        item.setColorMap(colormap(s.cmap))
        item.setLevels(_range(values, s.vmin, s.vmax))
    else:
        item.setLevels((0.0, 1.0))
    x0, x1 = look.tx(np.array([left, right]))
    y0, y1 = look.ty(np.array([first, last]))
    item.setRect(QRectF(float(x0), float(y0), float(x1 - x0), float(y1 - y0)))
    item.setZValue(LAYER["image"])
    plot.addItem(item)
    return item


def _refined(z: np.ndarray, target: int = 320) -> np.ndarray:
    """``z`` linearly interpolated onto a grid about ``target`` cells across (edges kept)."""
    rows, cols = z.shape
    factor = min(8, max(1, -(-target // max(rows, cols))))
    if factor == 1:
        return z
    r = np.linspace(0, rows - 1, (rows - 1) * factor + 1)
    c = np.linspace(0, cols - 1, (cols - 1) * factor + 1)
    by_rows = np.array([np.interp(c, np.arange(cols), row) for row in z])
    return np.array([np.interp(r, np.arange(rows), col) for col in by_rows.T]).T


def _grid_positions(index: np.ndarray, axis: np.ndarray) -> np.ndarray:
    return np.interp(index, np.arange(len(axis)), axis)


def _contour(s: F.Contour, plot: pg.PlotItem, look: Look) -> Any:
    levels = s.levels
    lo, hi = (float(levels.min()), float(levels.max())) if levels.size else (0.0, 1.0)
    cmap = colormap(s.cmap)
    if s.filled:  # bands as an image of the band index, on a grid refined for smooth edges
        z = _refined(s.z)
        band = np.clip(np.searchsorted(levels, z, side="right") - 1, 0, max(len(levels) - 2, 0))
        shown = np.where(np.isfinite(z), band, np.nan)
        item = pg.ImageItem(np.ascontiguousarray(shown.astype(np.float64)), axisOrder="row-major")
        n = max(len(levels) - 1, 1)
        lut = cmap.map((np.arange(n) + 0.5) / n, mode="byte")
        item.setLookupTable(lut)
        item.setLevels((-0.5, n - 0.5))
        xs, ys = look.tx(s.x), look.ty(s.y)
        rows, cols = z.shape
        dx = (xs[-1] - xs[0]) / max(cols - 1, 1)
        dy = (ys[-1] - ys[0]) / max(rows - 1, 1)
        item.setRect(QRectF(xs[0] - dx / 2, ys[0] - dy / 2, dx * cols, dy * rows))
        item.setZValue(LAYER["contour_filled"])
        plot.addItem(item)
        return item
    first = None
    for level in levels:
        t = 0.5 if hi == lo else (level - lo) / (hi - lo)
        rgba = s.color or _hex(cmap.map(float(t), mode="qcolor"))
        pen = look.pen(rgba, s.width)
        paths = pg.functions.isocurve(np.nan_to_num(s.z, nan=np.nanmin(s.z)), float(level),
                                      connected=True)  # fmt: skip
        longest = None
        for path in paths:
            pts = np.asarray(path, dtype=np.float64) - 0.5  # (pyqtgraph: pixel-centred)
            if len(pts) < 2:
                continue
            x = look.tx(_grid_positions(pts[:, 1], s.x))
            y = look.ty(_grid_positions(pts[:, 0], s.y))
            curve = pg.PlotCurveItem(x, y, pen=pen, connect="finite")
            plot.addItem(curve)
            first = first or curve
            if longest is None or len(x) > len(longest[0]):
                longest = (x, y)
        if s.labels and longest is not None:
            mid = len(longest[0]) // 2
            label = pg.TextItem(f"{level:g}", color=look.color(rgba), anchor=(0.5, 0.5))
            label.setFont(look.font(8))
            label.setPos(float(longest[0][mid]), float(longest[1][mid]))
            plot.addItem(label)
    return first


def _hex(c: QColor) -> str:
    return f"#{c.red():02x}{c.green():02x}{c.blue():02x}{c.alpha():02x}"


def _fill(s: F.Fill, plot: pg.PlotItem, look: Look) -> Any:
    x = look.tx(s.x)
    a, b = pg.PlotCurveItem(x, look.ty(s.y1)), pg.PlotCurveItem(x, look.ty(s.y2))
    item = pg.FillBetweenItem(a, b, brush=pg.mkBrush(look.color(s.color)))
    item.setZValue(LAYER["fill"])
    plot.addItem(item)
    return pg.PlotDataItem([], pen=None, symbol="s", symbolBrush=pg.mkBrush(look.color(s.color)),
                           symbolPen=None, symbolSize=10)  # fmt: skip


def _refline(s: F.RefLine, plot: pg.PlotItem, look: Look) -> Any:
    value = float((look.tx if s.vertical else look.ty)(np.array([s.value]))[0])
    pen = look.pen(s.color, s.width, s.style)
    if np.isfinite(value):
        plot.addItem(pg.InfiniteLine(pos=value, angle=90 if s.vertical else 0, pen=pen),
                     ignoreBounds=True)  # fmt: skip
    return pg.PlotDataItem([], pen=pen)


def _text(s: F.Text, plot: pg.PlotItem, look: Look) -> Any:
    item = pg.TextItem(F.plain_text(s.text), color=look.color(s.color), anchor=(0, 1))
    item.setFont(look.font(s.size * 0.9))
    x, y = float(look.tx(np.array([s.x]))[0]), float(look.ty(np.array([s.y]))[0])
    item.setPos(x, y)
    plot.addItem(item)
    return None


DRAW: dict[str, Callable[[Any, pg.PlotItem, Look], Any]] = {
    "line": _line, "points": _points, "bars": _bars, "image": _image, "contour": _contour,
    "fill": _fill, "refline": _refline, "text": _text,
}  # fmt: skip


def draw(series: F.Series, plot: pg.PlotItem, look: Look) -> Any:
    """Add ``series`` to ``plot``; the item a legend shows for it (None: no legend entry)."""
    return DRAW[series.kind](series, plot, look)
