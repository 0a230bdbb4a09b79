"""TensorFlow's "Introduction to modules, layers, and models": tf.Module, Keras layers and
models built from the same pieces, name scopes and what each collects.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import tapeviz.tf as tf


class SimpleModule(tf.Module):
    def __init__(self, name: str | None = None) -> None:
        super().__init__(name=name)
        self.a_variable = tf.Variable(5.0, name="train_me")
        self.non_trainable_variable = tf.Variable(5.0, trainable=False, name="do_not_train_me")

    def __call__(self, x: Any) -> Any:
        return self.a_variable * x + self.non_trainable_variable


class Dense(tf.Module):
    def __init__(self, in_features: int, out_features: int, name: str | None = None) -> None:
        super().__init__(name=name)
        self.w = tf.Variable(tf.random.normal([in_features, out_features]), name="w")
        self.b = tf.Variable(tf.zeros([out_features]), name="b")

    def __call__(self, x: Any) -> Any:
        y = tf.matmul(x, self.w) + self.b
        return tf.nn.relu(y)


class SequentialModule(tf.Module):
    def __init__(self, name: str | None = None) -> None:
        super().__init__(name=name)
        self.dense_1 = Dense(in_features=3, out_features=3)
        self.dense_2 = Dense(in_features=3, out_features=2)

    def __call__(self, x: Any) -> Any:
        x = self.dense_1(x)
        return self.dense_2(x)


def test_a_simple_module(capsys: pytest.CaptureFixture[str]) -> None:
    simple_module = SimpleModule(name="simple")
    assert (
        repr(simple_module(tf.constant(5.0))) == "<tf.Tensor: shape=(), dtype=float32, numpy=30.0>"
    )
    print("trainable variables:", simple_module.trainable_variables)
    print("all variables:", simple_module.variables)
    assert capsys.readouterr().out == (
        "trainable variables: (<tf.Variable 'train_me:0' shape=() dtype=float32, numpy=5.0>,)\n"
        "all variables: (<tf.Variable 'train_me:0' shape=() dtype=float32, numpy=5.0>, "
        "<tf.Variable 'do_not_train_me:0' shape=() dtype=float32, numpy=5.0>)\n"
    )
    assert simple_module.name == "simple"


def test_a_model_of_modules(capsys: pytest.CaptureFixture[str]) -> None:
    my_model = SequentialModule(name="the_model")
    result = my_model(tf.constant([[2.0, 2.0, 2.0]]))
    print("Model results:", result)
    assert re.fullmatch(
        r"Model results: tf\.Tensor\(\[\[.+ .+\]\], shape=\(1, 2\), dtype=float32\)\n",
        capsys.readouterr().out,
    )
    print("Submodules:", my_model.submodules)
    out = capsys.readouterr().out
    assert re.fullmatch(
        r"Submodules: \(<.*Dense object at 0x\w+>, <.*Dense object at 0x\w+>\)\n", out
    )
    # TensorFlow walks attributes in sorted order: b before w in each Dense
    assert [v.name for v in my_model.variables] == ["b:0", "w:0", "b:0", "w:0"]
    assert [tuple(v.shape) for v in my_model.variables] == [(3,), (3, 3), (2,), (3, 2)]
    print(my_model.variables[0])
    assert capsys.readouterr().out == (
        "<tf.Variable 'b:0' shape=(3,) dtype=float32, numpy=array([0., 0., 0.], dtype=float32)>\n"
    )
    assert my_model.name == "the_model" and my_model.dense_1.name == "dense"


def test_waiting_to_create_variables() -> None:
    class FlexibleDenseModule(tf.Module):
        def __init__(self, out_features: int, name: str | None = None) -> None:
            super().__init__(name=name)
            self.is_built = False
            self.out_features = out_features

        def __call__(self, x: Any) -> Any:
            if not self.is_built:  # Create variables on first call.
                self.w = tf.Variable(tf.random.normal([x.shape[-1], self.out_features]), name="w")
                self.b = tf.Variable(tf.zeros([self.out_features]), name="b")
                self.is_built = True
            y = tf.matmul(x, self.w) + self.b
            return tf.nn.relu(y)

    class MySequentialModule(tf.Module):
        def __init__(self, name: str | None = None) -> None:
            super().__init__(name=name)
            self.dense_1 = FlexibleDenseModule(out_features=3)
            self.dense_2 = FlexibleDenseModule(out_features=2)

        def __call__(self, x: Any) -> Any:
            x = self.dense_1(x)
            return self.dense_2(x)

    my_model = MySequentialModule(name="the_model")
    assert my_model.variables == ()
    out = my_model(tf.constant([[2.0, 2.0, 2.0]]))
    assert out.shape == (1, 2)
    assert len(my_model.variables) == 4
    assert my_model.submodules[0].name == "flexible_dense_module"


def test_module_names_and_name_scopes() -> None:
    with pytest.raises(ValueError, match="is not a valid module name"):
        tf.Module(name="not valid")

    class MLP(tf.Module):
        def __init__(self) -> None:
            super().__init__()
            self.w: Any = None

        @tf.Module.with_name_scope
        def __call__(self, x: Any) -> Any:
            if self.w is None:
                self.w = tf.Variable(tf.ones([x.shape[-1], 2]), name="w")
            return tf.matmul(x, self.w)

    mlp = MLP()
    assert mlp.name == "mlp"
    with tf.GradientTape() as tape:
        mlp(tf.constant([[1.0, 2.0]]))
    assert mlp.w.name == "mlp/w:0"
    assert [(r.name, r.scope) for r in tape.records] == [("matmul", ("mlp",))]
    with tf.name_scope("outer") as scope:
        assert scope == "outer/"
        inner = tf.Module(name="inner")
        with inner.name_scope:
            v = tf.Variable(1.0, name="v")
    assert v.name == "outer/inner/v:0"
    with pytest.raises(ValueError, match="must be a string"):
        tf.name_scope(3)


class MyDense(tf.keras.layers.Layer):
    # Adding **kwargs to support base Keras layer arguments
    def __init__(self, in_features: int, out_features: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # This will soon move to the build step; see below
        self.w = tf.Variable(tf.random.normal([in_features, out_features]), name="w")
        self.b = tf.Variable(tf.zeros([out_features]), name="b")

    def call(self, x: Any) -> Any:
        y = tf.matmul(x, self.w) + self.b
        return tf.nn.relu(y)


class FlexibleDense(tf.keras.layers.Layer):
    # Note the added `**kwargs`, as Keras supports many arguments
    def __init__(self, out_features: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.out_features = out_features

    def build(self, input_shape: Any) -> None:  # Create the state of the layer (weights)
        self.w = tf.Variable(tf.random.normal([input_shape[-1], self.out_features]), name="w")
        self.b = tf.Variable(tf.zeros([self.out_features]), name="b")

    def call(self, inputs: Any) -> Any:  # Defines the computation from inputs to outputs
        return tf.matmul(inputs, self.w) + self.b


def test_keras_layers_from_the_same_pieces() -> None:
    simple_layer = MyDense(name="simple", in_features=3, out_features=3)
    # Keras 3: a call's positional arguments must be tensors (a list of numbers is refused)
    message = (
        "Only input tensors may be passed as positional arguments. The following argument "
        "value should be passed as a keyword argument: 2.0 (of type <class 'float'>)"
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        simple_layer([[2.0, 2.0, 2.0]])
    out = simple_layer(tf.constant([[2.0, 2.0, 2.0]]))
    assert repr(out).startswith("<tf.Tensor: shape=(1, 3), dtype=float32, numpy=")
    # Keras 3 tracks add_weight / keras.Variable only: the tf.Variables are not its weights
    assert simple_layer.trainable_variables == [] and simple_layer.variables == []
    flexible_dense = FlexibleDense(out_features=3)
    assert flexible_dense.variables == []
    result = flexible_dense(tf.constant([[2.0, 2.0, 2.0], [3.0, 3.0, 3.0]]))
    assert result.shape == (2, 3)
    assert flexible_dense.variables == [] and flexible_dense.count_params() == 0
    # built inside the layer's name scope, as TensorFlow names them
    assert [flexible_dense.w.name, flexible_dense.b.name] == [
        "flexible_dense/w:0",
        "flexible_dense/b:0",
    ]
    with pytest.raises(tf.errors.InvalidArgumentError):
        flexible_dense(tf.constant([[2.0, 2.0, 2.0, 2.0]]))


def test_keras_models(capsys: pytest.CaptureFixture[str]) -> None:
    class MySequentialModel(tf.keras.Model):
        def __init__(self, name: str | None = None, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.dense_1 = FlexibleDense(out_features=3)
            self.dense_2 = FlexibleDense(out_features=2)

        def call(self, x: Any) -> Any:
            x = self.dense_1(x)
            return self.dense_2(x)

    my_sequential_model = MySequentialModel(name="the_model")
    out = my_sequential_model(tf.constant([[2.0, 2.0, 2.0]]))
    assert out.shape == (1, 2)
    assert my_sequential_model.name == "my_sequential_model"  # the guide's **kwargs drop name
    # Keras 3: the layers' tf.Variables are not weights, and a Keras model has no submodules
    assert my_sequential_model.variables == []
    assert my_sequential_model.dense_1.w.name == "my_sequential_model/flexible_dense/w:0"
    assert [layer.name for layer in my_sequential_model.layers] == [
        "flexible_dense",
        "flexible_dense_1",
    ]
    with pytest.raises(AttributeError, match="'MySequentialModel' object has no attribute"):
        my_sequential_model.submodules  # noqa: B018
    assert not hasattr(my_sequential_model, "submodules")
    my_sequential_model.summary()
    assert capsys.readouterr().out == (
        'Model: "my_sequential_model"\n'
        "┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓\n"
        "┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃\n"
        "┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩\n"
        "│ flexible_dense (FlexibleDense)  │ (1, 3)                 │             0 │\n"
        "├─────────────────────────────────┼────────────────────────┼───────────────┤\n"
        "│ flexible_dense_1                │ (1, 2)                 │             0 │\n"
        "│ (FlexibleDense)                 │                        │               │\n"
        "└─────────────────────────────────┴────────────────────────┴───────────────┘\n"
        " Total params: 0 (0.00 B)\n"
        " Trainable params: 0 (0.00 B)\n"
        " Non-trainable params: 0 (0.00 B)\n"
    )


def test_functional_model_of_custom_layers(capsys: pytest.CaptureFixture[str]) -> None:
    inputs = tf.keras.Input(shape=[3])
    x = FlexibleDense(3)(inputs)
    x = FlexibleDense(2)(x)
    my_functional_model = tf.keras.Model(inputs=inputs, outputs=x)
    my_functional_model.summary()
    assert capsys.readouterr().out == (
        'Model: "functional"\n'
        "┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓\n"
        "┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃\n"
        "┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩\n"
        "│ input_layer (InputLayer)        │ (None, 3)              │             0 │\n"
        "├─────────────────────────────────┼────────────────────────┼───────────────┤\n"
        "│ flexible_dense (FlexibleDense)  │ (None, 3)              │             0 │\n"
        "├─────────────────────────────────┼────────────────────────┼───────────────┤\n"
        "│ flexible_dense_1                │ (None, 2)              │             0 │\n"
        "│ (FlexibleDense)                 │                        │               │\n"
        "└─────────────────────────────────┴────────────────────────┴───────────────┘\n"
        " Total params: 0 (0.00 B)\n"
        " Trainable params: 0 (0.00 B)\n"
        " Non-trainable params: 0 (0.00 B)\n"
    )
    out = my_functional_model(tf.constant([[2.0, 2.0, 2.0]]))
    assert my_functional_model.trainable_variables == []  # (tf.Variables: not Keras weights)
    first, second = my_functional_model.layers[1:]
    w1, b1, w2, b2 = (v.numpy() for v in (first.w, first.b, second.w, second.b))
    want = (np.full((1, 3), 2.0) @ w1 + b1) @ w2 + b2  # (float64; the model computes in float32:
    # an output near 0 from random weights differs by float32 rounding, ~1e-7 of the sums)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-5, atol=1e-5)
