"""The studio's left plot: the loss surface with trajectories, or the loss curve with tangents.

``surfacePlot``: heat map and contour lines of the loss over two parameters, each run's path
drawn up to the cursor, its current point and −∇f there as an arrow (the downhill direction
the gradient gives); a click picks a new start. ``curvePlot``: f(x) for one parameter, each
run's current point and its tangent line, whose slope is the gradient.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QPolygonF
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsLineItem,
    QGraphicsPolygonItem,
    QWidget,
)

from tapeviz.models.descent.backdrop import Backdrop
from tapeviz.models.descent.runs import Race
from tapeviz.ui.plots.axis import set_axis_label
from tapeviz.ui.plots.paths import PathSegments, between, drawn_steps
from tapeviz.ui.plots.run_legend import RunLegend
from tapeviz.ui.plots.step_plots import dot, move, style_plot, translate
from tapeviz.ui.plots.title import set_title
from tapeviz.ui.theme import LIGHT, Theme

HEAT = {"light": ("#FFFFFF", "#E4E4E4", "#B8B8B8"), "dark": ("#161616", "#2E2E2E", "#4E4E4E")}
ARROW = 0.09  # arrow length, as a fraction of the view's diagonal


def tidy(value: float, pixel: float) -> float:
    """``value`` rounded to the last digit one ``pixel`` of the view can tell apart."""
    if not (math.isfinite(value) and math.isfinite(pixel) and pixel > 0):
        return value
    return round(value, max(0, -math.floor(math.log10(pixel))))


def _diverged(h: Any) -> int | None:
    return h.divergence.step if h.divergence is not None else None


def arrow_head(color: str, size: float) -> QGraphicsPolygonItem:
    """An arrow head of ``size`` pixels pointing along +x (rotate it; a C++ item)."""
    item = QGraphicsPolygonItem(
        QPolygonF([QPointF(0, 0), QPointF(-size, -0.45 * size), QPointF(-size, 0.45 * size)])
    )
    item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
    item.setBrush(pg.mkBrush(color))
    item.setPen(pg.mkPen(None))
    item.setZValue(16)
    return item


def star_polygon(radius: float = 9.0) -> QPolygonF:
    """A five-pointed star (the runs' common start), in pixels around (0, 0)."""
    points = []
    for i in range(10):
        r = radius if i % 2 == 0 else radius * 0.45
        a = math.pi / 2 + i * math.pi / 5
        points.append(QPointF(r * math.cos(a), -r * math.sin(a)))
    return QPolygonF(points)


def same_colors(runs: list[dict], race: Race) -> bool:
    """Whether ``race`` has as many runs as the items ``runs``, in the same colours."""
    return len(runs) == len(race.runs) and all(
        r["h"].run.color == h.run.color for r, h in zip(runs, race.runs, strict=True)
    )


def same_surface(a: Backdrop | None, b: Backdrop) -> bool:
    """Whether two backdrops draw the same picture (the same ranges, values and curve)."""
    if a is None or (a.kind, a.ex, a.ey, a.x_range, a.y_range) != (
        b.kind, b.ex, b.ey, b.x_range, b.y_range
    ):  # fmt: skip
        return False
    if (a.grid is None) != (b.grid is None) or (a.curve is None) != (b.curve is None):
        return False
    if a.grid is not None and not np.array_equal(a.grid.z, b.grid.z, equal_nan=True):  # type: ignore[union-attr]
        return False
    return a.curve is None or all(
        np.array_equal(u, v, equal_nan=True)
        for u, v in zip(a.curve, b.curve, strict=True)  # type: ignore[arg-type]
    )


def same_path(run: dict, x: np.ndarray, y: np.ndarray) -> bool:
    """Whether a run's drawn path (``x``, ``y``) is the same as the new one."""
    return np.array_equal(run["x"], x, equal_nan=True) and np.array_equal(
        run["y"], y, equal_nan=True
    )


def retitle(legend: pg.LegendItem, i: int, title: str) -> bool:
    """Give the legend's entry ``i`` the text ``title``; whether it had another."""
    if i >= len(legend.items) or legend.items[i][1].text == title:
        return False
    label = legend.items[i][1]
    label.setText(title)
    label.resize(label.minimumSize())
    legend.updateSize()
    return True


class _Base(pg.PlotWidget):
    def __init__(self, name: str, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.setMenuEnabled(False)
        self.getPlotItem().hideButtons()
        self.theme, self.scale = LIGHT, 1.0
        self.race: Race | None = None
        self.backdrop: Backdrop | None = None
        self.run_legend = RunLegend(self)  # above the data: it hides no part of the surface
        self.legend = self.run_legend.legend
        view = self.getPlotItem().getViewBox()
        view.geometryChanged.connect(self.fit_legend)  # the axes change the data area's width too
        self.runs: list[dict] = []
        self.revision = 0  # bumped whenever more than the cursor changes (export layers)

    def resizeEvent(self, event: Any) -> None:
        """Qt override: fit the legend to the new width."""
        super().resizeEvent(event)
        if isinstance(self.__dict__.get("runs"), list):  # not while pyqtgraph is constructing
            self.fit_legend()

    def fit_legend(self) -> None:
        """The legend above the data, at the presenter size (smaller only if it cannot fit)."""
        self.run_legend.fit(10 * self.scale)

    def set_titles(self, titles: list[str]) -> None:
        """Name the runs at once (a new learning rate, before its race is computed)."""
        if len(titles) != len(self.legend.items):
            return
        self.revision += 1
        for (_, label), title in zip(self.legend.items, titles, strict=True):
            if label.text != title:
                label.setText(title)
                label.resize(label.minimumSize())
        self.legend.updateSize()
        self.fit_legend()

    def _clear_runs(self) -> None:
        for parts in self.runs:
            for item in parts.values():
                if isinstance(item, QGraphicsItem):
                    self.removeItem(item)
        self.runs = []
        self.legend.clear()

    def _line(self, color: str, width: float) -> QGraphicsLineItem:
        item = QGraphicsLineItem()
        pen = self._pen(color, width)
        pen.setCosmetic(True)
        item.setPen(pen)
        item.setZValue(15)
        self.addItem(item, ignoreBounds=True)
        return item

    def _pen(self, color: str, width: float = 2.2, alpha: int = 255) -> object:
        c = pg.mkColor(color)
        c.setAlpha(alpha)
        return pg.mkPen(c, width=width * self.scale)

    def restyle(self, theme: Theme, scale: float) -> None:
        """Theme colours and presenter-mode scale (redraws the backdrop)."""
        self.revision += 1
        self.theme, self.scale = theme, scale
        style_plot(self, theme, scale)
        self.legend.setLabelTextColor(theme.text)
        self.fit_legend()
        self.legend.setBrush(pg.mkBrush(theme.color(theme.background, 220)))
        if self.race is not None and self.backdrop is not None:
            self.set_race(self.race, self.backdrop)


class SurfacePlot(_Base):
    """Contours and heat map of the loss over two parameters, with the runs' paths."""

    startPicked = Signal(float, float)  # a click: start the runs from (x, y)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("surfacePlot", parent)
        self.image = pg.ImageItem()
        self.image.setZValue(-20)
        self.image.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)  # static
        self.addItem(self.image)
        self.contours = pg.PlotCurveItem(connect="pairs")
        self.contours.setZValue(-10)
        self.contours.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.addItem(self.contours)
        self.start = QGraphicsPolygonItem(star_polygon())
        self.start.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.start.setZValue(19)
        self.addItem(self.start, ignoreBounds=True)
        set_title(self, translate("OptimizationStudio", "Loss surface (click to start)"),
                  translate("OptimizationStudio", "Loss surface"))  # fmt: skip
        self.scene().sigMouseClicked.connect(self._on_scene_clicked)

    def set_race(self, race: Race, backdrop: Backdrop) -> None:
        """Draw the backdrop and one path per run (nothing played yet).

        A new race of the same runs (colours) keeps the items: only changed paths are new, and
        an unchanged backdrop is not drawn again (a hyper-parameter edit).
        """
        self.revision += 1
        reuse = race is not self.race and same_colors(self.runs, race)
        same_backdrop = reuse and same_surface(self.backdrop, backdrop)
        self.race, self.backdrop = race, backdrop
        if not reuse:
            self._clear_runs()
        names = race.runs[0].names
        set_axis_label(self, "bottom", names[backdrop.ex])
        set_axis_label(self, "left", names[backdrop.ey])
        grid = backdrop.grid
        if grid is not None and not same_backdrop:
            stops = HEAT.get(self.theme.name, HEAT["light"])
            cmap = pg.ColorMap(np.linspace(0, 1, len(stops)), [pg.mkColor(c) for c in stops])
            bands = len(grid.levels) + 1
            self.image.setLookupTable(cmap.getLookupTable(nPts=bands))
            self.image.setImage(grid.bands().T, levels=(0, bands - 1))
            x0, x1, y0, y1 = grid.xs[0], grid.xs[-1], grid.ys[0], grid.ys[-1]
            self.image.setRect(QRectF(x0, y0, x1 - x0, y1 - y0))
            xs = np.concatenate([c[1] for c in backdrop.contours] or [np.zeros(0)])
            ys = np.concatenate([c[2] for c in backdrop.contours] or [np.zeros(0)])
            self.contours.setData(
                xs, ys, connect="pairs", pen=self._pen(self.theme.muted, 1.0, 170)
            )
        for i, h in enumerate(race.runs):
            x = h.params[:, backdrop.ex].astype(np.float64)
            y = h.params[:, backdrop.ey].astype(np.float64)
            if reuse:
                run = self.runs[i]
                if not (same_backdrop and same_path(run, x, y)):
                    segments = PathSegments(x, y, backdrop.x_range, backdrop.y_range)
                    run.update(x=x, y=y, segments=segments)
                run["h"] = h
                run["stop"] = drawn_steps(  # a diverging run stops where it leaves the view
                    x, y, h.steps, _diverged(h), backdrop.x_range, backdrop.y_range
                )
                if retitle(self.legend, i, h.run.title):
                    self.fit_legend()
                continue
            path = pg.PlotCurveItem(connect="pairs", pen=self._pen(h.run.color))
            path.setZValue(10)
            self.addItem(path)
            line = self._line(h.run.color, 1.8)
            head = arrow_head(h.run.color, 13 * self.scale)
            marker = dot(h.run.color, 11 * self.scale, self.theme.background)
            for item in (head, marker):
                self.addItem(item, ignoreBounds=True)
            self.legend.addItem(path, h.run.title)
            self.fit_legend()
            self.runs.append(
                {
                    "path": path,
                    "line": line,
                    "head": head,
                    "marker": marker,
                    "x": x,
                    "y": y,
                    "segments": PathSegments(x, y, backdrop.x_range, backdrop.y_range),
                    "h": h,
                    "stop": drawn_steps(
                        x, y, h.steps, _diverged(h), backdrop.x_range, backdrop.y_range
                    ),
                }
            )
        h0 = race.runs[0]
        move(self.start, h0.params[0, backdrop.ex], h0.params[0, backdrop.ey])
        self.start.setScale(self.scale)
        self.start.setBrush(pg.mkBrush(self.theme.text))
        self.start.setPen(pg.mkPen(self.theme.background, width=1))
        self.setXRange(*backdrop.x_range, padding=0)
        self.setYRange(*backdrop.y_range, padding=0)

    def set_cursor(self, k: int, t: float = 0.0) -> None:
        """Paths up to step k (and ``t`` of the way to k + 1), current points, −∇f arrows.

        A diverged run's path ends where :func:`drawn_steps` says; its arrow goes with it.
        """
        if self.backdrop is None:
            return
        vb = self.getPlotItem().getViewBox()
        (vx0, vx1), (vy0, vy1) = vb.viewRange()
        for run in self.runs:
            h = run["h"]
            kk, stop = min(k, run["stop"]), run["stop"]
            tt = t if k < stop else 0.0
            run["path"].setData(*run["segments"].upto(kk, tt), connect="pairs")
            px, py = float(between(run["x"], kk, tt)), float(between(run["y"], kk, tt))
            g = between(h.grads[:, [self.backdrop.ex, self.backdrop.ey]], kk, tt)
            shown = bool(np.isfinite([px, py]).all()) and (k <= stop or stop == h.steps)
            move(run["marker"], px, py)
            nx, ny = -g[0] / (vx1 - vx0), -g[1] / (vy1 - vy0)
            norm = math.hypot(nx, ny)
            arrow = shown and math.isfinite(norm) and norm > 0
            if arrow:
                tx = px + ARROW * nx / norm * (vx1 - vx0)
                ty = py + ARROW * ny / norm * (vy1 - vy0)
                run["line"].setLine(px, py, tx, ty)
                a, b = vb.mapViewToScene(pg.Point(px, py)), vb.mapViewToScene(pg.Point(tx, ty))
                run["head"].setRotation(math.degrees(math.atan2(b.y() - a.y(), b.x() - a.x())))
                run["head"].setPos(tx, ty)
            run["line"].setVisible(arrow)
            run["head"].setVisible(run["line"].isVisible())

    def moving_items(self) -> list[QGraphicsItem]:
        """What :meth:`set_cursor` changes: each run's path, arrow and marker."""
        return [run[key] for run in self.runs for key in ("path", "line", "head", "marker")]

    def _on_scene_clicked(self, event: object) -> None:
        vb = self.getPlotItem().getViewBox()
        pos = event.scenePos()  # type: ignore[attr-defined]
        left = event.button() == Qt.MouseButton.LeftButton  # type: ignore[attr-defined]
        if not left or not vb.sceneBoundingRect().contains(pos):
            return
        point = vb.mapSceneToView(pos)
        px, py = vb.viewPixelSize()  # a start as exact as a click can aim: 2.796, not 2.79585…
        self.startPicked.emit(tidy(float(point.x()), px), tidy(float(point.y()), py))


class CurvePlot(_Base):
    """f(x) for one parameter: each run's point slides along it with its tangent line."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("curvePlot", parent)
        self.function = pg.PlotCurveItem(connect="finite")
        self.addItem(self.function)
        set_title(
            self, translate("OptimizationStudio", "Loss curve and tangent (slope = gradient)")
        )

    def set_race(self, race: Race, backdrop: Backdrop) -> None:
        """Draw f(x) and one trail per run."""
        self.revision += 1
        self.race, self.backdrop = race, backdrop
        self._clear_runs()
        set_axis_label(self, "bottom", race.runs[0].names[0])
        set_axis_label(self, "left", translate("OptimizationStudio", "loss f(x)"))
        if backdrop.curve is not None:
            self.function.setData(*backdrop.curve, connect="finite")
        self.function.setPen(self._pen(self.theme.text, 2.0))
        for h in race.runs:
            x, f = h.params[:, 0].astype(np.float64), h.loss.astype(np.float64)
            trail = pg.PlotCurveItem(connect="pairs", pen=self._pen(h.run.color, 1.2, 150))
            trail.setZValue(10)
            self.addItem(trail)
            tangent = self._line(h.run.color, 2.0)
            marker = dot(h.run.color, 12 * self.scale, self.theme.background)
            self.addItem(marker, ignoreBounds=True)
            self.legend.addItem(trail, h.run.title)
            self.fit_legend()
            self.runs.append(
                {
                    "trail": trail,
                    "tangent": tangent,
                    "marker": marker,
                    "x": x,
                    "f": f,
                    "segments": PathSegments(x, f, backdrop.x_range, backdrop.y_range),
                    "h": h,
                    "stop": drawn_steps(
                        x, f, h.steps, _diverged(h), backdrop.x_range, backdrop.y_range
                    ),
                }
            )
        self.setXRange(*backdrop.x_range, padding=0)
        self.setYRange(*backdrop.y_range, padding=0)

    def set_cursor(self, k: int, t: float = 0.0) -> None:
        """Each run's point at step k (``t`` of the way to k + 1, along f), trail and tangent."""
        if self.backdrop is None:
            return
        half = np.ptp(self.backdrop.x_range) / 7
        for run in self.runs:
            h = run["h"]
            kk, stop = min(k, run["stop"]), run["stop"]
            tt = t if k < stop else 0.0
            run["trail"].setData(*run["segments"].upto(kk, tt), connect="pairs")
            x, g = float(between(run["x"], kk, tt)), float(between(h.grads[:, 0], kk, tt))
            f = self._on_curve(run, kk, tt, x)
            move(run["marker"], x, f)
            ok = bool(np.isfinite([x, f, g]).all())
            if ok:
                run["tangent"].setLine(x - half, f - g * half, x + half, f + g * half)
            run["tangent"].setVisible(ok and (k <= stop or stop == h.steps))

    def moving_items(self) -> list[QGraphicsItem]:
        """What :meth:`set_cursor` changes: each run's trail, tangent and marker."""
        return [run[key] for run in self.runs for key in ("trail", "tangent", "marker")]

    def _on_curve(self, run: dict, k: int, t: float, x: float) -> float:
        """The loss between two steps, along the sampled curve (exact at the steps)."""
        f = run["f"]
        curve = self.backdrop.curve if self.backdrop is not None else None
        if t <= 0 or k + 1 >= len(f) or curve is None:
            return float(between(f, k, t))
        cx, cy = curve
        with np.errstate(all="ignore"):
            at = np.interp([run["x"][k], x, run["x"][k + 1]], cx, cy)
            value = at[1] + (1 - t) * (f[k] - at[0]) + t * (f[k + 1] - at[2])
        return float(value) if np.isfinite(value) else float(between(f, k, t))
