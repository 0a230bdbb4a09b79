"""The studio's step plots: loss, parameters and ‖∇f‖ per step, with a moving cursor.

Every history is drawn once in full, faint; the part already played is drawn on top and grows
as the cursor moves. Long histories are decimated per frame (min and max per pixel column), so
a frame costs the same for 100 or 100,000 steps.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QRectF, QSize, Qt
from PySide6.QtGui import QPen, QResizeEvent
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsLineItem,
    QGraphicsRectItem,
    QWidget,
)

from tapeviz.models.descent.runs import History, Race
from tapeviz.ui.plots.axis import SpacedAxis, log_or_linear, log_ticks, value_range
from tapeviz.ui.plots.run_legend import RunLegend
from tapeviz.ui.plots.run_legend import (
    set_legend_text_size as set_legend_text_size,
)  # (its old home)
from tapeviz.ui.plots.step_tabs import StepArrangement
from tapeviz.ui.plots.title import set_title, style_title
from tapeviz.ui.theme import LIGHT, Theme, font

COLUMNS = 1600  # decimate curves to about this many x positions (min and max of each)
LEGEND_POINTS = 10.5  # the parameters' legend at presenter scale 1 (14 px)
END_LABEL_PX = 8  # px an end tick's label may reach past the bottom axis (at scale 1)
DASHES = (
    Qt.PenStyle.SolidLine,
    Qt.PenStyle.DashLine,
    Qt.PenStyle.DotLine,
    Qt.PenStyle.DashDotLine,
    Qt.PenStyle.DashDotDotLine,
)


translate = QCoreApplication.translate  # lupdate reads translate("OptimizationStudio", "…")


def translated(text: str) -> str:
    """Translate text marked elsewhere (QT_TRANSLATE_NOOP) in the studio's context."""
    return QCoreApplication.translate("OptimizationStudio", text)


def peak_decimate(y: np.ndarray, width: int = COLUMNS) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) of ``y`` against its index with at most ~2·width points.

    Per column of steps it keeps the minimum and the maximum, in the order they occur, so a
    monotone curve stays a clean line and oscillations keep their envelope.
    """
    n = len(y)
    if n <= 2 * width:
        return np.arange(n, dtype=np.float64), y
    b = -(-n // width)
    m = n // b * b
    cols = np.asarray(y[:m], dtype=np.float64).reshape(-1, b)
    with np.errstate(all="ignore"):
        lo = np.argmin(np.where(np.isnan(cols), np.inf, cols), axis=1)
        hi = np.argmax(np.where(np.isnan(cols), -np.inf, cols), axis=1)
    first, second = np.minimum(lo, hi), np.maximum(lo, hi)
    starts = np.arange(0, m, b)
    idx = np.empty(2 * len(starts), dtype=np.int64)
    idx[0::2], idx[1::2] = starts + first, starts + second
    idx = np.concatenate([idx, np.arange(m, n)])
    return idx.astype(np.float64), np.asarray(y)[idx]


def mix(color: str, background: str, amount: float) -> Any:
    """``amount`` of ``color`` over ``background``, as an opaque QColor."""
    a, b = pg.mkColor(color), pg.mkColor(background)
    return pg.mkColor(
        *(
            round(amount * x + (1 - amount) * y)
            for x, y in zip(a.getRgb()[:3], b.getRgb()[:3], strict=True)
        )
    )


def shown_steps(h: History) -> int:
    """The steps that set a plot's range: up to the divergence step (not the explosion)."""
    return h.divergence.step if h.divergence is not None else h.steps


def dot(color: str, size: float, outline: str) -> QGraphicsEllipseItem:
    """A marker of ``size`` pixels at any zoom (a C++ item: cheap to move every frame)."""
    item = QGraphicsEllipseItem(-size / 2, -size / 2, size, size)
    item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
    item.setBrush(pg.mkBrush(color))
    item.setPen(pg.mkPen(outline, width=1.5))
    item.setZValue(20)
    return item


def move(item: QGraphicsItem, x: float, y: float) -> None:
    """Put a marker at (x, y), hidden where the value is not finite."""
    shown = bool(np.isfinite(x) and np.isfinite(y))
    item.setVisible(shown)
    if shown:
        item.setPos(float(x), float(y))


def style_plot(plot: pg.PlotWidget, theme: Theme, scale: float) -> None:
    """Background, axis colours and fonts (presenter mode scales them)."""
    plot.setBackground(theme.background)
    item = plot.getPlotItem()
    for name in ("left", "bottom"):
        axis = item.getAxis(name)
        axis.enableAutoSIPrefix(False)
        axis.setPen(pg.mkPen(theme.muted, width=max(1.0, scale)))
        axis.setTextPen(pg.mkPen(theme.text))
        axis.setStyle(tickFont=font(9 * scale))
        axis.label.setFont(font(10 * scale))
    style_title(plot, theme.text, 11 * scale)


class StepPlot(pg.PlotWidget):
    """One quantity per step and run: faint full history, bold played part, cursor.

    Both curves are drawn once and cached as pixmaps; the bold one sits under a clip rectangle
    that grows to the cursor, so a frame moves a rectangle and a few markers (no new paths).
    """

    def __init__(self, name: str, title: str, label: str, parent: QWidget | None = None) -> None:
        super().__init__(
            parent, axisItems={"bottom": SpacedAxis("bottom"), "left": SpacedAxis("left")}
        )
        self.setObjectName(name)
        self.setMenuEnabled(False)
        set_title(self, title)
        self.setLabel("bottom", translate("OptimizationStudio", "step"))
        self.setLabel("left", label)
        self.getPlotItem().hideButtons()
        self.getViewBox().setMouseEnabled(x=True, y=False)
        self.cursor = QGraphicsLineItem()
        self.cursor.setZValue(30)
        self.addItem(self.cursor, ignoreBounds=True)
        self.clip = QGraphicsRectItem()
        self.clip.setFlag(QGraphicsItem.GraphicsItemFlag.ItemClipsChildrenToShape)
        self.clip.setPen(QPen(Qt.PenStyle.NoPen))
        self.clip.setZValue(5)  # the played curves above the faint full ones
        self.addItem(self.clip, ignoreBounds=True)
        self.series: list[dict[str, Any]] = []
        self.revision = 0  # bumped whenever more than the cursor changes (export layers)
        self.log = False
        self.scale = 1.0
        self.theme = LIGHT
        self.y_range = (-1.0, 1.0)

    def set_series(
        self,
        series: Sequence[tuple[np.ndarray, str, int, int]],
        log: bool,
        length: int,
        shown: Sequence[int],
    ) -> bool:
        """(values, colour, dash index, last step) per curve; returns whether log applies.

        The same curves again (colours and dashes) keep their items: only curves whose values
        changed get new data (a hyper-parameter edit redraws one run, not the race).
        """
        self.revision += 1
        old, old_view = self.series, (self.log, self.y_range)
        reuse = len(old) == len(series) and all(
            o["color"] == s[1] and o["dash"] == s[2] for o, s in zip(old, series, strict=True)
        )
        if not reuse:
            for item in old:
                self.removeItem(item["full"])
                self.removeItem(item["marker"])
                item["played"].setParentItem(None)
        values, self.log = log_or_linear([s[0] for s in series], log)
        self.series = []
        self.y_range = value_range([y[: s + 1] for y, s in zip(values, shown, strict=True)])
        lo, hi = self.y_range
        if not reuse or old_view != (self.log, self.y_range):
            self.getPlotItem().getAxis("left").setTicks(log_ticks(lo, hi) if self.log else None)
        far = 100 * (hi - lo)  # Qt cannot draw 1e31 or inf: clamp far off the view (nan stays)
        for i, (y, (raw, color, dash, last)) in enumerate(zip(values, series, strict=True)):
            if reuse:
                item = old[i]
                same = old_view == (self.log, self.y_range) and np.array_equal(
                    item["raw"], raw, equal_nan=True
                )
                if not same:
                    x, yd = peak_decimate(np.clip(y, lo - far, hi + far))
                    item["full"].setData(x, yd, connect="finite")
                    item["played"].setData(x, yd, connect="finite")
                item.update(y=y, last=last, raw=raw)
                self.series.append(item)
                continue
            x, yd = peak_decimate(np.clip(y, lo - far, hi + far))
            full = pg.PlotCurveItem(x, yd, connect="finite")
            played = pg.PlotCurveItem(x, yd, connect="finite")
            marker = dot(color, 8 * self.scale, self.theme.background)
            for item in (full, played):
                item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
            self.addItem(full)
            played.setParentItem(self.clip)
            self.addItem(marker, ignoreBounds=True)
            self.series.append(
                {
                    "y": y,
                    "full": full,
                    "played": played,
                    "marker": marker,
                    "color": color,
                    "dash": dash,
                    "last": last,
                    "raw": raw,
                }
            )
        self.setXRange(0, max(length, 1), padding=0.02)
        self.setYRange(*self.y_range, padding=0)
        if not reuse:
            self._pens()
        return self.log

    def _pen(self, color: str, dash: int, played: bool) -> Any:
        """Opaque pens only (Qt draws wide opaque solid lines as segments, much faster)."""
        c = pg.mkColor(color) if played else mix(color, self.theme.background, 0.35)
        width = (2.0 if played else 1.0) * self.scale
        return pg.mkPen(c, width=width, style=DASHES[dash % len(DASHES)])

    def _pens(self) -> None:
        for item in self.series:
            item["full"].setPen(self._pen(item["color"], item["dash"], False))
            item["played"].setPen(self._pen(item["color"], item["dash"], True))
            size = 8 * self.scale
            item["marker"].setRect(-size / 2, -size / 2, size, size)
            item["marker"].setPen(pg.mkPen(self.theme.background, width=1.5))

    def set_cursor(self, k: int, t: float = 0.0) -> None:
        """Reveal the played curves up to step k (``t`` of the next) and move the markers."""
        lo, hi = self.y_range
        span = hi - lo
        at = k + t
        self.cursor.setLine(at, lo - span, at, hi + span)
        self.clip.setRect(QRectF(-1.0, lo - 100 * span, at + 1.0, 201 * span))
        for item in self.series:
            kk = min(k, item["last"])
            tt = t if k < item["last"] else 0.0
            y = item["y"]
            move(item["marker"], kk + tt, y[kk] + tt * (y[kk + 1] - y[kk]) if tt else y[kk])

    def moving_items(self) -> list[QGraphicsItem]:
        """What :meth:`set_cursor` changes: the cursor, the played curves' clip, the markers."""
        return [self.cursor, self.clip, *(item["marker"] for item in self.series)]

    def restyle(self, theme: Theme, scale: float) -> None:
        """Theme colours and presenter-mode scale."""
        self.revision += 1
        self.theme, self.scale = theme, scale
        style_plot(self, theme, scale)
        # "0" at the left end may reach a few px past the axis (shown, not dropped); the right
        # margin keeps a last label that does so inside the plot
        reach = round(END_LABEL_PX * scale)
        self.getPlotItem().getAxis("bottom").setStyle(hideOverlappingLabels=reach)
        left, top, _, bottom = self.getPlotItem().layout.getContentsMargins()
        self.getPlotItem().layout.setContentsMargins(left, top, reach, bottom)
        pen = pg.mkPen(theme.muted, width=1.5 * scale)
        pen.setCosmetic(True)
        self.cursor.setPen(pen)
        self._pens()


class StepPlots(QWidget):
    """Loss (``lossPlot``), parameters (``paramPlot``) and ‖∇f‖ (``gradNormPlot``) per step.

    Stacked, or under tabs when the stack would be cramped (:mod:`~tapeviz.ui.plots.step_tabs`);
    the parameters' dash legend sits in a band above their data, never over it.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.loss = StepPlot(
            "lossPlot",
            translate("OptimizationStudio", "Loss"),
            translate("OptimizationStudio", "loss f(x)"),
            self,
        )
        self.params = StepPlot(
            "paramPlot",
            translate("OptimizationStudio", "Parameters"),
            translate("OptimizationStudio", "value"),
            self,
        )
        self.grad_norm = StepPlot(
            "gradNormPlot",
            translate("OptimizationStudio", "Gradient norm"),
            translate("OptimizationStudio", "‖∇f‖"),
            self,
        )
        self.params_legend = RunLegend(self.params)  # in a band above the data
        self.legend = self.params_legend.legend
        self.params.getViewBox().geometryChanged.connect(self.fit_legend)
        self.arrangement = StepArrangement(
            self, self.plots, [translate("OptimizationStudio", t)
                               for t in ("Loss", "Parameters", "‖∇f‖")]
        )  # fmt: skip
        self.tabs = self.arrangement.bar
        self.scale = 1.0
        self.log_loss = True
        self.race: Race | None = None

    def fit_legend(self) -> None:
        """The parameters' legend above their data, at the presenter size."""
        self.params_legend.fit(LEGEND_POINTS * self.scale)

    def minimumSizeHint(self) -> QSize:
        """Qt override: tabbed, as wide as the tabs' names (the splitter keeps them whole)."""
        hint = super().minimumSizeHint()
        return QSize(max(hint.width(), self.arrangement.least_width()), hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Qt override: stack the plots, or tab them when each would be cramped."""
        super().resizeEvent(event)
        self.arrangement.arrange(self.height(), self.scale)

    @property
    def plots(self) -> tuple[StepPlot, StepPlot, StepPlot]:
        """The three plots, top to bottom."""
        return self.loss, self.params, self.grad_norm

    def set_race(self, race: Race, log_loss: bool) -> bool:
        """Draw every history; returns whether the loss axis is logarithmic."""
        for _ in self.parts(race, log_loss):
            pass
        return self.loss.log

    def parts(self, race: Race, log_loss: bool) -> Iterator[StepPlot]:
        """Draw every history one plot at a time, yielding each plot once it has its curves.

        The studio draws one per frame (:class:`~tapeviz.ui.studio.stages.Stages`); the loss
        plot's ``log`` says whether its axis is logarithmic once it is yielded.
        """
        self.race, self.log_loss = race, log_loss
        runs, length = race.runs, race.length
        colors = [h.run.color for h in runs]
        shown = [shown_steps(h) for h in runs]
        lasts = [h.steps for h in runs]
        self.loss.set_series(
            [(h.loss, c, 0, n) for h, c, n in zip(runs, colors, lasts, strict=True)],
            log_loss,
            length,
            shown,
        )
        yield self.loss
        names = runs[0].names if runs else ()
        series, params_shown = [], []
        for h, c, n, s in zip(runs, colors, lasts, shown, strict=True):
            for j in range(len(names)):
                series.append((h.params[:, j].astype(np.float64), c, j, n))
                params_shown.append(s)
        self.params.set_series(series, False, length, params_shown)
        self._legend(names)
        yield self.params
        self.grad_norm.set_series(
            [(h.grad_norm, c, 0, n) for h, c, n in zip(runs, colors, lasts, strict=True)],
            True,
            length,
            shown,
        )
        yield self.grad_norm

    def _legend(self, names: Sequence[str]) -> None:
        """The parameters' dash legend (kept while the parameters and theme are the same)."""
        key = (tuple(names), self.params.theme.text)
        if key == getattr(self, "_legend_key", None):
            return
        self._legend_key = key
        self.legend.clear()
        if len(names) > 1:
            for j, name in enumerate(names[: len(DASHES)]):
                sample = pg.PlotDataItem(
                    pen=pg.mkPen(self.params.theme.text, width=2, style=DASHES[j])
                )
                self.legend.addItem(sample, name)
        self.fit_legend()

    def set_cursor(self, k: int, t: float = 0.0) -> None:
        """Move all three plots to step k (and ``t`` of the way to the next)."""
        for p in self.plots:
            p.set_cursor(k, t)

    def restyle(self, theme: Theme, scale: float) -> None:
        """Theme and presenter-mode scale for all three plots."""
        self.scale = scale
        for p in self.plots:
            p.restyle(theme, scale)
        self.legend.setLabelTextColor(theme.text)
        self.fit_legend()
        self.arrangement.arrange(self.height(), scale)
