"""A script's Keras fit on 2-D data, as the Network view draws it: the recorded weights per step.

Oracles are the script's own model: the weights it had before ``fit`` and ``model.predict``
after it (Keras computes both; the view must draw those numbers, not train again).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tapeviz.models.network.script_net import ScriptNet, script_net_of
from tapeviz.models.timeline.timeline import timelines_of
from tapeviz.sandbox import RunResult, run

DATA = """import numpy as np
import tensorflow as tf
rng = np.random.default_rng(1)
X = rng.uniform(-1, 1, size=(100, 2)).astype("float32")
y = (X[:, 0] * X[:, 1] > 0).astype("float32")
"""
SIGMOID = (
    DATA
    + """model = tf.keras.Sequential([tf.keras.Input(shape=(2,)),
    tf.keras.layers.Dense(4, activation="tanh"), tf.keras.layers.Dense(3, activation="relu"),
    tf.keras.layers.Dense(1, activation="sigmoid")])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="binary_crossentropy")
w0 = [v.numpy() for v in model.weights]
history = model.fit(X, y, epochs=3, batch_size=16, validation_split=0.2, verbose=0)
p = model.predict(X, verbose=0)
"""
)
SOFTMAX = (
    DATA
    + """inputs = tf.keras.Input(shape=(2,))
h = tf.keras.layers.Dense(5)(inputs)
h = tf.keras.layers.Activation("tanh")(h)
outputs = tf.keras.layers.Dense(2, activation="softmax")(h)
model = tf.keras.Model(inputs, outputs)
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
history = model.fit(X, y.astype("int32"), epochs=2, batch_size=30, verbose=0)
p = model.predict(X, verbose=0)
"""
)


def _net(code: str) -> tuple[ScriptNet | str | None, RunResult]:
    result = run(code)
    assert result.error is None, result.error
    timelines = timelines_of(result)
    assert len(timelines) == 1
    return script_net_of(timelines[0]), result


@pytest.fixture(scope="module")
def sigmoid() -> tuple[ScriptNet, RunResult]:
    net, result = _net(SIGMOID)
    assert isinstance(net, ScriptNet), net
    return net, result


def test_the_fit_becomes_the_views_network_and_data(sigmoid: tuple[ScriptNet, RunResult]) -> None:
    net, result = sigmoid
    assert net.spec.layout.sizes == (2, 4, 3, 1)
    assert net.spec.activations == ("tanh", "relu", "sigmoid")
    assert net.config.net.hidden == (4, 3) and net.config.net.features == ("x1", "x2")
    assert net.config.train.batch_size == 16 and net.config.data.train_ratio == pytest.approx(0.8)
    assert net.label == "SGD lr 0.1" and net.loss == "binary_crossentropy"
    steps = 3 * math.ceil(80 / 16)  # validation_split=0.2: the first 80 points train
    assert net.steps == steps and net.starts.tolist() == [0, 5, 10]
    x, y = result.namespace["X"], result.namespace["y"]
    np.testing.assert_array_equal(net.data.train_x, x[:80])
    np.testing.assert_array_equal(net.data.train_y, np.where(y[:80] > 0, 1.0, -1.0))
    np.testing.assert_array_equal(net.data.test_x, x[80:])  # validation points: hollow
    np.testing.assert_allclose(net.history["loss"], result.namespace["history"].history["loss"])


def test_step_zero_holds_the_weights_before_fit(sigmoid: tuple[ScriptNet, RunResult]) -> None:
    net, result = sigmoid
    w0 = result.namespace["w0"]
    flat = np.concatenate([np.ravel(w) for w in w0])
    np.testing.assert_array_equal(net.row(0), flat.astype(np.float32))


def test_the_last_row_draws_what_predict_computes(sigmoid: tuple[ScriptNet, RunResult]) -> None:
    net, result = sigmoid
    x, p = result.namespace["X"], np.asarray(result.namespace["p"])
    out = net.spec.forward(net.row(net.steps), x.astype(np.float32))[-1]
    np.testing.assert_allclose(out, p, atol=1e-6)
    np.testing.assert_allclose(net.shown(out), 2 * p - 1, atol=1e-6)  # Playground's ±1 scale
    assert not np.array_equal(net.row(net.steps), net.row(0))  # it did train


def test_epochs_complete_before_a_step(sigmoid: tuple[ScriptNet, RunResult]) -> None:
    net, _ = sigmoid
    assert [net.epoch_of(k) for k in (0, 4, 5, 9, 10, 14, 15)] == [0, 0, 1, 1, 2, 2, 3]
    assert [net.epoch_start(e) for e in (0, 1, 2, 3)] == [0, 5, 10, 15]


def test_two_softmax_outputs_are_drawn_as_one() -> None:
    net, result = _net(SOFTMAX)
    assert isinstance(net, ScriptNet), net
    assert net.spec.layout.sizes == (2, 5, 1) and net.spec.activations == ("tanh", "sigmoid")
    x, p = result.namespace["X"], np.asarray(result.namespace["p"])
    out = net.spec.forward(net.row(net.steps), x.astype(np.float32))[-1][:, 0]
    np.testing.assert_allclose(out, p[:, 1], atol=1e-5)  # softmax₁ = σ(z₁ − z₀)


@pytest.mark.parametrize(
    ("model", "says"),
    [
        ("tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dense(1)])\n"
         "Xs = np.c_[X, X[:, :1]]", "not (points, 2)"),
        ("tf.keras.Sequential([tf.keras.layers.Dense(32, activation='relu'), "
         "tf.keras.layers.Dense(1)])", "up to 6 hidden layers of up to 16 neurons"),
        ("tf.keras.Sequential([tf.keras.layers.Dense(3, activation='softmax')])",
         "output has 3 units"),
        ("tf.keras.Sequential([tf.keras.layers.Dense(4, activation='elu'), "
         "tf.keras.layers.Dense(1)])", "uses elu"),
    ],
)  # fmt: skip
def test_a_fit_the_view_cannot_draw_says_why(model: str, says: str) -> None:
    inputs = "Xs" if "Xs =" in model else "X"
    loss = "'sparse_categorical_crossentropy'" if "softmax" in model else "'mse'"
    code = (DATA + f"model = {model}\nmodel.compile(optimizer='sgd', loss={loss})\n"
            f"model.fit({inputs}, y, epochs=2, batch_size=25, verbose=0)\n")  # fmt: skip
    net, _ = _net(code)
    assert isinstance(net, str) and says in net, net


def test_a_subclassed_model_says_why() -> None:
    code = (
        DATA
        + """class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d = tf.keras.layers.Dense(1)
    def call(self, x):
        return self.d(x)
model = Net()
model.compile(optimizer="sgd", loss="mse")
model.fit(X, y, epochs=2, batch_size=25, verbose=0)
"""
    )
    net, _ = _net(code)
    assert isinstance(net, str) and "subclassed" in net


def test_a_hand_written_loop_is_no_fit() -> None:
    code = (
        DATA
        + """w = tf.Variable([[0.1], [0.2]])
for i in range(5):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((X @ w - y[:, None]) ** 2)
    w.assign_sub(0.1 * tape.gradient(loss, w))
"""
    )
    net, _ = _net(code)
    assert net is None
