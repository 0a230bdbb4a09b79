"""An overridden ``train_step``/``test_step`` gets the batch as Keras 3 packs it.

Keras 3's ``pack_x_y_sample_weight``: ``(x, y)`` without sample weights (so ``x, y = data``
works, as in every keras-io custom-training guide), ``(x, y, sample_weight)`` with them, and
``x`` alone without targets. Before, every batch was ``(x, y, None)``: "too many values to
unpack".
"""

from __future__ import annotations

from typing import Any

import numpy as np

import tapeviz.tf as tf
from tapeviz.tf.keras_src.data_adapter import pack, unpack

keras = tf.keras


def _model(seen: list[Any]) -> Any:
    class Recording(keras.Model):
        def train_step(self, data: Any) -> dict[str, Any]:
            seen.append(("train", type(data).__name__, len(data) if isinstance(data, tuple) else 0))
            x, y = data[0], data[1]
            with tf.GradientTape() as tape:
                loss = self.compute_loss(y=y, y_pred=self(x, training=True))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables, strict=True))
            return {"loss": loss}

        def test_step(self, data: Any) -> dict[str, Any]:
            seen.append(("test", type(data).__name__, len(data) if isinstance(data, tuple) else 0))
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
        ("train", "tuple", 2),
        ("test", "tuple", 2),
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
