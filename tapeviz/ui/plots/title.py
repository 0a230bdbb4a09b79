"""Plot titles shortened with "…" to the plot's width.

pyqtgraph lays a plot out at least as wide as its title (the label's minimum width is its text's).
A title wider than the widget (a long text, presenter-size fonts, a narrow column) then makes the
plot wider than what is shown, and its right part is cut off: the end of the axis, the legend,
the data. So the title's minimum width is dropped (the plot keeps the widget's width) and its
text is elided to the width of the data area, again whenever that area changes.

A title may say something only the window needs ("Loss surface (click to start)"): its
``still`` text is what exported pictures and animations show (:func:`export_titles`), and what
the window shows when the whole title does not fit (a hint cut to "(click …" helps nobody).
A plot under a tab that names it hides its title (:func:`show_title`): the data get the row.
"""

from __future__ import annotations

from collections.abc import Callable

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetricsF

MARGIN = 6  # px left free beside the title (HTML text vs font metrics)


def set_title(plot: pg.PlotWidget, text: str, still: str | None = None) -> None:
    """Give ``plot`` the title ``text`` (shown shortened to the width of the data area).

    ``still``: the title of an exported picture, when the window's says more (a hint to click).
    """
    if not hasattr(plot, "_full_title"):  # the data area's width changes with the axes too
        plot.getPlotItem().getViewBox().geometryChanged.connect(lambda: fit_title(plot))
    plot._full_title = text  # type: ignore[attr-defined]
    plot._window_title = text  # type: ignore[attr-defined]
    plot._still_title = text if still is None else still  # type: ignore[attr-defined]
    fit_title(plot)


def export_titles(area: pg.QtWidgets.QWidget) -> Callable[[], None]:
    """The plots of ``area`` show their exported titles; returns what puts the window's back."""
    changed = [
        plot
        for plot in area.findChildren(pg.PlotWidget)
        if getattr(plot, "_still_title", None) not in (None, getattr(plot, "_full_title", None))
    ]
    for plot in changed:
        plot._full_title = plot._still_title  # type: ignore[attr-defined]
        fit_title(plot)

    def restore() -> None:
        for plot in changed:
            plot._full_title = plot._window_title  # type: ignore[attr-defined]
            fit_title(plot)
        changed.clear()

    return restore


def style_title(plot: pg.PlotWidget, color: str, points: float) -> None:
    """Colour and bold size of the title."""
    plot._title_style = (color, points)  # type: ignore[attr-defined]
    fit_title(plot)


def show_title(plot: pg.PlotWidget, shown: bool) -> None:
    """Show or hide the title row of ``plot`` (hidden: a tab names the plot)."""
    if getattr(plot, "_title_hidden", False) == (not shown):
        return
    plot._title_hidden = not shown  # type: ignore[attr-defined]
    plot._title_set = None  # type: ignore[attr-defined]
    if shown:
        fit_title(plot)
    else:
        plot.getPlotItem().setTitle(None)


def shown_title(plot: pg.PlotWidget) -> str:
    """The title as it fits the plot's current width (its still text if only that fits)."""
    text: str = getattr(plot, "_full_title", "")
    still: str = getattr(plot, "_still_title", text)
    _, points = getattr(plot, "_title_style", (None, 11.0))
    font = QFont(plot.font())
    font.setPointSizeF(points)
    font.setBold(True)
    view = plot.getPlotItem().getViewBox()  # the title spans the column above the data
    width = max(min(view.width(), plot.width()) - MARGIN, 1)
    metrics = QFontMetricsF(font)
    if metrics.horizontalAdvance(text) > width and metrics.horizontalAdvance(still) <= width:
        return still
    return metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)


def fit_title(plot: pg.PlotWidget) -> None:
    """Set the title again for the plot's current width (call on resize)."""
    if not getattr(plot, "_full_title", "") or getattr(plot, "_title_hidden", False):
        return
    color, points = getattr(plot, "_title_style", (None, 11.0))
    style = {"size": f"{points:.0f}pt", "bold": True, **({"color": color} if color else {})}
    shown = shown_title(plot)
    if (shown, style) != getattr(plot, "_title_set", None):  # resizes repeat: skip no-ops
        plot._title_set = (shown, style)  # type: ignore[attr-defined]
        item = plot.getPlotItem()
        _no_minimum_width(item.titleLabel)
        item.setTitle(shown, **style)


def _no_minimum_width(label: pg.LabelItem) -> None:
    """Let the layout make ``label`` narrower than its text (pyqtgraph resets this on resize)."""
    if getattr(label, "_width_released", False):
        return
    update_min = label.updateMin

    def without_width() -> None:
        update_min()
        label.setMinimumWidth(0)

    label.updateMin = without_width  # setText() and resizeEvent() call it
    label._width_released = True
