"""Keras 3's actual behaviour where tutorials' text (written for Keras 2) says otherwise.

From Keras 3's source: ``Trainer.compile`` sets the loss (and the metrics) only when given;
``Layer``'s tracker keeps ``backend.Variable`` only (``add_weight``, ``keras.Variable``), so a
``tf.Variable`` attribute is not a weight, while ``tf.Module`` collects every ``tf.Variable``;
``Layer.__call__`` refuses non-tensor positional arguments ("Only input tensors may be passed
as positional arguments"); Keras layers and models have no ``submodules``;
``Layer.get_config()["dtype"]`` is ``dtype_policies.serialize(self.dtype_policy)``.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import tapeviz.tf as tf

keras = tf.keras
X = np.arange(12, dtype=np.float32).reshape(6, 2) / 10
Y = X.sum(axis=1, keepdims=True)


def _dense_model() -> Any:
    inputs = keras.Input(shape=(2,))
    return keras.Model(inputs, keras.layers.Dense(1)(inputs))


def test_compile_without_a_loss_keeps_the_loss_and_metrics_given_before() -> None:
    model = _dense_model()
    model.compile(optimizer="sgd", loss="mae", metrics=["mse"])
    model.compile(optimizer=keras.optimizers.Adam(0.01))
    assert model.loss == "mae" and isinstance(model.optimizer, keras.optimizers.Adam)
    logs = model.evaluate(X, Y, verbose=0, return_dict=True)
    y_pred = model.predict(X, verbose=0)
    assert logs["loss"] == pytest.approx(float(np.mean(np.abs(y_pred - Y))), rel=1e-5)
    assert logs["mse"] == pytest.approx(float(np.mean((y_pred - Y) ** 2)), rel=1e-5)
    model.fit(X, Y, epochs=1, verbose=0)  # trains with the old loss
    model.compile(optimizer="sgd", loss="mse")  # a new loss replaces it; metrics stay
    assert model.loss == "mse" and "mse" in model.evaluate(X, Y, verbose=0, return_dict=True)


def test_a_first_compile_without_a_loss_has_none() -> None:
    model = _dense_model()
    model.compile(optimizer="sgd")
    with pytest.raises(ValueError, match=r"No loss to compute. Provide a `loss` argument"):
        model.fit(X, Y, epochs=1, verbose=0)


class WithTfVariables(keras.layers.Layer):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.w = tf.Variable(tf.ones((2, 1)), name="w")
        self.k = keras.Variable(np.ones((1,), np.float32), name="k")

    def build(self, input_shape: Any) -> None:
        self.v = self.add_weight(shape=(2, 1), initializer="ones", name="v")

    def call(self, x: Any) -> Any:
        return tf.matmul(x, self.w) + tf.matmul(x, self.v) + self.k


def test_tf_variables_of_a_layer_are_not_its_weights(capsys: pytest.CaptureFixture[str]) -> None:
    layer = WithTfVariables()
    assert [v.name for v in layer.variables] == ["k"]  # keras.Variable: tracked
    out = layer(tf.constant([[1.0, 2.0]]))
    assert out.numpy().tolist() == [[7.0]]  # the untracked tf.Variable still computes
    assert [v.name for v in layer.trainable_variables] == ["k", "v"]
    assert layer.count_params() == 3
    model = keras.Sequential([keras.Input(shape=(2,)), WithTfVariables()])
    model.summary()
    text = capsys.readouterr().out
    assert " Total params: 3 (12.00 B)\n" in text
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(tf.constant([[1.0, 2.0]])))
    grads = tape.gradient(loss, model.trainable_variables)
    assert len(grads) == 2  # k and v, not w


def test_a_tf_module_collects_its_tf_variables() -> None:
    class Module(tf.Module):
        def __init__(self) -> None:
            super().__init__()
            self.w = tf.Variable(1.0, name="w")
            self.inner = tf.Module()
            self.inner.b = tf.Variable(2.0, name="b")

    module = Module()
    assert [v.name for v in module.variables] == ["w:0", "b:0"]
    assert len(module.submodules) == 1


def test_a_list_of_numbers_is_not_a_layer_input() -> None:
    message = (
        "Only input tensors may be passed as positional arguments. The following argument "
        "value should be passed as a keyword argument: 1.0 (of type <class 'float'>)"
    )
    dense = keras.layers.Dense(2)
    with pytest.raises(ValueError, match=re.escape(message)):
        dense([[1.0, 2.0]])
    with pytest.raises(ValueError, match=r"of type <class 'int'>"):
        keras.layers.Embedding(10, 2)([1, 2, 3])
    with pytest.raises(ValueError, match=r"Only input tensors may be passed"):
        keras.Sequential([keras.layers.Dense(1)])([[1.0, 2.0]])
    assert dense(np.ones((1, 2))).shape == (1, 2)  # arrays are converted, as in Keras
    assert dense(tf.ones((1, 2))).shape == (1, 2)
    a, b = tf.ones((1, 2)), tf.zeros((1, 2))
    assert keras.layers.Concatenate()([a, b]).shape == (1, 4)  # a list of tensors is fine
    assert keras.layers.Add()([a, b]).shape == (1, 2)


def test_a_layer_call_takes_no_python_number_positionally() -> None:
    class Scale(keras.layers.Layer):
        def call(self, x: Any, factor: Any = 2.0) -> Any:
            return x * factor

    layer = Scale()
    assert layer(tf.ones((1,)), factor=3.0).numpy().tolist() == [3.0]
    with pytest.raises(ValueError, match=r"value should be passed as a keyword argument: 3.0"):
        layer(tf.ones((1,)), 3.0)


def test_a_functional_model_and_data_layers_take_raw_data() -> None:
    model = _dense_model()
    assert model(np.ones((1, 2), np.float32)).shape == (1, 1)
    assert keras.layers.Rescaling(2.0)([[1.0, 2.0]]).numpy().tolist() == [[2.0, 4.0]]


def test_keras_models_and_layers_have_no_submodules() -> None:
    model = keras.Sequential([keras.Input(shape=(2,)), keras.layers.Dense(1)])
    with pytest.raises(AttributeError, match="'Sequential' object has no attribute 'submodules'"):
        model.submodules  # noqa: B018
    assert not hasattr(keras.layers.Dense(1), "submodules")
    assert hasattr(tf.Module(), "submodules")


def test_get_config_dtype_is_a_dtype_policy_dict() -> None:
    policy = {
        "module": "keras",
        "class_name": "DTypePolicy",
        "config": {"name": "float32"},
        "registered_name": None,
    }
    config = keras.layers.Dense(3).get_config()
    assert list(config)[:3] == ["name", "trainable", "dtype"] and config["dtype"] == policy
    again = keras.layers.Dense.from_config(config)
    assert again.dtype == "float32" and again.units == 3
    layer = keras.layers.Dense(3, dtype="float64")
    assert layer.get_config()["dtype"]["config"] == {"name": "float64"}
    assert repr(layer.dtype_policy) == '<DTypePolicy "float64">'
    assert keras.layers.Dense(1, dtype=tf.float64).dtype == "float64"
    model = keras.Sequential([keras.Input(shape=(2,)), keras.layers.Dense(1)])
    assert model.get_config()["dtype"] == policy
    assert keras.layers.Dense(1, dtype=policy).dtype == "float32"


# -- Keras 3 fits an input's rank to the model's declared input (Functional._adjust_input_rank) --
def test_a_column_of_numbers_feeds_an_input_of_shape_1_as_the_regression_tutorial_does() -> None:
    x = np.linspace(-1, 1, 40).astype("float32")  # 1-D, as a pandas column's values
    y = 3 * x
    norm = keras.layers.Normalization(input_shape=[1], axis=None)
    norm.adapt(x)
    model = keras.Sequential(
        [norm, keras.layers.Dense(4, activation="relu"), keras.layers.Dense(1)]
    )
    model.compile(loss="mean_absolute_error", optimizer=keras.optimizers.Adam(0.01))
    history = model.fit(x, y, validation_split=0.25, epochs=3, verbose=0)
    assert len(history.history["val_loss"]) == 3
    assert model.predict(x[:5], verbose=0).shape == (5, 1)
    inp = keras.Input(shape=(1,))
    functional = keras.Model(inp, keras.layers.Dense(2)(inp))
    assert functional(x[:3]).shape == (3, 2)


def test_a_trailing_axis_of_1_is_dropped_and_other_ranks_are_refused() -> None:
    inp = keras.Input(shape=())
    squeezed = keras.Model(inp, keras.layers.Lambda(lambda t: t * 2.0)(inp))
    assert squeezed(np.ones((4, 1), "float32")).shape == (4,)
    model = keras.Sequential([keras.Input(shape=(3,)), keras.layers.Dense(1)])
    with pytest.raises(ValueError, match=re.escape("Expected shape (None, 3), but input has")):
        model(np.ones((2, 3, 2), "float32"))


def test_crossentropy_metrics_average_the_losses_per_sample() -> None:
    t = np.array([[0.0], [1.0], [1.0]], "float32")
    p = np.array([[0.2], [0.7], [0.9]], "float32")
    m = keras.metrics.BinaryCrossentropy()
    m.update_state(t.astype("int32"), p)  # integer labels, as a classifier's y often is
    want = -np.mean(t * np.log(p) + (1 - t) * np.log(1 - p))
    assert m.name == "binary_crossentropy" and float(m.result()) == pytest.approx(want, rel=1e-5)
    logits = keras.metrics.BinaryCrossentropy(from_logits=True, name="bce")
    logits.update_state(t, np.log(p / (1 - p)))
    assert logits.name == "bce" and float(logits.result()) == pytest.approx(want, rel=1e-4)
    probs = np.array([[0.1, 0.7, 0.2], [0.5, 0.25, 0.25]], "float32")
    cce = keras.metrics.CategoricalCrossentropy()
    cce.update_state(np.eye(3, dtype="float32")[[1, 0]], probs)
    scce = keras.metrics.SparseCategoricalCrossentropy()
    scce.update_state(np.array([1, 0]), probs)
    want = -(np.log(0.7) + np.log(0.5)) / 2
    assert float(cce.result()) == pytest.approx(want, rel=1e-5)
    assert float(scce.result()) == pytest.approx(want, rel=1e-5)
    cce.reset_state()
    assert float(cce.result()) == 0.0


def test_confusion_metrics_count_as_keras_does() -> None:
    y = np.array([0, 1, 1, 0, 1])
    p = np.array([0.2, 0.6, 0.4, 0.7, 0.5], "float32")  # 0.5 is not > 0.5: a negative
    m = keras.metrics
    got = {}
    for metric in (m.TruePositives(), m.FalsePositives(), m.TrueNegatives(), m.FalseNegatives(),
                   m.Precision(), m.Recall()):  # fmt: skip
        metric.update_state(y, p)
        got[metric.name] = float(metric.result())
    assert got == {
        "true_positives": 1.0, "false_positives": 1.0, "true_negatives": 1.0,
        "false_negatives": 2.0, "precision": 0.5, "recall": pytest.approx(1 / 3),
    }  # fmt: skip
    several = m.Precision(thresholds=[0.3, 0.65])
    several.update_state(y, p)
    np.testing.assert_allclose(several.result().numpy(), [0.75, 0.0])
    weighted = m.Recall()
    weighted.update_state(y, p, sample_weight=np.array([1, 3, 1, 1, 1]))
    assert float(weighted.result()) == pytest.approx(3 / 5)
    empty = m.Precision()
    assert float(empty.result()) == 0.0  # no predicted positive yet: 0, not nan
    empty.update_state(y, p)
    empty.reset_state()
    assert float(empty.result()) == 0.0


def test_precision_and_recall_by_name_in_compile() -> None:
    model = keras.Sequential([keras.Input(shape=(2,)), keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["precision", "recall"])
    rng = np.random.default_rng(1)
    h = model.fit(rng.random((16, 2)), rng.integers(0, 2, 16), epochs=2, verbose=0)
    assert sorted(h.history) == ["loss", "precision", "recall"]
    assert all(0.0 <= v <= 1.0 for v in h.history["precision"] + h.history["recall"])
