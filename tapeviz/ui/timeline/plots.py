"""The timeline's per-step plots: the loss, every parameter, the gradient norm, one cursor.

A Keras fit's History shows beside the loss (:mod:`~tapeviz.ui.timeline.history_plot`); the
parameters can show as a heat strip of their elements (:mod:`~tapeviz.ui.timeline.heat`).

Each is the studio's :class:`~tapeviz.ui.plots.step_plots.StepPlot` (the history drawn once,
faint, the played part revealed up to the cursor); a click in any of them asks for that step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QWidget

from tapeviz.models.descent.optimizer_config import PALETTE
from tapeviz.models.timeline.timeline import Timeline
from tapeviz.ui.plots.run_legend import RunLegend
from tapeviz.ui.plots.step_plots import DASHES, LEGEND_POINTS, StepPlot
from tapeviz.ui.theme import LIGHT, Theme
from tapeviz.ui.timeline.heat import HeatStrip
from tapeviz.ui.timeline.history_plot import HistoryPlot

translate = QCoreApplication.translate  # lupdate reads translate("Timeline", "…")
LOSS, GRAD = PALETTE[1], PALETTE[0]


def param_colour(j: int) -> str:
    """The colour of parameter j's curve."""
    return PALETTE[(j + 2) % len(PALETTE)]


class TimelinePlots(QWidget):
    """Loss (``timelineLossPlot``), parameters (``timelineParamPlot``), ‖∇‖ side by side."""

    stepClicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("timelinePlots")
        self.theme, self.scale = LIGHT, 1.0
        self.loss = StepPlot(
            "timelineLossPlot",
            translate("OptimizationStudio", "Loss"),
            translate("Timeline", "loss"),
            self,
        )
        self.params = StepPlot(
            "timelineParamPlot",
            translate("OptimizationStudio", "Parameters"),
            translate("OptimizationStudio", "value"),
            self,
        )
        self.grad = StepPlot(
            "timelineGradPlot",
            translate("OptimizationStudio", "Gradient norm"),
            translate("OptimizationStudio", "‖∇f‖"),
            self,
        )
        # in a band above the data (at most a quarter of the plot), never over the curves
        self.params_legend = RunLegend(self.params)
        self.legend = self.params_legend.legend
        self.params.getViewBox().geometryChanged.connect(self.fit_legend)
        self.marks: list[tuple[Any, pg.InfiniteLine]] = []
        self._history: HistoryPlot | None = None  # made for the first Keras fit
        self._heat: HeatStrip | None = None  # made when first asked for
        self._held: list[StepPlot] = []  # hidden until drawn again (see hold)
        box = QHBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        for p in self.plots:
            box.addWidget(p, 1)
            p.scene().sigMouseClicked.connect(lambda ev, plot=p: self._on_clicked(plot, ev))

    @property
    def plots(self) -> tuple[StepPlot, StepPlot, StepPlot]:
        """Loss, parameters, gradient norm."""
        return self.loss, self.params, self.grad

    @property
    def history(self) -> HistoryPlot:
        """A Keras fit's History, beside the loss (made when first needed, hidden otherwise)."""
        if self._history is None:
            self._history = self._extra(HistoryPlot(self), 1)
        return self._history

    @property
    def heat(self) -> HeatStrip:
        """The parameters as a heat strip, in their plot's place (made when first needed)."""
        if self._heat is None:
            self._heat = self._extra(HeatStrip(self), self.layout().indexOf(self.params) + 1)
        return self._heat

    def _extra(self, plot: Any, at: int) -> Any:
        plot.hide()
        plot.restyle(self.theme, self.scale)
        self.layout().insertWidget(at, plot, 1)
        plot.scene().sigMouseClicked.connect(lambda ev: self._on_extra_clicked(plot, ev))
        return plot

    def extras(self) -> list[Any]:
        """The History and heat strip plots made so far."""
        return [p for p in (self._history, self._heat) if p is not None]

    def draw(self, tl: Timeline | None, log: bool, element: int | None, heat: bool = False) -> None:
        """Draw every series of ``tl`` (None clears); tensors by norm, ``element`` or ``heat``.

        A Keras fit's loop also gets its History beside the loss.
        """
        for part in self.draw_parts(tl, log, element, heat):
            part()

    def draw_parts(
        self,
        tl: Timeline | None,
        log: bool,
        element: int | None,
        heat: bool = False,
        by_turns: bool = False,
    ) -> list[Callable[[], None]]:
        """:meth:`draw`'s work in parts, run in order: a big loop's plots one per turn.

        The extra plots and the divergence's marks (quick), then the loss, the parameters,
        their legend and ‖∇‖: a part each (a few ms at 100,000 steps, and a plot's repaint as
        much again). ``by_turns`` (every part on a turn of its own): a fit's first History
        plot is made on a part before them.
        """
        epochs = tl.epochs if tl is not None else None
        fit = epochs is not None and bool(epochs.history)
        heat = heat and tl is not None

        def extras() -> None:
            if fit or self._history is not None:
                self.history.draw(epochs if fit else None, log)
                self.history.setVisible(fit)
            if heat or self._heat is not None:
                self.heat.draw(tl if heat else None)
                self.heat.setVisible(heat)
                self.unhold(self.params)  # (shown or hidden as the heat strip says)
                self.params.setVisible(not heat)
            if self.extras():
                self.layout().activate()  # the plots' new widths now (an export may follow)

        if tl is None:

            def clear() -> None:
                self._clear_marks()
                self.legend.clear()
                extras()
                for p in self.plots:
                    p.set_series([], False, 1, [])

            return [clear]
        n, d = tl.steps, tl.divergence
        shown = d.step if d is not None else n - 1  # the y range: up to the divergence
        width = n  # the x range: a diverged loop's explosion, not its steps of nan after it
        if d is not None:
            last = max([d.step, *(m[0] for m in d.milestones)])
            width = min(n, max(10, round(1.5 * last) + 5))

        named: list[str] = []  # the parameters' names in the legend (params finds them)

        def loss() -> None:
            self.loss.setLabel("left", tl.loss_name)
            self.loss.set_series([(tl.loss, LOSS, 0, n - 1)], log, width, [shown])
            self.unhold(self.loss)

        def params() -> None:
            series, names = [], []
            for j, p in enumerate(tl.parameters):
                values = tl.values(j, element if p.size > 1 else None)
                series.append((values, param_colour(j), j, n))
                names.append(p.label if element is None or p.size == 1 else f"{p.name}[{element}]")
            self.params.set_series(series, False, width, [shown] * len(series))
            named[:] = names[: len(DASHES)]
            self.unhold(self.params)

        def legend() -> None:
            self.legend.clear()
            for j, name in enumerate(named):
                pen = pg.mkPen(param_colour(j), width=2, style=DASHES[j % len(DASHES)])
                self.legend.addItem(pg.PlotDataItem(pen=pen), name)
            self.fit_legend()

        def grad() -> None:
            self.grad.set_series([(tl.grad_norm, GRAD, 0, n - 1)], log, width, [shown])
            self.unhold(self.grad)

        def frame() -> None:  # the extra plots, then the divergence's marks
            extras()
            self._clear_marks()
            if d is None:
                return
            pen = pg.mkPen(self.theme.warning, width=1.5 * self.scale, style=Qt.PenStyle.DashLine)
            for plot in (*self.plots, self.heat) if heat else self.plots:
                line = pg.InfiniteLine(d.step, angle=90, pen=pen)
                line.setZValue(1)  # over the faint curves (drawn after it now), under the bold
                plot.addItem(line, ignoreBounds=True)
                self.marks.append((plot, line))

        parts = [frame, loss, params, legend, grad]
        if by_turns and fit and self._history is None:  # its widgets: 20-25 ms, a turn
            parts.insert(0, self._make_history)
        return parts

    def _make_history(self) -> None:
        self.history  # noqa: B018  (the property makes it, hidden until drawn)

    def hold(self) -> None:
        """Hide the plots shown, their room kept, until each is drawn again (or :meth:`unhold`).

        A tab brought forward repaints every plot in it at once; held, each plot repaints
        when its part of a drawing by turns (:meth:`draw_parts`) has drawn it.
        """
        for p in self.plots:
            if not p.isHidden():
                _keep_room(p, True)
                p.hide()
                self._held.append(p)

    def unhold(self, plot: StepPlot | None = None) -> None:
        """Show ``plot`` again if it was held (None: every plot held)."""
        for p in [plot] if plot is not None else list(self._held):
            if p in self._held:
                self._held.remove(p)
                p.show()
                _keep_room(p, False)  # (hidden for the heat strip, the room goes to it)

    def _clear_marks(self) -> None:
        for plot, line in self.marks:
            plot.removeItem(line)
        self.marks = []

    def fit_legend(self) -> None:
        """The parameters' legend above their data, at the presenter size (or smaller)."""
        self.params_legend.fit(LEGEND_POINTS * self.scale)

    def set_cursor(self, k: int) -> None:
        """Move every plot's cursor to step k."""
        for p in self.plots:
            p.set_cursor(k)
        for extra in self.extras():
            extra.set_cursor(k)

    def restyle(self, theme: Theme, scale: float) -> None:
        """Theme colours and presenter-mode scale."""
        self.theme, self.scale = theme, scale
        for p in (*self.plots, *self.extras()):
            p.restyle(theme, scale)
        self.legend.setLabelTextColor(theme.text)
        self.fit_legend()

    def _on_clicked(self, plot: StepPlot, event: Any) -> None:
        point = plot.getViewBox().mapSceneToView(event.scenePos())
        self.stepClicked.emit(round(point.x()))

    def _on_extra_clicked(self, plot: HistoryPlot | HeatStrip, event: Any) -> None:
        k = plot.clicked_step(event)
        if k is not None:
            self.stepClicked.emit(k)


def _keep_room(widget: QWidget, keep: bool) -> None:
    """Whether ``widget`` keeps its room in the layout while hidden."""
    policy = widget.sizePolicy()
    policy.setRetainSizeWhenHidden(keep)
    widget.setSizePolicy(policy)
