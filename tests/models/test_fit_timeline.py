"""A pasted training run is one timeline: a Keras ``fit`` over every batch of every epoch, and a
hand-written loop over a network however its batches and epochs fall, both named by the model.

Expectations are Keras' documented behaviour: an epoch has ``ceil(n / batch_size)`` steps (the
last one partial), ``validation_split`` keeps the last fraction of the rows for validation,
``history.history`` has one value per epoch under ``loss``, each metric and ``val_*``.
"""

from __future__ import annotations

import io
import math

import numpy as np
import pytest

from tapeviz.models.timeline.index import param_signature
from tapeviz.models.timeline.timeline import Timeline, timelines_of
from tapeviz.sandbox import RunResult, run
from tapeviz.sandbox.process import results, results_decode, wire

DATA = """import numpy as np
import tensorflow as tf
np.random.seed(0)
x = np.random.normal(size=({n}, 4, 3)).astype("float32")
y_reg = x[:, 0, :1] - x[:, 1, 1:2]
y_bin = (y_reg > 0).astype("float32")
y_cls = x[:, 0, :3].argmax(axis=1).astype("int64")
y_hot = tf.keras.utils.to_categorical(y_cls, 3)
"""
SEQUENTIAL = (
    DATA
    + """model = tf.keras.Sequential([tf.keras.layers.Flatten(),
                             tf.keras.layers.Dense(8, activation="relu"),
                             tf.keras.layers.Dense({units}, activation={activation})])
model.compile(optimizer={optimizer!r}, loss={loss!r}, metrics={metrics})
history = model.fit(x, {y}, epochs={epochs}, batch_size={batch}, verbose=0{extra})
"""
)
FUNCTIONAL = (
    DATA
    + """inputs = tf.keras.Input(shape=(4, 3))
h = tf.keras.layers.Flatten()(inputs)
h = tf.keras.layers.Dense(5, activation="relu", name="hidden")(h)
outputs = tf.keras.layers.Dense(1, activation="sigmoid")(h)
model = tf.keras.Model(inputs, outputs)
model.compile(optimizer="rmsprop", loss="binary_crossentropy", metrics=["accuracy"])
history = model.fit(x, y_bin, epochs=3, batch_size=32, validation_data=(x[:10], y_bin[:10]),
                    verbose=0)
"""
)
SUBCLASSED = (
    DATA
    + """class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.flat = tf.keras.layers.Flatten()
        self.hidden = tf.keras.layers.Dense(4, activation="tanh")
        self.out = tf.keras.layers.Dense(1)
    def call(self, inputs):
        return self.out(self.hidden(self.flat(inputs)))
model = Net()
model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse", metrics=["mae"])
history = model.fit(x, y_reg, epochs=4, batch_size=16, verbose=0)
"""
)
GUIDE = (
    DATA
    + """model = tf.keras.Sequential([tf.keras.layers.Flatten(),
                             tf.keras.layers.Dense(16, activation="relu"),
                             tf.keras.layers.Dense(3)])
optimizer = tf.keras.optimizers.SGD(learning_rate=1e-2)
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
train_dataset = tf.data.Dataset.from_tensor_slices((x, y_cls)).shuffle(1024).batch(32)
train_acc_metric = tf.keras.metrics.SparseCategoricalAccuracy()
for epoch in range(3):
    print("Start of epoch", epoch)
    for step, (x_batch, y_batch) in enumerate(train_dataset):
        with tf.GradientTape() as tape:
            logits = model(x_batch, training=True)
            loss_value = loss_fn(y_batch, logits)
        grads = tape.gradient(loss_value, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
        train_acc_metric.update_state(y_batch, logits)
    print("Training acc over epoch:", float(train_acc_metric.result()))
    train_acc_metric.reset_state()
"""
)
MODULE = (
    DATA
    + """class Linear(tf.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.w = tf.Variable(tf.random.normal([n_in, n_out]))
        self.b = tf.Variable(tf.zeros([n_out]))
    def __call__(self, x):
        return x @ self.w + self.b
class MLP(tf.Module):
    def __init__(self):
        super().__init__()
        self.layers = [Linear(12, 6), Linear(6, 1)]
    def __call__(self, x):
        return self.layers[1](tf.nn.relu(self.layers[0](tf.reshape(x, (x.shape[0], 12)))))
net = MLP()
opt = tf.keras.optimizers.Adam(0.01)
ds = tf.data.Dataset.from_tensor_slices((x, y_reg)).batch(32)
for epoch in range(2):
    for xb, yb in ds:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((net(xb) - yb) ** 2)
        grads = tape.gradient(loss, net.trainable_variables)
        opt.apply_gradients(zip(grads, net.trainable_variables))
"""
)


def received(result: RunResult) -> RunResult:
    """The result as the window gets it: across the wire, decoded and checked."""
    writer = wire.Writer()
    doc = results.encode(result, writer)
    buf = io.BytesIO()
    wire.write(buf, doc, writer)
    return results_decode.decode(wire.read(io.BytesIO(buf.getvalue())))


def ran(source: str) -> RunResult:
    result = run(source)
    assert result.error is None, result.error
    return result


def one(result: RunResult) -> Timeline:
    (tl,) = timelines_of(result)
    return tl


def sequential(**given: object) -> str:
    options = {"n": 100, "units": 1, "activation": None, "optimizer": "adam", "loss": "mse",
               "metrics": [], "y": "y_reg", "epochs": 10, "batch": 32, "extra": ""}  # fmt: skip
    options.update(given)
    return SEQUENTIAL.format(**options)


def batch_rows(tl: Timeline, k: int) -> int:
    """How many rows step k's tape read (the first op's first input: the batch)."""
    return int(tl.step_tapes(k)[0].tape.records[0].inputs[0].shape[0])


@pytest.fixture(scope="module")
def fit_split() -> RunResult:
    """100 rows, validation_split=0.2, batches of 32: 80 training rows, 3 steps per epoch."""
    return ran(sequential(metrics=["mae"], extra=", validation_split=0.2"))


def test_a_fit_is_one_timeline_over_every_batch_of_every_epoch(fit_split: RunResult) -> None:
    tl = one(fit_split)
    per_epoch = math.ceil(80 / 32)  # validation_split keeps the last 20 rows out of training
    assert tl.steps == 10 * per_epoch == 30 and tl.loop.period == 1
    assert [batch_rows(tl, k) for k in range(per_epoch)] == [32, 32, 16]  # the partial batch
    assert batch_rows(tl, tl.steps - 1) == 16
    e = tl.epochs
    assert e is not None and e.count == 10
    assert e.starts.tolist() == list(range(0, 30, 3)) and e.numbers.tolist() == list(range(10))
    assert e.batches.tolist() == [0, 1, 2] * 10
    assert e.of_step(0) == 0 and e.of_step(5) == 1 and e.steps_in(9) == 3


def test_the_history_beside_the_steps_is_the_scripts_history(fit_split: RunResult) -> None:
    tl = one(fit_split)
    history = fit_split.namespace["history"].history
    assert set(history) == {"loss", "mae", "val_loss", "val_mae"}
    assert set(tl.epochs.history) == set(history)
    for key, values in history.items():
        assert tl.epochs.history[key].tolist() == pytest.approx(values, rel=1e-12)
    # Keras' epoch loss is the mean of its batches' losses, weighted by their rows
    first = tl.loss[:3]
    assert history["loss"][0] == pytest.approx((32 * first[0] + 32 * first[1] + 16 * first[2]) / 80,
                                               rel=1e-5)  # fmt: skip


def test_the_parameters_are_named_by_their_layers(fit_split: RunResult) -> None:
    tl = one(fit_split)
    names = [p.name for p in tl.parameters]
    assert names == ["dense/kernel", "dense/bias", "dense_1/kernel", "dense_1/bias"]
    assert all(p.variable for p in tl.parameters)
    assert [p.shape for p in tl.parameters] == [(12, 8), (8,), (8, 1), (1,)]


def test_across_the_process_wall_the_fit_is_the_same_timeline(fit_split: RunResult) -> None:
    here, there = one(fit_split), one(received(fit_split))
    assert (there.steps, there.loop) == (here.steps, here.loop)
    assert [p.name for p in there.parameters] == [p.name for p in here.parameters]
    assert all(p.variable for p in there.parameters)  # Keras' variables travel as variables
    assert np.array_equal(there.loss, here.loss)
    assert there.values(0) == pytest.approx(here.values(0), rel=1e-12)  # (summed otherwise)
    assert np.array_equal(there.epochs.starts, here.epochs.starts)
    assert np.array_equal(there.epochs.batches, here.epochs.batches)
    for key, values in here.epochs.history.items():
        assert np.array_equal(there.epochs.history[key], values)
    rows = [0, 5, 12]
    assert np.array_equal(there.matrix(0, np.array(rows), np.arange(12)),
                          here.matrix(0, np.array(rows), np.arange(12)))  # fmt: skip


@pytest.mark.parametrize("optimizer", ["sgd", "adam", "rmsprop", "adagrad"])
@pytest.mark.parametrize(
    ("loss", "y", "units", "activation"),
    [
        ("mse", "y_reg", 1, None),
        ("mae", "y_reg", 1, None),
        ("huber", "y_reg", 1, None),
        ("binary_crossentropy", "y_bin", 1, "'sigmoid'"),
        ("categorical_crossentropy", "y_hot", 3, "'softmax'"),
        ("sparse_categorical_crossentropy", "y_cls", 3, "'softmax'"),
    ],
)
def test_every_optimizer_and_loss(
    optimizer: str, loss: str, y: str, units: int, activation: str | None
) -> None:
    source = sequential(n=70, epochs=3, batch=16, optimizer=optimizer, loss=loss, y=y,
                        units=units, activation=activation)  # fmt: skip
    tl = one(ran(source))
    assert tl.steps == 3 * math.ceil(70 / 16) == 15
    assert tl.epochs is not None and tl.epochs.starts.tolist() == [0, 5, 10]
    assert set(tl.epochs.history) == {"loss"}


def test_a_functional_model_with_validation_data() -> None:
    result = ran(FUNCTIONAL.format(n=70))
    tl = one(result)
    assert tl.steps == 3 * math.ceil(70 / 32) == 9
    assert [p.name for p in tl.parameters] == ["hidden/kernel", "hidden/bias", "dense/kernel",
                                               "dense/bias"]  # fmt: skip
    assert set(tl.epochs.history) == {"accuracy", "loss", "val_accuracy", "val_loss"}


def test_a_subclassed_model() -> None:
    result = ran(SUBCLASSED.format(n=50))
    tl = one(result)
    assert tl.steps == 4 * math.ceil(50 / 16) == 16
    assert [p.name for p in tl.parameters] == ["dense/kernel", "dense/bias", "dense_1/kernel",
                                               "dense_1/bias"]  # fmt: skip
    assert tl.epochs.history["mae"].tolist() == pytest.approx(
        result.namespace["history"].history["mae"]
    )


def test_two_fits_are_two_timelines() -> None:
    source = sequential(n=40, epochs=2, batch=16) + (
        "history2 = model.fit(x, y_reg, epochs=3, batch_size=8, verbose=0)\n"
    )
    result = ran(source)
    first, second = timelines_of(result)
    assert (first.steps, second.steps) == (2 * 3, 3 * 5)
    assert second.loop.start == first.loop.stop
    assert second.epochs.history["loss"].tolist() == pytest.approx(
        result.namespace["history2"].history["loss"]
    )


def test_the_custom_training_loop_guide_is_one_timeline() -> None:
    """TensorFlow's "custom training loop" guide: epochs of batches, the last one partial."""
    result = ran(GUIDE.format(n=100))
    for res in (result, received(result)):
        tl = one(res)
        assert tl.steps == 3 * math.ceil(100 / 32) == 12 and tl.epochs is None
        assert batch_rows(tl, 3) == 4 and batch_rows(tl, 11) == 4
        assert [p.name for p in tl.parameters] == ["dense/kernel", "dense/bias",
                                                   "dense_1/kernel", "dense_1/bias"]  # fmt: skip


def test_a_tf_module_loop_names_its_attributes() -> None:
    result = ran(MODULE.format(n=70))
    for res in (result, received(result)):
        tl = one(res)
        assert tl.steps == 2 * math.ceil(70 / 32) == 6
        assert [p.name for p in tl.parameters] == [
            "net.layers[0].b", "net.layers[0].w", "net.layers[1].b", "net.layers[1].w"
        ]  # fmt: skip


def test_a_structure_is_the_same_whatever_the_batch_size() -> None:
    assert param_signature({"shape": (32, 12)}) == param_signature({"shape": (16, 12)})
    assert param_signature({"shape": (32, 12)}) != param_signature({"shape": (32, 3, 4)})
    small, big = np.arange(4), np.arange(32)
    assert param_signature({"key": (small,)}) == param_signature({"key": (big,)})
    assert param_signature({"key": (small,)}) != param_signature({"key": (small.reshape(2, 2),)})
