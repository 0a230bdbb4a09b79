"""Keras 3's convolution and pooling layers: shapes, parameter counts, names, maths, training."""

from __future__ import annotations

import numpy as np
import pytest

import tapeviz.tf as tf
from tapeviz.models.graph.layers import leaf_scopes

keras = tf.keras
layers = tf.keras.layers


def images(*shape: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).random(shape).astype("float32")


def test_conv2d_shapes_params_and_names() -> None:
    conv = layers.Conv2D(32, 3)
    model = keras.Sequential([keras.Input((28, 28, 1)), conv])
    assert conv.name == "conv2d" and layers.Conv2D(1, 1).name == "conv2d_1"
    assert model.compute_output_shape((None, 28, 28, 1)) == (None, 26, 26, 32)
    assert conv.count_params() == 320
    assert [tuple(w.shape) for w in conv.weights] == [(3, 3, 1, 32), (32,)]
    assert [w.path for w in conv.weights] == ["sequential/conv2d/kernel", "sequential/conv2d/bias"]
    assert conv.compute_output_shape((None, 28, 28, 1)) == (None, 26, 26, 32)
    assert layers.Conv2D(8, (3, 5), strides=2, padding="same").compute_output_shape(
        (None, 9, 10, 3)) == (None, 5, 5, 8)  # fmt: skip
    assert layers.Conv2D(8, 3, dilation_rate=2).compute_output_shape((4, 9, 9, 3)) == (4, 5, 5, 8)


def test_the_summary_counts_conv_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    model = keras.Sequential([
        keras.Input((28, 28, 1)), layers.Conv2D(32, 3, activation="relu"), layers.MaxPooling2D(),
        layers.Conv2D(64, 3, activation="relu"), layers.GlobalAveragePooling2D(), layers.Dense(10),
    ])  # fmt: skip
    model.summary()
    out = capsys.readouterr().out
    for row in (
        "conv2d (Conv2D)",
        "(None, 26, 26, 32)",
        "max_pooling2d (MaxPooling2D)",
        "(None, 13, 13, 32)",
        "(None, 11, 11, 64)",
        "18,496",
        "(None, 64)",
        "650",
    ):
        assert row in out, row  # fmt: skip
    assert "Total params: 19,466" in out  # 320 + 18,496 + 650


def test_conv2d_transpose_follows_keras_output_rule() -> None:
    up = layers.Conv2DTranspose(64, 4, strides=2, padding="same")
    model = keras.Sequential([keras.Input((7, 7, 128)), up])
    assert up.name == "conv2d_transpose"
    assert model.compute_output_shape((None, 7, 7, 128)) == (None, 14, 14, 64)
    assert tuple(up.kernel.shape) == (4, 4, 64, 128) and up.count_params() == 4 * 4 * 64 * 128 + 64
    assert model(images(2, 7, 7, 128)).shape == (2, 14, 14, 64)
    valid = layers.Conv2DTranspose(3, 3, strides=2)  # (n − 1)·s + max(k, s)
    assert valid(images(1, 7, 7, 2)).shape == (1, 15, 15, 3)
    assert layers.Conv2DTranspose(3, 1, strides=2)(images(1, 7, 7, 2)).shape == (1, 14, 14, 3)
    padded = layers.Conv2DTranspose(3, 3, strides=2, padding="same", output_padding=1)
    assert padded.compute_output_shape((None, 5, 5, 2)) == (None, 10, 10, 3)
    assert padded(images(1, 5, 5, 2)).shape == (1, 10, 10, 3)


def test_a_conv_layer_is_tf_nn_conv2d_plus_bias() -> None:
    conv = layers.Conv2D(4, 3, strides=2, padding="same", activation="relu",
                         bias_initializer="ones")  # fmt: skip
    x = images(2, 6, 6, 3)
    got = conv(x)
    want = tf.nn.relu(tf.nn.conv2d(x, conv.kernel, 2, "SAME") + 1.0)
    assert got.shape == (2, 3, 3, 4)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)


def test_pooling_layers() -> None:
    x = images(2, 7, 7, 3)
    assert layers.MaxPooling2D().name == "max_pooling2d"
    assert layers.MaxPooling2D()(x).shape == (2, 3, 3, 3)
    assert layers.MaxPooling2D(padding="same")(x).shape == (2, 4, 4, 3)
    assert layers.MaxPooling2D(3, strides=1).compute_output_shape((None, 7, 7, 3)) == (
        None, 5, 5, 3)  # fmt: skip
    np.testing.assert_allclose(layers.AveragePooling2D()(x).numpy()[0, 0, 0],
                               x[0, :2, :2].mean(axis=(0, 1)), rtol=1e-6)  # fmt: skip
    np.testing.assert_allclose(layers.MaxPooling2D()(x).numpy()[1, 2, 1],
                               x[1, 4:6, 2:4].max(axis=(0, 1)))  # fmt: skip
    gap, gmp = layers.GlobalAveragePooling2D(), layers.GlobalMaxPooling2D(keepdims=True)
    assert (gap.name, gmp.name) == ("global_average_pooling2d", "global_max_pooling2d")
    np.testing.assert_allclose(gap(x).numpy(), x.mean(axis=(1, 2)), rtol=1e-6)
    assert gmp(x).shape == (2, 1, 1, 3)
    np.testing.assert_allclose(gmp(x).numpy()[:, 0, 0], x.max(axis=(1, 2)))
    assert layers.GlobalAveragePooling1D()(images(2, 5, 4)).shape == (2, 4)
    assert layers.MaxPooling1D()(images(2, 5, 4)).shape == (2, 2, 4)
    assert layers.MaxPool2D is layers.MaxPooling2D and layers.GlobalAvgPool2D is gap.__class__


def test_conv1d_valid_same_and_causal() -> None:
    x = images(2, 10, 3)
    assert layers.Conv1D(4, 3)(x).shape == (2, 8, 4)
    assert layers.Conv1D(4, 3, padding="same", strides=2)(x).shape == (2, 5, 4)
    causal = layers.Conv1D(1, 3, padding="causal", use_bias=False, kernel_initializer="ones")
    y = causal(np.arange(5, dtype="float32").reshape(1, 5, 1)).numpy()[0, :, 0]
    assert y.tolist() == [0.0, 1.0, 3.0, 6.0, 9.0]  # each step sees itself and the 2 before


def test_keras_argument_checks() -> None:
    with pytest.raises(ValueError, match="channels_first"):
        layers.Conv2D(2, 3, data_format="channels_first")
    with pytest.raises(ValueError, match="dilation_rate > 1"):
        layers.Conv2D(2, 3, strides=2, dilation_rate=2)
    with pytest.raises(ValueError, match="padding"):
        layers.Conv2D(2, 3, padding="full")
    with pytest.raises(ValueError, match="kernel_size"):
        layers.Conv2D(2, (3, 3, 3))
    with pytest.raises(ValueError, match="filters"):
        layers.Conv2D(0, 3)
    with pytest.raises(ValueError, match="expected axis -1"):
        conv = layers.Conv2D(2, 3)
        conv(images(1, 5, 5, 3))
        conv(images(1, 5, 5, 4))


def test_each_layer_records_its_ops_in_its_own_scope() -> None:
    model = keras.Sequential([
        keras.Input((8, 8, 1)), layers.Conv2D(4, 3, activation="relu"), layers.MaxPooling2D(),
        layers.Flatten(), layers.Dense(1),
    ])  # fmt: skip
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(images(2, 8, 8, 1)) ** 2)
    scopes = leaf_scopes(tape.records)
    assert ("sequential", "conv2d") in scopes and ("sequential", "max_pooling2d") in scopes
    conv_ops = [r.name for r in tape.records if tuple(r.scope) == ("sequential", "conv2d")]
    assert conv_ops == ["conv2d", "add", "relu"]
    grads = tape.gradient(loss, model.trainable_variables)
    assert all(g is not None for g in grads)


def test_a_small_gan_trains_a_step_in_a_custom_loop() -> None:
    tf.random.set_seed(1)
    disc = keras.Sequential([
        keras.Input((8, 8, 1)), layers.Conv2D(4, 3, strides=2, padding="same"),
        layers.LeakyReLU(negative_slope=0.2), layers.GlobalMaxPooling2D(), layers.Dense(1),
    ], name="discriminator")  # fmt: skip
    gen = keras.Sequential([
        keras.Input((4,)), layers.Dense(2 * 2 * 8), layers.Reshape((2, 2, 8)),
        layers.Conv2DTranspose(8, 4, strides=2, padding="same"), layers.LeakyReLU(0.2),
        layers.Conv2DTranspose(4, 4, strides=2, padding="same"),
        layers.Conv2D(1, 3, padding="same", activation="sigmoid"),
    ], name="generator")  # fmt: skip
    loss_fn = keras.losses.BinaryCrossentropy(from_logits=True)
    d_opt, g_opt = keras.optimizers.Adam(1e-3), keras.optimizers.Adam(1e-3)
    real = images(3, 8, 8, 1)
    noise = tf.random.normal((3, 4))
    with tf.GradientTape() as tape:
        fake = gen(noise)
        both = tf.concat([fake, real], axis=0)
        labels = tf.concat([tf.ones((3, 1)), tf.zeros((3, 1))], axis=0)
        d_loss = loss_fn(labels, disc(both))
    before = [w.numpy().copy() for w in disc.trainable_weights]
    d_opt.apply_gradients(zip(tape.gradient(d_loss, disc.trainable_weights),
                              disc.trainable_weights, strict=True))  # fmt: skip
    assert all(not np.array_equal(b, w.numpy()) for b, w in zip(before, disc.trainable_weights,
                                                                  strict=True))  # fmt: skip
    with tf.GradientTape() as tape:
        g_loss = loss_fn(tf.zeros((3, 1)), disc(gen(noise)))
    grads = tape.gradient(g_loss, gen.trainable_weights)
    assert all(g is not None and np.all(np.isfinite(g.numpy())) for g in grads)
    g_opt.apply_gradients(zip(grads, gen.trainable_weights, strict=True))
    assert fake.shape == (3, 8, 8, 1) and np.isfinite(float(d_loss))


def test_fit_lowers_the_loss_of_a_tiny_conv_net() -> None:
    keras.utils.set_random_seed(0)
    x = images(32, 6, 6, 1, seed=3)
    y = (x[:, :, :3].mean(axis=(1, 2, 3)) > x[:, :, 3:].mean(axis=(1, 2, 3))).astype("float32")
    model = keras.Sequential([keras.Input((6, 6, 1)), layers.Conv2D(4, 3, activation="relu"),
                              layers.MaxPooling2D(), layers.Flatten(),
                              layers.Dense(1, activation="sigmoid")])  # fmt: skip
    model.compile(optimizer=keras.optimizers.Adam(0.02), loss="binary_crossentropy")
    history = model.fit(x, y, epochs=15, batch_size=16, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]


def test_upsampling_padding_and_cropping_layers() -> None:
    x = np.arange(8, dtype="float32").reshape(1, 2, 2, 2)
    up = layers.UpSampling2D()(x).numpy()
    assert up.shape == (1, 4, 4, 2) and up[0, :, :, 1].tolist() == [
        [1, 1, 3, 3], [1, 1, 3, 3], [5, 5, 7, 7], [5, 5, 7, 7]]  # fmt: skip
    assert layers.UpSampling2D((2, 3)).compute_output_shape((None, 7, 7, 3)) == (None, 14, 21, 3)
    padded = layers.ZeroPadding2D(((1, 0), (2, 1)))(x)
    assert padded.shape == (1, 3, 5, 2) and float(tf.reduce_sum(padded)) == float(x.sum())
    assert layers.Cropping2D(((1, 0), (0, 1)))(images(1, 4, 5, 3)).shape == (1, 3, 4, 3)
    model = keras.Sequential([
        keras.Input((4, 4, 1)), layers.Conv2D(2, 3, padding="same"), layers.MaxPooling2D(),
        layers.UpSampling2D(), layers.ZeroPadding2D(1), layers.Cropping2D(1),
        layers.Conv2D(1, 3, padding="same", activation="sigmoid"),
    ])  # fmt: skip
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(images(2, 4, 4, 1)) - 0.5) ** 2)
    assert all(g is not None for g in tape.gradient(loss, model.trainable_variables))


def test_a_functional_conv_net_on_images_of_any_size() -> None:
    """``Input(shape=(None, None, C))`` before a VALID conv and a pool: sizes stay unknown."""
    import numpy as np

    import tapeviz.tf as tf

    keras = tf.keras
    inp = keras.Input(shape=(None, None, 3))
    x = keras.layers.Conv2D(8, 3)(inp)
    x = keras.layers.MaxPooling2D(2)(x)
    assert tuple(x.shape) == (None, None, None, 8)
    out = keras.layers.Dense(2)(keras.layers.GlobalAveragePooling2D()(x))
    model = keras.Model(inp, out)
    assert model(np.zeros((2, 10, 12, 3), "float32")).shape == (2, 2)
    assert model.count_params() == 3 * 3 * 3 * 8 + 8 + 8 * 2 + 2
