"""The Network view's trainer: steps on a real tape, reset, history, snapshots, edits, race."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tapeviz.engine.tape import GradientTape
from tapeviz.models.descent.optimizer_config import OptimizerConfig
from tapeviz.models.network.config import DataConfig, NetConfig, NetworkConfig, TrainConfig
from tapeviz.models.network.datasets import make_dataset
from tapeviz.models.network.trainer import Trainer, initial_weights, race

OPTIMIZERS = (
    OptimizerConfig("SGD", {"learning_rate": 0.03}),
    OptimizerConfig("Momentum", {"learning_rate": 0.03}),
    OptimizerConfig("Nesterov", {"learning_rate": 0.03}),
    OptimizerConfig("Adam", {"learning_rate": 0.01}),
    OptimizerConfig("RMSprop", {"learning_rate": 0.01}),
    OptimizerConfig("Adagrad", {"learning_rate": 0.1}),
)


def make(config: NetworkConfig | None = None, run: int = 0, **kw: object) -> Trainer:
    config = config or NetworkConfig()
    return Trainer(config, make_dataset(config.data), initial_weights(config.net), run, **kw)


def flat(weights: tuple[tuple[np.ndarray, np.ndarray], ...]) -> np.ndarray:
    return np.concatenate([a.ravel() for pair in weights for a in pair])


def test_initial_weights_playground_and_micrograd() -> None:
    net = NetConfig(hidden=(4, 2))
    w = initial_weights(net)
    assert [(a.shape, b.shape) for a, b in w] == [((2, 4), (4,)), ((4, 2), (2,)), ((2, 1), (1,))]
    assert all(a.dtype == np.float32 and not a.flags.writeable for pair in w for a in pair)
    assert max(np.abs(a).max() for a, _ in w) <= 0.5 and all(
        np.all(b == np.float32(0.1)) for _, b in w
    )
    assert np.array_equal(flat(w), flat(initial_weights(net)))
    assert not np.array_equal(flat(w), flat(initial_weights(NetConfig(weight_seed=1))))
    m = initial_weights(NetConfig(hidden=(16, 16), init="micrograd"))
    ws = np.concatenate([a.ravel() for a, _ in m])
    assert ws.max() <= 1 and ws.min() >= -1 and ws.max() > 0.9 and all(np.all(b == 0) for _, b in m)


def test_history_epochs_and_partial_batches() -> None:
    t = make(NetworkConfig(train=TrainConfig(batch_size=30)))  # 250 points: 8 batches of 30 + 10
    assert t.steps_per_epoch == 9
    assert len(t.history) == 1 and t.history[0].epoch == 0 and t.history[0].step == 0
    x, _ = t.batch_of(8)
    assert len(x) == 10 and np.array_equal(x, t.data.train_x[240:])
    assert np.array_equal(t.batch_of(9)[0], t.data.train_x[:30])  # epoch 1 starts over
    stats = t.train_epoch()
    assert (t.step, t.epoch, stats.epoch, stats.step) == (9, 1, 1, 9)
    t.train_steps(18)
    assert (t.step, t.epoch, len(t.history)) == (27, 3, 4)
    assert t.history[-1].train_loss == t.loss(t.data.train_x, t.data.train_y)
    assert t.history[-1].test_loss == t.loss(t.data.test_x, t.data.test_y)
    t.train_steps(4)
    assert (t.step, t.epoch, len(t.history)) == (31, 3, 4)
    assert len(t.step_losses) == 31 and np.isfinite(t.step_losses).all()
    assert [h.step for h in t.history] == [0, 9, 18, 27]


def test_reset_restores_weights_and_training_bit_for_bit() -> None:
    t = make(NetworkConfig(train=TrainConfig((OPTIMIZERS[3],))))
    first = flat(t.weights)
    t.train_steps(60)
    losses, weights = t.step_losses.copy(), flat(t.weights)
    history = list(t.history)
    t.reset()
    assert np.array_equal(flat(t.weights), first) and t.step == 0 and len(t.step_losses) == 0
    assert len(t.history) == 1 and t.diverged_at is None
    t.train_steps(60)
    assert np.array_equal(t.step_losses, losses) and np.array_equal(flat(t.weights), weights)
    assert t.history == history


def test_weights_given_are_copied() -> None:
    config = NetworkConfig()
    w = tuple((a.copy(), b.copy()) for a, b in initial_weights(config.net))
    t = Trainer(config, make_dataset(config.data), w)
    w[0][0][0, 0] = 99.0
    assert t.initial[0][0][0, 0] != 99.0 and t.weights[0][0][0, 0] != 99.0


@pytest.mark.parametrize("opt", OPTIMIZERS, ids=lambda o: o.kind)
def test_record_step_gradient_is_what_training_applied(opt: OptimizerConfig) -> None:
    t = make(NetworkConfig(train=TrainConfig((opt,), batch_size=7)))
    applied = []
    for _ in range(40):
        t.train_step()
        applied.append(t.last_gradient)
    for k in (0, 17, 35, 39):
        tape = t.record_step(k)
        assert isinstance(tape, GradientTape)
        got = np.concatenate([np.asarray(g).ravel() for g in tape.gradient_calls[0].results])
        assert np.array_equal(got, applied[k])


@pytest.mark.parametrize(
    ("dataset", "act", "loss", "reg", "hidden"),
    [
        ("circle", "relu", "square", "L2", (3,)),
        ("xor", "sigmoid", "hinge", "L1", (4, 2)),
        ("gauss", "linear", "square", "none", ()),
        ("moons", "relu", "hinge", "L2", (5, 5)),
        ("plane", "tanh", "square", "L1", (2,)),  # regression: a linear output
    ],
)
def test_training_steps_are_the_shown_tapes_bit_for_bit(
    dataset: str, act: str, loss: str, reg: str, hidden: tuple[int, ...]
) -> None:
    """Training records fused ops; record_step the unfused ones: the same floats, every kind."""
    config = NetworkConfig(
        DataConfig(dataset, points=80, noise=0.2),
        NetConfig(("x1", "x2", "x1x2"), hidden, act, reg, 0.01, loss, weight_seed=5),
        TrainConfig(batch_size=9),
    )
    t = make(config)
    applied, losses = [], []
    for _ in range(12):
        losses.append(t.train_step())
        applied.append(t.last_gradient)
    for k in (0, 5, 11):
        tape = t.record_step(k)
        assert [r.name for r in tape.records[:2]] == ["matmul", "add"]  # the shown ops
        got = np.concatenate([np.asarray(g).ravel() for g in tape.gradient_calls[0].results])
        assert np.array_equal(got, applied[k]), (k, np.abs(got - applied[k]).max())
        assert float(np.asarray(tape.records[-1].outputs[0])) == losses[k]


def test_the_recorded_step_names_layers_and_parameters_as_keras() -> None:
    tape = make().record_step(0)
    scopes = [rec.scope for rec in tape.records]
    assert scopes[:3] == [("dense",)] * 3 and scopes[6:9] == [("dense_2",)] * 3
    assert scopes[-1] == ()  # the loss is outside the layers
    names = [x.name for rec in tape.records for x in rec.inputs if x.name]
    assert names == [
        f"{layer}/{p}:0" for layer in ("dense", "dense_1", "dense_2") for p in ("kernel", "bias")
    ]
    assert [r.name for r in tape.records[:3]] == ["matmul", "add", "tanh"]
    assert make().names == (
        "dense/kernel",
        "dense/bias",
        "dense_1/kernel",
        "dense_1/bias",
        "dense_2/kernel",
        "dense_2/bias",
    )


@pytest.mark.parametrize(
    "opt", [OPTIMIZERS[0], OPTIMIZERS[1], OPTIMIZERS[3], OPTIMIZERS[5]], ids=lambda o: o.kind
)
def test_weights_at_after_thinning_is_exact(opt: OptimizerConfig) -> None:
    config = NetworkConfig(train=TrainConfig((opt,), decay="linear", decay_epochs=3, batch_size=50))
    full = make(config)
    small = make(config, snapshot_bytes=4000)  # a few snapshots: thinned many times
    every = [flat(full.weights)]
    for _ in range(60):
        full.train_step()
        small.train_step()
        every.append(flat(full.weights))
    assert small.snapshots.stride > 4 and len(small.snapshots) < 20
    assert np.array_equal(flat(small.weights), every[-1])
    for k in range(61):
        assert np.array_equal(flat(small.weights_at(k)), every[k]), k
        assert np.array_equal(flat(full.weights_at(k)), every[k]), k
    tape = small.record_step(33)
    got = np.concatenate([np.asarray(g).ravel() for g in tape.gradient_calls[0].results])
    assert np.array_equal(
        got,
        np.concatenate(
            [np.asarray(g).ravel() for g in full.record_step(33).gradient_calls[0].results]
        ),
    )


def test_edits_continue_the_history_and_survive_thinning() -> None:
    runs = []
    for cap in (10**9, 3000):
        t = make(NetworkConfig(train=TrainConfig((OPTIMIZERS[1],))), snapshot_bytes=cap)
        t.train_steps(7)
        before = flat(t.weights)
        t.set_weight(1, 3, 0, 2.5)
        t.set_bias(2, 0, -0.75)
        assert t.weights[1][0][3, 0] == np.float32(2.5) and t.weights[2][1][0] == np.float32(-0.75)
        assert np.array_equal(flat(t.weights_at(7)), flat(t.weights))
        t.train_steps(40)
        assert t.step == 47
        runs.append((t, before, [flat(t.weights_at(k)) for k in range(48)]))
    (a, before, wa), (_, _, wb) = runs
    assert all(np.array_equal(x, y) for x, y in zip(wa, wb, strict=True))
    assert wa[7][a.spec.layout.offsets[2] + 3 * 2 + 0] == np.float32(2.5)  # W₁[3, 0]
    assert not np.array_equal(wa[7], before)
    with pytest.raises(IndexError):
        a.set_weight(0, 2, 0, 1.0)  # two inputs: i is 0 or 1
    with pytest.raises(IndexError):
        a.set_bias(3, 0, 1.0)
    with pytest.raises(ValueError):
        a.set_weight(0, 0, 0, math.nan)


def test_race_starts_equal_and_optimizers_then_differ() -> None:
    config = NetworkConfig(train=TrainConfig(OPTIMIZERS[:4]))
    data = make_dataset(config.data)
    trainers = race(config, data, initial_weights(config.net))
    assert [t.run for t in trainers] == [0, 1, 2, 3]
    start = [flat(t.weights) for t in trainers]
    assert all(np.array_equal(s, start[0]) for s in start)
    trainers[0].train_steps(5)
    assert np.array_equal(flat(trainers[1].weights), start[0])  # independent copies
    for t in trainers[1:]:
        t.train_steps(5)
    after = [flat(t.weights) for t in trainers]
    assert all(not np.array_equal(after[i], after[j]) for i in range(4) for j in range(i + 1, 4))


def test_divergence_stops_training_and_keeps_finite_weights() -> None:
    config = NetworkConfig(
        DataConfig("plane"), NetConfig(activation="linear"),
        TrainConfig((OptimizerConfig("SGD", {"learning_rate": 100.0}),)),
    )  # fmt: skip
    t = make(config)
    t.train_steps(500)
    assert t.diverged_at is not None and t.step == t.diverged_at < 500
    assert np.isfinite(flat(t.weights)).all() and len(t.step_losses) == t.step
    assert math.isnan(t.train_step()) and t.step == t.diverged_at
    t.set_weight(0, 0, 0, 0.1)  # an edit lets the user try again
    assert t.diverged_at is None


def test_linear_decay_learning_rate() -> None:
    opt = OptimizerConfig("SGD", {"learning_rate": 1.0})
    t = make(
        NetworkConfig(train=TrainConfig((opt,), batch_size=250, decay="linear", decay_epochs=100))
    )
    assert [t.learning_rate_at(e) for e in (0, 50, 99, 100, 500)] == [
        1.0, 1.0 - 0.9 * 50 / 100, 1.0 - 0.9 * 99 / 100, 1.0 - 0.9, 1.0 - 0.9
    ]  # fmt: skip
    t.train_steps(3)
    assert [h.learning_rate for h in t.history] == [1.0, 1.0, 1.0 - 0.009, 1.0 - 0.018]


def test_outputs_grid_orientation_and_accuracy() -> None:
    t = make(NetworkConfig(net=NetConfig(features=("x1", "x2"), hidden=(3,))))
    grid = t.grid_outputs(5)
    assert [g.shape for g in grid] == [(2, 5, 5), (3, 5, 5), (1, 5, 5)]
    assert np.array_equal(grid[0][1][0], np.full(5, 6.0)) and np.array_equal(
        grid[0][1][-1], np.full(5, -6.0)
    )
    assert np.array_equal(grid[0][0][:, 0], np.full(5, -6.0)) and grid[0][0][0, -1] == 6.0
    pts = t.grid_points(5)
    assert np.array_equal(t.predict(pts).reshape(5, 5), grid[-1][0])
    outs = t.layer_outputs(t.data.test_x)
    assert [o.shape[1] for o in outs] == [2, 3, 1] and np.array_equal(
        outs[-1][:, 0], t.predict(t.data.test_x)
    )
    assert 0.0 <= t.accuracy(t.data.test_x, t.data.test_y) <= 1.0
    reg = make(NetworkConfig(DataConfig("plane")))
    assert math.isnan(reg.accuracy(reg.data.test_x, reg.data.test_y))


def test_bad_inputs_are_refused() -> None:
    config = NetworkConfig()
    data = make_dataset(config.data)
    w = initial_weights(config.net)
    with pytest.raises(ValueError, match="layers"):
        Trainer(config, data, w[:2])
    with pytest.raises(ValueError, match="shape"):
        Trainer(config, data, ((w[0][0].T, w[0][1]), *w[1:]))
    bad = ((np.full((2, 4), np.nan, np.float32), w[0][1]), *w[1:])
    with pytest.raises(ValueError, match="finite"):
        Trainer(config, data, bad)
    with pytest.raises(ValueError, match="run"):
        Trainer(config, data, w, run=1)
    t = Trainer(config, data, w)
    with pytest.raises(IndexError):
        t.weights_at(1)


@pytest.mark.parametrize("loss", ["square", "hinge"])
def test_displayed_loss_is_the_taped_loss_bit_for_bit(loss: str) -> None:
    # Full batch, no penalty: step k's taped loss is the data loss over the training set at the
    # weights the history shows after epoch k (the numpy forward binds the engine's functions).
    t = make(NetworkConfig(net=NetConfig(loss=loss), train=TrainConfig(batch_size=250)))
    t.train_steps(5)
    assert [h.train_loss for h in t.history[:5]] == list(t.step_losses)


def test_resume_goes_on_from_a_saved_epoch_and_reset_goes_back_to_zero() -> None:
    t = make()
    for _ in range(3):
        t.train_epoch()
    saved = t.flat
    spe = t.steps_per_epoch
    other = make()  # a session opened: the saved weights, then the saved epoch
    for layer, (w, b) in enumerate(t.weights):
        for (i, j), v in np.ndenumerate(w):
            other.set_weight(layer, i, j, float(v))
        for j, v in enumerate(b):
            other.set_bias(layer, j, float(v))
    other.resume(3)
    assert (other.epoch, other.step, other.first_step) == (3, 3 * spe, 3 * spe)
    np.testing.assert_array_equal(other.flat, saved)
    assert [h.epoch for h in other.history] == [3]
    assert other.history[0].train_loss == t.history[-1].train_loss
    other.train_epoch()  # batch 0 of epoch 3 follows, as training would have gone on
    t.train_epoch()
    assert other.epoch == 4 and [h.epoch for h in other.history] == [3, 4]
    np.testing.assert_array_equal(other.flat, t.flat)  # (SGD keeps no slots: exactly the same)
    np.testing.assert_array_equal(other.flat_at(3 * spe), saved)
    with pytest.raises(IndexError):
        other.flat_at(3 * spe - 1)  # before the session: not known
    other.reset()
    assert (other.epoch, other.step, other.first_step) == (0, 0, 0)
    with pytest.raises(ValueError):
        other.resume(-1)


def test_every_other_point_of_the_output_grid_is_the_neurons_grid() -> None:
    from tapeviz.models.network.datasets import every_other

    t = make()
    t.train_steps(30)
    small, big = t.grid_outputs(50), t.grid_outputs(99)
    maps = every_other(big)
    assert [m.shape for m in maps] == [m.shape for m in small]
    assert all(m.flags.c_contiguous for m in maps)
    for a, b in zip(maps, small, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
