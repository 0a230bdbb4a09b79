"""The Network view's presets do what Playground's and micrograd's demos show."""

from __future__ import annotations

import pytest

from tapeviz.models.network.config import NetworkConfig
from tapeviz.models.network.datasets import make_dataset
from tapeviz.models.network.presets import NOTES, PRESETS, TITLES, preset
from tapeviz.models.network.trainer import Trainer, initial_weights


def trained(name: str, epochs: int) -> Trainer:
    config = PRESETS[name]
    t = Trainer(config, make_dataset(config.data), initial_weights(config.net))
    for _ in range(epochs):
        t.train_epoch()
    return t


def test_registry() -> None:
    assert list(PRESETS) == [
        "circle_linear", "circle_squares", "xor_product", "xor_hidden", "spiral_deep",
        "moons_micrograd", "playground_default",
    ]  # fmt: skip
    assert list(TITLES) == list(NOTES) == list(PRESETS)
    assert PRESETS["playground_default"] == NetworkConfig()
    for config in PRESETS.values():
        assert NetworkConfig.from_dict(config.to_dict()) == config
    with pytest.raises(KeyError, match="circle_linear"):
        preset("nope")


def test_circle_needs_the_squares() -> None:
    # Measured: x1, x2 stays at 0.496 (seed 0) from epoch 50 on; x1², x2² reaches 0.005 by 100.
    linear = trained("circle_linear", 300)
    assert linear.history[-1].train_loss > 0.4
    assert linear.accuracy(linear.data.test_x, linear.data.test_y) < 0.75
    squares = trained("circle_squares", 100)
    assert squares.history[-1].train_loss < 0.02 and squares.history[-1].test_loss < 0.02
    assert squares.accuracy(squares.data.test_x, squares.data.test_y) == 1.0


def test_xor_needs_the_product_or_a_hidden_layer() -> None:
    assert trained("xor_product", 100).history[-1].train_loss < 0.02  # measured 0.004
    assert trained("xor_hidden", 300).history[-1].train_loss < 0.1  # measured 0.042


def test_spiral_deep_reaches_a_low_loss() -> None:
    t = trained("spiral_deep", 300)  # measured 0.010 train, 0.015 test
    assert t.history[-1].train_loss < 0.05 and t.history[-1].test_loss < 0.08


def test_moons_micrograd_separates_the_moons_in_100_steps() -> None:
    config = PRESETS["moons_micrograd"]
    t = Trainer(config, make_dataset(config.data), initial_weights(config.net))
    assert t.steps_per_epoch == 1 and len(t.data.train_y) == 90 and len(t.data.test_y) == 10
    t.train_steps(100)
    assert t.accuracy(t.data.train_x, t.data.train_y) == 1.0  # micrograd's demo: 100 %
    assert t.step_losses[-1] < 0.05 < t.step_losses[0]
    assert t.history[-1].learning_rate == pytest.approx(1.0 - 0.9 * 99 / 100)
