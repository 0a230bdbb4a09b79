"""TensorFlow's "Advanced automatic differentiation" guide: stop_recording, reset,
stop_gradient, custom gradients, several tapes, higher-order gradients, Jacobians, Hessians.
"""

from __future__ import annotations

import numpy as np
import pytest

import tapeviz.tf as tf


def test_controlling_gradient_recording(capsys: pytest.CaptureFixture[str]) -> None:
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as t:
        x_sq = x * x
        with t.stop_recording():
            y_sq = y * y
        z = x_sq + y_sq
    grad = t.gradient(z, {"x": x, "y": y})
    print("dz/dx:", grad["x"])  # 2*x => 4
    print("dz/dy:", grad["y"])
    reset = True
    with tf.GradientTape() as t:
        y_sq = y * y
        if reset:
            t.reset()  # throw out all the tape recorded so far
        z = x * x + y_sq
    grad = t.gradient(z, {"x": x, "y": y})
    print("dz/dx:", grad["x"])
    print("dz/dy:", grad["y"])
    with tf.GradientTape() as t:
        y_sq = y**2
        z = x**2 + tf.stop_gradient(y_sq)
    grad = t.gradient(z, {"x": x, "y": y})
    print("dz/dx:", grad["x"])
    print("dz/dy:", grad["y"])
    block = "dz/dx: tf.Tensor(4.0, shape=(), dtype=float32)\ndz/dy: None\n"
    assert capsys.readouterr().out == block * 3


def test_custom_gradient_clips_the_gradient(capsys: pytest.CaptureFixture[str]) -> None:
    # Establish an identity operation, but clip during the gradient pass.
    @tf.custom_gradient
    def clip_gradients(y):
        def backward(dy):
            return tf.clip_by_norm(dy, 0.5)

        return y, backward

    v = tf.Variable(2.0)
    with tf.GradientTape() as t:
        output = clip_gradients(v * v)
    print(t.gradient(output, v))  # calls "backward", which clips 4 to 2.
    assert capsys.readouterr().out == "tf.Tensor(2.0, shape=(), dtype=float32)\n"
    # the function is one op of the tape, after the multiply it reads
    assert [r.name for r in t.records] == ["multiply", "custom_gradient"]
    assert t.records[1].params["name"] == "clip_gradients"


def test_multiple_tapes() -> None:
    x0 = tf.constant(0.0)
    x1 = tf.constant(0.0)
    with tf.GradientTape() as tape0, tf.GradientTape() as tape1:
        tape0.watch(x0)
        tape1.watch(x1)
        y0 = tf.math.sin(x0)
        y1 = tf.nn.sigmoid(x1)
        y = y0 + y1
        ys = tf.reduce_sum(y)
    assert tape0.gradient(ys, x0).numpy() == 1.0  # cos(x) => 1.0
    assert tape1.gradient(ys, x1).numpy() == 0.25  # sigmoid(x1)*(1-sigmoid(x1)) => 0.25


def test_higher_order_gradients(capsys: pytest.CaptureFixture[str]) -> None:
    x = tf.Variable(1.0)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = x * x * x
        # Compute the gradient inside the outer `t2` context manager
        # which means the gradient computation is differentiable as well.
        dy_dx = t1.gradient(y, x)
    d2y_dx2 = t2.gradient(dy_dx, x)
    print("dy_dx:", dy_dx.numpy())  # 3 * x**2 => 3.0
    print("d2y_dx2:", d2y_dx2.numpy())  # 6 * x => 6.0
    assert capsys.readouterr().out == "dy_dx: 3.0\nd2y_dx2: 6.0\n"


def test_input_gradient_regularization() -> None:
    x = tf.random.normal([7, 5])
    layer = tf.keras.layers.Dense(10, activation=tf.nn.relu)
    with tf.GradientTape() as t2:
        # The inner tape only takes the gradient with respect to the input,
        # not the variables.
        with tf.GradientTape(watch_accessed_variables=False) as t1:
            t1.watch(x)
            y = layer(x)
            out = tf.reduce_sum(layer(x) ** 2)
        g1 = t1.gradient(out, x)  # 1. Calculate the input gradient.
        g1_mag = tf.norm(g1)  # 2. Calculate the magnitude of the input gradient.
    # 3. Calculate the gradient of the magnitude with respect to the model.
    dg1_mag = t2.gradient(g1_mag, layer.trainable_variables)
    assert repr([var.shape for var in dg1_mag]) == "[TensorShape([5, 10]), TensorShape([10])]"
    assert y.shape == (7, 10)


def test_jacobian_of_a_scalar_source(capsys: pytest.CaptureFixture[str]) -> None:
    x = tf.linspace(-10.0, 10.0, 200 + 1)
    delta = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        y = tf.nn.sigmoid(x + delta)
    dy_dx = tape.jacobian(y, delta)
    print(y.shape)
    print(dy_dx.shape)
    assert capsys.readouterr().out == "(201,)\n(201,)\n"


def test_jacobian_of_a_tensor_source(capsys: pytest.CaptureFixture[str]) -> None:
    x = tf.random.normal([7, 5])
    layer = tf.keras.layers.Dense(10, activation=tf.nn.relu)
    with tf.GradientTape(persistent=True) as tape:
        y = layer(x)
    assert repr(y.shape) == "TensorShape([7, 10])"
    assert repr(layer.kernel.shape) == "(5, 10)"  # Keras 3: a variable's shape is a tuple
    j = tape.jacobian(y, layer.kernel)
    assert repr(j.shape) == "TensorShape([7, 10, 5, 10])"
    g = tape.gradient(y, layer.kernel)
    print("g.shape:", g.shape)
    j_sum = tf.reduce_sum(j, axis=[0, 1])
    delta = tf.reduce_max(abs(g - j_sum)).numpy()
    assert delta < 1e-3
    assert capsys.readouterr().out == "g.shape: (5, 10)\n"


def test_hessian_with_nested_tapes_and_a_newton_step(capsys: pytest.CaptureFixture[str]) -> None:
    tf.random.set_seed(0)
    x = tf.random.normal([7, 5])
    layer1 = tf.keras.layers.Dense(8, activation=tf.nn.elu)
    layer2 = tf.keras.layers.Dense(6, activation=tf.nn.elu)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            x = layer1(x)
            x = layer2(x)
            loss = tf.reduce_mean(x**2)
        g = t1.gradient(loss, layer1.kernel)
    h = t2.jacobian(g, layer1.kernel)
    print(f"layer.kernel.shape: {layer1.kernel.shape}")
    print(f"h.shape: {h.shape}")
    assert capsys.readouterr().out == "layer.kernel.shape: (5, 8)\nh.shape: (5, 8, 5, 8)\n"
    n_params = tf.reduce_prod(layer1.kernel.shape)
    assert n_params.dtype == tf.int32 and int(n_params) == 40
    g_vec = tf.reshape(g, [n_params, 1])
    h_mat = tf.reshape(h, [n_params, n_params])
    np.testing.assert_allclose(h_mat.numpy(), h_mat.numpy().T, atol=1e-5)  # a Hessian
    eps = 1e-3
    eye_eps = tf.eye(h_mat.shape[0]) * eps
    # X(k+1) = X(k) - (∇²f(X(k)))^-1 @ ∇f(X(k))
    update = tf.linalg.solve(h_mat + eye_eps, g_vec)
    np.testing.assert_allclose((h_mat + eye_eps).numpy() @ update.numpy(), g_vec.numpy(), atol=1e-3)
    before = layer1.kernel.numpy()
    _ = layer1.kernel.assign_sub(tf.reshape(update, layer1.kernel.shape))
    np.testing.assert_allclose(layer1.kernel.numpy(), before - update.numpy().reshape(5, 8))


def test_hessian_matches_finite_differences_of_the_gradient() -> None:
    w0 = np.array([[0.3, -0.2], [0.1, 0.5]], dtype=np.float64)
    xs = tf.constant(np.array([[1.0, 2.0], [-1.0, 0.5]]))

    def loss_of(w: tf.Tensor) -> tf.Tensor:
        return tf.reduce_mean(tf.nn.elu(tf.matmul(xs, w)) ** 2)

    w = tf.Variable(w0)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            loss = loss_of(w)
        g = t1.gradient(loss, w)
    h = t2.jacobian(g, w).numpy().reshape(4, 4)

    def grad_at(v: np.ndarray) -> np.ndarray:
        var = tf.Variable(v)
        with tf.GradientTape() as t:
            value = loss_of(var)
        return t.gradient(value, var).numpy().reshape(-1)

    eps = 1e-6
    numeric = np.stack(
        [
            (grad_at(w0 + eps * e.reshape(2, 2)) - grad_at(w0 - eps * e.reshape(2, 2))) / (2 * eps)
            for e in np.eye(4)
        ],
        axis=1,
    )
    np.testing.assert_allclose(h, numeric, rtol=1e-5, atol=1e-8)


def test_batch_jacobian(capsys: pytest.CaptureFixture[str]) -> None:
    x = tf.random.normal([7, 5])
    layer1 = tf.keras.layers.Dense(8, activation=tf.nn.elu)
    layer2 = tf.keras.layers.Dense(6, activation=tf.nn.elu)
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch(x)
        y = layer1(x)
        y = layer2(y)
    assert repr(y.shape) == "TensorShape([7, 6])"
    j = tape.jacobian(y, x)
    assert repr(j.shape) == "TensorShape([7, 6, 7, 5])"
    j_sum = tf.reduce_sum(j, axis=2)
    print(j_sum.shape)
    j_select = tf.einsum("bxby->bxy", j)
    print(j_select.shape)
    jb = tape.batch_jacobian(y, x)
    assert repr(jb.shape) == "TensorShape([7, 6, 5])"
    error = tf.reduce_max(abs(jb - j_sum))
    assert error < 1e-3
    print(error.numpy())
    np.testing.assert_allclose(j_select.numpy(), jb.numpy())
    assert capsys.readouterr().out == "(7, 6, 5)\n(7, 6, 5)\n0.0\n"


def test_batch_jacobian_through_batch_normalization(capsys: pytest.CaptureFixture[str]) -> None:
    x = tf.random.normal([7, 5])
    layer1 = tf.keras.layers.Dense(8, activation=tf.nn.elu)
    bn = tf.keras.layers.BatchNormalization()
    layer2 = tf.keras.layers.Dense(6, activation=tf.nn.elu)
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch(x)
        y = layer1(x)
        y = bn(y, training=True)
        y = layer2(y)
    j = tape.jacobian(y, x)
    print(f"j.shape: {j.shape}")
    jb = tape.batch_jacobian(y, x)
    print(f"jb.shape: {jb.shape}")
    assert capsys.readouterr().out == "j.shape: (7, 6, 7, 5)\njb.shape: (7, 6, 5)\n"
    # batch statistics couple the examples: the off-diagonal blocks are not zero
    off = j.numpy()[0, :, 1, :]
    assert np.abs(off).max() > 1e-4
