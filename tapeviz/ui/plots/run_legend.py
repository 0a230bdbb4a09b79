"""The runs' legend of a surface or curve plot, in a band above the data: it covers nothing.

Inside the data area a legend of four runs hid about a third of the surface, and with it the
start marker. Here the plot's (hidden) top-axis row is made as tall as the legend and the
legend sits in it, left-aligned with the data area, in as many columns as fit its width; the
text shrinks below the presenter size only when one column does not fit either.
"""

from __future__ import annotations

import pyqtgraph as pg

LEGEND_ROW = 1  # the PlotItem layout's row of the top axis (hidden on these plots)
GAP = 3  # px between the legend band and the data
MIN_POINTS = 7.0


def set_legend_text_size(legend: pg.LegendItem, size: str) -> None:
    """Re-render a legend's labels at ``size`` and fit its box to them.

    pyqtgraph's setLabelTextSize only stores the option, and a label never shrinks by itself,
    so the legend's box would keep its old, larger size.
    """
    legend.setLabelTextSize(size)
    for _, label in legend.items:
        label.setText(label.text)
        label.resize(label.minimumSize())
    legend.updateSize()


class RunLegend:
    """``legend`` (a pyqtgraph LegendItem) laid out above the data area of ``plot``."""

    def __init__(self, plot: pg.PlotWidget) -> None:
        self.plot = plot
        self.item = plot.getPlotItem()
        self.legend = pg.LegendItem(offset=None, labelTextSize="10pt", horSpacing=18)
        self.legend.setParentItem(self.item)
        self.legend.setZValue(30)
        self._busy = False

    def fit(self, points: float) -> None:
        """Lay the legend out for the data area's width at ``points`` (or smaller) text."""
        if self._busy:  # the band's new height moves the data area, which calls this again
            return
        self._busy = True
        try:
            self._fit(points)
        finally:
            self._busy = False

    def _fit(self, points: float) -> None:
        legend, view = self.legend, self.item.getViewBox()
        count = len(legend.items)
        if not count:
            legend.setVisible(False)
            self._band(0)
            return
        legend.setVisible(True)
        room = max(view.width() - 4, 1)
        self._points(points)
        columns = count
        while columns > 1:  # as many columns as fit; the rest wrap to more rows
            legend.setColumnCount(columns)
            if legend.width() <= room:
                break
            columns -= 1
        legend.setColumnCount(columns)
        for _ in range(10):  # one column still too wide: smaller text (samples do not shrink)
            width = legend.width()
            if width <= room or points <= MIN_POINTS:
                break
            points = max(MIN_POINTS, points * room / width * 0.95)
            self._points(points)
        self._band(legend.height() + GAP)
        area = view.geometry()
        legend.setPos(area.left(), area.top() - legend.height() - GAP)

    def _points(self, points: float) -> None:
        size = f"{points:.1f}pt"
        if size != self.legend.opts["labelTextSize"]:
            set_legend_text_size(self.legend, size)

    def _band(self, height: float) -> None:
        layout = self.item.layout
        if abs(layout.rowMinimumHeight(LEGEND_ROW) - height) > 0.5:
            layout.setRowFixedHeight(LEGEND_ROW, height)
            layout.activate()  # the data area moves down now, so the legend lands above it

    @property
    def points(self) -> float:
        """The text size the legend has now, in points."""
        return float(self.legend.opts["labelTextSize"].removesuffix("pt"))
