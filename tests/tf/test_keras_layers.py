"""Keras 3 layers and models: names, weights, initializers, training flags, summaries, scopes."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import tapeviz.tf as tf

keras = tf.keras
layers = tf.keras.layers


def test_names_paths_and_printed_weights(capsys: pytest.CaptureFixture[str]) -> None:
    d1, d2 = layers.Dense(3), layers.Dense(3)
    assert (d1.name, d2.name) == ("dense", "dense_1")
    assert repr(d1) == "<Dense name=dense, built=False>"
    d1.build((None, 2))
    assert [w.name for w in d1.weights] == ["kernel", "bias"]
    assert [w.path for w in d1.weights] == ["dense/kernel", "dense/bias"]
    d1.bias.assign([1.0, 2.0, 3.0])
    print(d1.bias)
    assert capsys.readouterr().out == (
        "<Variable path=dense/bias, shape=(3,), dtype=float32, value=[1. 2. 3.]>\n"
    )
    model = keras.Sequential([keras.Input((2,)), layers.Dense(4), layers.Dense(1)])
    assert model.name == "sequential"
    assert [w.path for w in model.weights] == [
        "sequential/dense_2/kernel", "sequential/dense_2/bias",
        "sequential/dense_3/kernel", "sequential/dense_3/bias",
    ]  # fmt: skip
    keras.backend.clear_session()
    assert layers.Dense(1).name == "dense"
    assert layers.BatchNormalization().name == "batch_normalization"
    assert layers.ReLU().name == "re_lu"
    with pytest.raises(ValueError, match="cannot contain character `/`"):
        layers.Dense(1, name="a/b")


def test_default_initializers_and_dtypes() -> None:
    tf.random.set_seed(1)
    dense = layers.Dense(300)
    dense.build((None, 200))
    k = dense.kernel.numpy()
    assert k.dtype == np.float32 and k.shape == (200, 300)
    limit = np.sqrt(6.0 / (200 + 300))  # GlorotUniform
    assert np.abs(k).max() <= limit and np.abs(k).max() > 0.95 * limit
    assert abs(float(k.std()) - limit / np.sqrt(3)) < 0.01
    assert np.array_equal(dense.bias.numpy(), np.zeros(300, np.float32))
    out = dense(np.ones((2, 200)))  # float64 numpy input: computed in float32, as Keras 3
    assert out.dtype == tf.float32 and out.shape == (2, 300)
    with pytest.raises(ValueError, match="expected a positive integer"):
        layers.Dense(0)


def test_input_checks() -> None:
    dense = layers.Dense(2)
    with pytest.raises(
        ValueError,
        match=re.escape(
            'Input 0 of layer "dense" is incompatible with the layer: expected min_ndim=2, '
            "found ndim=1. Full shape received: (3,)"
        ),
    ):
        dense(tf.constant([1.0, 2.0, 3.0]))
    dense(tf.ones((1, 3)))
    with pytest.raises(ValueError, match="expected axis -1 of input shape to have value 3"):
        dense(tf.ones((1, 4)))


def test_dropout_uses_the_training_flag() -> None:
    drop = layers.Dropout(0.5, seed=1)
    x = tf.ones((10, 10))
    assert np.array_equal(drop(x).numpy(), x.numpy())  # inference: identity
    y = drop(x, training=True).numpy()
    assert set(np.unique(y).tolist()) <= {0.0, 2.0} and 0 < np.mean(y == 0) < 1
    model = keras.Sequential([keras.Input((10,)), layers.Dropout(0.5, seed=2)])
    assert np.array_equal(model(x).numpy(), x.numpy())
    assert not np.array_equal(model(x, training=True).numpy(), x.numpy())  # the flag reaches it


def test_batch_normalization() -> None:
    bn = layers.BatchNormalization()
    x = tf.constant([[1.0, 10.0], [3.0, 30.0]])
    y = bn(x, training=True)
    assert [w.name for w in bn.weights] == ["gamma", "beta", "moving_mean", "moving_variance"]
    assert [w.name for w in bn.trainable_weights] == ["gamma", "beta"]
    assert [w.name for w in bn.non_trainable_weights] == ["moving_mean", "moving_variance"]
    inv = 1 / np.sqrt(np.array([1.0, 100.0]) + 1e-3)
    np.testing.assert_allclose(y.numpy(), (x.numpy() - [2.0, 20.0]) * inv, rtol=1e-5)
    np.testing.assert_allclose(bn.moving_mean.numpy(), [0.02, 0.2], rtol=1e-5)
    np.testing.assert_allclose(bn.moving_variance.numpy(), [0.99 + 0.01, 0.99 + 1.0], rtol=1e-5)
    inference = bn(x, training=False)  # the moving statistics
    np.testing.assert_allclose(
        inference.numpy(),
        (x.numpy() - bn.moving_mean.numpy()) / np.sqrt(bn.moving_variance.numpy() + 1e-3),
        rtol=1e-5,
    )


def test_a_layer_subclass_with_build_and_add_weight() -> None:
    class Linear(layers.Layer):
        def __init__(self, units: int = 32, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.units = units

        def build(self, input_shape: Any) -> None:
            self.w = self.add_weight(
                shape=(input_shape[-1], self.units), initializer="random_normal", trainable=True
            )
            self.b = self.add_weight(shape=(self.units,), initializer="zeros", trainable=True)

        def call(self, inputs: Any) -> Any:
            return tf.matmul(inputs, self.w) + self.b

    linear = Linear(4)
    assert not linear.built and linear.weights == []
    y = linear(tf.ones((2, 2)))
    assert linear.built and y.shape == (2, 4)
    assert [tuple(w.shape) for w in linear.trainable_weights] == [(2, 4), (4,)]
    assert linear.count_params() == 12
    linear.trainable = False
    assert linear.trainable_weights == [] and len(linear.non_trainable_weights) == 2
    with pytest.raises(ValueError, match="was expecting 2 weights"):
        linear.set_weights([np.zeros((2, 4))])
    with pytest.raises(ValueError, match=re.escape("weight shape (2, 4) is not compatible")):
        linear.set_weights([np.zeros((4, 2)), np.zeros(4)])
    with pytest.raises(ValueError, match="isn't built"):
        Linear(3).count_params()


def test_activations_initializers_and_other_layers() -> None:
    x = tf.constant([[-1.0, 2.0]])
    assert layers.Activation("relu")(x).numpy().tolist() == [[0.0, 2.0]]
    assert layers.Dense(2, activation=tf.nn.elu, kernel_initializer="ones")(x).numpy().tolist() == [
        [1.0, 1.0]
    ]
    np.testing.assert_allclose(layers.LeakyReLU()(x).numpy(), [[-0.3, 2.0]], rtol=1e-6)
    assert layers.Flatten()(tf.ones((2, 3, 4))).shape == (2, 12)
    assert layers.Reshape((2, 2))(tf.ones((3, 4))).shape == (3, 2, 2)
    emb = layers.Embedding(10, 3)
    assert emb(tf.constant([[1, 2]])).shape == (1, 2, 3)
    assert layers.Concatenate()([tf.ones((1, 2)), tf.zeros((1, 3))]).shape == (1, 5)
    assert layers.Add()([tf.ones((1, 2)), tf.ones((1, 2))]).numpy().tolist() == [[2.0, 2.0]]
    norm = layers.Normalization(axis=-1)
    norm.adapt(np.array([[1.0, 10.0], [3.0, 30.0]]))
    np.testing.assert_allclose(norm(tf.constant([[2.0, 20.0]])).numpy(), [[0.0, 0.0]], atol=1e-6)
    glorot = keras.initializers.GlorotNormal(seed=3)((3, 3))
    assert glorot.shape == (3, 3) and glorot.dtype == np.float32
    assert keras.activations.get("gelu") is keras.activations.gelu


def test_functional_models_with_branches(capsys: pytest.CaptureFixture[str]) -> None:
    inputs = keras.Input(shape=(3,), name="x")
    assert repr(inputs) == (
        "<KerasTensor shape=(None, 3), dtype=float32, sparse=False, ragged=False, name=x>"
    )
    a = layers.Dense(2, name="a")(inputs)
    b = layers.Dense(2, name="b")(inputs)
    out = layers.Dense(1, name="out")(layers.Concatenate(name="merge")([a, b]))
    model = keras.Model(inputs, out, name="branches")
    assert type(model).__name__ == "Functional"
    assert [layer.name for layer in model.layers] == ["x", "a", "b", "merge", "out"]
    assert model(tf.ones((4, 3))).shape == (4, 1)
    model.summary()
    text = capsys.readouterr().out
    assert "Connected to" in text and "merge[0][0]" in text and "a[0][0], b[0][0]" in text
    assert " Total params: 21 (84.00 B)" in text
    with pytest.raises(ValueError, match="KerasTensor cannot be used as input to a TensorFlow"):
        np.asarray(inputs)


def test_summary_after_training_counts_the_optimizer(capsys: pytest.CaptureFixture[str]) -> None:
    model = keras.Sequential([keras.Input((3,)), layers.Dense(4), layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    model.fit(np.ones((4, 3)), np.ones((4, 1)), verbose=0)
    model.summary()
    text = capsys.readouterr().out
    assert " Trainable params: 21 (84.00 B)" in text
    assert re.search(r" Optimizer params: 44 \(\d+\.\d\d B\)", text)  # m, v, iteration, rate
    unbuilt = keras.Sequential([layers.Dense(2)])
    unbuilt.summary()
    assert "0 (unbuilt)" in capsys.readouterr().out


def test_every_layer_op_is_recorded_in_its_scope() -> None:
    model = keras.Sequential(
        [keras.Input((2,)), layers.Dense(3, activation="relu"), layers.Dense(1)]
    )
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        y = model(x)
        loss = tf.reduce_sum(y)
    scopes = [(r.name, r.scope) for r in tape.records]
    assert scopes == [
        ("matmul", ("sequential", "dense")), ("add", ("sequential", "dense")),
        ("relu", ("sequential", "dense")), ("matmul", ("sequential", "dense_1")),
        ("add", ("sequential", "dense_1")), ("reduce_sum", ()),
    ]  # fmt: skip
    grads = tape.gradient(loss, model.trainable_variables)
    assert [tuple(g.shape) for g in grads] == [(2, 3), (3,), (3, 1), (1,)]


def test_an_unbuilt_dense_has_no_kernel_yet() -> None:
    dense = layers.Dense(2)
    with pytest.raises(AttributeError, match="You must build the layer before accessing `kernel`"):
        _ = dense.kernel
    dense.build((None, 3))
    assert dense.kernel.shape == (3, 2) and dense.bias.shape == (2,)
    assert layers.Dense(2, use_bias=False)(tf.ones((1, 3))).shape == (1, 2)
