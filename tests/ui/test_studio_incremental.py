"""A hyper-parameter edit redraws the changed run only; a quick race shortens the debounce."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tapeviz.models.descent.demos import studio_presets
from tapeviz.models.descent.optimizer_config import OptimizerConfig
from tapeviz.models.descent.runs import compute_race
from tapeviz.ui.studio import studio as studio_module
from tapeviz.ui.studio.studio import OptimizationStudio

RACE = studio_presets()["rosenbrock-race"]


@pytest.fixture
def studio(make_studio) -> OptimizationStudio:
    return make_studio(1300, 760, RACE)


def _items(s: OptimizationStudio) -> list[object]:
    surface = [run["path"] for run in s.surface.runs] + [run["marker"] for run in s.surface.runs]
    steps = [item["full"] for p in s.steps.plots for item in p.series]
    return surface + steps


def _with_lr(s: OptimizationStudio, run: int, lr: float) -> object:
    cfg = s.config()
    opt = cfg.runs[run].optimizer
    new = OptimizerConfig(opt.kind, {**opt.values, "learning_rate": lr})
    return cfg.with_run(run, replace(cfg.runs[run], optimizer=new))


def test_an_edit_keeps_every_item_and_redraws_only_the_changed_run(qtbot, studio) -> None:
    items = _items(studio)
    scene_items = len(studio.surface.scene().items())
    old = studio.race
    paths = [run["segments"] for run in studio.surface.runs]
    before = studio.steps.loss.series[3]["full"].getData()[1].copy()
    with qtbot.waitSignal(studio.busyChanged, timeout=30_000, check_params_cb=lambda b: not b):
        studio._on_panel_config_changed(_with_lr(studio, 3, 0.002))
    assert studio.race is not old
    assert studio.race.runs[3].run.optimizer.learning_rate == 0.002
    assert _items(studio) == items  # the same Qt items, not new ones
    assert len(studio.surface.scene().items()) == scene_items
    now = [run["segments"] for run in studio.surface.runs]
    assert now[:3] == paths[:3] and now[3] is not paths[3]  # only run 4's path is recomputed
    np.testing.assert_array_equal(studio.surface.runs[3]["x"], studio.race.runs[3].params[:, 0])
    assert "0.002" in studio.surface.legend.items[3][1].text  # its legend entry says the new lr
    # The step plots show the new history: the same as a race computed from scratch.
    fresh = compute_race(studio.problem, studio.config().runs, studio.config().steps)
    np.testing.assert_array_equal(studio.race.runs[3].loss, fresh.runs[3].loss)
    loss_y = studio.steps.loss.series[3]["y"]
    np.testing.assert_allclose(loss_y, np.log10(fresh.runs[3].loss))
    after = studio.steps.loss.series[3]["full"].getData()[1]
    assert not np.array_equal(after, before, equal_nan=True)  # its curve got the new data


def test_a_new_colour_or_run_count_rebuilds_the_items(qtbot, studio) -> None:
    items = _items(studio)
    cfg = studio.config()
    with qtbot.waitSignal(studio.busyChanged, timeout=30_000, check_params_cb=lambda b: not b):
        studio._on_panel_config_changed(replace(cfg, runs=cfg.runs[:3]))
    assert len(studio.surface.runs) == 3 and len(studio.steps.loss.series) == 3
    assert not set(map(id, _items(studio))) & set(map(id, items))


def test_the_debounce_follows_how_long_the_last_race_took(qtbot, studio) -> None:
    studio.jobs.last_seconds = 0.02
    studio._on_panel_config_changed(_with_lr(studio, 0, 0.0011))
    assert studio.debounce.interval() == studio_module.QUICK_DEBOUNCE_MS
    studio.debounce.stop()
    studio.jobs.last_seconds = 2.0
    studio._on_panel_config_changed(_with_lr(studio, 0, 0.0012))
    assert studio.debounce.interval() == studio_module.DEBOUNCE_MS
    with qtbot.waitSignal(studio.busyChanged, timeout=30_000, check_params_cb=lambda b: not b):
        pass
    assert studio.jobs.last_seconds < 2.0  # measured again when the race arrived


def test_a_new_race_paints_the_surface_first_then_one_step_plot_per_frame(qtbot, studio) -> None:
    """Drawn in one turn, the four plots held the UI thread for 20–40 ms; now one per frame."""
    from PySide6.QtCore import QEvent, QObject

    plots = studio.steps.plots
    order: list[str] = []

    class Watch(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint and studio.race is not old:
                name = next(p.objectName() for p in (studio.surface, *plots)
                            if p.viewport() is watched)  # fmt: skip
                drawn = [p.objectName() for p in plots if p.revision > revisions[p]]
                order.append(f"{name} painted; redrawn: {','.join(drawn) or '-'}")
            return False

    watch = Watch()
    for p in (studio.surface, *plots):
        p.viewport().installEventFilter(watch)
    old, revisions = studio.race, {p: p.revision for p in plots}
    with qtbot.waitSignal(studio.busyChanged, timeout=30_000, check_params_cb=lambda b: not b):
        studio._on_panel_config_changed(_with_lr(studio, 3, 0.0021))
    assert order[0] == "surfacePlot painted; redrawn: -"  # the new path before any step plot
    assert "lossPlot painted; redrawn: lossPlot" in order
    assert order.index("lossPlot painted; redrawn: lossPlot") < order.index(
        "paramPlot painted; redrawn: lossPlot,paramPlot"
    )
    assert all(p.revision == revisions[p] + 1 for p in plots)  # busy ends once all are drawn
    assert studio.steps.race is studio.race


def test_a_new_race_of_the_same_parameters_keeps_the_axes_drawn(qtbot, studio) -> None:
    """pyqtgraph redraws an axis on every setLabel; the same labels are not set again."""
    axes = [studio.surface.getPlotItem().getAxis(side) for side in ("bottom", "left")]
    studio.surface.repaint()
    pictures = [axis.picture for axis in axes]
    assert all(p is not None for p in pictures)
    with qtbot.waitSignal(studio.busyChanged, timeout=30_000, check_params_cb=lambda b: not b):
        studio._on_panel_config_changed(_with_lr(studio, 3, 0.0022))
    assert [axis.picture for axis in axes] == pictures
