"""Issue 34 item 4: TensorFlow's initializers, keras.backend's legacy functions, Adadelta,
Tensor.device, DataType enums, (batch, 1) sample weights, add_weight's ValueErrors, integer
inputs to float layers and complex values, as TensorFlow and Keras 3 document them."""

from __future__ import annotations

import numpy as np
import pytest

import tapeviz.tf as tf

keras = tf.keras


def test_tf_initializers_return_tensors_of_the_shape_and_dtype() -> None:
    assert str(tf.zeros_initializer()(shape=(2,))) == (
        "tf.Tensor([0. 0.], shape=(2,), dtype=float32)"
    )
    ones = tf.ones_initializer()((2, 3), dtype=tf.int32)
    assert ones.dtype is tf.int32 and ones.shape == (2, 3)
    np.testing.assert_array_equal(tf.constant_initializer(3.0)((2,)).numpy(), [3.0, 3.0])
    w = tf.random_normal_initializer(mean=1.0, stddev=0.02)(shape=(200, 50))
    assert w.dtype is tf.float32 and abs(float(tf.reduce_mean(w)) - 1.0) < 0.01
    u = tf.random_uniform_initializer(-1.0, 1.0)((1000,))
    assert float(tf.reduce_min(u)) >= -1.0 and float(tf.reduce_max(u)) < 1.0
    assert type(tf.random_normal_initializer()).__name__ == "RandomNormal"


def test_a_seeded_initializer_repeats_and_random_ones_need_floats() -> None:
    init = tf.random_normal_initializer(seed=3)
    np.testing.assert_array_equal(init((3,)).numpy(), init((3,)).numpy())
    with pytest.raises(ValueError, match="Expected float dtype"):
        tf.random_uniform_initializer()((2,), dtype=tf.int32)


def test_keras_layers_take_tf_initializers_and_a_variable_takes_their_tensor() -> None:
    dense = keras.layers.Dense(3, kernel_initializer=tf.random_normal_initializer(0.0, 0.02))
    dense(tf.ones((1, 2)))
    assert dense.kernel.shape == (2, 3)
    v = tf.Variable(initial_value=tf.zeros_initializer()(shape=(4,), dtype="float32"))
    assert v.shape == (4,)
    assert keras.initializers.glorot_uniform is keras.initializers.GlorotUniform
    assert keras.initializers.zeros is keras.initializers.Zeros


def test_keras_backend_legacy_random_and_maths() -> None:
    tf.random.set_seed(1)
    a = keras.backend.random_normal(shape=(2, 3))
    assert a.shape == (2, 3) and a.dtype is tf.float32
    assert keras.backend.random_uniform((4,), 0.0, 2.0).dtype is tf.float32
    assert keras.backend.int_shape(tf.ones((2, 5))) == (2, 5)
    assert float(keras.backend.mean(tf.constant([True, False]))) == 0.5
    np.testing.assert_array_equal(keras.backend.clip(tf.constant([-2.0, 2.0]), 0, 1), [0, 1])


def _keras_adadelta(v: np.ndarray, grads: list[np.ndarray], lr: float, rho: float) -> np.ndarray:
    """Keras 3's Adadelta.update_step, written out in float32."""
    f = np.float32
    acc_g, acc_d, eps = np.zeros_like(v), np.zeros_like(v), f(1e-7)
    for g in grads:
        acc_g = f(rho) * acc_g + f(1 - rho) * (g * g)
        delta = -(np.sqrt(acc_d + eps) * g / np.sqrt(acc_g + eps))
        acc_d = f(rho) * acc_d + f(1 - rho) * (delta * delta)
        v = v + f(lr) * delta
    return v


def test_adadelta_follows_keras_3_update_rule() -> None:
    grads = [np.array([0.5, -1.0], np.float32), np.array([0.25, 3.0], np.float32)] * 3
    opt = keras.optimizers.Adadelta(learning_rate=1.0)
    v = tf.Variable([1.0, 2.0])
    for g in grads:
        opt.apply_gradients([(tf.constant(g), v)])
    want = _keras_adadelta(np.array([1.0, 2.0], np.float32), grads, 1.0, 0.95)
    np.testing.assert_allclose(v.numpy(), want, rtol=1e-6)
    assert (opt.rho, opt.epsilon, float(opt.learning_rate)) == (0.95, 1e-7, 1.0)
    assert int(opt.iterations) == 6


def test_device_is_tensorflow_eagers_cpu() -> None:
    cpu = "/job:localhost/replica:0/task:0/device:CPU:0"
    assert tf.constant(1.0).device == cpu
    assert tf.Variable(1.0).device == cpu


def test_dtypes_given_as_tensorflows_datatype_enum() -> None:
    assert str(tf.zeros(1, 1)) == "tf.Tensor([0.], shape=(1,), dtype=float32)"
    assert tf.zeros((2,), 3).dtype is tf.int32
    assert tf.as_dtype(2) is tf.float64 and tf.as_dtype(9) is tf.int64
    assert tf.as_dtype(10) is tf.bool and tf.as_dtype(4) is tf.uint8
    with pytest.raises(TypeError):
        tf.as_dtype(7)  # tf.string: none in tapeviz


def test_a_batch_by_one_sample_weight_in_update_state() -> None:
    mse = keras.metrics.MeanSquaredError()
    mse.update_state([[1.0], [2.0]], [[0.0], [0.0]], sample_weight=[[1.0], [0.0]])
    assert float(mse.result()) == 1.0
    acc = keras.metrics.SparseCategoricalAccuracy()
    acc.update_state([[1], [0]], [[0.1, 0.9], [0.2, 0.8]], sample_weight=[[1.0], [0.0]])
    assert float(acc.result()) == 1.0
    mean = keras.metrics.Mean()
    mean.update_state([[1.0, 3.0], [5.0, 7.0]], sample_weight=[[1.0], [3.0]])
    assert float(mean.result()) == 5.0  # per-sample means 2 and 6, weighted 1:3
    assert float(mean.count.numpy()) == 4.0


class _Weights(keras.layers.Layer):
    def __init__(self, shape: object, initializer: object = "zeros") -> None:
        super().__init__()
        self.wanted, self.init = shape, initializer

    def build(self, input_shape: object) -> None:
        self.w = self.add_weight(shape=self.wanted, initializer=self.init)

    def call(self, x: object) -> object:
        return x


@pytest.mark.parametrize(
    ("shape", "initializer", "message"),
    [
        ((None, 3), "zeros", r"Shapes used to initialize variables must be fully-defined \(no "
         r"`None` dimensions\). Received: shape=\(None, 3\)"),
        ((2, -1), "zeros", "Negative dimensions are not allowed"),
        ((2.5,), "zeros", "Found invalid entry '2.5'"),
        ((2,), 3.0, "Could not interpret initializer identifier: 3.0"),
        ((2,), "no_such_initializer", "Could not interpret initializer identifier"),
    ],
)  # fmt: skip
def test_add_weight_raises_value_error_where_keras_does(
    shape: object, initializer: object, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        _Weights(shape, initializer)(tf.ones((1, 2)))


def test_integer_data_fed_to_float_layers() -> None:
    images = np.arange(6, dtype=np.uint8).reshape(2, 3)
    out = keras.layers.Dense(2)(images)
    assert out.dtype is tf.float32 and out.shape == (2, 2)
    assert keras.layers.Dense(2)(tf.constant([[1, 2]])).dtype is tf.float32
    assert keras.layers.LayerNormalization()(images).dtype is tf.float32
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    assert model(images).dtype is tf.float32
    emb = keras.layers.Embedding(10, 2)(tf.constant([1, 2]))  # indices stay integers
    assert emb.shape == (2, 2)


def test_complex_values_make_complex_tensors_and_variables() -> None:
    """The Variables guide's ``tf.Variable([5 + 4j, 6 + 1j])``, printed as TensorFlow prints it."""
    v = tf.Variable([5 + 4j, 6 + 1j])
    assert repr(v) == ("<tf.Variable 'Variable:0' shape=(2,) dtype=complex128, "
                       "numpy=array([5.+4.j, 6.+1.j])>")  # fmt: skip
    c = tf.constant([1j, 2.0])
    assert c.dtype is tf.complex128 and str(c) == (
        "tf.Tensor([0.+1.j 2.+0.j], shape=(2,), dtype=complex128)"
    )
    assert tf.constant(np.array([1 + 1j], np.complex64)).dtype is tf.complex64
    assert str(tf.constant(1 + 1j)) == "tf.Tensor((1+1j), shape=(), dtype=complex128)"
    np.testing.assert_array_equal((v * 2).numpy(), [10 + 8j, 12 + 2j])
    a = tf.abs(tf.constant([3 + 4j]))
    assert a.dtype is tf.float64 and a.numpy().tolist() == [5.0]  # |z|: a real tensor


def test_complex_ops_are_not_on_a_tape() -> None:
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = x * x
        z = tf.constant([1 + 1j]) * 3  # tapeviz's graphs are real-valued
    assert float(tape.gradient(y, x)) == 4.0
    assert all(r.outputs[0].id != z.id for r in tape.records)
