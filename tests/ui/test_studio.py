"""The optimization studio widget: computing in the background, playback, linked tapes."""

from __future__ import annotations

import gc
import time
from dataclasses import replace

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtWidgets import QComboBox, QPushButton, QWidget

from tapeviz.engine.printing import format_number
from tapeviz.models.descent.demos import StudioPreset, studio_presets
from tapeviz.models.descent.optimizer_config import OptimizerConfig, RunConfig
from tapeviz.models.descent.problem import Problem
from tapeviz.models.descent.studio_config import StudioConfig
from tapeviz.models.graph.model import GraphModel
from tapeviz.sandbox import RunResult
from tapeviz.sandbox import VariableSpec as V
from tapeviz.ui import workers
from tapeviz.ui.studio.optimizer_panel import SciSpinBox
from tapeviz.ui.studio.studio import OptimizationStudio
from tapeviz.ui.theme import DARK

PRESETS = studio_presets()


@pytest.fixture
def studio(make_studio) -> OptimizationStudio:
    return make_studio(1300, 760)


def load(qtbot, studio: OptimizationStudio, preset: StudioPreset, **changes) -> None:
    studio.set_config(replace(preset.config, **changes))
    with qtbot.waitSignal(studio.busyChanged, timeout=30_000, check_params_cb=lambda b: not b):
        studio.set_problem(preset.problem)
    assert studio.race is not None


def test_object_names(studio: OptimizationStudio) -> None:
    assert studio.objectName() == "optimizationStudio"
    for name in (
        "lossPlot",
        "paramPlot",
        "gradNormPlot",
        "surfacePlot",
        "curvePlot",
        "optimizerPanel",
        "optimizerPlayButton",
        "optimizerStepButton",
        "optimizerResetButton",
        "optimizerScrubber",
        "optimizerKindCombo",
        "optimizerLrSlider",
        "optimizerSpeedSpin",
        "optimizerStepsSpin",
        "optimizerLogScale",
        "optimizerExportButton",
    ):
        assert studio.findChild(QWidget, name) is not None, name


def test_race_is_computed_in_the_background_with_progress(qtbot, studio) -> None:
    busy, messages = [], []
    studio.busyChanged.connect(busy.append)
    studio.statusMessage.connect(messages.append)
    load(qtbot, studio, PRESETS["rosenbrock-race"])
    assert busy[0] is True and busy[-1] is False
    assert any("Computing 4 run(s)" in m for m in messages)
    # "batched replay" on a fresh worker; "replay" when the shared worker's race cache already
    # holds a one-run race of this loss (kept runs and new ones share one arithmetic)
    assert "4 run(s) of 2,000 steps computed" in messages[-1] and "replay)" in messages[-1]
    assert studio.left.currentWidget() is studio.surface
    assert len(studio.surface.runs) == 4
    assert studio.panel.scrubber.maximum() == 2000


def test_step_reset_scrub_and_play(qtbot, studio) -> None:
    # 500 steps/s: the 2,000 steps take 4 s, so a slow machine still pauses before the end
    load(qtbot, studio, PRESETS["rosenbrock-race"], speed=500.0)
    steps = []
    studio.stepChanged.connect(steps.append)
    qtbot.mouseClick(
        studio.findChild(QPushButton, "optimizerStepButton"), Qt.MouseButton.LeftButton
    )
    assert studio.k == 1 and steps[-1] == 1
    studio.panel.scrubber.setValue(700)
    assert studio.k == 700 and "step 700 of 2,000" in studio.panel.step_label.text()
    h = studio.race.runs[1]
    marker = studio.surface.runs[1]["marker"]
    assert (marker.pos().x(), marker.pos().y()) == pytest.approx(tuple(h.params[700]))
    qtbot.mouseClick(
        studio.findChild(QPushButton, "optimizerResetButton"), Qt.MouseButton.LeftButton
    )
    assert studio.k == 0
    play = studio.findChild(QPushButton, "optimizerPlayButton")
    qtbot.mouseClick(play, Qt.MouseButton.LeftButton)
    assert studio.playing and play.isChecked()
    qtbot.waitUntil(lambda: studio.k > 50, timeout=5000)
    qtbot.mouseClick(play, Qt.MouseButton.LeftButton)
    assert not studio.playing
    paused_at = studio.k
    qtbot.wait(100)
    assert studio.k == paused_at
    studio.play()
    qtbot.waitUntil(lambda: not studio.playing, timeout=10_000)  # stops at the end
    assert studio.k == 2000 and not play.isChecked()


def test_step_tape_links_the_graph_view(qtbot, studio) -> None:
    tapes: list[RunResult] = []
    studio.stepTape.connect(tapes.append)
    load(qtbot, studio, PRESETS["seed-quadratic-sgd"])
    studio.set_step(20)
    # the tape is recorded in a worker process: it arrives a moment later, the newest wanted
    qtbot.waitUntil(lambda: bool(tapes) and format_number(tapes[-1].namespace["x"].numpy())
                    == "0.332391977")  # fmt: skip
    result = tapes[-1]
    assert format_number(result.value.numpy()) == "0.445700467"
    model = GraphModel(result.tapes)
    assert any(n.op == "pow" for n in model.nodes.values())
    assert studio.left.currentWidget() is studio.curve  # one scalar: the curve with tangents
    tangent = studio.curve.runs[0]["tangent"].line()
    slope = (tangent.y2() - tangent.y1()) / (tangent.x2() - tangent.x1())
    assert slope == pytest.approx(float(studio.race.runs[0].grads[20, 0]), rel=1e-5)


def test_diverging_run_stops_with_its_explanation_ui_stays_responsive(qtbot, studio) -> None:
    messages: list[str] = []
    studio.statusMessage.connect(messages.append)
    # Rosenbrock GD lr 8e-3 diverges; the other runs keep the worker busy for a while.
    preset = PRESETS["rosenbrock"]
    runs = (*preset.config.runs, RunConfig(OptimizerConfig("Adam", {"learning_rate": 0.05}),
                                           "#009E73"))  # fmt: skip
    studio.set_config(replace(preset.config, runs=runs, steps=60_000))
    # A full garbage collection of this test process's heap (every test so far) can take most of
    # a second on the UI thread; the app's own heap takes ~40 ms. Not what this test measures.
    gc.collect()
    workers._LAST_FULL[0] = time.monotonic()
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    with qtbot.waitSignal(studio.busyChanged, timeout=30_000, check_params_cb=lambda b: not b):
        studio.set_problem(preset.problem)
        timer.start()  # from here the event loop must keep turning while the worker computes
    timer.stop()
    gaps = np.diff(ticks)
    assert len(ticks) > 20 and gaps.max() < 0.25  # the window never froze
    fast = studio.race.runs[1]
    assert fast.divergence is not None and fast.steps < 60
    assert "Run 2 (SGD lr 0.008): Diverged at step" in messages[-1]
    assert "lower the learning rate" in studio.panel.status.text()
    studio.set_step(fast.divergence.step)
    assert studio.explanation(1) in messages[-1]


def test_seed_linreg_raw_explains_the_curvature(qtbot, studio) -> None:
    load(qtbot, studio, PRESETS["seed-linreg-raw"])
    text = studio.panel.status.text()
    assert "Diverged at step 1" in text and "2/λmax = 4.93e-8" in text
    assert "normalize the inputs" in text


def test_hyper_parameter_change_reruns_in_the_background(qtbot, studio) -> None:
    load(qtbot, studio, PRESETS["rosenbrock"])
    editor = studio.findChild(SciSpinBox, "optimizerParam_learning_rate")
    assert editor.value() == pytest.approx(1e-3)
    with qtbot.waitSignal(studio.busyChanged, timeout=20_000, check_params_cb=lambda b: not b):
        editor.setValue(2e-3)
    assert studio.race.runs[0].run.optimizer.learning_rate == pytest.approx(2e-3)
    assert studio.config().runs[0].optimizer.learning_rate == pytest.approx(2e-3)
    kind = studio.findChild(QComboBox, "optimizerKindCombo")
    with qtbot.waitSignal(studio.busyChanged, timeout=20_000, check_params_cb=lambda b: not b):
        kind.setCurrentText("Adam")
    assert studio.race.runs[0].run.optimizer.kind == "Adam"
    assert studio.findChild(SciSpinBox, "optimizerParam_beta_2") is not None


def test_click_on_the_surface_sets_a_new_start(qtbot, studio) -> None:
    load(qtbot, studio, PRESETS["himmelblau"])
    plot = studio.surface
    vb = plot.getPlotItem().getViewBox()
    pixel = plot.mapFromScene(vb.mapViewToScene(pg.Point(2.0, -1.0)))
    with qtbot.waitSignal(studio.busyChanged, timeout=20_000, check_params_cb=lambda b: not b):
        qtbot.mouseClick(
            plot.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(pixel.x(), pixel.y())
        )
    start = studio.race.runs[0].params[0]
    assert start == pytest.approx([2.0, -1.0], abs=0.05)
    assert studio.problem.start()[0] == start[0]


def test_more_than_two_parameters_show_a_slice(qtbot, studio) -> None:
    problem = Problem("x**2 + 2*y**2 + 3*z**2 + x*z", [V("x", 1.0), V("y", -1.0), V("z", 2.0)])
    cfg = StudioConfig((RunConfig(OptimizerConfig("SGD", {"learning_rate": 0.05})),), steps=50)
    studio.set_config(cfg)
    with qtbot.waitSignal(studio.busyChanged, timeout=20_000, check_params_cb=lambda b: not b):
        studio.set_problem(problem)
    assert studio.panel.slice_row.isVisibleTo(studio) and studio.backdrop.sliced
    with qtbot.waitSignal(studio.busyChanged, timeout=20_000, check_params_cb=lambda b: not b):
        studio.panel.slice_y.setCurrentText("z")
    assert (studio.backdrop.ex, studio.backdrop.ey) == (0, 2)
    assert studio.surface.getPlotItem().getAxis("left").labelText == "z"
    studio.set_step(30)  # paused: the slice moves to the run's step 30 (y held there)
    want = studio.race.runs[0].values_at(30)
    qtbot.waitUntil(lambda: studio.backdrop.at[1] == want[1], timeout=5000)


def test_log_scale_toggle_and_negative_losses(qtbot, studio) -> None:
    load(qtbot, studio, PRESETS["himmelblau"])
    assert studio.steps.loss.log
    studio.panel.log_scale.setChecked(False)
    assert not studio.steps.loss.log and not studio.config().log_scale
    studio.panel.log_scale.setChecked(True)
    assert studio.steps.loss.log
    messages: list[str] = []
    studio.statusMessage.connect(messages.append)
    load(qtbot, studio, PRESETS["saddle"], log_scale=True)  # x² − y² goes negative
    assert not studio.steps.loss.log and "log scale needs positive losses" in messages[-1]


def test_bad_problem_reports_an_error(qtbot, studio) -> None:
    messages: list[str] = []
    studio.statusMessage.connect(messages.append)
    with qtbot.waitSignal(studio.busyChanged, timeout=20_000, check_params_cb=lambda b: not b):
        studio.set_problem(Problem("x ** ", [V("x", 1.0)]))
    assert "cannot be optimized" in messages[-1] and studio.race is None


def test_config_theme_and_presenter_scale(qtbot, studio) -> None:
    preset = PRESETS["ill-conditioned"]
    load(qtbot, studio, preset)
    assert studio.config() == preset.config
    assert studio.findChild(QComboBox, "optimizerRunCombo").count() == 4
    studio.set_theme(DARK)
    studio.set_font_scale(2.0)
    played = studio.steps.loss.series[0]["played"]
    assert played.opts["pen"].widthF() == pytest.approx(4.0)
    assert studio.steps.loss.backgroundBrush().color().name().upper() == DARK.background
    assert studio.steps.loss.getPlotItem().getAxis("left").style["tickFont"].pointSizeF() == 18


def test_shutdown_while_computing(qtbot, studio) -> None:
    preset = PRESETS["rosenbrock"]
    studio.set_config(replace(preset.config, steps=200_000))
    studio.set_problem(preset.problem)
    assert studio.jobs.job is not None
    job = studio.jobs.job
    studio.shutdown()
    assert job.cancelled and job.done.wait(5)
    assert studio.race is None


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_loads_into_the_studio(qtbot, studio, name: str) -> None:
    messages: list[str] = []
    studio.statusMessage.connect(messages.append)
    load(qtbot, studio, PRESETS[name])
    assert "computed in" in messages[-1]
    studio.set_step(studio.race.length)
    assert studio.k == studio.race.length


def test_an_infinite_gradient_hides_the_arrow_instead_of_failing(qtbot, studio) -> None:
    problem = Problem(
        "sqrt(x) + y**2", [V("x", 0.0, dtype="float64"), V("y", 1.0, dtype="float64")]
    )
    cfg = StudioConfig((RunConfig(OptimizerConfig("SGD", {"learning_rate": 0.1})),), steps=5)
    studio.set_config(cfg)
    with qtbot.waitSignal(studio.busyChanged, timeout=20_000, check_params_cb=lambda b: not b):
        studio.set_problem(problem)
    assert not np.isfinite(studio.race.runs[0].grads[0]).all()  # d sqrt(x)/dx at 0 is inf
    studio.set_step(0)
    assert not studio.surface.runs[0]["line"].isVisible()


def test_the_pixmap_cache_holds_the_plots_layers(studio) -> None:
    from PySide6.QtGui import QPixmapCache

    from tapeviz.ui.studio.studio_plots import PIXMAP_LAYERS

    studio.resize(1900, 1000)
    assert QPixmapCache.cacheLimit() >= PIXMAP_LAYERS * 4 * 1900 * 1000 // 1024


def test_run_buttons_add_and_remove_runs_and_names_are_not_cut(qtbot, studio) -> None:
    from PySide6.QtWidgets import QToolButton

    from tapeviz.models.descent.optimizer_config import MAX_RUNS

    assert not studio.panel.slice_row.isVisibleTo(studio)  # no empty slice row before a race
    load(qtbot, studio, PRESETS["rosenbrock-race"])
    combo = studio.findChild(QComboBox, "optimizerRunCombo")
    add = studio.findChild(QToolButton, "optimizerAddRunButton")
    remove = studio.findChild(QToolButton, "optimizerRemoveRunButton")
    n = combo.count()
    assert n == len(studio.race.runs) >= 2

    names = [combo.itemText(i) for i in range(n)]
    assert names[0] == "1. SGD lr 0.001"  # the label the 80-px "+" and "−" buttons used to cut
    combo.grab()  # paint
    assert combo.shown_text() == names[0] == combo.toolTip()
    combo.setCurrentIndex(1)
    combo.setFixedWidth(150)  # "2. Momentum lr 0.001 β 0.9" does not fit: shortened, not cut
    combo.grab()
    shown = combo.shown_text()
    assert shown.endswith("…") and names[1].startswith(shown[:-1]) and len(shown) > 8
    assert combo.toolTip() == names[1]
    combo.setFixedWidth(400)
    assert combo.shown_text() == names[1]
    while combo.count() < MAX_RUNS:
        with qtbot.waitSignal(studio.busyChanged, timeout=20_000, check_params_cb=lambda b: not b):
            add.click()
        assert len(studio.race.runs) == combo.count() and combo.currentIndex() == combo.count() - 1
    assert not add.isEnabled()  # six at most
    second = studio.race.runs[1].run
    combo.setCurrentIndex(1)
    with qtbot.waitSignal(studio.busyChanged, timeout=20_000, check_params_cb=lambda b: not b):
        remove.click()
    assert combo.count() == MAX_RUNS - 1 == len(studio.race.runs) and add.isEnabled()
    assert second not in [r.run for r in studio.race.runs]


@pytest.mark.parametrize(
    ("scale", "width", "height"),
    [(1.0, 1146, 470), (2.0, 1146, 470), (1.5, 810, 420)],  # the studio in 1920×1080, 1366×768
)
def test_presenter_sizes_shorten_titles_and_legends_instead_of_cutting_the_plots(
    qtbot, studio, scale: float, width: int, height: int
) -> None:
    from PySide6.QtGui import QFont, QFontMetricsF

    from tapeviz.ui.studio.studio import PANEL_SHARE

    load(qtbot, studio, PRESETS["rosenbrock-race"])
    studio.resize(width, height)
    studio.set_font_scale(scale)
    qtbot.wait(50)
    assert studio.panel.width() <= studio.panel_scroll.viewport().width()  # not cut by its bar
    share = round(PANEL_SHARE * studio.width())
    assert studio.panel.width() <= max(share, studio.panel.minimumSizeHint().width())
    for plot in (studio.surface, *studio.steps.plots):
        item = plot.getPlotItem()
        view = item.getViewBox().geometry()
        assert view.right() <= plot.width() + 1, plot.objectName()  # nothing past the edge
        title, full, still = item.titleLabel.text, plot._full_title, plot._still_title
        if getattr(plot, "_title_hidden", False):  # a tabbed step plot: its tab names it
            assert not item.titleLabel.isVisible() and studio.steps.arrangement.tabbed
            continue
        assert title in (full, still) or (title.endswith("…") and full.startswith(title[:-1]))
    for plot in studio.steps.plots:  # tick labels keep apart ("5001000" at 2× before)
        axis = plot.getPlotItem().getAxis("bottom")
        lo, hi = plot.getViewBox().viewRange()[0]
        (major, _), *_ = axis.tickSpacing(lo, hi, axis.width())
        labels = axis.tickStrings([0.0, major, 2 * major], axis.scale, major)
        metrics = QFontMetricsF(axis.style["tickFont"])
        assert major * axis.width() / (hi - lo) > max(map(metrics.horizontalAdvance, labels))
        assert (hi - lo) / major >= 2  # still labelled
    surface_title = studio.surface.getPlotItem().titleLabel.text  # the longest: no hint at 2×
    assert surface_title == "Loss surface" if scale > 1 else "(click to start)" in surface_title
    legend = studio.surface.legend  # in the band above the data area, aligned with it
    view = studio.surface.getPlotItem().getViewBox()
    assert legend.pos().x() >= view.pos().x() - 1  # the colour samples stay inside the plot
    points = float(legend.opts["labelTextSize"].removesuffix("pt"))
    assert points <= 10 * scale and (points > 10 or scale == 1.0 or width < 1000)
    assert legend.pos().x() + legend.width() <= view.geometry().right()  # the box too
    assert points > 9  # it shrinks to fit, not to the minimum (the box kept its old width)
    font = QFont(studio.surface.font())
    font.setPointSizeF(points)
    assert QFontMetricsF(font).horizontalAdvance("Momentum lr 0.001 β 0.9") < legend.width()
