"""Animation frames in layers: the same pixels as a whole render, for every kind of plot area."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QLabel, QSplitter, QWidget
from pytestqt.qtbot import QtBot

from tapeviz.models.descent.demos import studio_presets
from tapeviz.models.timeline.output import OutputLines
from tapeviz.models.timeline.timeline import timelines_of
from tapeviz.sandbox.process.isolated import run_isolated
from tapeviz.ui.plots.export import pixels, render_image
from tapeviz.ui.plots.layers import Layers
from tapeviz.ui.studio.studio import OptimizationStudio
from tapeviz.ui.timeline.panel import TimelinePanel

PRESETS = studio_presets()
SEEDS = Path(__file__).resolve().parents[2] / "assets" / "seeds"


def opacities(area: QWidget) -> list[float]:
    return [i.opacity() for p in area.findChildren(pg.PlotWidget) for i in p.scene().items()]


def assert_same_frames(show: object, area: QWidget, steps: list[int]) -> Layers:
    """Each step rendered in layers (fresh and over the last frame) equals a whole render."""
    layers = Layers.of(area, render_image)
    assert layers is not None
    before = opacities(area)
    last = QImage()
    for k in steps:
        show(k)  # type: ignore[operator]
        whole = pixels(render_image(area))
        np.testing.assert_array_equal(pixels(layers.render()), whole, err_msg=f"step {k}")
        last = layers.render(last)
        np.testing.assert_array_equal(pixels(last), whole, err_msg=f"step {k}, reused")
    assert opacities(area) == before  # nothing left hidden for the window to paint
    return layers


@pytest.fixture
def studio(make_studio) -> OptimizationStudio:
    return make_studio(1100, 640)


@pytest.fixture
def race(run_race, studio: OptimizationStudio):  # type: ignore[no-untyped-def]
    def run(name: str, **changes: object) -> None:
        run_race(studio, PRESETS[name], **changes)
        assert studio.race is not None

    return run


@pytest.mark.parametrize("name", ["rosenbrock-race", "seed-quadratic-sgd", "saddle", "beale"])
def test_layered_frames_equal_whole_renders(studio: OptimizationStudio, race, name) -> None:
    race(name)
    n = studio.race.length
    assert_same_frames(studio.show_step, studio.plot_area, [0, 1, n // 7, n // 2, n - 1, n])


def test_a_new_race_during_an_export_gets_a_new_background(
    studio: OptimizationStudio, race
) -> None:
    race("rosenbrock-race", steps=600)
    layers = assert_same_frames(studio.show_step, studio.plot_area, [0, 300])
    first = layers.background
    race("himmelblau")  # other runs, other surface: other items
    studio.show_step(200)
    np.testing.assert_array_equal(pixels(layers.render()), pixels(render_image(studio.plot_area)))
    assert layers.background is not first


def test_the_timeline_frames_too(qtbot: QtBot) -> None:
    result = run_isolated((SEEDS / "003_2_1_sgd_apply_gradients.py").read_text("utf-8"))
    panel = TimelinePanel()
    qtbot.addWidget(panel)
    panel.resize(1200, 420)
    panel.show()
    panel.set_run(timelines_of(result), OutputLines(result.output, result.output_marks))
    n = panel.length
    assert_same_frames(panel.show_step, panel.plot_area, [0, 1, n // 3, n])
    panel.pause()


def test_an_area_with_a_widget_that_paints_itself_is_rendered_whole(qtbot: QtBot) -> None:
    area = QSplitter()
    qtbot.addWidget(area)
    plot = pg.PlotWidget()
    area.addWidget(plot)
    area.show()
    assert Layers.of(area, render_image) is None  # a plot that names no moving items
    plain = QSplitter()
    qtbot.addWidget(plain)
    plain.addWidget(QWidget())
    plain.show()
    assert Layers.of(plain, render_image) is not None  # containers only: nothing moves
    layers = Layers.of(plain, render_image)
    assert layers is not None
    label = QLabel("step 3")
    plain.addWidget(label)
    assert Layers.of(plain, render_image) is None  # a label could change with the step
    label.setText("step 4")  # shown after the export began: its frames are whole renders
    np.testing.assert_array_equal(pixels(layers.render()), pixels(render_image(plain)))


def test_frames_in_a_hold_hide_the_still_items_once_and_equal_whole_renders(
    studio: OptimizationStudio, race
) -> None:
    race("rosenbrock-race", steps=600)
    area = studio.plot_area
    layers = Layers.of(area, render_image)
    assert layers is not None
    before = opacities(area)
    steps, held = [0, 150, 300, 450], []
    with layers.held():
        for k in steps:
            studio.show_step(k)
            if k == 300:  # a still part changed within the hold: a new background, with them
                studio.surface.revision += 1
                first = layers.background
            held.append(pixels(layers.render()))
            assert layers.hidden is not None  # hidden from the first frame to the hold's end
            assert all(item.opacity() == 0 for item in layers.still)
    assert layers.background is not first
    assert layers.hidden is None and opacities(area) == before
    for k, frame in zip(steps, held, strict=True):
        studio.show_step(k)
        np.testing.assert_array_equal(frame, pixels(render_image(area)), err_msg=f"step {k}")
