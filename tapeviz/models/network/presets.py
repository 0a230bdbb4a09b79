"""The Network view's presets: Playground's classic demos and micrograd's moons demo (no Qt).

``PRESETS`` maps a short id to its settings, in the order the menu lists them; ``TITLES`` and
``NOTES`` give each a title and a one-line explanation (English; the UI translates them).
"""

from __future__ import annotations

from tapeviz.models.descent.optimizer_config import OptimizerConfig
from tapeviz.models.network.config import (
    FEATURES,
    DataConfig,
    NetConfig,
    NetworkConfig,
    TrainConfig,
)


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    """Mark a text for Qt's translation tools (this layer never imports Qt)."""
    return text


def _sgd(lr: float) -> tuple[OptimizerConfig, ...]:
    return (OptimizerConfig("SGD", {"learning_rate": lr}),)


PRESETS: dict[str, NetworkConfig] = {
    "circle_linear": NetworkConfig(
        DataConfig("circle"), NetConfig(features=("x1", "x2"), hidden=())
    ),
    "circle_squares": NetworkConfig(
        DataConfig("circle"), NetConfig(features=("x1sq", "x2sq"), hidden=())
    ),
    "xor_product": NetworkConfig(DataConfig("xor"), NetConfig(features=("x1x2",), hidden=())),
    "xor_hidden": NetworkConfig(DataConfig("xor"), NetConfig(features=("x1", "x2"), hidden=(4,))),
    "spiral_deep": NetworkConfig(
        DataConfig("spiral"),
        NetConfig(features=FEATURES, hidden=(8,) * 6, activation="tanh"),
        TrainConfig(_sgd(0.02)),
    ),
    "moons_micrograd": NetworkConfig(
        DataConfig("moons", noise=0.1, train_ratio=0.9, points=100),
        NetConfig(
            features=("x1", "x2"),
            hidden=(16, 16),
            activation="relu",
            regularization="L2",
            reg_rate=2e-4,  # micrograd's α·Σp² with α = 1e-4 is ½·2e-4·Σw² on the weights
            loss="hinge",
            init="micrograd",
        ),
        TrainConfig(_sgd(1.0), batch_size=90, decay="linear", decay_epochs=100),
    ),
    "playground_default": NetworkConfig(),
}

_C = "NetworkPresets"
TITLES: dict[str, str] = {
    "circle_linear": QT_TRANSLATE_NOOP(_C, "Circle, no hidden layer, x₁ and x₂"),
    "circle_squares": QT_TRANSLATE_NOOP(_C, "Circle, no hidden layer, x₁² and x₂²"),
    "xor_product": QT_TRANSLATE_NOOP(_C, "XOR from the feature x₁x₂"),
    "xor_hidden": QT_TRANSLATE_NOOP(_C, "XOR with a hidden layer"),
    "spiral_deep": QT_TRANSLATE_NOOP(_C, "Spiral: six layers of eight"),
    "moons_micrograd": QT_TRANSLATE_NOOP(_C, "micrograd's moons demo"),
    "playground_default": QT_TRANSLATE_NOOP(_C, "Playground's default"),
}
NOTES: dict[str, str] = {
    "circle_linear": QT_TRANSLATE_NOOP(
        _C,
        "One neuron on x₁ and x₂ draws a straight line: it cannot separate a disc from a ring, "
        "so the loss stays near 0.5.",
    ),
    "circle_squares": QT_TRANSLATE_NOOP(
        _C,
        "The same single neuron on x₁² and x₂² draws a circle: the loss falls close to 0 "
        "within a few dozen epochs.",
    ),
    "xor_product": QT_TRANSLATE_NOOP(
        _C, "x₁x₂ is positive exactly where XOR's label is: one neuron on it is enough."
    ),
    "xor_hidden": QT_TRANSLATE_NOOP(
        _C, "From x₁ and x₂ alone, XOR needs a hidden layer: four tanh neurons learn it."
    ),
    "spiral_deep": QT_TRANSLATE_NOOP(
        _C,
        "Two interleaved spirals need depth: all seven features into six tanh layers of "
        "eight, SGD at 0.02, reach a low loss in about 300 epochs.",
    ),
    "moons_micrograd": QT_TRANSLATE_NOOP(
        _C,
        "micrograd's demo: 100 moons points, 2-16-16-1 ReLU, max-margin loss + L2, SGD with "
        "lr 1 → 0.1 over 100 full-batch steps. 10 points are kept as a test set for the view "
        "(micrograd trains on all 100); the L2 term penalises the weights, not the biases.",
    ),
    "playground_default": QT_TRANSLATE_NOOP(
        _C, "Circle data, x₁ and x₂, hidden layers 4-2, tanh, SGD at 0.03, batches of 10."
    ),
}


def preset(name: str) -> NetworkConfig:
    """The preset called ``name`` (KeyError listing the ids otherwise)."""
    try:
        return PRESETS[name]
    except KeyError:
        raise KeyError(f"no network preset {name!r}; choose one of {', '.join(PRESETS)}") from None
