"""The studio's plots: the surface (or curve) beside the step plots, made when first used.

pyqtgraph is imported when the plots are made, not when the window starts (the studio is not
in front at start). ``StudioPlots`` owns their splitter, their theme and presenter scale, and
the pixmap cache their static layers need.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmapCache
from PySide6.QtWidgets import QSplitter, QStackedWidget

from tapeviz.ui.theme import LIGHT, Theme

if TYPE_CHECKING:
    from tapeviz.ui.plots.step_plots import StepPlots
    from tapeviz.ui.plots.surface_plot import CurvePlot, SurfacePlot

# The plots cache their static layers (heat map, contours, finished paths) as device-size
# pixmaps in QPixmapCache. Qt's default 10 MB holds less than four plots need at 1600×900, so
# each frame evicted the others' layers and redrew them: 40 ms a frame instead of 7.
PIXMAP_LAYERS = 12  # window-sized RGBA layers the cache should hold
SURFACE_SHARE = 0.6  # of the plots' width for the surface, on first show


def ensure_pixmap_cache(pixels: int) -> int:
    """Raise QPixmapCache's limit to hold PIXMAP_LAYERS layers of ``pixels`` (never lower it)."""
    want = PIXMAP_LAYERS * 4 * pixels // 1024  # KB
    if want > QPixmapCache.cacheLimit():
        QPixmapCache.setCacheLimit(want)
    return QPixmapCache.cacheLimit()


class StudioPlots:
    """``left`` stacks the surface and the curve; ``area`` splits it from the step plots.

    ``start_picked(x, y)`` hears a click on the surface; ``restyled()`` is called after the
    plots took a new theme or scale (the studio draws its step again).
    """

    def __init__(
        self, start_picked: Callable[[float, float], None], restyled: Callable[[], None]
    ) -> None:
        self.left = QStackedWidget()
        self.area = QSplitter(Qt.Orientation.Horizontal)
        self.area.setObjectName("studioPlots")
        self.area.addWidget(self.left)
        self.theme, self.scale = LIGHT, 1.0
        self._made: tuple[SurfacePlot, CurvePlot, StepPlots] | None = None
        self._sized = False
        self._start_picked, self._restyled = start_picked, restyled

    @property
    def made(self) -> bool:
        """Whether the plots exist yet."""
        return self._made is not None

    def plots(self) -> tuple[SurfacePlot, CurvePlot, StepPlots]:
        """The surface, the curve and the step plots (made on first use)."""
        if self._made is None:
            from tapeviz.ui.plots.step_plots import StepPlots
            from tapeviz.ui.plots.surface_plot import CurvePlot, SurfacePlot

            self._made = surface, curve, steps = SurfacePlot(), CurvePlot(), StepPlots()
            self.left.addWidget(surface)
            self.left.addWidget(curve)
            self.area.addWidget(steps)
            self.area.setStretchFactor(0, 3)
            self.area.setStretchFactor(1, 2)
            surface.startPicked.connect(self._start_picked)
            self.restyle()
        return self._made

    def shown(self) -> Any:
        """The surface or the curve, whichever is in front."""
        self.plots()
        return self.left.currentWidget()

    def restyle(self, theme: Theme | None = None, scale: float | None = None) -> None:
        """Colours (light or dark) and presenter scale for every plot."""
        self.theme = theme or self.theme
        self.scale = self.scale if scale is None else float(scale)
        if self._made is None:  # made later, with the theme and scale of then
            return
        surface, curve, steps = self._made
        for plot in (surface, curve):
            plot.restyle(self.theme, self.scale)
        steps.restyle(self.theme, self.scale)
        self._restyled()

    def size_once(self) -> None:
        """On first show: the surface gets SURFACE_SHARE of the plots' width."""
        self.plots()
        if not self._sized:
            self._sized = True
            width = max(self.area.width(), 500)
            self.area.setSizes([round(width * SURFACE_SHARE), round(width * (1 - SURFACE_SHARE))])
