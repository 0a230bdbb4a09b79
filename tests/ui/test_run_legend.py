"""A plot's legend in a band above its data (issue 33): as many columns as fit, smaller text
down to 14 px, then names elided (whole on hover), then "+k more"; the band never more than a
quarter of the plot. Also the timeline's parameters, whose legend lay over the curves."""

from __future__ import annotations

import math

import pyqtgraph as pg
import pytest
from pytestqt.qtbot import QtBot

from tapeviz.ui import MainWindow
from tapeviz.ui.plots.run_legend import (
    BAND_SHARE,
    COLUMN_GAP,
    GAP,
    MAX_ROWS,
    Entry,
    RunLegend,
    Sizes,
    plan_legend,
)
from tests.ui.lecture_room import ran, room

__all__ = ["room"]


def sizes(widths: list[float], row: float = 20.0, least: float = 60.0) -> object:
    """A measure giving ``widths`` at 15 pt, two thirds of them at 10 pt."""

    def measure(points: float) -> Sizes:
        k = points / 15.0
        return Sizes([w * k for w in widths], 60 * k, row * k, least * k)

    return measure


def test_as_many_columns_as_fit_and_balanced_rows() -> None:
    plan = plan_legend(sizes([50.0] * 4), 4, 500, 100, 15, 10.5)
    assert (plan.columns, plan.shown, plan.points) == (4, 4, 15)  # one row
    plan = plan_legend(sizes([50.0] * 4), 4, 120, 100, 15, 10.5)
    assert (plan.columns, plan.shown) == (2, 4) and all(math.isinf(r) for r in plan.rooms)
    plan = plan_legend(sizes([50.0] * 4), 4, 170, 100, 15, 10.5)  # three fit: two rows of two
    assert plan.columns == 2


def test_smaller_text_then_elided_names_then_more() -> None:
    plan = plan_legend(sizes([200.0, 60.0]), 2, 170, 25, 15, 10.5)  # one row only
    assert plan.points < 15 and plan.points >= 10.5
    plan = plan_legend(sizes([400.0, 400.0]), 2, 300, 25, 15, 10.5)  # elided at 14 px
    assert plan.points == 10.5 and plan.shown == 2 and plan.columns == 2
    assert all(r < 400 for r in plan.rooms)
    assert sum(plan.rooms) + COLUMN_GAP <= 300
    plan = plan_legend(sizes([100.0] * 12), 12, 200, 200, 15, 10.5)  # all, cut short
    assert plan.shown == 12 and plan.columns == 3
    plan = plan_legend(sizes([100.0] * 12, least=120), 12, 200, 200, 15, 10.5)
    assert plan.columns == 2 and plan.shown == 2 * MAX_ROWS - 1  # the last cell: "+5 more"


@pytest.fixture
def plot(qtbot: QtBot) -> pg.PlotWidget:
    p = pg.PlotWidget()
    qtbot.addWidget(p)
    p.resize(300, 220)
    p.show()
    qtbot.waitExposed(p)
    return p


def test_a_crowded_legend_keeps_to_a_quarter_of_the_plot(qtbot: QtBot, plot) -> None:
    legend = RunLegend(plot)
    names = [f"dense_{i}/kernel_with_a_long_name" for i in range(9)]
    for i, name in enumerate(names):
        legend.legend.addItem(pg.PlotDataItem(pen=pg.mkPen(pg.intColor(i))), name)
    plot.getViewBox().geometryChanged.connect(lambda: legend.fit(15.0))
    legend.fit(15.0)
    qtbot.wait(20)
    key = legend.legend.sceneBoundingRect()
    view = plot.getViewBox()
    data = view.mapRectToScene(view.boundingRect())
    assert not key.intersects(data) and key.right() <= plot.width() + 1
    assert key.height() + GAP <= BAND_SHARE * plot.height() + 1
    assert legend.points == pytest.approx(10.5)
    labels = [label for _, label in legend.legend.items]
    assert [label.text for label in labels] == names  # the names stay whole underneath
    shown = [label for label in labels if label.isVisible()]
    assert 0 < len(shown) < len(names)
    more = legend.legend.more
    assert more.isVisible() and f"+{len(names) - len(shown)}" in more.text
    assert more.toolTip().split("\n") == names[len(shown) :]
    for label in shown:
        assert isinstance(label, Entry)
        assert "…" in label.item.toPlainText() and label.toolTip() == label.text


def test_a_legend_with_room_shows_every_name_whole(qtbot: QtBot, plot) -> None:
    plot.resize(900, 500)
    legend = RunLegend(plot)
    for i, name in enumerate(("x", "y", "bias")):
        legend.legend.addItem(pg.PlotDataItem(pen=pg.mkPen(pg.intColor(i))), name)
    legend.fit(15.0)
    qtbot.wait(20)
    assert legend.points == 15.0 and legend.legend.plan.columns == 3
    assert not legend.legend.more.isVisible()
    assert [label.item.toPlainText() for _, label in legend.legend.items] == ["x", "y", "bias"]
    assert all(label.toolTip() == "" for _, label in legend.legend.items)
    legend.legend.setColumnCount(1)  # pyqtgraph's API: one column, three rows
    assert legend.legend.height() > 2.5 * legend.legend.items[0][1].height()


def test_the_timelines_parameters_legend_is_above_their_curves(
    qtbot: QtBot, room: MainWindow
) -> None:
    room.load_preset("torch-nn-training")
    ran(qtbot, room)
    tabs = room.lower_tabs
    qtbot.waitUntil(lambda: tabs.isTabEnabled(tabs.indexOf(room.timeline)), timeout=30_000)
    room.show_view("timeline")
    plots = room.timeline.plot_area
    qtbot.waitUntil(lambda: len(plots.legend.items) == 4 and plots.params.isVisible())
    qtbot.wait(50)
    key = plots.legend.sceneBoundingRect()
    view = plots.params.getViewBox()
    data = view.mapRectToScene(view.boundingRect())
    assert plots.legend.isVisible() and not key.intersects(data), (key, data)
    assert key.height() + GAP <= BAND_SHARE * plots.params.height() + 1
    assert key.right() <= plots.params.width() + 1
    names = [label.text for _, label in plots.legend.items]
    assert names[0].startswith("‖fc") and all(
        label.isVisible() for _, label in plots.legend.items
    )  # four names, elided if need be, none hidden
    for _, label in plots.legend.items:  # a name cut with "…" says all of it on hover
        cut = label.item.toPlainText() != label.text
        assert label.toolTip() == (label.text if cut else "")
