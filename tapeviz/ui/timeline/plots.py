"""The timeline's per-step plots: the loss, every parameter, the gradient norm, one cursor.

Each is the studio's :class:`~tapeviz.ui.plots.step_plots.StepPlot` (the history drawn once,
faint, the played part revealed up to the cursor); a click in any of them asks for that step.
"""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QWidget

from tapeviz.models.descent.optimizer_config import PALETTE
from tapeviz.models.timeline.timeline import Timeline
from tapeviz.ui.plots.run_legend import set_legend_text_size
from tapeviz.ui.plots.step_plots import DASHES, StepPlot
from tapeviz.ui.theme import LIGHT, Theme

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
        self.legend = pg.LegendItem(offset=(-10, 10), labelTextSize="9pt")
        self.legend.setParentItem(self.params.getPlotItem().getViewBox())
        self.marks: list[tuple[StepPlot, pg.InfiniteLine]] = []
        box = QHBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        for p in self.plots:
            box.addWidget(p, 1)
            p.scene().sigMouseClicked.connect(lambda ev, plot=p: self._on_clicked(plot, ev))

    @property
    def plots(self) -> tuple[StepPlot, StepPlot, StepPlot]:
        """Loss, parameters, gradient norm."""
        return self.loss, self.params, self.grad

    def draw(self, tl: Timeline | None, log: bool, element: int | None) -> None:
        """Draw every series of ``tl`` (None clears); tensors by norm or ``element``."""
        self.legend.clear()
        for plot, line in self.marks:
            plot.removeItem(line)
        self.marks = []
        if tl is None:
            for p in self.plots:
                p.set_series([], False, 1, [])
            return
        n, d = tl.steps, tl.divergence
        shown = d.step if d is not None else n - 1  # the y range: up to the divergence
        width = n  # the x range: a diverged loop's explosion, not its steps of nan after it
        if d is not None:
            last = max([d.step, *(m[0] for m in d.milestones)])
            width = min(n, max(10, round(1.5 * last) + 5))
        self.loss.setLabel("left", tl.loss_name)
        self.loss.set_series([(tl.loss, LOSS, 0, n - 1)], log, width, [shown])
        series, names = [], []
        for j, p in enumerate(tl.parameters):
            values = tl.values(j, element if p.size > 1 else None)
            series.append((values, param_colour(j), j, n))
            names.append(p.label if element is None or p.size == 1 else f"{p.name}[{element}]")
        self.params.set_series(series, False, width, [shown] * len(series))
        self.grad.set_series([(tl.grad_norm, GRAD, 0, n - 1)], log, width, [shown])
        for j, name in enumerate(names[: len(DASHES)]):
            pen = pg.mkPen(param_colour(j), width=2, style=DASHES[j % len(DASHES)])
            self.legend.addItem(pg.PlotDataItem(pen=pen), name)
        if d is not None:
            pen = pg.mkPen(self.theme.warning, width=1.5 * self.scale, style=Qt.PenStyle.DashLine)
            for plot in self.plots:
                line = pg.InfiniteLine(d.step, angle=90, pen=pen)
                plot.addItem(line, ignoreBounds=True)
                self.marks.append((plot, line))

    def set_cursor(self, k: int) -> None:
        """Move every plot's cursor to step k."""
        for p in self.plots:
            p.set_cursor(k)

    def restyle(self, theme: Theme, scale: float) -> None:
        """Theme colours and presenter-mode scale."""
        self.theme, self.scale = theme, scale
        for p in self.plots:
            p.restyle(theme, scale)
        self.legend.setLabelTextColor(theme.text)
        set_legend_text_size(self.legend, f"{9 * scale:.0f}pt")
        self.legend.setBrush(pg.mkBrush(theme.background))

    def _on_clicked(self, plot: StepPlot, event: Any) -> None:
        point = plot.getViewBox().mapSceneToView(event.scenePos())
        self.stepClicked.emit(round(point.x()))
