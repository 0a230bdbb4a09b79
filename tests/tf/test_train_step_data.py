"""An overridden ``train_step``/``test_step`` gets the batch as Keras 3 packs it.

Keras 3's ``pack_x_y_sample_weight``: ``(x, y)`` without sample weights (so ``x, y = data``
works, as in every keras-io custom-training guide), ``(x, y, sample_weight)`` with them, and
``x`` alone without targets; a ``tf.data.Dataset``'s elements as the dataset yields them.
Before, every batch was ``(x, y, None)``: "too many values to unpack". ``train_on_batch`` and
``test_on_batch`` are the exception: Keras 3's TensorFlow trainer yields ``(x, y,
sample_weight)`` for them, ``None`` included (keras/src/backend/tensorflow/trainer.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tapeviz.tf as tf
from tapeviz.tf.keras_src.data_adapter import pack, unpack

keras = tf.keras


def _shape(data: Any) -> tuple[str, int]:
    return type(data).__name__, len(data) if isinstance(data, tuple) else 0


def _model(seen: list[Any]) -> Any:
    class Recording(keras.Model):
        def train_step(self, data: Any) -> dict[str, Any]:
            seen.append(("train", *_shape(data)))
            x, y = data[0], data[1]
            with tf.GradientTape() as tape:
                loss = self.compute_loss(y=y, y_pred=self(x, training=True))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables, strict=True))
            return {"loss": loss}

        def test_step(self, data: Any) -> dict[str, Any]:
            seen.append(("test", *_shape(data)))
            x, y = data[0], data[1]
            return {"loss": self.compute_loss(y=y, y_pred=self(x, training=False))}

    inputs = keras.Input(shape=(2,))
    model = Recording(inputs, keras.layers.Dense(1)(inputs))
    model.compile(optimizer="sgd", loss="mse")
    return model


X = np.arange(20, dtype=np.float32).reshape(10, 2) / 10
Y = X.sum(axis=1, keepdims=True)


def test_x_y_unpacks_in_fit_evaluate_and_on_batch() -> None:
    seen: list[Any] = []
    model = _model(seen)

    model.fit(X, Y, epochs=2, batch_size=4, verbose=0)
    model.evaluate(X, Y, batch_size=5, verbose=0)
    loss = model.train_on_batch(X, Y)
    model.test_on_batch(X, Y)
    assert seen == [("train", "tuple", 2)] * 6 + [("test", "tuple", 2)] * 2 + [
        ("train", "tuple", 3),  # train_on_batch: (x, y, None), as Keras 3's TF trainer
        ("test", "tuple", 3),
    ]
    assert isinstance(loss, np.ndarray) and loss.dtype == np.float32  # Keras: np.array(loss)


def test_sample_weights_make_a_triple() -> None:
    seen: list[Any] = []
    model = _model(seen)
    model.fit(X, Y, sample_weight=np.ones(10), epochs=1, batch_size=5, verbose=0)
    assert seen == [("train", "tuple", 3)] * 2


def test_pack_is_keras_pack_x_y_sample_weight_and_unpack_reverses_it() -> None:
    x, y, w = object(), object(), object()
    assert pack(x) is x and pack((x, y)) == ((x, y),) and pack([x]) == ([x],)
    assert pack(x, y) == (x, y) and pack(x, y, w) == (x, y, w)
    for packed, want in [
        (pack(x), (x, None, None)),
        (pack(x, y), (x, y, None)),
        (pack(x, y, w), (x, y, w)),
        (pack((x, y)), ((x, y), None, None)),
    ]:
        assert unpack(packed) == want


def test_the_default_steps_still_train() -> None:
    inputs = keras.Input(shape=(2,))
    model = keras.Model(inputs, keras.layers.Dense(1)(inputs))
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(X, Y, epochs=5, batch_size=4, verbose=0)
    losses = history.history["loss"]
    assert len(losses) == 5 and losses[-1] < losses[0]
    assert model.predict(X, verbose=0).shape == (10, 1)


def test_a_dataset_gives_its_elements_and_validation_data_reaches_test_step() -> None:
    seen: list[Any] = []
    model = _model(seen)
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(5)
    val = tf.data.Dataset.from_tensor_slices((X, Y)).batch(10)
    model.fit(ds, validation_data=val, epochs=1, verbose=0)
    assert seen == [("train", "tuple", 2)] * 2 + [("test", "tuple", 2)]
    seen.clear()
    model.fit(X, Y, validation_data=[X, Y], epochs=1, batch_size=10, verbose=0)  # a list too
    model.fit(X, Y, validation_data=(X, Y, np.ones(10)), epochs=1, batch_size=10, verbose=0)
    assert seen == [
        ("train", "tuple", 2),
        ("test", "tuple", 2),
        ("train", "tuple", 2),
        ("test", "tuple", 3),
    ]


def test_validation_split_cuts_the_sample_weights_too() -> None:
    sizes: list[tuple[int, ...]] = []

    class Sizes(keras.Model):
        def train_step(self, data: Any) -> dict[str, Any]:
            sizes.append(tuple(int(t.shape[0]) for t in data))
            return {}

        def test_step(self, data: Any) -> dict[str, Any]:
            sizes.append(tuple(int(t.shape[0]) for t in data))
            return {}

    inputs = keras.Input(shape=(2,))
    model = Sizes(inputs, keras.layers.Dense(1)(inputs))
    model.compile(optimizer="sgd", loss="mse")
    model.fit(X, Y, sample_weight=np.arange(10.0), validation_split=0.2, batch_size=8, verbose=0)
    assert sizes == [(8, 8, 8), (2, 2, 2)]  # the last 20 %, its weights with it


def test_x_alone_is_the_batch_itself() -> None:
    seen: list[Any] = []

    class AutoEncoder(keras.Model):
        def train_step(self, data: Any) -> dict[str, Any]:
            seen.append(_shape(data))
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(self(data, training=True) - data))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables, strict=True))
            return {"loss": loss}

    inputs = keras.Input(shape=(2,))
    model = AutoEncoder(inputs, keras.layers.Dense(2)(inputs))
    model.compile(optimizer="sgd")
    model.fit(X, epochs=1, batch_size=5, verbose=0)
    model.fit(tf.data.Dataset.from_tensor_slices(X).batch(10), epochs=1, verbose=0)
    assert seen == [("Tensor", 0)] * 3


def test_several_inputs_arrive_as_a_tuple() -> None:
    seen: list[Any] = []

    class Two(keras.Model):
        def train_step(self, data: Any) -> dict[str, Any]:
            x, _ = data
            seen.append((type(x).__name__, len(x)))
            return {}

    a, b = keras.Input(shape=(2,)), keras.Input(shape=(2,))
    model = Two([a, b], keras.layers.Add()([a, b]))
    model.compile(optimizer="sgd", loss="mse")
    model.fit([X, X], Y, epochs=1, batch_size=10, verbose=0)  # Keras' adapter: lists to tuples
    assert seen == [("tuple", 2)]


def test_keras_utils_unpack_and_pack() -> None:
    features, labels = tf.ones((10, 5)), tf.zeros((10, 5))
    x, y, sample_weight = keras.utils.unpack_x_y_sample_weight((features, labels))
    assert x is features and y is labels and sample_weight is None
    assert keras.utils.unpack_x_y_sample_weight([features]) == (features, None, None)
    assert keras.utils.unpack_x_y_sample_weight(features)[0] is features
    with pytest.raises(ValueError, match=r"Data is expected to be in format `x`, `\(x,\)`"):
        keras.utils.unpack_x_y_sample_weight((1, 2, 3, 4))
    assert keras.utils.pack_x_y_sample_weight(features) is features
    x, y = keras.utils.pack_x_y_sample_weight(features, labels)
    assert x is features and y is labels
