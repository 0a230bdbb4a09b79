"""λmax by power iteration on nested-tape Hessian-vector products vs a dense Hessian (autograd)."""

from __future__ import annotations

import autograd
import autograd.numpy as anp
import numpy as np
import pytest

import tapeviz.models.network.curvature as curvature
from tapeviz.models.network.config import DataConfig, NetConfig, NetworkConfig, TrainConfig
from tapeviz.models.network.curvature import hessian_vector_product, lambda_max
from tapeviz.models.network.datasets import make_dataset
from tapeviz.models.network.trainer import Trainer, initial_weights

ACT = {"tanh": anp.tanh, "sigmoid": lambda z: 1 / (1 + anp.exp(-z)), "linear": lambda z: z}


def dense_hessian(t: Trainer) -> np.ndarray:
    """The full-training-set loss (data + L2) written in autograd.numpy; its exact Hessian."""
    spec = t.spec
    x, y = (np.asarray(a, np.float64) for a in t.arrays("train"))
    shapes, offsets = spec.layout.shapes, spec.layout.offsets

    def loss(theta: np.ndarray) -> float:
        p = [anp.reshape(theta[offsets[i] : offsets[i + 1]], s) for i, s in enumerate(shapes)]
        a = x
        for i, act in enumerate(spec.activations):
            a = ACT[act](anp.dot(a, p[2 * i]) + p[2 * i + 1])
        total = anp.mean(0.5 * (a - y) ** 2)
        if spec.regularization == "L2":
            total = total + 0.5 * spec.reg_rate * sum(anp.sum(w**2) for w in p[0::2])
        return total

    return autograd.hessian(loss)(np.asarray(t.flat, np.float64))


@pytest.mark.parametrize(
    ("dataset", "hidden", "act", "reg"),
    [
        ("circle", (3,), "tanh", "L2"),
        ("plane", (2, 2), "sigmoid", "none"),
        ("xor", (), "linear", "L2"),
    ],
)
def test_lambda_max_matches_the_dense_hessian(
    dataset: str, hidden: tuple[int, ...], act: str, reg: str
) -> None:
    config = NetworkConfig(
        DataConfig(dataset, points=80, noise=0.1),
        NetConfig(("x1", "x2", "x1sq"), hidden, act, reg, 0.05, weight_seed=2),
        TrainConfig(batch_size=10),
    )
    t = Trainer(config, make_dataset(config.data), initial_weights(config.net))
    t.train_steps(20)
    h = dense_hessian(t)
    eig = np.linalg.eigvalsh((h + h.T) / 2)
    want = float(np.abs(eig).max())
    v = np.random.default_rng(5).standard_normal(len(h))
    assert np.allclose(hessian_vector_product(t, v), h @ v, rtol=1e-7, atol=1e-9)
    assert lambda_max(t, iterations=5000, tol=1e-12) == pytest.approx(want, rel=1e-3)
    assert lambda_max(t) == pytest.approx(want, rel=0.05)  # the defaults: a few % in 30 steps


def test_lambda_max_is_deterministic() -> None:
    config = NetworkConfig()
    t = Trainer(config, make_dataset(config.data), initial_weights(config.net))
    t.train_steps(50)
    assert lambda_max(t) == lambda_max(t) > 0


def test_lambda_max_calls_between_before_each_iteration() -> None:
    """A training thread lets the window draw there; the estimate is unchanged by it."""
    config = NetworkConfig()
    t = Trainer(config, make_dataset(config.data), initial_weights(config.net))
    t.train_steps(50)
    calls: list[int] = []
    products: list[int] = []
    real = curvature.hessian_vector_product

    def counted(*args: object) -> np.ndarray:
        products.append(len(calls))
        return real(*args)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(curvature, "hessian_vector_product", counted)
        lam = lambda_max(t, between=lambda: calls.append(1))
    assert lam == lambda_max(t)
    assert products == list(range(1, len(products) + 1)) and len(calls) == len(products) > 1
