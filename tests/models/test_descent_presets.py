"""Every studio preset runs headless and shows what DEMOS.md promises."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tapeviz.engine.printing import format_number
from tapeviz.models.descent.demos import StudioPreset, studio_presets
from tapeviz.models.descent.runs import Race, compute_race
from tapeviz.models.descent.studio_config import StudioConfig

PRESETS = studio_presets()
NAMES = [
    "seed-quadratic-sgd",
    "seed-linreg-raw",
    "seed-linreg-normalized",
    "rosenbrock",
    "beale",
    "himmelblau",
    "saddle",
    "ill-conditioned",
    "rosenbrock-race",
]


def race_of(preset: StudioPreset) -> Race:
    return compute_race(preset.problem, preset.config.runs, preset.config.steps)


def first_within(h, target, tol: float = 0.01) -> int | None:
    with np.errstate(all="ignore"):
        d = np.hypot(*(h.params.astype(float) - np.array(target)).T)
    hits = np.flatnonzero(d < tol)
    return int(hits[0]) if hits.size else None


def test_all_presets_are_there_and_round_trip() -> None:
    assert set(NAMES) <= set(PRESETS)
    for name in NAMES:
        p = PRESETS[name]
        assert p.title and p.notes and p.group
        assert StudioConfig.from_dict(json.loads(json.dumps(p.config.to_dict()))) == p.config


def test_seed_quadratic() -> None:
    h = race_of(PRESETS["seed-quadratic-sgd"]).runs[0]
    assert format_number(h.param("x")[20]) == "0.332391977"
    assert format_number(h.param("x")[200]) == "0.98241204"


def test_seed_linreg_raw_diverges() -> None:
    h = race_of(PRESETS["seed-linreg-raw"]).runs[0]
    assert h.divergence is not None and h.divergence.step == 1
    assert np.isinf(h.loss[4]) and h.param("a")[8] == -np.inf and np.isnan(h.loss[9])
    assert "normalize the inputs" in h.divergence.text


def test_seed_linreg_normalized() -> None:
    h = race_of(PRESETS["seed-linreg-normalized"]).runs[0]
    assert h.steps == 10_000 and h.divergence is None
    assert f"{h.param('a')[-1]:.5g}" == "0.97637"
    assert f"{h.param('b')[-1]:.5g}" == "0.057565"


def test_rosenbrock() -> None:
    slow, fast = race_of(PRESETS["rosenbrock"]).runs
    assert slow.loss[0] == pytest.approx(24.2)
    assert slow.loss[10] == pytest.approx(4.1, abs=0.05)
    assert slow.loss[100] == pytest.approx(3.8, abs=0.05)
    assert first_within(slow, (1, 1)) == pytest.approx(11_300, rel=0.02)
    assert fast.divergence is not None and fast.divergence.step <= 4


def test_beale() -> None:
    gd, adam = race_of(PRESETS["beale"]).runs
    assert first_within(gd, (3, 0.5)) == pytest.approx(1_200, rel=0.1)
    assert first_within(adam, (3, 0.5)) == pytest.approx(450, rel=0.1)
    steep = PRESETS["beale"].problem.with_start({"x": 3.0, "y": 4.0})
    h = compute_race(steep, PRESETS["beale"].config.runs[:1], 100).runs[0]
    assert np.hypot(*h.grads[0]) > 5e4 and h.divergence is not None


def test_himmelblau_optimizers_pick_different_basins() -> None:
    ends = [h.params[-1] for h in race_of(PRESETS["himmelblau"]).runs]
    assert ends[0] == pytest.approx([-3.779, -3.283], abs=1e-3)  # GD lr 0.01
    assert ends[1] == pytest.approx([-2.805, 3.131], abs=1e-3)  # GD lr 0.02
    assert ends[2] == pytest.approx([-2.805, 3.131], abs=1e-3)  # momentum
    assert ends[3] == pytest.approx([-3.779, -3.283], abs=1e-3)  # Adam


def test_saddle() -> None:
    gd, adam, momentum = race_of(PRESETS["saddle"]).runs
    assert gd.param("y")[200] == pytest.approx(0.05, abs=0.005)
    assert adam.param("y")[200] > 2 and np.all(np.diff(adam.param("y")[50:]) > 0)
    assert momentum.divergence is not None and momentum.divergence.reason == "fell"
    flat = PRESETS["saddle"].problem.with_start({"y": 0.0})
    for h in compute_race(flat, PRESETS["saddle"].config.runs, 200).runs:
        assert np.all(h.param("y") == 0)


def test_ill_conditioned() -> None:
    lr04, lr05, lr06, momentum = race_of(PRESETS["ill-conditioned"]).runs
    assert lr04.param("x1")[20] == pytest.approx(-0.94, abs=0.005)
    assert np.all(np.abs(lr05.param("x2")) == 2) and np.all(np.diff(np.sign(lr05.param("x2"))))
    assert abs(lr06.param("x2")[20]) == pytest.approx(1673, rel=1e-3)
    assert lr06.divergence is not None and "lr 0.6 > 2/λmax = 0.5" in lr06.divergence.text
    assert np.hypot(*momentum.params[10]) < 0.1


def test_rosenbrock_race() -> None:
    race = race_of(PRESETS["rosenbrock-race"])
    sgd, momentum, adam, rms = race.runs
    assert race.method == "batched"
    assert first_within(momentum, (1, 1)) == pytest.approx(1_030, rel=0.05)
    assert first_within(adam, (1, 1)) == pytest.approx(1_460, rel=0.05)
    assert first_within(sgd, (1, 1)) is None and first_within(rms, (1, 1)) is None
