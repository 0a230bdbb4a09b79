"""``v[key].assign(value)``: TensorFlow's sliced assignment of a Variable (issue 34, item 1)."""

from __future__ import annotations

import ast
import io
import re

import numpy as np
import pytest

import tapeviz.tf as tf
from tapeviz.engine.tensor import Tensor
from tapeviz.sandbox import run
from tapeviz.sandbox.process import results, results_decode, wire


def _matrix() -> tf.Variable:
    return tf.Variable(np.arange(12, dtype=np.float32).reshape(3, 4))


@pytest.mark.parametrize(
    ("key", "value"),
    [
        (np.s_[:], np.full((3, 4), 7.0)),
        (np.s_[0], [1.0, 2.0, 3.0, 4.0]),
        (np.s_[-1], [9.0, 9.0, 9.0, 9.0]),
        (np.s_[1:3], np.ones((2, 4))),
        (np.s_[:, 0], [5.0, 6.0, 7.0]),
        (np.s_[::2, 1:3], [[1.0, 2.0], [3.0, 4.0]]),
        (np.s_[::-1, -1], [0.0, 1.0, 2.0]),
        (np.s_[..., 2], [8.0, 8.0, 8.0]),
        (np.s_[1, ...], [4.0, 3.0, 2.0, 1.0]),
        (np.s_[None, 0], [[1.0, 1.0, 1.0, 1.0]]),
        (np.s_[1, 2], 42.0),
    ],
)
def test_each_key_kind_writes_where_numpy_would(key: object, value: object) -> None:
    v = _matrix()
    want = np.arange(12, dtype=np.float32).reshape(3, 4)
    want[key] = value  # type: ignore[index]
    out = v[key].assign(value)  # type: ignore[index]
    assert out is v
    np.testing.assert_array_equal(v.numpy(), want)
    assert v.dtype is tf.float32 and v.shape == (3, 4)


def test_the_slice_is_an_ordinary_tensor_snapshot() -> None:
    v = tf.Variable([1.0, 2.0, 3.0])
    s = v[1:]
    assert type(s) is Tensor  # what tapes, graphs and the wire see is a plain Tensor
    s.assign([5.0, 6.0])
    np.testing.assert_array_equal(s.numpy(), [2.0, 3.0])  # read before the assignment
    np.testing.assert_array_equal(v[1:].numpy(), [5.0, 6.0])


def test_tensor_keys_and_scalar_variables() -> None:
    v = tf.Variable([1, 2, 3, 4])
    v[tf.constant(2)].assign(30)
    v[tf.constant(0) : tf.constant(2)].assign(tf.constant([10, 20]))
    assert v.numpy().tolist() == [10, 20, 30, 4]
    s = tf.Variable(2.0)
    s[...].assign(3.0)
    s[()].assign(s + 1.0)
    assert float(s) == 4.0


def test_an_empty_slice_takes_anything_as_tensorflow_does() -> None:
    v = tf.Variable([1.0, 2.0])
    v[1:1].assign([7.0, 8.0, 9.0])
    assert v.numpy().tolist() == [1.0, 2.0]


def test_shape_mismatch_is_tensorflows_unimplemented_error() -> None:
    v = _matrix()
    msg = "sliced l-value shape [4] does not match r-value shape [3]. Automatic broadcasting"
    with pytest.raises(tf.errors.UnimplementedError, match=re.escape(msg)):
        v[0].assign([1.0, 2.0, 3.0])
    with pytest.raises(tf.errors.UnimplementedError, match=re.escape("r-value shape []")):
        v[:, 1].assign(0.0)  # no broadcasting, as in TensorFlow
    np.testing.assert_array_equal(v.numpy(), np.arange(12).reshape(3, 4))


def test_dtype_is_checked_as_for_variable_assign() -> None:
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected a float32 tensor"):
        v[0].assign(tf.constant(1.0, tf.float64))
    n = tf.Variable([1, 2])
    with pytest.raises(TypeError, match=re.escape("cannot convert the float value 1.5")):
        n[0].assign(1.5)
    assert v.numpy().tolist() == [1.0, 2.0] and n.numpy().tolist() == [1, 2]


def test_only_assign_exists_and_only_on_a_slice_of_a_variable() -> None:
    v = tf.Variable([1.0, 2.0])
    for name in ("assign_add", "assign_sub"):
        with pytest.raises(AttributeError, match=f"'Tensor' object has no attribute '{name}'"):
            getattr(v[0], name)
    t = tf.constant([1.0, 2.0])
    with pytest.raises(AttributeError, match="'Tensor' object has no attribute 'assign'"):
        t[0].assign(3.0)
    assert not hasattr(t, "assign") and not hasattr((v * 1.0)[0], "assign")


def test_the_assignment_is_not_recorded_and_slice_gradients_are_unchanged() -> None:
    w = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(w[0:2] * w[1])
        n = len(tape.records)
        w[0].assign(10.0)
        assert len(tape.records) == n + 1  # the slice's read only (TF records it too)
    names = [r.name for r in tape.records]
    assert names == ["getitem", "getitem", "multiply", "reduce_sum", "getitem"]
    np.testing.assert_allclose(tape.gradient(y, w).numpy(), [2.0, 5.0, 0.0])
    assert w.numpy().tolist() == [10.0, 2.0, 3.0]


# -- d2l's from-scratch optimizers (chapter_optimization, the TensorFlow tab), in a script --

_D2L = """
import numpy as np
import tensorflow as tf

def init_adagrad_states(feature_dim):
    s_w = tf.Variable(tf.zeros((feature_dim, 1)))
    s_b = tf.Variable(tf.zeros(1))
    return (s_w, s_b)

def adagrad(params, grads, states, hyperparams):
    eps = 1e-6
    for p, s, g in zip(params, states, grads):
        s[:].assign(s + tf.math.square(g))
        p[:].assign(p - hyperparams['lr'] * g / tf.math.sqrt(s + eps))

def init_rmsprop_states(feature_dim):
    s_w = tf.Variable(tf.zeros((feature_dim, 1)))
    s_b = tf.Variable(tf.zeros(1))
    return (s_w, s_b)

def rmsprop(params, grads, states, hyperparams):
    gamma, eps = hyperparams['gamma'], 1e-6
    for p, s, g in zip(params, states, grads):
        s[:].assign(gamma * s + (1 - gamma) * tf.math.square(g))
        p[:].assign(p - hyperparams['lr'] * g / tf.math.sqrt(s + eps))

def init_adadelta_states(feature_dim):
    s_w = tf.Variable(tf.zeros((feature_dim, 1)))
    s_b = tf.Variable(tf.zeros(1))
    delta_w = tf.Variable(tf.zeros((feature_dim, 1)))
    delta_b = tf.Variable(tf.zeros(1))
    return ((s_w, delta_w), (s_b, delta_b))

def adadelta(params, grads, states, hyperparams):
    rho, eps = hyperparams['rho'], 1e-5
    for p, (s, delta), grad in zip(params, states, grads):
        s[:].assign(rho * s + (1 - rho) * tf.math.square(grad))
        g = (tf.math.sqrt(delta + eps) / tf.math.sqrt(s + eps)) * grad
        p[:].assign(p - g)
        delta[:].assign(rho * delta + (1 - rho) * g * g)

def init_adam_states(feature_dim):
    v_w = tf.Variable(tf.zeros((feature_dim, 1)))
    v_b = tf.Variable(tf.zeros(1))
    s_w = tf.Variable(tf.zeros((feature_dim, 1)))
    s_b = tf.Variable(tf.zeros(1))
    return ((v_w, s_w), (v_b, s_b))

def adam(params, grads, states, hyperparams):
    beta1, beta2, eps = 0.9, 0.999, 1e-6
    for p, (v, s), grad in zip(params, states, grads):
        v[:].assign(beta1 * v  + (1 - beta1) * grad)
        s[:].assign(beta2 * s + (1 - beta2) * tf.math.square(grad))
        v_bias_corr = v / (1 - beta1 ** hyperparams['t'])
        s_bias_corr = s / (1 - beta2 ** hyperparams['t'])
        p[:].assign(p - hyperparams['lr'] * v_bias_corr
                    / tf.math.sqrt(s_bias_corr) + eps)

def yogi(params, grads, states, hyperparams):
    beta1, beta2, eps = 0.9, 0.999, 1e-6
    for p, (v, s), grad in zip(params, states, grads):
        v[:].assign(beta1 * v  + (1 - beta1) * grad)
        s[:].assign(s + (1 - beta2) * tf.math.sign(
                   tf.math.square(grad) - s) * tf.math.square(grad))
        v_bias_corr = v / (1 - beta1 ** hyperparams['t'])
        s_bias_corr = s / (1 - beta2 ** hyperparams['t'])
        p[:].assign(p - hyperparams['lr'] * v_bias_corr
                    / tf.math.sqrt(s_bias_corr) + eps)
    hyperparams['t'] += 1

X = tf.constant(np.linspace(-1.0, 1.0, 24).reshape(8, 3), dtype=tf.float32)
y = tf.constant(np.linspace(0.5, -0.5, 8).reshape(8, 1), dtype=tf.float32)

def train(trainer_fn, states, hyperparams, steps=4):
    w = tf.Variable(tf.constant([[0.1], [-0.2], [0.3]]))
    b = tf.Variable(tf.zeros(1))
    for _ in range(steps):
        with tf.GradientTape() as g:
            y_hat = tf.matmul(X, w) + b
            l = tf.math.reduce_mean((y_hat - tf.reshape(y, y_hat.shape)) ** 2 / 2)
        dw, db = g.gradient(l, [w, b])
        trainer_fn([w, b], [dw, db], states, hyperparams)
    print(NAME, w.numpy().ravel().tolist() + b.numpy().tolist())
"""

_CALLS = {
    "adagrad": "train(adagrad, init_adagrad_states(3), {'lr': 0.1})",
    "rmsprop": "train(rmsprop, init_rmsprop_states(3), {'lr': 0.01, 'gamma': 0.9})",
    "adadelta": "train(adadelta, init_adadelta_states(3), {'rho': 0.9})",
    "adam": "train(adam, init_adam_states(3), {'lr': 0.01, 't': 1})",
    "yogi": "train(yogi, init_adam_states(3), {'lr': 0.01, 't': 1})",
}


def _numpy_reference(name: str, steps: int = 4) -> list[float]:
    """The same updates, in float64 numpy."""
    x = np.linspace(-1.0, 1.0, 24).reshape(8, 3)
    y = np.linspace(0.5, -0.5, 8).reshape(8, 1)
    params = [np.array([[0.1], [-0.2], [0.3]]), np.zeros(1)]
    s = [np.zeros_like(p) for p in params]
    m = [np.zeros_like(p) for p in params]  # adam's v, adadelta's delta
    t = 1
    for _ in range(steps):
        err = x @ params[0] + params[1] - y
        grads = [x.T @ err / len(x), err.sum(0) / len(x)]
        for i, g in enumerate(grads):
            p = params[i]
            if name == "adagrad":
                s[i] = s[i] + g**2
                params[i] = p - 0.1 * g / np.sqrt(s[i] + 1e-6)
            elif name == "rmsprop":
                s[i] = 0.9 * s[i] + 0.1 * g**2
                params[i] = p - 0.01 * g / np.sqrt(s[i] + 1e-6)
            elif name == "adadelta":
                s[i] = 0.9 * s[i] + 0.1 * g**2
                step = np.sqrt(m[i] + 1e-5) / np.sqrt(s[i] + 1e-5) * g
                params[i] = p - step
                m[i] = 0.9 * m[i] + 0.1 * step * step
            else:
                m[i] = 0.9 * m[i] + 0.1 * g
                if name == "adam":
                    s[i] = 0.999 * s[i] + 0.001 * g**2
                else:
                    s[i] = s[i] + 0.001 * np.sign(g**2 - s[i]) * g**2
                v_hat, s_hat = m[i] / (1 - 0.9**t), s[i] / (1 - 0.999**t)
                params[i] = p - 0.01 * v_hat / np.sqrt(s_hat) + 1e-6  # d2l's precedence
        if name == "yogi":
            t += 1  # d2l's adam never advances t; its yogi does
    return [*params[0].ravel().tolist(), *params[1].tolist()]


@pytest.mark.parametrize("name", sorted(_CALLS))
def test_d2l_from_scratch_optimizers_run_in_a_script(name: str) -> None:
    source = _D2L + f"NAME = {name!r}\n" + _CALLS[name] + "\n"
    result = run(source)
    assert result.error is None, result.error
    label, _, values = result.output.strip().partition(" ")
    assert label == name
    got = ast.literal_eval(values)
    np.testing.assert_allclose(got, _numpy_reference(name), rtol=2e-5, atol=2e-6)


def test_script_errors_read_as_tensorflows() -> None:
    base = "import tensorflow as tf\nv = tf.Variable([1.0, 2.0])\n"
    r = run(base + "tf.constant([1.0])[0].assign(2.0)\n")
    assert r.error is not None and "'Tensor' object has no attribute 'assign'" in str(r.error)
    r = run(base + "v[0].assign_add(1.0)\n")
    assert r.error is not None and "no attribute 'assign_add'" in str(r.error)
    r = run(base + "v[:].assign([1.0, 2.0, 3.0])\n")
    assert r.error is not None and "sliced l-value shape [2]" in str(r.error)
    caught = "try:\n    v[:].assign(0.0)\nexcept tf.errors.UnimplementedError:\n    print('no')\n"
    r = run(base + caught)
    assert r.error is None and r.output == "no\n"


def test_a_run_with_sliced_assignments_on_tapes_crosses_the_wire() -> None:
    source = (
        "import tensorflow as tf\nv = tf.Variable([[1.0, 2.0], [3.0, 4.0]])\n"
        "with tf.GradientTape() as tape:\n    y = tf.reduce_sum(v[0] * v[:, 1])\n"
        "    v[1].assign(v[0] + y)\nprint(tape.gradient(y, v).numpy().tolist())\n"
    )
    result = run(source)
    assert result.error is None, result.error
    assert result.output == "[[2.0, 5.0], [0.0, 2.0]]\n"  # values read before the assign
    w = wire.Writer()
    buf = io.BytesIO()
    wire.write(buf, results.encode(result, w), w)
    back = results_decode.decode(wire.read(io.BytesIO(buf.getvalue())))
    assert back.tapes[0].tape.pretty() == result.tapes[0].tape.pretty()
