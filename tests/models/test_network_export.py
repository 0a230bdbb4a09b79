"""Network export: the Keras and PyTorch scripts train to the Network view's numbers.

Each script runs through tapeviz's sandbox (``import tensorflow`` / ``import torch`` bound to
tapeviz.tf / tapeviz.torch); its printed per-epoch losses are compared with ``Reference``, a small
numpy trainer written here from the semantics alone: float32 throughout; features in Playground's
order; dense layers ``a = act(a_prev @ W + b)``; mean square ½(o − y)² or hinge max(0, 1 − y·o)
loss per batch plus rate·Σ½w² (L2) or rate·Σ|w| (L1) over the kernels; consecutive batches in the
stored order, the last one partial; Keras 3's optimizer rules; linear decay
``lr·(1 − 0.9·min(e, E)/E)`` during epoch e; the mean data loss (no regulariser) over the whole
training and test sets, before training and after every epoch. The scripts are also run against
the Network view's own ``Trainer`` on its data sets, first weights and presets.
"""

from __future__ import annotations

import ast
import importlib.util
import itertools
import re
import subprocess
import sys
from collections.abc import Callable

import numpy as np
import pytest

from tapeviz.models.descent.optimizer_config import OptimizerConfig
from tapeviz.models.network.config import DataConfig, NetConfig, NetworkConfig, TrainConfig
from tapeviz.models.network.export import keras_script, torch_script
from tapeviz.models.network.presets import PRESETS
from tapeviz.sandbox import Limits, run

F = np.float32
Act = tuple[Callable[[np.ndarray], np.ndarray], Callable[[np.ndarray, np.ndarray], np.ndarray]]
ACTS: dict[str, Act] = {
    "relu": (lambda z: np.maximum(z, F(0)), lambda z, a: (z > 0).astype(np.float32)),
    "tanh": (np.tanh, lambda z, a: F(1) - a * a),
    "sigmoid": (lambda z: F(1) / (F(1) + np.exp(-z)), lambda z, a: a * (F(1) - a)),
    "linear": (lambda z: z, lambda z, a: np.ones_like(z)),
}
COLUMNS = {
    "x1": lambda x1, x2: x1, "x2": lambda x1, x2: x2, "x1sq": lambda x1, x2: x1 * x1,
    "x2sq": lambda x1, x2: x2 * x2, "x1x2": lambda x1, x2: x1 * x2,
    "sinx1": lambda x1, x2: np.sin(x1), "sinx2": lambda x1, x2: np.sin(x2),
}  # fmt: skip


def features(x: np.ndarray, names: tuple[str, ...]) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    return np.stack([COLUMNS[n](x[:, 0], x[:, 1]) for n in names], axis=1)


class Reference:
    def __init__(self, config: NetworkConfig, weights, run: int = 0) -> None:
        self.config = config
        self.opt = config.train.optimizers[run]
        self.params = [np.array(a, dtype=np.float32) for pair in weights for a in pair]
        self.state: list[dict[str, np.ndarray]] = [{} for _ in self.params]
        self.steps = 0
        net = config.net
        self.acts = [net.activation] * len(net.hidden) + [net.output_activation(config.problem)]

    def forward(self, x: np.ndarray) -> tuple[list[np.ndarray], list[np.ndarray]]:
        a, zs, outs = x, [], [x]
        for i, act in enumerate(self.acts):
            z = a @ self.params[2 * i] + self.params[2 * i + 1]
            a = ACTS[act][0](z).astype(np.float32)
            zs.append(z)
            outs.append(a)
        return zs, outs

    def loss(self, x: np.ndarray, y: np.ndarray) -> float:
        o = self.forward(x)[1][-1]
        y = y.reshape(-1, 1).astype(np.float32)
        if self.config.net.loss == "square":
            return float(np.mean(F(0.5) * (o - y) ** 2))
        return float(np.mean(np.maximum(F(1) - y * o, F(0))))

    def grads(self, x: np.ndarray, y: np.ndarray) -> list[np.ndarray]:
        zs, outs = self.forward(x)
        o, y = outs[-1], y.reshape(-1, 1).astype(np.float32)
        n = F(len(x))
        if self.config.net.loss == "square":
            d = (o - y) / n
        else:
            d = np.where(F(1) - y * o > 0, -y, F(0)).astype(np.float32) / n
        grads: list[np.ndarray] = [np.zeros(0, np.float32)] * len(self.params)
        for i in reversed(range(len(self.acts))):
            dz = d * ACTS[self.acts[i]][1](zs[i], outs[i + 1])
            grads[2 * i] = outs[i].T @ dz
            grads[2 * i + 1] = dz.sum(axis=0)
            d = dz @ self.params[2 * i].T
        net = self.config.net
        rate = F(net.reg_rate)
        for i in range(0, len(self.params), 2):
            if net.regularization == "L2":
                grads[i] = grads[i] + rate * self.params[i]
            elif net.regularization == "L1":
                grads[i] = grads[i] + rate * np.sign(self.params[i])
        return grads

    def update(self, p: np.ndarray, g: np.ndarray, s: dict[str, np.ndarray], lr: F) -> np.ndarray:
        v, kind, t = self.opt.values, self.opt.kind, self.steps
        if kind == "SGD":
            return p - lr * g
        if kind in ("Momentum", "Nesterov"):
            beta = F(v["momentum"])
            m = s["m"] = beta * s.get("m", np.zeros_like(p)) - lr * g
            return p + (beta * m - lr * g if kind == "Nesterov" else m)
        if kind == "Adam":
            b1, b2 = F(v["beta_1"]), F(v["beta_2"])
            alpha = lr * np.sqrt(F(1) - b2**t) / (F(1) - b1**t)
            m = s["m"] = s.get("m", np.zeros_like(p)) * b1 + (F(1) - b1) * g
            sq = s["v"] = s.get("v", np.zeros_like(p)) * b2 + (F(1) - b2) * g * g
            return p - m * alpha / (np.sqrt(sq) + F(v["epsilon"]))
        if kind == "RMSprop":
            rho, eps = F(v["rho"]), F(v["epsilon"])
            sq = s["v"] = rho * s.get("v", np.zeros_like(p)) + (F(1) - rho) * g * g
            step = lr * g / np.sqrt(sq + eps)
            if v["momentum"]:
                step = s["mom"] = F(v["momentum"]) * s.get("mom", np.zeros_like(p)) + step
            return p - step
        init = np.full_like(p, F(v["initial_accumulator_value"]))
        acc = s["acc"] = s.get("acc", init) + g * g
        return p - lr * g / np.sqrt(acc + F(v["epsilon"]))

    def train(self, train_x, train_y, test_x, test_y, epochs: int) -> list[tuple[float, float]]:
        net, tc = self.config.net, self.config.train
        xs, xt = features(train_x, net.features), features(test_x, net.features)
        ys, yt = np.asarray(train_y, np.float32), np.asarray(test_y, np.float32)
        history = [(self.loss(xs, ys), self.loss(xt, yt))]
        for epoch in range(epochs):
            lr = self.opt.learning_rate
            if tc.decay == "linear":
                lr *= 1 - 0.9 * min(epoch, tc.decay_epochs) / tc.decay_epochs
            for start in range(0, len(xs), tc.batch_size):
                batch = slice(start, start + tc.batch_size)
                grads = self.grads(xs[batch], ys[batch])
                self.steps += 1
                self.params = [
                    self.update(p, g, s, F(lr)).astype(np.float32)
                    for p, g, s in zip(self.params, grads, self.state, strict=True)
                ]
            history.append((self.loss(xs, ys), self.loss(xt, yt)))
        return history


# --- fixtures: points, first weights, settings -----------------------------------------------
def points(n: int, seed: int, regression: bool = False) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.uniform(-5, 5, (n, 2)).astype(np.float32)
    if regression:
        return x, ((x[:, 0] + 0.5 * x[:, 1]) / 7).astype(np.float32)
    return x, np.where(np.hypot(x[:, 0], x[:, 1]) < 3, 1.0, -1.0).astype(np.float32)


def first_weights(config: NetworkConfig, seed: int = 1):
    rng = np.random.default_rng(seed)
    sizes = config.net.sizes
    return tuple(
        (rng.uniform(-0.5, 0.5, (a, b)).astype(np.float32), np.full(b, 0.1, np.float32))
        for a, b in itertools.pairwise(sizes)
    )


def settings(kind: str = "SGD", lr: float = 0.05, **net: object) -> NetworkConfig:
    regression = net.pop("regression", False)
    train = {k: net.pop(k) for k in ("decay", "decay_epochs", "batch_size") if k in net}
    data = DataConfig(dataset="plane" if regression else "circle")
    values = {"learning_rate": lr}
    return NetworkConfig(
        data, NetConfig(**net), TrainConfig(optimizers=(OptimizerConfig(kind, values),), **train)
    )


RICH = dict(
    features=("x1", "x2", "x1sq", "x2sq", "x1x2", "sinx1", "sinx2"),
    hidden=(3, 2),
    regularization="L2",
    reg_rate=0.01,
    decay="linear",
    decay_epochs=2,
)
KINDS = ("SGD", "Momentum", "Nesterov", "Adam", "RMSprop", "Adagrad")
EPOCHS = 3
LINE = re.compile(r"^epoch (\d+): train (\S+)(?: test (\S+))?$", re.M)
Script = Callable[..., str]


def run_script(source: str) -> list[tuple[float, float]]:
    result = run(source, limits=Limits(wall_time=60))
    assert result.error is None, result.error
    rows = LINE.findall(result.output)
    assert [int(e) for e, _, _ in rows] == list(range(len(rows))), result.output
    return [(float(a), float(b) if b else float("nan")) for _, a, b in rows]


def data_for(config: NetworkConfig, n_train: int = 37, n_test: int = 20):
    x, y = points(n_train + n_test, 7, config.problem == "regression")
    return x[:n_train], y[:n_train], x[n_train:], y[n_train:]


def check_against(got, want, rel: float) -> None:
    assert len(got) == len(want)
    for epoch, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g == pytest.approx(w, rel=rel, abs=1e-7), f"epoch {epoch}: {g} != {w}"


# --- the scripts train to the reference's numbers ---------------------------------------------
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("script", [keras_script, torch_script], ids=["keras", "torch"])
def test_every_optimizer_trains_to_the_reference(script: Script, kind: str) -> None:
    config = settings(kind, lr=0.03 if kind in ("Adam", "RMSprop") else 0.05, **RICH)
    weights, data = first_weights(config), data_for(config)
    got = run_script(script(config, weights, *data, EPOCHS))
    want = Reference(config, weights).train(*data, EPOCHS)
    check_against(got, want, 1e-5)
    assert got[-1][0] < got[0][0]  # it learned something


VARIANTS = {
    "relu-L1-hinge": dict(hidden=(5,), activation="relu", regularization="L1", reg_rate=0.003,
                          loss="hinge"),
    "sigmoid-regression": dict(hidden=(4, 3, 2), activation="sigmoid", regression=True),
    "linear-no-hidden": dict(features=("x1sq", "x2sq"), hidden=(), activation="linear"),
    "wide-batch-1": dict(hidden=(16, 16), activation="tanh", batch_size=7, decay="linear",
                         decay_epochs=1),
}  # fmt: skip


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("script", [keras_script, torch_script], ids=["keras", "torch"])
def test_network_variants_train_to_the_reference(script: Script, name: str) -> None:
    kind = "Nesterov" if name == "wide-batch-1" else "SGD"
    config = settings(kind, lr=0.02, **VARIANTS[name])
    weights, data = first_weights(config), data_for(config)
    got = run_script(script(config, weights, *data, EPOCHS))
    check_against(got, Reference(config, weights).train(*data, EPOCHS), 1e-5)


def test_a_race_exports_the_chosen_run() -> None:
    config = settings("SGD").with_train(
        optimizers=(
            OptimizerConfig("SGD", {"learning_rate": 0.01}),
            OptimizerConfig("Adam", {"learning_rate": 0.02}),
        )
    )
    weights, data = first_weights(config), data_for(config)
    source = keras_script(config, weights, *data, 2, run=1)
    assert "keras.optimizers.Adam(" in source
    check_against(run_script(source), Reference(config, weights, run=1).train(*data, 2), 1e-5)
    with pytest.raises(ValueError, match="run"):
        keras_script(config, weights, *data, 2, run=2)


# --- the scripts train to the Network view's own numbers ---------------------------------------
def trainer_history(config: NetworkConfig, epochs: int):
    from tapeviz.models.network.datasets import make_dataset
    from tapeviz.models.network.trainer import Trainer, initial_weights

    data, weights = make_dataset(config.data), initial_weights(config.net)
    trainer = Trainer(config, data, weights)
    for _ in range(epochs):
        trainer.train_epoch()
    assert trainer.diverged_at is None
    want = [(s.train_loss, s.test_loss) for s in trainer.history]
    return (data.train_x, data.train_y, data.test_x, data.test_y), weights, want


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("script", [keras_script, torch_script], ids=["keras", "torch"])
def test_scripts_train_to_the_trainers_numbers(script: Script, kind: str) -> None:
    config = settings(kind, lr=0.03, **RICH).with_data(dataset="moons", noise=0.1, points=90)
    data, weights, want = trainer_history(config, EPOCHS)
    check_against(run_script(script(config, weights, *data, EPOCHS)), want, 1e-5)


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_exports_to_the_trainers_numbers(name: str) -> None:
    data, weights, want = trainer_history(PRESETS[name], 2)
    for script in (keras_script, torch_script):
        check_against(run_script(script(PRESETS[name], weights, *data, 2)), want, 1e-5)


# --- the scripts as text: exact, safe, readable -----------------------------------------------
def assigned(source: str, name: str) -> object:
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == name:
            return ast.literal_eval(node.value)
    raise AssertionError(f"{name} is not assigned in the script")


@pytest.mark.parametrize("script", [keras_script, torch_script], ids=["keras", "torch"])
def test_data_and_weights_are_embedded_exactly(script: Script) -> None:
    config = settings("Adam", **RICH)
    rng = np.random.default_rng(3)
    weights = tuple(
        (rng.normal(size=w.shape).astype(np.float32) / 3, b - 0.3) for w, b in first_weights(config)
    )
    x, y, tx, ty = data_for(config)
    x = x * np.float32(1 / 3)  # values with long decimal expansions
    source = script(config, weights, x, y, tx, ty, 1)
    train = np.array(assigned(source, "TRAIN"), dtype=np.float32)
    assert np.array_equal(train[:, :2], x) and np.array_equal(train[:, 2], y)
    test = np.array(assigned(source, "TEST"), dtype=np.float32)
    assert np.array_equal(test[:, :2], tx) and np.array_equal(test[:, 2], ty)
    first = assigned(source, "FIRST_WEIGHTS")
    flat = [
        np.array(a, dtype=np.float32)
        for layer in first
        for a in (layer if script is torch_script else [layer])
    ]
    for (w, b), (fw, fb) in zip(weights, zip(flat[::2], flat[1::2], strict=True), strict=True):
        assert np.array_equal(fw.T if script is torch_script else fw, w)
        assert np.array_equal(fb, b)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("script", [keras_script, torch_script], ids=["keras", "torch"])
def test_scripts_are_plain_safe_python(script: Script, kind: str) -> None:
    config = settings(kind, **RICH)
    source = script(config, first_weights(config), *data_for(config), 5)
    tree = ast.parse(source)
    imported = {
        a.name
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in n.names
    } | {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert imported <= {"numpy", "tensorflow", "keras", "torch", "nn", "math"}, imported
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert not names & {"eval", "exec", "compile", "__import__", "open", "getattr", "globals"}
    assert "pickle" not in source and "exec(" not in source and "eval(" not in source
    assert all(len(line) <= 100 for line in source.splitlines())


def test_a_big_data_set_is_compact_and_still_runs() -> None:
    config = settings("SGD").with_data(points=2000, train_ratio=0.9).with_train(batch_size=100)
    weights = first_weights(config)
    x, y = points(2000, 5)
    source = keras_script(config, weights, x[:1800], y[:1800], x[1800:], y[1800:], 1)
    start = source.index("TRAIN = [")
    data_lines = source[start : source.index("\n]", source.index("TEST = [")) + 2].count("\n")
    assert data_lines < 120, data_lines
    got = run_script(source)
    want = Reference(config, weights).train(x[:1800], y[:1800], x[1800:], y[1800:], 1)
    check_against(got, want, 1e-5)


def test_no_test_points_prints_the_training_loss_only() -> None:
    config = settings("SGD")
    weights, (x, y, _, _) = first_weights(config), data_for(config)
    for script in (keras_script, torch_script):
        got = run_script(script(config, weights, x, y, x[:0], y[:0], 2))
        assert len(got) == 3 and all(np.isnan(t) for _, t in got)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda w: w[:-1], "layers"),
        (lambda w: ((w[0][0].T, w[0][1]), *w[1:]), "layer 1"),
        (lambda w: ((w[0][0] * np.nan, w[0][1]), *w[1:]), "finite"),
    ],
)
def test_bad_weights_are_refused(change: Callable, message: str) -> None:
    config = settings("SGD", hidden=(3,))
    with pytest.raises(ValueError, match=message):
        keras_script(config, change(first_weights(config)), *data_for(config), 1)


def test_bad_data_and_epochs_are_refused() -> None:
    config = settings("SGD")
    weights, (x, y, tx, ty) = first_weights(config), data_for(config)
    with pytest.raises(ValueError, match="epochs"):
        torch_script(config, weights, x, y, tx, ty, -1)
    with pytest.raises(ValueError, match="labels"):
        torch_script(config, weights, x, y[:-1], tx, ty, 1)
    with pytest.raises(ValueError, match="finite"):
        torch_script(config, weights, x * np.inf, y, tx, ty, 1)


@pytest.mark.parametrize(
    ("module", "script"), [("tensorflow", keras_script), ("torch", torch_script)]
)
def test_real_frameworks_where_installed(module: str, script: Script) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (never installed by tests)")
    config = settings("Momentum", **RICH)
    weights, data = first_weights(config), data_for(config)
    done = subprocess.run(
        [sys.executable, "-c", script(config, weights, *data, EPOCHS)],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    got = [(float(a), float(b)) for _, a, b in LINE.findall(done.stdout)]
    check_against(got, Reference(config, weights).train(*data, EPOCHS), 1e-4)
