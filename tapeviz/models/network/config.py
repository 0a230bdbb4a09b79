"""The Network view's settings: data, network, training (JSON-safe, validated, no Qt).

Names and defaults follow TensorFlow Playground (``playground/src/state.ts``): circle data,
inputs x₁ and x₂, hidden layers 4-2, tanh, learning rate 0.03, batch 10, 50 % training data,
square error. ``NetworkConfig.to_dict()`` is what a session stores under ``"network"``;
``NetworkConfig.from_dict(doc)`` validates untrusted data and raises ValueError saying what is
wrong (sessions come from files).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, replace
from typing import Any

from tapeviz.models.descent.optimizer_config import KINDS, MAX_RUNS, OptimizerConfig

CLASSIFY = ("circle", "xor", "gauss", "spiral", "moons")
REGRESS = ("plane", "multigauss")
DATASETS = CLASSIFY + REGRESS + ("custom",)
# Input features in Playground's order; the label each shows and the formula of its column.
FEATURES = ("x1", "x2", "x1sq", "x2sq", "x1x2", "sinx1", "sinx2")
FEATURE_LABELS = {
    "x1": "x₁", "x2": "x₂", "x1sq": "x₁²", "x2sq": "x₂²", "x1x2": "x₁x₂",
    "sinx1": "sin x₁", "sinx2": "sin x₂",
}  # fmt: skip
ACTIVATIONS = ("relu", "tanh", "sigmoid", "linear")
REGULARIZATIONS = ("none", "L1", "L2")
PROBLEMS = ("classification", "regression")
LOSSES = ("square", "hinge")  # Playground's ½(o−t)²; micrograd's max-margin max(0, 1 − t·o)
INITS = ("playground", "micrograd")  # U(−0.5, 0.5) and bias 0.1; U(−1, 1) and bias 0
DECAYS = ("none", "linear")  # micrograd: lr·(1 − 0.9·epoch/epochs)
MAX_LAYERS, MAX_NEURONS = 6, 8  # hidden layers, neurons per hidden layer (Playground's)
MAX_WIDE_NEURONS = 16  # a preset or a session may ask for up to 16 (micrograd's 2-16-16-1)
MAX_POINTS, MAX_CUSTOM = 2000, 5000
MAX_EPOCHS = 100_000


def _number(doc: Any, name: str, low: float, high: float) -> float:
    if isinstance(doc, bool) or not isinstance(doc, int | float) or not math.isfinite(doc):
        raise ValueError(f"{name}: expected a number, got {doc!r:.30}")
    if not low <= doc <= high:
        raise ValueError(f"{name}: must be between {low:g} and {high:g}, got {doc:g}")
    return float(doc)


def _whole(doc: Any, name: str, low: int, high: int) -> int:
    if isinstance(doc, bool) or not isinstance(doc, int):
        raise ValueError(f"{name}: expected a whole number, got {doc!r:.30}")
    if not low <= doc <= high:
        raise ValueError(f"{name}: must be between {low:,} and {high:,}, got {doc:,}")
    return doc


def _choice(doc: Any, name: str, options: tuple[str, ...]) -> str:
    if doc not in options:
        raise ValueError(f"{name}: choose one of {', '.join(options)}, got {doc!r:.30}")
    return str(doc)


@dataclass(frozen=True)
class DataConfig:
    """Which points: a generator, its noise and seed, the share kept for training."""

    dataset: str = "circle"
    noise: float = 0.0  # 0 … 0.5 (Playground's slider shows 0 … 50)
    train_ratio: float = 0.5  # 0.1 … 0.9
    points: int = 500  # generated in all (train + test)
    seed: int = 0
    # The user's own points (x₁, x₂, label), from a script's arrays, when ``dataset == "custom"``.
    custom: tuple[tuple[float, float, float], ...] = ()

    def __post_init__(self) -> None:
        _choice(self.dataset, "dataset", DATASETS)
        object.__setattr__(self, "noise", _number(self.noise, "noise", 0.0, 0.5))
        object.__setattr__(self, "train_ratio", _number(self.train_ratio, "train_ratio", 0.1, 0.9))
        _whole(self.points, "points", 10, MAX_POINTS)
        _whole(self.seed, "seed", 0, 2**32 - 1)
        rows = tuple(tuple(float(v) for v in row) for row in self.custom)
        if len(rows) > MAX_CUSTOM:
            raise ValueError(f"custom: at most {MAX_CUSTOM:,} points, got {len(rows):,}")
        if any(len(r) != 3 or not all(math.isfinite(v) for v in r) for r in rows):
            raise ValueError("custom: every point is three finite numbers (x₁, x₂, label)")
        if self.dataset == "custom" and len(rows) < 4:
            raise ValueError("custom: a data set of your own needs at least 4 points")
        object.__setattr__(self, "custom", rows)

    @property
    def problem(self) -> str:
        """``classification`` or ``regression``: what the data set is for."""
        if self.dataset == "custom":
            labels = {r[2] for r in self.custom}
            return "classification" if labels <= {-1.0, 1.0} else "regression"
        return "classification" if self.dataset in CLASSIFY else "regression"


@dataclass(frozen=True)
class NetConfig:
    """The network: inputs, hidden layers, activations, loss, regularisation, first weights."""

    features: tuple[str, ...] = ("x1", "x2")
    hidden: tuple[int, ...] = (4, 2)
    activation: str = "tanh"
    regularization: str = "none"
    reg_rate: float = 0.0
    loss: str = "square"
    init: str = "playground"
    weight_seed: int = 0  # the first weights: the same seed gives the same weights, bit for bit

    def __post_init__(self) -> None:
        feats = tuple(self.features)
        for f in feats:
            _choice(f, "features", FEATURES)
        if not feats:
            raise ValueError("features: switch on at least one input")
        # Playground's order, whatever order they were switched on in.
        object.__setattr__(self, "features", tuple(f for f in FEATURES if f in feats))
        hidden = tuple(self.hidden)
        if len(hidden) > MAX_LAYERS:
            raise ValueError(f"hidden: at most {MAX_LAYERS} hidden layers, got {len(hidden)}")
        for n in hidden:
            _whole(n, "hidden", 1, MAX_WIDE_NEURONS)
        object.__setattr__(self, "hidden", hidden)
        _choice(self.activation, "activation", ACTIVATIONS)
        _choice(self.regularization, "regularization", REGULARIZATIONS)
        object.__setattr__(self, "reg_rate", _number(self.reg_rate, "reg_rate", 0.0, 10.0))
        _choice(self.loss, "loss", LOSSES)
        _choice(self.init, "init", INITS)
        _whole(self.weight_seed, "weight_seed", 0, 2**32 - 1)

    @property
    def sizes(self) -> tuple[int, ...]:
        """Neurons per layer, inputs first, the single output last: ``(2, 4, 2, 1)``."""
        return (len(self.features), *self.hidden, 1)

    def output_activation(self, problem: str) -> str:
        """``tanh`` for Playground's classification (labels ±1), else ``linear``."""
        return "tanh" if problem == "classification" and self.loss == "square" else "linear"


def _default_optimizers() -> tuple[OptimizerConfig, ...]:
    return (OptimizerConfig("SGD", {"learning_rate": 0.03}),)


@dataclass(frozen=True)
class TrainConfig:
    """How it learns: the optimizer(s) raced from the same first weights, batch size, decay."""

    optimizers: tuple[OptimizerConfig, ...] = field(default_factory=_default_optimizers)
    batch_size: int = 10
    decay: str = "none"
    decay_epochs: int = 100  # linear decay reaches 0.1·lr after this many epochs

    def __post_init__(self) -> None:
        opts = tuple(self.optimizers)
        if not 1 <= len(opts) <= MAX_RUNS:
            raise ValueError(f"optimizers: between 1 and {MAX_RUNS}, got {len(opts)}")
        if not all(isinstance(o, OptimizerConfig) for o in opts):
            raise ValueError("optimizers: expected optimizer settings")
        object.__setattr__(self, "optimizers", opts)
        _whole(self.batch_size, "batch_size", 1, MAX_POINTS)
        _choice(self.decay, "decay", DECAYS)
        _whole(self.decay_epochs, "decay_epochs", 1, MAX_EPOCHS)

    @property
    def learning_rate(self) -> float:
        """The first optimizer's learning rate (what the control shows)."""
        return self.optimizers[0].learning_rate


@dataclass(frozen=True)
class NetworkConfig:
    """Everything the Network view's controls set; ``problem`` follows the data set."""

    data: DataConfig = field(default_factory=DataConfig)
    net: NetConfig = field(default_factory=NetConfig)
    train: TrainConfig = field(default_factory=TrainConfig)

    @property
    def problem(self) -> str:
        """``classification`` or ``regression``."""
        return self.data.problem

    def with_data(self, **changes: Any) -> NetworkConfig:
        """The same settings with some data fields changed (validated)."""
        return replace(self, data=replace(self.data, **changes))

    def with_net(self, **changes: Any) -> NetworkConfig:
        """The same settings with some network fields changed (validated)."""
        return replace(self, net=replace(self.net, **changes))

    def with_train(self, **changes: Any) -> NetworkConfig:
        """The same settings with some training fields changed (validated)."""
        return replace(self, train=replace(self.train, **changes))

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (lists for tuples)."""
        data = {f.name: getattr(self.data, f.name) for f in fields(DataConfig)}
        data["custom"] = [list(r) for r in self.data.custom]
        net = {f.name: getattr(self.net, f.name) for f in fields(NetConfig)}
        net["features"], net["hidden"] = list(self.net.features), list(self.net.hidden)
        train = {
            "optimizers": [o.to_dict() for o in self.train.optimizers],
            "batch_size": self.train.batch_size,
            "decay": self.train.decay,
            "decay_epochs": self.train.decay_epochs,
        }
        return {"data": data, "net": net, "train": train}

    @staticmethod
    def from_dict(doc: Any) -> NetworkConfig:
        """Validate untrusted data (a session file); ValueError says what is wrong."""
        if not isinstance(doc, dict):
            raise ValueError("network: expected an object")
        unknown = set(doc) - {"data", "net", "train"}
        if unknown:
            raise ValueError(f"network: unknown field {', '.join(sorted(unknown))}")
        try:
            data = DataConfig(**_fields(doc.get("data", {}), DataConfig, "data"))
            net = NetConfig(**_fields(doc.get("net", {}), NetConfig, "net"))
            train_doc = dict(_fields(doc.get("train", {}), TrainConfig, "train"))
            if "optimizers" in train_doc:
                train_doc["optimizers"] = tuple(
                    _optimizer(o, i) for i, o in enumerate(_list(train_doc["optimizers"]))
                )
            return NetworkConfig(data, net, TrainConfig(**train_doc))
        except TypeError as exc:  # a list where a number belongs, ...
            raise ValueError(f"network: {exc}") from None


def _list(doc: Any) -> list[Any]:
    if not isinstance(doc, list):
        raise ValueError(f"expected a list, got {type(doc).__name__}")
    return doc


def _fields(doc: Any, cls: type, where: str) -> dict[str, Any]:
    if not isinstance(doc, dict):
        raise ValueError(f"network.{where}: expected an object")
    names = [f.name for f in fields(cls)]
    unknown = [k for k in doc if k not in names]
    if unknown:
        raise ValueError(f"network.{where}: unknown field {', '.join(sorted(map(str, unknown)))}")
    out = dict(doc)
    for key in ("features", "hidden", "custom"):
        if key in out:
            out[key] = tuple(tuple(_list(r)) if key == "custom" else r for r in _list(out[key]))
    return out


def _optimizer(doc: Any, i: int) -> OptimizerConfig:
    if not isinstance(doc, dict) or not isinstance(doc.get("optimizer", "SGD"), str):
        raise ValueError(f"network.train.optimizers[{i}]: expected {{'optimizer': name, ...}}")
    kind = doc.get("optimizer", "SGD")
    if kind not in KINDS:
        raise ValueError(f"network.train.optimizers[{i}]: unknown optimizer {kind!r:.30}")
    values = doc.get("hyperparameters", {})
    if not isinstance(values, dict):
        raise ValueError(f"network.train.optimizers[{i}]: hyperparameters must be an object")
    return OptimizerConfig(kind, values)
