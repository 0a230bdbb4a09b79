"""Tick labels never run together at presenter sizes: across (widths) and upright (heights)."""

from __future__ import annotations

from PySide6.QtGui import QFontMetricsF
from pytestqt.qtbot import QtBot

from tapeviz.ui.plots.axis import GAP, SpacedAxis
from tapeviz.ui.theme import font


def _axis(side: str, points: float) -> SpacedAxis:
    axis = SpacedAxis(side)
    axis.setStyle(tickFont=font(points))
    return axis


def _labels_apart(axis: SpacedAxis, lo: float, hi: float, size: float) -> tuple[float, float]:
    """(the major spacing in px, the room its labels need)."""
    (major, _), *_ = axis.tickSpacing(lo, hi, size)
    metrics = QFontMetricsF(axis.style["tickFont"])
    if axis.orientation in ("left", "right"):
        return major * size / (hi - lo), metrics.height()
    labels = axis.tickStrings([0.0, major, 2 * major], axis.scale, major)
    return major * size / (hi - lo), max(map(metrics.horizontalAdvance, labels))


def test_steps_on_a_narrow_plot_keep_two_ticks_rather_than_run_together(qtbot: QtBot) -> None:
    axis = _axis("bottom", 9 * 1.5)  # the timeline's four plots side by side at 1366 px, 150 %
    (major, _), *_ = axis.tickSpacing(-30.0, 1530.0, 110.0)  # a Keras fit's 1,500 steps
    assert major == 1000.0  # "0  1000", not "0 5001000" (pyqtgraph: 500; three ticks before)
    spacing, need = _labels_apart(axis, -30.0, 1530.0, 110.0)
    assert spacing > need
    assert axis.tickSpacing(-30.0, 1530.0, 400.0)[0][0] == 500.0  # room enough: three ticks


def test_an_upright_axis_spaces_its_labels_by_their_height(qtbot: QtBot) -> None:
    axis = _axis("left", 9 * 1.5)
    spacing, need = _labels_apart(axis, -0.2, 4.2, 80.0)  # "0 1 2 3 4": narrow, tall labels
    assert spacing >= need  # (by their widths: 1 apart, 18 px for 21 px high labels)
    tall, need = _labels_apart(axis, -0.2, 4.2, 400.0)
    assert tall >= GAP * need and axis.tickSpacing(-0.2, 4.2, 400.0)[0][0] <= 1.0


def test_the_step_and_history_plots_space_both_axes(qtbot: QtBot) -> None:
    from tapeviz.ui.plots.step_plots import StepPlot
    from tapeviz.ui.timeline.history_plot import HistoryPlot

    for plot in (StepPlot("loss", "Loss", "loss"), HistoryPlot()):
        qtbot.addWidget(plot)
        item = plot.getPlotItem()
        assert isinstance(item.getAxis("left"), SpacedAxis)
        assert isinstance(item.getAxis("bottom"), SpacedAxis)


def test_fewer_ticks_only_while_one_label_still_shows(qtbot: QtBot) -> None:
    bottom = _axis("bottom", 9 * 1.5)
    # 1,000 steps padded 2 % in 100 px: 0 and 1,000 would sit at the ends, where pyqtgraph
    # hides both labels; pyqtgraph's own 500 (its label inside) stays
    assert bottom.tickSpacing(-20.0, 1020.0, 100.0)[0][0] == 500.0
    left = _axis("left", 9 * 1.5)
    # accuracy 0.14…0.96 in 80 px and in a squeezed 22 px: one label, 0.5, never four stacked
    assert left.tickSpacing(0.144, 0.956, 80.0)[0][0] == 0.5
    assert left.tickSpacing(0.144, 0.956, 22.0)[0][0] == 0.5
