"""The studio's details for a lecture: an aimable learning rate, a legend beside the surface,
short starts, dots that glide at slow speeds, and a diverging run that stops drawing."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from pytestqt.qtbot import QtBot

from tapeviz.models.descent.demos import studio_presets
from tapeviz.ui.plots.paths import between, drawn_steps
from tapeviz.ui.studio.lr_control import DECADE_PX, LearningRateControl
from tapeviz.ui.studio.optimizer_panel import SciSpinBox
from tapeviz.ui.studio.studio import OptimizationStudio

PRESETS = studio_presets()


@pytest.fixture
def studio(qtbot: QtBot, make_studio) -> OptimizationStudio:
    s = make_studio(1146, 470)  # the studio in a 1366×768 window
    qtbot.waitExposed(s)
    return s


def load(qtbot: QtBot, studio: OptimizationStudio, name: str, config=None) -> None:
    studio.set_config(config or PRESETS[name].config, recompute=False)
    with qtbot.waitSignal(studio.busyChanged, timeout=30_000, check_params_cb=lambda b: not b):
        studio.set_problem(PRESETS[name].problem)
    assert studio.race is not None


def drag(qtbot: QtBot, control: LearningRateControl, dx: int, shift: bool = False) -> None:
    mods = Qt.KeyboardModifier.ShiftModifier if shift else Qt.KeyboardModifier.NoModifier
    start = QPoint(control.width() // 2, control.height() // 2)
    qtbot.mousePress(control, Qt.MouseButton.LeftButton, mods, start)
    for i in range(1, 11):  # a hand moves in many small steps
        qtbot.mouseMove(control, start + QPoint(round(dx * i / 10), 0))
    control.mouseMoveEvent(_move_event(control, start + QPoint(dx, 0), mods))
    qtbot.mouseRelease(control, Qt.MouseButton.LeftButton, mods, start + QPoint(dx, 0))


def _move_event(control, pos: QPoint, mods):  # QTest.mouseMove carries no buttons/modifiers
    from PySide6.QtGui import QMouseEvent

    return QMouseEvent(QMouseEvent.Type.MouseMove, QPointF(pos), control.mapToGlobal(QPointF(pos)),
                       Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton, mods)  # fmt: skip


def test_the_learning_rate_moves_a_decade_per_100_px(qtbot: QtBot, studio) -> None:
    control = studio.panel.lr_slider
    control.setValue(0.01)
    values = []
    control.valueChanged.connect(values.append)
    drag(qtbot, control, 100)
    assert control.value() == pytest.approx(0.1)
    assert values[-1] == control.value()
    drag(qtbot, control, -84)  # what moved lr from 0.55 to 2.75e-4 before: under a decade now
    assert math.log10(0.1 / control.value()) == pytest.approx(0.84, abs=0.02)
    control.setValue(0.01)
    drag(qtbot, control, 100, shift=True)  # Shift: ten times finer
    assert control.value() == pytest.approx(10**2.1 / 10**4, rel=0.01)
    assert DECADE_PX >= 100


def test_keys_step_small_and_a_typed_value_lands(qtbot: QtBot, studio) -> None:
    control = studio.panel.lr_slider
    control.setValue(0.01)
    control.setFocus()
    qtbot.keyClick(control, Qt.Key.Key_Right)
    assert control.value() == pytest.approx(0.0112)  # a twentieth of a decade, 3 digits
    qtbot.keyClick(control, Qt.Key.Key_Left)
    assert control.value() == pytest.approx(0.01)
    qtbot.keyClick(control, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert control.value() == pytest.approx(0.0102)  # a hundredth
    qtbot.keyClick(control, Qt.Key.Key_PageUp)
    assert control.value() == pytest.approx(0.102)
    typed = studio.findChild(SciSpinBox, "optimizerParam_learning_rate")
    typed.lineEdit().setText("2.5e-3")
    qtbot.keyClick(typed.lineEdit(), Qt.Key.Key_Return)
    assert studio.config().runs[0].optimizer.learning_rate == pytest.approx(2.5e-3)
    assert control.value() == pytest.approx(2.5e-3)  # the scale follows the typed value


def test_the_legend_says_the_new_learning_rate_at_once(qtbot: QtBot, studio) -> None:
    load(qtbot, studio, "rosenbrock")
    control = studio.panel.lr_slider
    control.setFocus()
    qtbot.keyClick(control, Qt.Key.Key_PageUp)  # 0.001 -> 0.01, before its race is computed
    labels = [label.text for _, label in studio.surface.legend.items]
    assert labels[0] == "SGD lr 0.01"
    qtbot.waitUntil(lambda: not studio.busy, timeout=30_000)
    assert studio.surface.legend.items[0][1].text == "SGD lr 0.01"


def test_the_legend_sits_above_the_surface_not_on_it(qtbot: QtBot, studio) -> None:
    load(qtbot, studio, "rosenbrock-race")  # four runs
    plot = studio.surface
    view = plot.getPlotItem().getViewBox()
    legend = plot.legend
    data = view.sceneBoundingRect()
    key = legend.sceneBoundingRect()
    assert key.width() > 50 and key.height() > 10 and legend.isVisible()
    assert key.bottom() <= data.top() + 1  # nothing of the data area is covered
    star = plot.start.mapToScene(QPointF(0, 0))  # the start marker (a fixed-size star)
    assert data.contains(star) and not key.adjusted(-12, -12, 12, 12).contains(star)
    assert data.height() > 0.5 * plot.height()  # the surface keeps most of the plot
    studio.set_font_scale(2.0)
    qtbot.waitUntil(
        lambda: legend.sceneBoundingRect().bottom() <= view.sceneBoundingRect().top() + 1
    )
    assert legend.sceneBoundingRect().right() <= plot.width() + 1


def test_a_clicked_start_is_a_short_number(qtbot: QtBot, studio) -> None:
    load(qtbot, studio, "himmelblau")
    plot = studio.surface
    vb = plot.getPlotItem().getViewBox()
    target = vb.mapViewToScene(pg.Point(2.7958500467472938, -1.123456789))
    pixel = plot.mapFromScene(target)
    picked = []
    studio.problemChanged.connect(picked.append)
    qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(pixel.x(), pixel.y()))
    assert picked
    x, y = (float(v) for v in picked[-1].start())
    px, py = vb.viewPixelSize()
    for value, size in ((x, px), (y, py)):
        digits = max(0, -math.floor(math.log10(size)))
        assert value == round(value, digits) and digits <= 3  # e.g. 2.796, not 2.79585004…
        assert len(repr(float(round(value, digits)))) <= 7
    assert x == pytest.approx(2.796, abs=3 * px) and y == pytest.approx(-1.123, abs=3 * py)
    qtbot.waitUntil(lambda: not studio.busy, timeout=30_000)


def test_at_four_steps_a_second_the_dots_glide(qtbot: QtBot, studio) -> None:
    config = replace(PRESETS["rosenbrock"].config, speed=4.0)
    load(qtbot, studio, "rosenbrock", config)
    run = studio.surface.runs[0]
    steps = np.stack([run["x"], run["y"]], axis=1)
    studio.play()
    between_steps = []

    def glided() -> bool:
        marker = run["marker"].pos()
        here = np.array([marker.x(), marker.y()])
        if np.min(np.abs(steps[:3] - here).sum(axis=1)) > 1e-6 and studio.k < 2:
            between_steps.append((studio.k, here))
        return len(between_steps) >= 3

    qtbot.waitUntil(glided, timeout=10_000)
    studio.pause()
    for k, p in between_steps:  # each dot was on the segment from its step to the next
        a, b = steps[k], steps[k + 1]
        t = np.dot(p - a, b - a) / np.dot(b - a, b - a)
        assert 0 < t < 1 and np.allclose(a + t * (b - a), p, atol=1e-9)
    assert between(np.array([0.0, 10.0]), 0, 0.25) == pytest.approx(2.5)


def test_a_diverging_nesterov_stops_drawing_where_it_leaves_the_view(qtbot, studio) -> None:
    config = PRESETS["rosenbrock"].config
    run = config.runs[1]
    optimizer = run.optimizer.with_kind("Nesterov").with_value("learning_rate", 0.004)
    load(qtbot, studio, "rosenbrock", config.with_run(1, replace(run, optimizer=optimizer)))
    h = studio.race.runs[1]
    assert h.divergence is not None
    studio.set_step(studio.race.length)
    xs, ys = studio.surface.runs[1]["path"].getData()
    (x0, x1), (y0, y1) = studio.backdrop.x_range, studio.backdrop.y_range
    sx, sy = x1 - x0, y1 - y0
    assert np.all((xs >= x0 - sx) & (xs <= x1 + sx) & (ys >= y0 - sy) & (ys <= y1 + sy))
    assert not studio.surface.runs[1]["line"].isVisible()  # no arrow after it stopped
    x = np.array([0.0, 0.5, 1.0, 50.0, -900.0])
    assert drawn_steps(x, x * 0, 4, 4, (-1.0, 1.0), (-1.0, 1.0)) == 2
    assert drawn_steps(x, x * 0, 4, None, (-1.0, 1.0), (-1.0, 1.0)) == 4  # not diverged: all


def test_an_edit_that_makes_a_run_diverge_stops_its_kept_path_too(qtbot, studio) -> None:
    """A hyper-parameter edit keeps the plots' items: the kept path learns where it stops."""
    config = PRESETS["rosenbrock"].config
    run = config.runs[1]
    calm = run.optimizer.with_kind("Nesterov").with_value("learning_rate", 0.0001)
    load(qtbot, studio, "rosenbrock", config.with_run(1, replace(run, optimizer=calm)))
    assert studio.race.runs[1].divergence is None
    kept = studio.surface.runs[1]["path"]
    optimizer = run.optimizer.with_kind("Nesterov").with_value("learning_rate", 0.004)
    load(qtbot, studio, "rosenbrock", config.with_run(1, replace(run, optimizer=optimizer)))
    assert studio.surface.runs[1]["path"] is kept  # the same item, new data
    assert studio.race.runs[1].divergence is not None
    studio.set_step(studio.race.length)
    assert studio.surface.runs[1]["stop"] < studio.race.runs[1].steps
    assert not studio.surface.runs[1]["line"].isVisible()  # no arrow after it stopped
