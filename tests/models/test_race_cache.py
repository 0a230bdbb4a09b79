"""The worker's race cache: only changed runs computed, the loss compiled once, backdrops kept."""

from __future__ import annotations

import numpy as np
import pytest

from tapeviz.models.descent import race_cache as rc
from tapeviz.models.descent.backdrop import make_backdrop
from tapeviz.models.descent.optimizer_config import OptimizerConfig, RunConfig
from tapeviz.models.descent.problem import Problem
from tapeviz.models.descent.runs import Cancelled, compute_race
from tapeviz.sandbox import VariableSpec as V

ROSENBROCK = Problem(
    "(1 - x)**2 + 100*(y - x**2)**2", [V("x", -1.2, dtype="float64"), V("y", 1.0, dtype="float64")]
)
RUNS = (
    RunConfig(OptimizerConfig("SGD", {"learning_rate": 0.001}), "#D55E00"),
    RunConfig(OptimizerConfig("Momentum", {"learning_rate": 0.001, "momentum": 0.9}), "#0072B2"),
    RunConfig(OptimizerConfig("Adam", {"learning_rate": 0.05}), "#009E73"),
)


def _same(a: object, b: object) -> None:
    np.testing.assert_array_equal(a.loss, b.loss)  # type: ignore[attr-defined]
    np.testing.assert_array_equal(a.params, b.params)  # type: ignore[attr-defined]
    np.testing.assert_array_equal(a.grads, b.grads)  # type: ignore[attr-defined]


def test_only_the_changed_run_is_computed_and_matches_a_full_race(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cache = rc.RaceCache()
    asked: list[int] = []
    real = rc.compute_race

    def counting(problem: Problem, runs: list[RunConfig], *a: object, **k: object) -> object:
        asked.append(len(runs))
        return real(problem, runs, *a, **k)

    monkeypatch.setattr(rc, "compute_race", counting)
    first = cache.race(ROSENBROCK, RUNS, 300)
    assert cache.computed == (0, 1, 2) and asked == [3]
    faster = RunConfig(OptimizerConfig("Momentum", {"learning_rate": 0.002, "momentum": 0.9}),
                       "#0072B2")  # fmt: skip
    second = cache.race(ROSENBROCK, (RUNS[0], faster, RUNS[2]), 300)
    assert cache.computed == (1,) and asked == [3, 1]
    assert second.runs[0] is not first.runs[0]  # a new History, the same arrays
    assert second.runs[0].loss is first.runs[0].loss and second.runs[2].loss is first.runs[2].loss
    full = compute_race(ROSENBROCK, (RUNS[0], faster, RUNS[2]), 300)
    for mine, theirs in zip(second.runs, full.runs, strict=True):
        _same(mine, theirs)
    assert second.method == full.method == "batched"
    assert [h.run for h in second.runs] == [RUNS[0], faster, RUNS[2]]


def test_a_colour_change_or_a_dropped_run_computes_nothing_and_undo_is_remembered() -> None:
    cache = rc.RaceCache()
    cache.race(ROSENBROCK, RUNS, 100)
    recoloured = RunConfig(RUNS[0].optimizer, "#000000", "mine")
    race = cache.race(ROSENBROCK, (recoloured, RUNS[2]), 100)
    assert cache.computed == ()
    assert race.runs[0].run.color == "#000000" and race.runs[0].run.title == "mine"
    assert len(race.runs) == 2
    changed = RunConfig(OptimizerConfig("SGD", {"learning_rate": 0.01}))
    cache.race(ROSENBROCK, (changed,), 100)
    assert cache.computed == (0,)
    cache.race(ROSENBROCK, (RUNS[0],), 100)  # back to the old value: remembered
    assert cache.computed == ()


def test_another_problem_or_step_count_recomputes_everything() -> None:
    cache = rc.RaceCache()
    cache.race(ROSENBROCK, RUNS[:2], 100)
    loss = cache.loss_fn
    cache.race(ROSENBROCK, RUNS[:2], 150)
    assert cache.computed == (0, 1) and cache.loss_fn is loss  # same problem: loss kept
    moved = ROSENBROCK.with_start({"x": -1.0, "y": 1.0})
    race = cache.race(moved, RUNS[:2], 150)
    assert cache.computed == (0, 1) and cache.loss_fn is not loss
    assert race.runs[0].params[0].tolist() == [-1.0, 1.0]


def test_the_compiled_loss_is_reused_between_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    cache = rc.RaceCache()
    compiled: list[int] = []
    real = Problem.compile
    monkeypatch.setattr(Problem, "compile", lambda self: compiled.append(1) or real(self))
    cache.race(ROSENBROCK, RUNS[:1], 50)
    cache.race(ROSENBROCK, RUNS[1:2], 50)
    assert cache.loss(ROSENBROCK) is cache.loss_fn
    same_text = Problem(ROSENBROCK.source, ROSENBROCK.variables)  # another object, same key
    cache.race(same_text, RUNS[2:], 50)
    assert compiled == [1]


def test_the_backdrop_is_sampled_again_only_when_its_ranges_move() -> None:
    cache = rc.RaceCache()
    race = cache.race(ROSENBROCK, RUNS, 200)
    first = cache.backdrop(race, (-2.0, 2.0), (-1.0, 3.0))
    assert cache.sampled
    race = cache.race(ROSENBROCK, RUNS[:2], 200)
    again = cache.backdrop(race, (-2.0, 2.0), (-1.0, 3.0))
    assert not cache.sampled and again is first
    wider = cache.backdrop(race, (-3.0, 2.0), (-1.0, 3.0))
    assert cache.sampled and wider.x_range == (-3.0, 2.0)
    auto = cache.backdrop(race)  # ranges that cover the paths: as make_backdrop computes them
    plain = make_backdrop(race)
    assert (auto.x_range, auto.y_range) == (plain.x_range, plain.y_range)
    np.testing.assert_array_equal(auto.grid.z, plain.grid.z)  # type: ignore[union-attr]


def test_a_cancelled_race_remembers_nothing() -> None:
    cache = rc.RaceCache()
    with pytest.raises(Cancelled):
        cache.race(ROSENBROCK, RUNS, 2000, cancelled=lambda: True)
    assert not cache.histories
    cache.race(ROSENBROCK, RUNS, 50)
    assert cache.computed == (0, 1, 2)


def test_old_histories_are_forgotten_beyond_the_limit() -> None:
    cache = rc.RaceCache()
    for i in range(rc.KEEP_HISTORIES + 3):
        lr = 0.001 * (i + 1)
        cache.race(ROSENBROCK, (RunConfig(OptimizerConfig("SGD", {"learning_rate": lr})),), 20)
    assert len(cache.histories) == rc.KEEP_HISTORIES
