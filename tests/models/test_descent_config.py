"""StudioConfig: JSON-safe round trip and clear errors for untrusted session data."""

from __future__ import annotations

import json

import pytest

from tapeviz.models.descent.optimizer_config import PALETTE, OptimizerConfig, RunConfig
from tapeviz.models.descent.studio_config import StudioConfig


def test_round_trip_through_json() -> None:
    cfg = StudioConfig(
        (
            RunConfig(OptimizerConfig("Adam", {"learning_rate": 0.05}), PALETTE[2], "fast"),
            RunConfig(OptimizerConfig("Nesterov"), PALETTE[1]),
        ),
        steps=1234,
        speed=25,
        log_scale=False,
        selected=1,
        x_range=(-2, 2),
        y_range=(-1, 3),
        slice=("x", "z"),
    )
    doc = json.loads(json.dumps(cfg.to_dict()))
    assert StudioConfig.from_dict(doc) == cfg
    assert StudioConfig.from_dict({}) == StudioConfig()


def test_runs_can_be_added_and_removed() -> None:
    cfg = StudioConfig().with_added_run(OptimizerConfig("Adam")).with_added_run()
    assert [r.color for r in cfg.runs] == list(PALETTE[:3])
    assert cfg.selected == 2 and cfg.run.optimizer.kind == "Adam"
    cfg = cfg.without_run(0)
    assert len(cfg.runs) == 2 and cfg.selected == 1
    with pytest.raises(ValueError, match="at least one"):
        StudioConfig().without_run(0)


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ([], "expected an object"),
        ({"runs": []}, "runs"),
        ({"runs": [{}] * 7}, "at most 6"),
        ({"runs": [{"optimizer": "LBFGS"}]}, "run 1: unknown optimizer"),
        ({"runs": [{"optimizer": "SGD", "hyperparameters": {"learning_rate": -1}}]}, "run 1"),
        ({"runs": [{"color": "red"}]}, "#RRGGBB"),
        ({"runs": [{"optimizer": "SGD", "evil": 1}]}, "unknown field evil"),
        ({"steps": 0}, "steps"),
        ({"steps": 1.5}, "whole number"),
        ({"steps": True}, "whole number"),
        ({"speed": "fast"}, "speed"),
        ({"speed": 1e9}, "speed"),
        ({"log_scale": "yes"}, "log_scale"),
        ({"selected": 3}, "selected"),
        ({"x_range": [2, 1]}, "x_range"),
        ({"y_range": [0, float("inf")]}, "y_range"),
        ({"slice": ["x", "x"]}, "slice"),
        ({"unknown": 1}, "unknown field"),
    ],
)
def test_bad_data_raises_value_error(doc: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        StudioConfig.from_dict(doc)
