"""The studio's job runner on its own: an optimizer panel, a message list, the thread pool."""

from __future__ import annotations

from dataclasses import replace

import pytest
from pytestqt.qtbot import QtBot

from tapeviz.models.descent.demos import studio_presets
from tapeviz.models.descent.problem import Problem
from tapeviz.models.descent.runs import Race
from tapeviz.sandbox import VariableSpec as V
from tapeviz.ui.studio.jobs import JobRunner, slice_point
from tapeviz.ui.studio.optimizer_panel import OptimizerPanel

PRESETS = studio_presets()


@pytest.fixture
def runner(qtbot: QtBot) -> tuple[JobRunner, OptimizerPanel, list[str]]:
    panel = OptimizerPanel()
    qtbot.addWidget(panel)
    panel.show()
    messages: list[str] = []
    jobs = JobRunner(panel, messages.append)
    yield jobs, panel, messages
    jobs.shutdown()


def test_a_race_is_computed_with_progress_on_the_panel(qtbot: QtBot, runner) -> None:
    jobs, panel, messages = runner
    preset = PRESETS["himmelblau"]
    busy: list[bool] = []
    races: list[Race] = []
    jobs.busyChanged.connect(busy.append)
    jobs.raceReady.connect(lambda race, backdrop: races.append(race))
    with qtbot.waitSignal(jobs.busyChanged, timeout=30_000, check_params_cb=lambda b: not b):
        jobs.start(preset.problem, preset.config, None)
        assert jobs.busy and panel.cancel.isVisible()
        assert messages[0] == "Computing 4 run(s)…"
    assert busy == [True, False] and not jobs.busy and not panel.cancel.isVisible()
    assert len(races) == 1 and len(races[0].runs) == 4 and races[0].length == 1000


def test_a_newer_job_drops_the_older_and_cancel_keeps_nothing(qtbot: QtBot, runner) -> None:
    jobs, _, messages = runner
    preset = PRESETS["rosenbrock"]
    races: list[Race] = []
    jobs.raceReady.connect(lambda race, backdrop: races.append(race))
    jobs.start(preset.problem, replace(preset.config, steps=200_000), None)
    first = jobs.job
    with qtbot.waitSignal(jobs.busyChanged, timeout=30_000, check_params_cb=lambda b: not b):
        jobs.start(preset.problem, replace(preset.config, steps=50), None)
    assert first.cancelled and first.done.wait(5)
    assert [race.length for race in races] == [50]  # the first job's result never arrives
    jobs.start(preset.problem, replace(preset.config, steps=200_000), None)
    job = jobs.job
    jobs.cancel()
    assert job.cancelled and not jobs.busy and messages[-1] == "Computation cancelled."


def test_a_loss_that_cannot_be_optimized_is_reported(qtbot: QtBot, runner) -> None:
    jobs, _, messages = runner
    problem = Problem("x + (", (V("x", 1.0),), "expression")
    with qtbot.waitSignal(jobs.busyChanged, timeout=30_000, check_params_cb=lambda b: not b):
        jobs.start(problem, PRESETS["saddle"].config, None)
    assert messages[-1].startswith("⚠ The loss cannot be optimized: ")


def test_a_slice_is_resampled_through_the_selected_run(qtbot: QtBot, runner) -> None:
    jobs, _, _ = runner
    problem = Problem("x**2 + 2*y**2 + z**2", (V("x", 1.0), V("y", 1.0), V("z", 1.0)), "expression")
    config = replace(PRESETS["saddle"].config, steps=20)
    got: list[tuple] = []
    jobs.raceReady.connect(lambda race, backdrop: got.append((race, backdrop)))
    with qtbot.waitSignal(jobs.busyChanged, timeout=30_000, check_params_cb=lambda b: not b):
        jobs.start(problem, config, None)
    race, backdrop = got[0]
    assert backdrop.sliced and slice_point(race, config, 0) == pytest.approx([1.0, 1.0, 1.0])
    at = slice_point(race, config, 10)
    with qtbot.waitSignal(jobs.sliceReady, timeout=30_000) as blocker:
        jobs.resample(race, backdrop, config, at)
    same_race, new = blocker.args
    assert same_race is race and new.sliced and new is not backdrop
    assert slice_point(race, replace(config, selected=0), 5) != at
    two = Problem("x**2 + y**2", (V("x", 1.0), V("y", 1.0)), "expression")
    assert slice_point(None, config, 3) is None
    with qtbot.waitSignal(jobs.busyChanged, timeout=30_000, check_params_cb=lambda b: not b):
        jobs.start(two, config, None)
    assert slice_point(got[-1][0], config, 3) is None  # a surface, not a slice
