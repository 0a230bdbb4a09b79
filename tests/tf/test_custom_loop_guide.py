"""Keras' "Writing a training loop from scratch" (TensorFlow backend) on in-memory data.

The guide loads MNIST; tapeviz has no downloads (``keras.datasets.mnist.load_data`` raises
NotAvailableInTapeviz), so the loop runs on a small synthetic classification set instead.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import tapeviz.tf as tf

keras = tf.keras


def data(n: int = 256) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(5)
    centers = np.array([[2.0, 0.0, 0.0, 1.0], [0.0, 2.0, 1.0, 0.0], [-2.0, -2.0, 0.0, 0.0]])
    labels = rng.integers(0, 3, n)
    x = (centers[labels] + 0.5 * rng.normal(size=(n, 4))).astype(np.float32)
    return x, labels.astype(np.int64)


def make_model() -> keras.Model:
    inputs = keras.Input(shape=(4,), name="digits")
    x1 = keras.layers.Dense(16, activation="relu")(inputs)
    x2 = keras.layers.Dense(16, activation="relu")(x1)
    outputs = keras.layers.Dense(3, name="predictions")(x2)
    return keras.Model(inputs=inputs, outputs=outputs)


def test_the_datasets_the_guide_loads_are_not_available() -> None:
    with pytest.raises(tf.errors.NotAvailableInTapeviz, match=r"mnist\.load_data is not available"):
        keras.datasets.mnist.load_data()


def test_an_end_to_end_loop(capsys: pytest.CaptureFixture[str]) -> None:
    tf.random.set_seed(1234)
    model = make_model()
    optimizer = keras.optimizers.Adam(learning_rate=1e-2)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    batch_size = 32
    x_train, y_train = data()
    train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train))
    train_dataset = train_dataset.shuffle(buffer_size=1024).batch(batch_size)
    epochs = 3
    losses: list[float] = []
    for epoch in range(epochs):
        print(f"\nStart of epoch {epoch}")
        for step, (x_batch_train, y_batch_train) in enumerate(train_dataset):
            with tf.GradientTape() as tape:
                logits = model(x_batch_train, training=True)
                loss_value = loss_fn(y_batch_train, logits)
            grads = tape.gradient(loss_value, model.trainable_weights)
            optimizer.apply(grads, model.trainable_weights)
            losses.append(float(loss_value))
            if step % 4 == 0:
                print(f"Training loss (for 1 batch) at step {step}: {float(loss_value):.4f}")
                print(f"Seen so far: {(step + 1) * batch_size} samples")
    out = capsys.readouterr().out
    assert out.count("Start of epoch") == 3
    assert re.search(
        r"Training loss \(for 1 batch\) at step 4: \d\.\d{4}\nSeen so far: 160 samples", out
    )
    assert np.mean(losses[-8:]) < 0.3 * np.mean(losses[:8])
    assert int(optimizer.iterations.numpy()) == 3 * 8
    # the ops of each layer are recorded under the model's and the layer's names
    with tf.GradientTape() as tape:
        model(x_train[:2])
    scopes = list(dict.fromkeys(r.scope for r in tape.records))
    assert scopes == [
        ("functional", "dense"),
        ("functional", "dense_1"),
        ("functional", "predictions"),
    ]


def test_metrics_and_a_tf_function_train_step(capsys: pytest.CaptureFixture[str]) -> None:
    tf.random.set_seed(7)
    model = make_model()
    optimizer = keras.optimizers.Adam(learning_rate=1e-2)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    train_acc_metric = keras.metrics.SparseCategoricalAccuracy()
    val_acc_metric = keras.metrics.SparseCategoricalAccuracy()
    x, y = data(320)
    train_dataset = tf.data.Dataset.from_tensor_slices((x[:256], y[:256])).shuffle(1024).batch(64)
    val_dataset = tf.data.Dataset.from_tensor_slices((x[256:], y[256:])).batch(64)

    @tf.function
    def train_step(x: Any, y: Any) -> Any:
        with tf.GradientTape() as tape:
            logits = model(x, training=True)
            loss_value = loss_fn(y, logits)
        grads = tape.gradient(loss_value, model.trainable_weights)
        optimizer.apply(grads, model.trainable_weights)
        train_acc_metric.update_state(y, logits)
        return loss_value

    @tf.function
    def test_step(x: Any, y: Any) -> None:
        val_logits = model(x, training=False)
        val_acc_metric.update_state(y, val_logits)

    for _epoch in range(4):
        for x_batch_train, y_batch_train in train_dataset:
            train_step(x_batch_train, y_batch_train)
        train_acc = train_acc_metric.result()
        print(f"Training acc over epoch: {float(train_acc):.4f}")
        train_acc_metric.reset_state()
        for x_batch_val, y_batch_val in val_dataset:
            test_step(x_batch_val, y_batch_val)
        val_acc = val_acc_metric.result()
        val_acc_metric.reset_state()
        print(f"Validation acc: {float(val_acc):.4f}")
    lines = capsys.readouterr().out.splitlines()
    assert all(
        re.fullmatch(r"(Training acc over epoch|Validation acc): [01]\.\d{4}", ln) for ln in lines
    )
    assert float(lines[-1].split(": ")[1]) >= 0.9
    assert repr(val_acc) == f"<tf.Tensor: shape=(), dtype=float32, numpy={float(val_acc)!r}>"
    assert [v.path for v in train_acc_metric.variables] == [
        "sparse_categorical_accuracy/total",
        "sparse_categorical_accuracy/count",
    ]


def test_losses_added_in_the_forward_pass() -> None:
    class ActivityRegularizationLayer(keras.layers.Layer):
        def call(self, inputs: Any) -> Any:
            self.add_loss(1e-2 * tf.reduce_sum(inputs))
            return inputs

    inputs = keras.Input(shape=(4,), name="digits")
    x = keras.layers.Dense(8, activation="relu")(inputs)
    x = ActivityRegularizationLayer()(x)  # Insert activity regularization as a layer
    outputs = keras.layers.Dense(3, name="predictions")(x)
    model = keras.Model(inputs=inputs, outputs=outputs)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    x_batch, y_batch = data(16)
    for _ in range(3):  # each forward pass starts with no losses: they do not pile up
        with tf.GradientTape() as tape:
            logits = model(x_batch, training=True)
            loss_value = loss_fn(y_batch, logits)
            # Add any extra losses created during the forward pass.
            loss_value += sum(model.losses)
        assert len(model.losses) == 1
    hidden = model.layers[1](x_batch)
    assert float(model.losses[0]) == pytest.approx(1e-2 * float(tf.reduce_sum(hidden)), rel=1e-5)
    grads = tape.gradient(loss_value, model.trainable_weights)
    assert all(g is not None for g in grads)
