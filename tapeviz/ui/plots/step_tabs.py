"""The three step plots stacked, or one at a time under tabs when a stack would be cramped.

At 1,366×768 and presenter scale 1.5 the studio is about 400 px tall: three stacked plots got
~130 px each, their labels small and their curves flat. Below :data:`MIN_PLOT_PX` × the scale
per plot they are tabbed (Loss · Parameters · Gradient norm), each shown with the whole height
and without its title (the tab names it). Tabs too wide for the column are elided, not scrolled.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTabBar, QVBoxLayout, QWidget

from tapeviz.ui.plots.title import show_title

MIN_PLOT_PX = 150  # a stacked step plot's least height at presenter scale 1 (title, legend, axis)
HYSTERESIS = 1.1  # back to the stack only with this much more room (no flicker at the edge)


class StepArrangement:
    """Lays ``plots`` out in ``owner``: a column, or a tab bar (``bar``) over one of them."""

    def __init__(self, owner: QWidget, plots: Sequence[QWidget], names: Sequence[str]) -> None:
        self.owner, self.plots = owner, list(plots)
        self.bar = QTabBar(owner)
        self.bar.setObjectName("stepPlotTabs")
        self.bar.setDocumentMode(True)
        self.bar.setExpanding(False)
        self.bar.setUsesScrollButtons(False)  # the tabs shrink (elided) to the column's width
        self.bar.setElideMode(Qt.TextElideMode.ElideRight)
        for name in names:
            self.bar.addTab(name)
        self.bar.hide()
        box = QVBoxLayout(owner)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(0)
        box.addWidget(self.bar)
        for plot in self.plots:
            box.addWidget(plot, 1)
        self.tabbed = False
        self.bar.currentChanged.connect(lambda _: self._show())

    def needs_tabs(self, height: int, scale: float) -> bool:
        """Whether ``height`` px is too little for the stack at presenter ``scale``."""
        least = len(self.plots) * MIN_PLOT_PX * max(scale, 0.5)
        return height < (least * HYSTERESIS if self.tabbed else least)

    def arrange(self, height: int, scale: float) -> None:
        """Stack or tab the plots for the owner's ``height`` at presenter ``scale``."""
        tabbed = self.needs_tabs(height, scale)
        if tabbed != self.tabbed:
            self.tabbed = tabbed
            self.bar.setVisible(tabbed)
            for plot in self.plots:
                show_title(plot, not tabbed)  # type: ignore[arg-type]
            self._show()
            self.owner.updateGeometry()  # its least width: the tabs' (see least_width)

    def least_width(self) -> int:
        """The owner's least width: every tab's name whole when tabbed, else nothing."""
        return self.bar.sizeHint().width() if self.tabbed else 0

    def _show(self) -> None:
        current = self.bar.currentIndex()
        for i, plot in enumerate(self.plots):
            plot.setVisible(not self.tabbed or i == current)

    def show_plot(self, index: int) -> None:
        """Bring plot ``index`` to the front (tabbed; stacked, every plot shows)."""
        self.bar.setCurrentIndex(index)
