"""The studio link on its own: a fake studio that records what it is told."""

from __future__ import annotations

import numpy as np
from pytestqt.qtbot import QtBot

from tapeviz.models.descent.problem import Problem
from tapeviz.models.descent.studio_config import StudioConfig
from tapeviz.models.session.file import Session
from tapeviz.models.session.presets import PRESETS
from tapeviz.sandbox import VariableSpec as V
from tapeviz.ui.window.studio_link import StudioLink, same_problem

QUAD = Problem("x**2", (V("x", 3.0),), "expression")


class Studio:
    """What StudioLink uses of OptimizationStudio, recording the calls."""

    def __init__(self) -> None:
        self.race: object | None = None
        self.busy = False
        self.problem: Problem | None = None
        self.k = 7
        self.calls: list[str] = []
        self._config = StudioConfig()

    def set_problem(self, problem: Problem) -> None:
        self.calls.append("set_problem")
        self.problem = problem

    def set_step(self, k: int) -> None:
        self.calls.append(f"set_step {k}")

    def pause(self) -> None:
        self.calls.append("pause")

    def cancel(self) -> None:
        self.calls.append("cancel")
        self.busy = False

    def set_config(self, config: StudioConfig, recompute: bool = True) -> None:
        self.calls.append(f"set_config recompute={recompute}")
        self._config = config

    def config(self) -> StudioConfig:
        return self._config


def make(qtbot: QtBot) -> tuple[StudioLink, Studio, list[str]]:
    studio, messages = Studio(), []
    return StudioLink(studio, messages.append), studio, messages


def test_the_studio_computes_only_what_it_does_not_show(qtbot: QtBot) -> None:
    link, studio, _ = make(qtbot)
    link.start(None)  # the table does not parse: nothing to give
    assert studio.calls == [] and not link.used
    link.start(QUAD)
    assert studio.calls == ["set_problem"] and link.used
    studio.race = object()
    assert link.shows(QUAD) and not link.shows(Problem("x**3", QUAD.variables, "expression"))
    link.start(QUAD)  # the same loss, its race on screen: only its tape again
    assert studio.calls[-1] == "set_step 7"
    link.start(Problem("x**3", QUAD.variables, "expression"))
    assert studio.calls[-1] == "set_problem"


def test_loaded_settings_make_the_next_start_recompute(qtbot: QtBot) -> None:
    link, studio, _ = make(qtbot)
    studio.race, studio.problem, studio.busy = object(), QUAD, True
    link.load(PRESETS["rosenbrock-race"])
    assert studio.calls == ["pause", "cancel", "set_config recompute=False"]
    assert len(studio.config().runs) == 4 and link.stale and not link.used
    assert not link.shows(QUAD)
    link.start(QUAD)  # the same loss, but the preset's settings: a new race
    assert studio.calls[-1] == "set_problem" and not link.stale


def test_the_settings_are_the_studios_once_it_ran_the_work(qtbot: QtBot) -> None:
    link, studio, messages = make(qtbot)
    saved = {"steps": 5}
    assert link.settings(saved) is saved
    link.start(QUAD)
    assert link.settings(saved) == StudioConfig().to_dict()
    link.load(Session(source="x", optimizer={"runs": "nonsense"}))
    assert messages[-1].startswith("⚠ ") and studio.config() == StudioConfig()
    assert link.settings(None) is None  # loading forgets that the studio ran the old work


def test_problems_with_arrays_compare_element_wise() -> None:
    a = Problem("sum(w)", (V("w", np.array([1.0, 2.0])),), "expression")
    b = Problem("sum(w)", (V("w", np.array([1.0, 2.0])),), "expression")
    assert same_problem(None, None) and not same_problem(a, None)
    assert same_problem(a, a)  # the same objects: no element-wise comparison
    # two equal arrays: Problem's == raises (ambiguous truth); taken as different, so the
    # studio recomputes rather than showing a stale race
    assert same_problem(a, b) is False
