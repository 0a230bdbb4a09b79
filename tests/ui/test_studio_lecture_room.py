"""Issue 33, item 2: the Optimization tab at 1366×768 and 150 %.

The three step plots got ~130 px each there; now they are tabbed (one at a time, the whole
height) when a stack would be cramped, stacked when there is room. The parameters' dash legend
sits above their data (it covered the curves and the step marker), and their text grows with
the presenter scale.
"""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from tapeviz.ui import MainWindow
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
