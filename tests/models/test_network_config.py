"""The Network view's settings: JSON round trip, validation of hostile documents."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from tapeviz.models.descent.optimizer_config import OptimizerConfig
from tapeviz.models.network.config import (
    DataConfig,
    NetConfig,
    NetworkConfig,
    TrainConfig,
)


def test_defaults_are_playgrounds() -> None:
    c = NetworkConfig()
    assert (c.data.dataset, c.data.noise, c.data.train_ratio) == ("circle", 0.0, 0.5)
    assert (c.net.features, c.net.hidden, c.net.activation) == (("x1", "x2"), (4, 2), "tanh")
    assert (c.train.learning_rate, c.train.batch_size) == (0.03, 10)
    assert c.net.sizes == (2, 4, 2, 1) and c.problem == "classification"
    assert c.net.output_activation("classification") == "tanh"
    assert NetConfig(loss="hinge").output_activation("classification") == "linear"
    assert c.net.output_activation("regression") == "linear"


def test_round_trip_through_json() -> None:
    c = NetworkConfig(
        DataConfig("custom", custom=((0.0, 1.0, 1.0), (1.0, 0.0, -1.0), (2, 2, 1), (3, 1, -1))),
        NetConfig(("sinx2", "x1"), (8, 1, 3), "relu", "L1", 0.003, "hinge", "micrograd", 9),
        TrainConfig(
            (OptimizerConfig("Adam", {"learning_rate": 0.01}), OptimizerConfig("Nesterov")),
            batch_size=3, decay="linear", decay_epochs=7,
        ),
    )  # fmt: skip
    doc = json.loads(json.dumps(c.to_dict()))
    assert NetworkConfig.from_dict(doc) == c
    assert c.net.features == ("x1", "sinx2")  # Playground's order
    assert NetworkConfig.from_dict({}) == NetworkConfig()


HOSTILE: list[Any] = [
    None,
    [],
    "network",
    {"extra": 1},
    {"data": 5},
    {"data": {"dataset": "mnist"}},
    {"data": {"noise": math.nan}},
    {"data": {"noise": 0.9}},
    {"data": {"noise": "0.1"}},
    {"data": {"points": True}},
    {"data": {"points": 10**9}},
    {"data": {"seed": -1}},
    {"data": {"train_ratio": 1.0}},
    {"data": {"custom": 5}},
    {"data": {"custom": [[1, 2]]}},
    {"data": {"custom": [[1, 2, math.inf]]}},
    {"data": {"custom": [["a", 1, 2]]}},
    {"data": {"custom": [[None, 1, 2]]}},
    {"data": {"custom": [[1, 2, 1]] * 5001}},
    {"data": {"dataset": "custom", "custom": [[1, 2, 1]]}},
    {"data": {"unknown": 1}},
    {"net": {"features": []}},
    {"net": {"features": "x1"}},
    {"net": {"features": ["x3"]}},
    {"net": {"hidden": [9] * 7}},
    {"net": {"hidden": [0]}},
    {"net": {"hidden": [17]}},
    {"net": {"hidden": [1.5]}},
    {"net": {"hidden": [[1]]}},
    {"net": {"activation": "softmax"}},
    {"net": {"regularization": "L3"}},
    {"net": {"reg_rate": -1}},
    {"net": {"loss": "cross_entropy"}},
    {"net": {"init": "glorot"}},
    {"net": {"weight_seed": 2**40}},
    {"train": {"optimizers": []}},
    {"train": {"optimizers": "SGD"}},
    {"train": {"optimizers": [{"optimizer": "LBFGS"}]}},
    {"train": {"optimizers": [{"optimizer": 3}]}},
    {"train": {"optimizers": [5]}},
    {"train": {"optimizers": [{"optimizer": "SGD", "hyperparameters": []}]}},
    {"train": {"optimizers": [{"optimizer": "SGD", "hyperparameters": {"learning_rate": -1}}]}},
    {"train": {"optimizers": [{"optimizer": "SGD", "hyperparameters": {"beta": 1}}]}},
    {"train": {"optimizers": [{"optimizer": "SGD"}] * 7}},
    {"train": {"batch_size": 0}},
    {"train": {"decay": "cosine"}},
    {"train": {"decay_epochs": 0}},
    {"train": {"epochs": 3}},
]


@pytest.mark.parametrize("doc", HOSTILE, ids=lambda d: json.dumps(d, default=str)[:60])
def test_hostile_documents_raise_value_error(doc: Any) -> None:
    with pytest.raises(ValueError):
        NetworkConfig.from_dict(doc)
