"""A recorded step's gradient equals backpropagation derived by hand (numpy, float64)."""

from __future__ import annotations

import numpy as np
import pytest

from tapeviz.models.network.config import DataConfig, NetConfig, NetworkConfig, TrainConfig
from tapeviz.models.network.datasets import make_dataset
from tapeviz.models.network.features import feature_columns
from tapeviz.models.network.trainer import Trainer, initial_weights

ACT = {
    "tanh": (np.tanh, lambda z, a: 1 - a * a),
    "relu": (lambda z: np.maximum(z, 0), lambda z, a: (z > 0).astype(float)),
    "sigmoid": (lambda z: 1 / (1 + np.exp(-z)), lambda z, a: a * (1 - a)),
    "linear": (lambda z: z, lambda z, a: np.ones_like(z)),
}


def by_hand(t: Trainer, step: int) -> np.ndarray:
    """Backpropagation as a lecturer writes it: δ = σ'(z) ⊙ δ'Wᵀ, ∂L/∂W = xᵀδ, ∂L/∂b = Σδ."""
    spec = t.spec
    params = [np.asarray(a, np.float64) for pair in t.weights_at(step) for a in pair]
    xb, yb = t.batch_of(step)
    x = feature_columns(np.asarray(xb, np.float32), t.config.net.features).astype(np.float64)
    y = np.asarray(yb, np.float32).astype(np.float64).reshape(-1, 1)
    acts, zs = [x], []
    for i, act in enumerate(spec.activations):
        zs.append(acts[-1] @ params[2 * i] + params[2 * i + 1])
        acts.append(ACT[act][0](zs[-1]))
    o, n = acts[-1], len(y)
    delta = (o - y) / n if spec.loss == "square" else np.where(1 - y * o > 0, -y, 0.0) / n
    grads: list[np.ndarray] = [np.empty(0)] * len(params)
    for i in reversed(range(len(spec.activations))):
        delta = delta * ACT[spec.activations[i]][1](zs[i], acts[i + 1])
        grads[2 * i] = acts[i].T @ delta
        grads[2 * i + 1] = delta.sum(axis=0)
        delta = delta @ params[2 * i].T
    for i in range(0, len(params), 2):
        if spec.regularization == "L2":
            grads[i] = grads[i] + spec.reg_rate * params[i]
        elif spec.regularization == "L1":
            grads[i] = grads[i] + spec.reg_rate * np.sign(params[i])
    return np.concatenate([g.ravel() for g in grads])


CASES = [
    ("circle", "tanh", "square", "none", 0.0),
    ("circle", "tanh", "square", "L2", 0.03),
    ("xor", "relu", "hinge", "L1", 0.01),
    ("gauss", "sigmoid", "hinge", "L2", 0.1),
    ("plane", "tanh", "square", "L1", 0.003),  # regression: a linear output
    ("spiral", "linear", "square", "none", 0.0),
]


@pytest.mark.parametrize(("dataset", "act", "loss", "reg", "rate"), CASES)
def test_recorded_gradient_matches_backprop_by_hand(
    dataset: str, act: str, loss: str, reg: str, rate: float
) -> None:
    config = NetworkConfig(
        DataConfig(dataset, points=60, noise=0.1),
        NetConfig(("x1", "x2", "x1x2"), (3, 2), act, reg, rate, loss, weight_seed=3),
        TrainConfig(batch_size=8),
    )
    t = Trainer(config, make_dataset(config.data), initial_weights(config.net))
    t.train_steps(5)
    for k in (0, 3, 5):
        tape = t.record_step(k)
        got = np.concatenate(
            [np.asarray(g, np.float64).ravel() for g in tape.gradient_calls[0].results]
        )
        want = by_hand(t, k)
        assert np.allclose(got, want, rtol=1e-4, atol=1e-6), np.abs(got - want).max()


def test_recorded_loss_includes_the_penalty() -> None:
    config = NetworkConfig(net=NetConfig(regularization="L2", reg_rate=0.5))
    t = Trainer(config, make_dataset(config.data), initial_weights(config.net))
    loss = t.train_step()
    kernels = sum(float(np.sum(np.asarray(w, np.float64) ** 2)) for w, _ in t.weights_at(0))
    tape = t.record_step(0)
    assert float(np.asarray(tape.records[-1].outputs[0])) == pytest.approx(loss)
    data_loss = float(np.asarray(tape.records[-1].inputs[0]))  # add(data loss, penalty)
    assert loss == pytest.approx(data_loss + 0.5 * 0.5 * kernels, rel=1e-5)
