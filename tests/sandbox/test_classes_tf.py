"""Subclassing tapeviz.tf's classes in scripts: tf.Module, Keras layers and models (issue 14)."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

import tapeviz.tf as tf
from tapeviz.sandbox import Limits, UserCodeError, run


def ok(source: str) -> str:
    result = run(textwrap.dedent(source), limits=Limits(wall_time=30))
    assert result.error is None, result.error
    return result.output


def error_of(source: str) -> UserCodeError:
    result = run(textwrap.dedent(source), limits=Limits(wall_time=30))
    assert result.error is not None, result.output
    return result.error


def test_a_tf_module_model_collects_its_variables_and_trains() -> None:
    """The "basic training loops" guide's model, as pasted: same numbers as tapeviz.tf."""
    out = ok(
        """
        class MyModel(tf.Module):
          def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.w = tf.Variable(5.0)
            self.b = tf.Variable(0.0)
          def __call__(self, x):
            return self.w * x + self.b

        model = MyModel(name="linear")
        print(model.name, len(model.variables), len(model.trainable_variables))
        x = tf.linspace(-2.0, 2.0, 21)
        y = x * 3.0 + 2.0
        for epoch in range(10):
          with tf.GradientTape() as t:
            current = tf.reduce_mean(tf.square(y - model(x)))
          dw, db = t.gradient(current, [model.w, model.b])
          model.w.assign_sub(0.1 * dw)
          model.b.assign_sub(0.1 * db)
        print(model.w.numpy(), model.b.numpy())
        """
    )
    w, b = tf.Variable(5.0), tf.Variable(0.0)
    x = tf.linspace(-2.0, 2.0, 21)
    y = x * 3.0 + 2.0
    for _ in range(10):
        with tf.GradientTape() as t:
            current = tf.reduce_mean(tf.square(y - (w * x + b)))
        dw, db = t.gradient(current, [w, b])
        w.assign_sub(0.1 * dw)
        b.assign_sub(0.1 * db)
    assert out == f"linear 2 2\n{w.numpy()!s} {b.numpy()!s}\n"


def test_nested_modules_are_submodules() -> None:
    out = ok(
        """
        class Dense(tf.Module):
          def __init__(self, in_features, out_features, name=None):
            super().__init__(name=name)
            self.w = tf.Variable(tf.ones([in_features, out_features]), name='w')
            self.b = tf.Variable(tf.zeros([out_features]), name='b')
          @tf.function
          def __call__(self, x):
            return tf.nn.relu(tf.matmul(x, self.w) + self.b)

        class Sequential(tf.Module):
          def __init__(self, name=None):
            super().__init__(name=name)
            self.dense_1 = Dense(3, 3)
            self.dense_2 = Dense(3, 2)
          def __call__(self, x):
            return self.dense_2(self.dense_1(x))

        m = Sequential(name="the_model")
        print(m(tf.constant([[2.0, 2.0, 2.0]])).numpy(), len(m.submodules), len(m.variables))
        print([v.name for v in m.variables])
        """
    )
    assert out.splitlines()[0] == "[[18. 18.]] 2 4"


def test_a_keras_layer_subclass_builds_and_calls() -> None:
    out = ok(
        """
        class MyDense(tf.keras.layers.Layer):
            def __init__(self, units=4, **kwargs):
                super().__init__(**kwargs)
                self.units = units
            def build(self, input_shape):
                self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="ones")
                self.b = self.add_weight(shape=(self.units,), initializer="zeros")
            def call(self, inputs):
                return tf.matmul(inputs, self.w) + self.b
        layer = MyDense(3)
        y = layer(tf.ones((2, 5)))
        print(y.numpy().tolist(), len(layer.trainable_variables), layer.built)
        layer.trainable = False
        print(len(layer.trainable_variables), isinstance(layer, tf.keras.layers.Layer))
        """
    )
    assert out == "[[5.0, 5.0, 5.0], [5.0, 5.0, 5.0]] 2 True\n0 True\n"


def test_a_keras_model_subclass_fits_and_trains_in_a_custom_loop() -> None:
    out = ok(
        """
        class M(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.d1 = tf.keras.layers.Dense(8, activation="relu")
                self.d2 = tf.keras.layers.Dense(1)
            def call(self, x, training=False):
                return self.d2(self.d1(x))
        tf.random.set_seed(0)
        model = M()
        X = tf.random.normal((32, 3))
        Y = tf.reduce_sum(X, axis=1, keepdims=True)
        model.compile(optimizer="adam", loss="mse")
        history = model.fit(X, Y, epochs=3, batch_size=8, verbose=0)
        print(len(history.history["loss"]), len(model.trainable_variables))
        ds = tf.data.Dataset.from_tensor_slices((X, Y)).shuffle(32).batch(8)
        opt = tf.keras.optimizers.SGD(0.01)
        loss_fn = tf.keras.losses.MeanSquaredError()
        for xb, yb in ds:
            with tf.GradientTape() as tape:
                loss = loss_fn(yb, model(xb, training=True))
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
        print(type(model).__name__, isinstance(model, tf.keras.Model), float(loss) > 0)
        """
    )
    assert out == "3 4\nM True True\n"


def test_keras_is_importable_and_the_same() -> None:
    out = ok("import keras\nprint(keras.layers.Dense is tf.keras.layers.Dense)")
    assert out == "True\n"


def test_the_public_api_of_tapeviz_tf_is_reachable_without_lists() -> None:
    out = ok(
        """
        d = tf.keras.layers.Dense(2, use_bias=False)
        y = d(tf.ones((1, 3)))
        print(d.kernel.shape, d.units, d.use_bias)
        ds = tf.data.Dataset.range(5).map(lambda v: v * 2).batch(2)
        print([b.numpy().tolist() for b in ds])
        """
    )
    assert out == "(3, 2) 2 False\n[[0, 2], [4, 6], [8]]\n"


def test_engine_internals_stay_out_of_reach() -> None:
    for source, message in [
        ("class A(tf.Module):\n    def _flatten(self):\n        return []", "'_flatten'"),
        ("class A(tf.keras.layers.Layer):\n    _trainable = None", "'_trainable'"),
        ("class A(tf.keras.layers.Layer):\n    _seen = None", "'_seen'"),
        ("m = tf.Module()\nm._name", "'_name' is not available"),
        (
            "class A(tf.keras.layers.Layer):\n    def call(self, x):\n"
            "        return super().__setattr__('x', 1)\nA()(1.0)",
            "'__setattr__'",
        ),
        ("tf.Module.__init__", "'__init__' is not available"),
    ]:
        err = error_of(source)
        assert message in err.message, (source, err)


def test_a_layer_call_that_loops_is_stopped_inside_keras() -> None:
    result = run(
        "class Spin(tf.keras.layers.Layer):\n    def call(self, x):\n        while True:\n"
        "            x = x + 1\nSpin()(tf.ones((1, 1)))\n",
        limits=Limits(wall_time=0.5),
    )
    assert result.error is not None and result.error.limit == "wall time"
    assert result.error.line == 3


def test_a_layers_tensors_are_named_where_the_model_keeps_them() -> None:
    result = run(
        "class M(tf.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.w = tf.Variable(np.float32(1.0))\nmodel = M()\n"
    )
    assert result.error is None and "model.w" in result.namespace
    np.testing.assert_array_equal(result.namespace["model.w"].numpy(), 1.0)


@pytest.mark.parametrize("name", ["Module", "keras.layers.Layer", "keras.Model"])
def test_each_base_made_for_subclassing_is_registered(name: str) -> None:
    from tapeviz.sandbox.runtime import classes, modules

    base = modules.lookup("tensorflow." + name)
    assert base is not None and any(issubclass(base, r) for r in classes.ROOTS)


def test_a_subclassed_model_still_writes_no_file(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run(
        "class M(tf.keras.Model):\n    def call(self, x):\n        return x\n"
        "m = M()\nm.save('model.keras')\nimport os\nprint(os.listdir('.'))\n"
    )
    assert result.error is None and result.output == "['model.keras']\n"  # the run's own folder
    assert list(tmp_path.iterdir()) == []


def test_script_functions_handed_to_keras_and_tf_data_spend_the_budget() -> None:
    for source in (
        "def f(x):\n    while True:\n        pass\ntf.keras.layers.Lambda(f)(tf.ones((1, 1)))\n",
        "def f(v):\n    while True:\n        pass\nlist(tf.data.Dataset.range(3).map(f))\n",
    ):
        result = run(source, limits=Limits(wall_time=0.5))
        assert result.error is not None and result.error.limit == "wall time", source
        assert result.error.line == 2
