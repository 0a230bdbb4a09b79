"""Issue 33, item 2: the Optimization tab at 1366×768 and 150 %.

The three step plots got ~130 px each there; now they are tabbed (one at a time, the whole
height, the tabs' names whole) when a stack would be cramped, stacked when there is room. The
legends sit in a band above their data (they covered the curves and the step marker), at most
a quarter of the plot's height, and their text grows with the presenter scale. Every control
of the tab is in view; a long status ends in "…" with the whole text on hover.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QPoint, QPointF, QRect, QRectF
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QLabel,
    QTabBar,
    QWidget,
)
from pytestqt.qtbot import QtBot

from tapeviz.ui import MainWindow
from tapeviz.ui.plots.run_legend import BAND_SHARE, GAP
from tests.ui.lecture_room import ran, room

__all__ = ["room"]


def race_shown(qtbot: QtBot, w: MainWindow, preset: str) -> None:
    w.load_preset(preset)
    ran(qtbot, w)
    qtbot.waitUntil(lambda: w.studio.race is not None and not w.studio.busy, timeout=60_000)


def test_the_step_plots_are_tabbed_with_the_whole_height(qtbot: QtBot, room: MainWindow) -> None:
    race_shown(qtbot, room, "rosenbrock-race")
    steps = room.studio.steps
    qtbot.waitUntil(lambda: steps.arrangement.tabbed)
    shown = [p for p in steps.plots if p.isVisible()]
    assert shown == [steps.loss] and steps.tabs.isVisible()
    assert steps.loss.height() >= 0.8 * (steps.height() - steps.tabs.height())
    steps.arrangement.show_plot(1)
    assert [p for p in steps.plots if p.isVisible()] == [steps.params]
    axis = steps.loss.getPlotItem().getAxis("left")
    assert axis.style["tickFont"].pointSizeF() * 96 / 72 >= 14  # grows with the scale
    room.set_font_scale(1.0)
    room.resize(1920, 1080)  # a big screen at 100 %: the three stacked again
    qtbot.waitUntil(lambda: not steps.arrangement.tabbed)
    assert all(p.isVisible() for p in steps.plots) and not steps.tabs.isVisible()


def test_the_parameters_legend_is_outside_their_data(qtbot: QtBot, room: MainWindow) -> None:
    race_shown(qtbot, room, "rosenbrock-race")
    steps = room.studio.steps
    steps.arrangement.show_plot(1)
    qtbot.waitUntil(lambda: steps.params.isVisible() and steps.legend.isVisible())
    qtbot.wait(50)
    view = steps.params.getViewBox()
    data = view.mapRectToScene(view.boundingRect())
    legend = steps.legend.mapRectToScene(steps.legend.boundingRect())
    assert len(steps.legend.items) == 2  # x and y
    assert not legend.intersects(data), (legend, data)


def clipped(widget: QWidget, window: QWidget) -> str:
    """Why ``widget`` is not wholly seen in ``window`` ('' if it is)."""
    top_left = widget.mapTo(window, QPoint(0, 0))
    box = QRect(top_left, widget.size())
    if not window.rect().contains(box):
        return f"{widget.objectName() or type(widget).__name__} {box} outside the window"
    if widget.visibleRegion().boundingRect() != widget.rect():  # a parent cuts it
        seen = widget.visibleRegion().boundingRect()
        return f"{widget.objectName() or type(widget).__name__} shows {seen} of {widget.rect()}"
    return ""


def controls(studio: QWidget) -> list[QWidget]:
    """The studio's visible controls and texts (not its containers)."""
    kinds = (QAbstractButton, QComboBox, QAbstractSpinBox, QAbstractSlider, QLabel, QTabBar)
    found = [w for w in studio.findChildren(QWidget) if isinstance(w, kinds) and w.isVisible()]
    found.append(studio.findChild(QWidget, "optimizerLrSlider"))
    return [w for w in found if not isinstance(w.parent(), QTabBar)]  # (its scroll arrows)


def test_every_control_of_the_optimization_tab_is_in_view(qtbot: QtBot, room: MainWindow) -> None:
    race_shown(qtbot, room, "rosenbrock-race")
    studio = room.studio
    qtbot.wait(50)
    assert studio.panel_scroll.verticalScrollBar().maximum() == 0  # nothing below the fold
    assert studio.panel.settings_scroll.verticalScrollBar().maximum() == 0
    shown = controls(studio)
    assert len(shown) > 20
    assert [why for w in shown if (why := clipped(w, room))] == []
    bar = studio.steps.tabs  # the step plots' tabs: every name whole, no scroll arrows
    assert bar.isVisible()
    for i in range(bar.count()):
        assert bar.rect().contains(bar.tabRect(i))
        text = bar.tabText(i)
        assert bar.fontMetrics().horizontalAdvance(text) < bar.tabRect(i).width()
    tabbed = studio.steps.arrangement.tabbed
    assert all(not p.getPlotItem().titleLabel.isVisible() for p in studio.steps.plots) == tabbed


def test_adams_settings_scroll_but_the_transport_and_status_stay(
    qtbot: QtBot, room: MainWindow
) -> None:
    race_shown(qtbot, room, "rosenbrock-race")
    panel = room.studio.panel
    panel.run_combo.setCurrentIndex(2)  # Adam: three more hyper-parameters
    qtbot.waitUntil(lambda: "beta_2" in panel.editors)
    qtbot.wait(50)
    beta_1, beta_2 = panel.editors["beta_1"], panel.editors["beta_2"]
    assert beta_1.mapTo(panel, QPoint(0, 0)).y() == beta_2.mapTo(panel, QPoint(0, 0)).y()  # a row
    assert room.studio.panel_scroll.verticalScrollBar().maximum() == 0
    for w in (panel.reset, panel.step, panel.play, panel.scrubber, panel.step_label,
              panel.export, panel.status):  # fmt: skip
        assert clipped(w, room) == "", w.objectName()
    assert panel.status.height() >= 2 * panel.status.fontMetrics().lineSpacing()


def test_a_long_divergence_is_shortened_with_the_whole_text_on_hover(
    qtbot: QtBot, room: MainWindow
) -> None:
    race_shown(qtbot, room, "ill-conditioned")
    studio = room.studio
    studio.set_step(studio.race.length)  # past run 3's divergence
    status = studio.panel.status
    qtbot.waitUntil(lambda: "Diverged" in status.text())
    text = status.text()
    assert len(text) > 150 and "2/λmax" in text  # the whole explanation
    if status.needed_height() > status.height():  # too long for the panel at 150 %
        assert status.shown_text().endswith("…") and status.toolTip() == text
    assert clipped(status, room) == ""
    assert studio.panel_scroll.verticalScrollBar().maximum() == 0


def legend_box(plot: pg.PlotWidget, legend: pg.LegendItem) -> tuple[QRectF, QRectF]:
    view = plot.getViewBox()
    return legend.sceneBoundingRect(), view.mapRectToScene(view.boundingRect())


def test_the_legends_keep_to_a_band_above_the_data(qtbot: QtBot, room: MainWindow) -> None:
    race_shown(qtbot, room, "rosenbrock-race")
    studio = room.studio
    studio.steps.arrangement.show_plot(1)
    qtbot.waitUntil(lambda: studio.steps.params.isVisible())
    qtbot.wait(50)
    for plot in (studio.surface, studio.steps.params):
        legend = plot.legend if plot is studio.surface else studio.steps.legend
        key, data = legend_box(plot, legend)
        assert legend.isVisible() and key.height() > 10
        assert not key.intersects(data), (plot.objectName(), key, data)
        assert key.height() + GAP <= BAND_SHARE * plot.height() + 1, plot.objectName()
        assert key.right() <= plot.width() + 1
        names = [label.text for _, label in legend.items]
        shown = [label.text for _, label in legend.items if label.isVisible()]
        assert shown == names  # four runs, two parameters: every name shown
    points = studio.surface.run_legend.points
    assert points * 96 / 72 >= 14 - 0.01  # never below 14 px at 150 %
    star = studio.surface.start.mapToScene(QPointF(0, 0))
    assert not legend_box(studio.surface, studio.surface.legend)[0].contains(star)
