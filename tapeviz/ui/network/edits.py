"""What each control does to the settings: pure functions of a NetworkConfig (no widgets).

Each returns new, validated settings or raises ValueError saying why not (the panel shows the
message and keeps the last good settings).
"""

from __future__ import annotations

from tapeviz.models.descent.optimizer_config import OptimizerConfig
from tapeviz.models.network.config import CLASSIFY, MAX_LAYERS, MAX_NEURONS, REGRESS, NetworkConfig

NEW_LAYER = 2  # neurons in a hidden layer added with + (Playground's)


def toggled(c: NetworkConfig, name: str) -> NetworkConfig:
    """Input ``name`` switched on, or off (the last input stays on: ValueError)."""
    on = c.net.features
    return c.with_net(features=tuple(f for f in on if f != name) if name in on else (*on, name))


def with_layers(c: NetworkConfig, delta: int) -> NetworkConfig:
    """One hidden layer more (+1, of NEW_LAYER neurons) or fewer (−1, the last)."""
    hidden = c.net.hidden
    if delta > 0:
        if len(hidden) >= MAX_LAYERS:
            raise ValueError(f"hidden: at most {MAX_LAYERS} hidden layers")
        return c.with_net(hidden=(*hidden, NEW_LAYER))
    if not hidden:
        raise ValueError("hidden: there is no hidden layer to remove")
    return c.with_net(hidden=hidden[:-1])


def with_neurons(c: NetworkConfig, layer: int, delta: int) -> NetworkConfig:
    """One neuron more or fewer in hidden layer ``layer`` (1 to MAX_NEURONS)."""
    hidden = list(c.net.hidden)
    if not 0 <= layer < len(hidden):
        raise ValueError(f"hidden: there is no hidden layer {layer + 1}")
    n = hidden[layer] + delta
    if not 1 <= n <= max(MAX_NEURONS, hidden[layer]):
        raise ValueError(f"hidden: a layer has 1 to {MAX_NEURONS} neurons")
    hidden[layer] = n
    return c.with_net(hidden=tuple(hidden))


def with_lr(c: NetworkConfig, lr: float) -> NetworkConfig:
    """Every run's learning rate set to ``lr``."""
    opts = tuple(o.with_value("learning_rate", lr) for o in c.train.optimizers)
    return c.with_train(optimizers=opts)


def with_kind(c: NetworkConfig, kind: str) -> NetworkConfig:
    """One run, of optimizer ``kind`` (keeping the learning rate)."""
    return c.with_train(optimizers=(c.train.optimizers[0].with_kind(kind),))


def with_race(c: NetworkConfig, kinds: tuple[str, ...]) -> NetworkConfig:
    """A race of ``kinds`` (2 to 6, the same learning rate); fewer: one run."""
    lr = c.train.learning_rate
    if len(kinds) >= 2:
        return c.with_train(optimizers=tuple(OptimizerConfig(k, {"learning_rate": lr})
                                             for k in kinds))  # fmt: skip
    first = c.train.optimizers[0]
    return c.with_train(optimizers=(first.with_kind(kinds[0]) if kinds else first,))


def with_problem(c: NetworkConfig, problem: str) -> NetworkConfig:
    """The first data set of ``problem`` (circle or plane) unless the data already pose it."""
    if problem == c.problem:
        return c
    return c.with_data(dataset=CLASSIFY[0] if problem == "classification" else REGRESS[0])
