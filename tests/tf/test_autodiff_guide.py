"""TensorFlow's "Introduction to gradients and automatic differentiation", cell by cell.

Each test is a cell of the guide as written there (with ``tf`` bound to ``tapeviz.tf``); the
assertions are what TensorFlow 2.21 prints for it.
"""

from __future__ import annotations

import numpy as np
import pytest

import tapeviz.tf as tf


def test_gradient_tapes(capsys: pytest.CaptureFixture[str]) -> None:
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x**2
    dy_dx = tape.gradient(y, x)
    assert dy_dx.numpy() == 6.0
    print(dy_dx)
    assert capsys.readouterr().out == "tf.Tensor(6.0, shape=(), dtype=float32)\n"


def test_gradients_of_a_list_and_a_dict_of_variables() -> None:
    tf.random.set_seed(1)
    w = tf.Variable(tf.random.normal((3, 2)), name="w")
    b = tf.Variable(tf.zeros(2, dtype=tf.float32), name="b")
    x = [[1.0, 2.0, 3.0]]
    with tf.GradientTape(persistent=True) as tape:
        y = x @ w + b
        loss = tf.reduce_mean(y**2)
    [dl_dw, dl_db] = tape.gradient(loss, [w, b])  # noqa: RUF059  (the guide's line)
    assert w.shape == (3, 2) and dl_dw.shape == (3, 2)
    my_vars = {"w": w, "b": b}
    grad = tape.gradient(loss, my_vars)
    assert list(grad) == ["w", "b"]
    y_np = np.array(x, dtype=np.float32) @ w.numpy()
    np.testing.assert_allclose(grad["b"].numpy(), y_np[0], rtol=1e-6)  # d mean(y²)/db = 2y/2
    assert repr(grad["b"]).startswith("<tf.Tensor: shape=(2,), dtype=float32, numpy=array([")


def test_gradients_with_respect_to_a_model(capsys: pytest.CaptureFixture[str]) -> None:
    layer = tf.keras.layers.Dense(2, activation="relu")
    x = tf.constant([[1.0, 2.0, 3.0]])
    with tf.GradientTape() as tape:
        y = layer(x)
        loss = tf.reduce_mean(y**2)
    grad = tape.gradient(loss, layer.trainable_variables)
    for var, g in zip(layer.trainable_variables, grad, strict=True):
        print(f"{var.name}, shape: {g.shape}")
    assert capsys.readouterr().out == "kernel, shape: (3, 2)\nbias, shape: (2,)\n"


def test_controlling_what_the_tape_watches(capsys: pytest.CaptureFixture[str]) -> None:
    x0 = tf.Variable(3.0, name="x0")  # a trainable variable
    x1 = tf.Variable(3.0, name="x1", trainable=False)  # not trainable
    x2 = tf.Variable(2.0, name="x2") + 1.0  # a variable + tensor returns a tensor
    x3 = tf.constant(3.0, name="x3")  # not a variable
    with tf.GradientTape() as tape:
        y = (x0**2) + (x1**2) + (x2**2)
    grad = tape.gradient(y, [x0, x1, x2, x3])
    for g in grad:
        print(g)
    assert capsys.readouterr().out == (
        "tf.Tensor(6.0, shape=(), dtype=float32)\nNone\nNone\nNone\n"
    )
    assert [var.name for var in tape.watched_variables()] == ["x0:0"]


def test_watch_a_tensor_and_watch_accessed_variables_false(
    capsys: pytest.CaptureFixture[str],
) -> None:
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x**2
    print(tape.gradient(y, x).numpy())
    x0 = tf.Variable(0.0)
    x1 = tf.Variable(10.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(x1)
        y0 = tf.math.sin(x0)
        y1 = tf.nn.softplus(x1)
        y = y0 + y1
        ys = tf.reduce_sum(y)
    grad = tape.gradient(ys, {"x0": x0, "x1": x1})
    print("dy/dx0:", grad["x0"])
    print("dy/dx1:", grad["x1"].numpy())
    assert capsys.readouterr().out == "6.0\ndy/dx0: None\ndy/dx1: 0.9999546\n"


def test_intermediate_results_and_persistent_tapes(capsys: pytest.CaptureFixture[str]) -> None:
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    print(tape.gradient(z, y).numpy())
    x = tf.constant([1, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    print(tape.gradient(z, x).numpy())  # [4.0, 108.0] (4 * x**3 at x = [1.0, 3.0])
    print(tape.gradient(y, x).numpy())  # [2.0, 6.0] (2 * x at x = [1.0, 3.0])
    del tape
    assert capsys.readouterr().out == "18.0\n[  4. 108.]\n[2. 6.]\n"


def test_gradients_of_non_scalar_targets(capsys: pytest.CaptureFixture[str]) -> None:
    x = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        y0 = x**2
        y1 = 1 / x
    print(tape.gradient(y0, x).numpy())
    print(tape.gradient(y1, x).numpy())
    with tf.GradientTape() as tape:
        y0 = x**2
        y1 = 1 / x
    print(tape.gradient({"y0": y0, "y1": y1}, x).numpy())
    with tf.GradientTape() as tape:
        y = x * [3.0, 4.0]
    print(tape.gradient(y, x).numpy())
    x = tf.linspace(-10.0, 10.0, 200 + 1)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.sigmoid(x)
    dy_dx = tape.gradient(y, x)
    assert dy_dx.shape == (201,) and float(tf.reduce_max(dy_dx)) == 0.25
    assert capsys.readouterr().out == "4.0\n-0.25\n3.75\n7.0\n"


def test_control_flow_and_a_variable_as_the_target(capsys: pytest.CaptureFixture[str]) -> None:
    x = tf.constant(1.0)
    v0 = tf.Variable(2.0)
    v1 = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        if x > 0.0:  # noqa: SIM108  (the guide's control flow)
            result = v0
        else:
            result = v1**2
    dv0, dv1 = tape.gradient(result, [v0, v1])
    print(dv0)
    print(dv1)
    dx = tape.gradient(result, x)
    print(dx)
    assert capsys.readouterr().out == "tf.Tensor(1.0, shape=(), dtype=float32)\nNone\nNone\n"


def test_cases_where_gradient_returns_none(capsys: pytest.CaptureFixture[str]) -> None:
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        z = y * y
    print(tape.gradient(z, x))
    x = tf.Variable(2.0)
    grads = []
    for _epoch in range(2):
        with tf.GradientTape() as tape:
            y = x + 1
        grads.append(tape.gradient(y, x))
        x = x + 1  # This should be `x.assign_add(1)`
    print(grads[0], grads[1])
    x = tf.Variable([[1.0, 2.0], [3.0, 4.0]], dtype=tf.float32)
    with tf.GradientTape() as tape:
        x2 = x**2
        y = np.mean(x2, axis=0)  # this step is calculated with NumPy
        y = tf.reduce_mean(y, axis=0)
    print(tape.gradient(y, x))
    x0 = tf.Variable(3.0)
    x1 = tf.Variable(0.0)
    with tf.GradientTape() as tape:
        x1.assign_add(x0)  # Update x1 = x1 + x0.
        y = x1**2  # The tape starts recording from x1: y = (x1 + x0)**2
    print(tape.gradient(y, x0))
    assert capsys.readouterr().out == (
        "None\ntf.Tensor(1.0, shape=(), dtype=float32) None\nNone\nNone\n"
    )


def test_integer_tensors_give_none_with_tensorflows_warnings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    x = tf.constant(10)
    with pytest.warns(UserWarning) as caught:
        with tf.GradientTape() as g:
            g.watch(x)
            y = x * x
        print(g.gradient(y, x))
    assert [str(w.message).split(" (e.g.")[0] for w in caught] == [
        "The dtype of the watched tensor must be floating",
        "The dtype of the target tensor must be floating",
        "The dtype of the source tensor must be floating",
    ]
    assert capsys.readouterr().out == "None\n"


def test_zeros_instead_of_none(capsys: pytest.CaptureFixture[str]) -> None:
    x = tf.Variable([2.0, 2.0])
    y = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        z = y**2
    print(tape.gradient(z, x, unconnected_gradients=tf.UnconnectedGradients.ZERO))
    assert capsys.readouterr().out == "tf.Tensor([0. 0.], shape=(2,), dtype=float32)\n"
