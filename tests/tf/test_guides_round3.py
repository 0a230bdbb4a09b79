"""Issue 34, round three: what the TF and keras-io guides still tripped on.

Each test is a behaviour the guides (or Keras 3 / TF 2.21's documentation and source) show:
multi-output ``compile`` (keras-io "The Functional API", "Training & evaluation with the
built-in methods"), ``layer.output`` of a Sequential built with an ``Input`` ("The Sequential
model"), recurrent layers, concrete functions and ``run_functions_eagerly`` (TF's function and
graph guides), ``tf.TensorArray``.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

import tapeviz.tf as tf

keras = tf.keras
layers = keras.layers


def multi_output_model() -> keras.Model:
    """The keras-io guide's model: an image and a time series in, a score and 5 classes out."""
    image_input = keras.Input(shape=(8, 8, 3), name="img_input")
    timeseries_input = keras.Input(shape=(None, 4), name="ts_input")
    x1 = layers.GlobalMaxPooling2D()(layers.Conv2D(3, 3)(image_input))
    x2 = layers.GlobalMaxPooling1D()(layers.Conv1D(3, 3)(timeseries_input))
    x = layers.concatenate([x1, x2])
    score_output = layers.Dense(1, name="score_output")(x)
    class_output = layers.Dense(5, name="class_output")(x)
    return keras.Model(inputs=[image_input, timeseries_input], outputs=[score_output, class_output])


def multi_output_data(n: int = 16) -> tuple[list[np.ndarray], list[np.ndarray]]:
    rng = np.random.default_rng(0)
    x = [rng.random((n, 8, 8, 3)), rng.random((n, 6, 4))]
    y = [rng.random((n, 1)), rng.random((n, 5))]
    return x, y


def test_a_loss_per_output_as_a_dict_with_weights_and_metrics_by_output() -> None:
    model = multi_output_model()
    model.compile(
        optimizer=keras.optimizers.RMSprop(1e-3),
        loss={"score_output": keras.losses.MeanSquaredError(),
              "class_output": keras.losses.CategoricalCrossentropy()},
        metrics={"score_output": [keras.metrics.MeanAbsoluteError()],
                 "class_output": [keras.metrics.CategoricalAccuracy()]},
        loss_weights={"score_output": 2.0, "class_output": 1.0},
    )  # fmt: skip
    x, y = multi_output_data()
    history = model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    # Keras 3 logs each output's own loss and each metric under its output's name
    assert sorted(history.history) == [
        "class_output_categorical_accuracy", "class_output_loss", "loss", "score_output_loss",
        "score_output_mean_absolute_error",
    ]  # fmt: skip
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    assert logs["loss"] == pytest.approx(
        2.0 * logs["score_output_loss"] + logs["class_output_loss"], rel=1e-5
    )
    # evaluate's list: the loss, the per-output losses in model.metrics order, then the rest
    assert model.metrics_names == ["loss", "compile_metrics", "score_output_loss",
                                   "class_output_loss"]  # fmt: skip
    values = model.evaluate(x, y, verbose=0)
    assert values == pytest.approx([
        logs["loss"], logs["score_output_loss"], logs["class_output_loss"],
        logs["class_output_categorical_accuracy"], logs["score_output_mean_absolute_error"],
    ], rel=1e-6)  # fmt: skip


def test_losses_as_a_list_targets_as_a_dict_and_an_output_without_a_loss() -> None:
    model = multi_output_model()
    model.compile(optimizer="rmsprop", loss=[keras.losses.MeanSquaredError(),
                                             keras.losses.CategoricalCrossentropy()])  # fmt: skip
    x, y = multi_output_data()
    model.fit({"img_input": x[0], "ts_input": x[1]},
              {"score_output": y[0], "class_output": y[1]}, batch_size=8, verbose=0)  # fmt: skip
    model.compile(optimizer="rmsprop", loss=[None, keras.losses.CategoricalCrossentropy()])
    logs = model.evaluate(x, y[1:], verbose=0, return_dict=True)  # targets for the loss only
    cce = keras.losses.CategoricalCrossentropy()(y[1], model.predict(x, verbose=0)[1])
    assert logs["loss"] == pytest.approx(float(cce), rel=1e-5)
    with pytest.raises(ValueError, match="does not correspond to any model output"):
        model.compile(optimizer="rmsprop", loss={"no_such_output": "mse"})


def test_a_sequential_built_with_an_input_gives_its_layers_outputs() -> None:
    initial_model = keras.Sequential([
        keras.Input(shape=(10, 10, 3)),
        layers.Conv2D(4, 3, activation="relu"),
        layers.Conv2D(4, 3, activation="relu", name="my_intermediate_layer"),
    ])  # fmt: skip
    extractor = keras.Model(
        inputs=initial_model.inputs,
        outputs=[layer.output for layer in initial_model.layers],
    )
    features = extractor(tf.ones((1, 10, 10, 3)))
    assert [tuple(f.shape) for f in features] == [(1, 8, 8, 4), (1, 6, 6, 4)]
    one = keras.Model(initial_model.inputs,
                      initial_model.get_layer(name="my_intermediate_layer").output)  # fmt: skip
    assert tuple(one(tf.ones((2, 10, 10, 3))).shape) == (2, 6, 6, 4)
    with pytest.raises(AttributeError, match="has never been called"):
        _ = layers.Dense(3).output


def test_model_configs_round_trip_with_custom_objects_and_json() -> None:
    class CustomDense(layers.Layer):
        def __init__(self, units: int = 32) -> None:
            super().__init__()
            self.units = units

        def build(self, input_shape: tuple[int, ...]) -> None:
            self.w = self.add_weight(shape=(input_shape[-1], self.units))

        def call(self, inputs: tf.Tensor) -> tf.Tensor:
            return tf.matmul(inputs, self.w)

        def get_config(self) -> dict[str, int]:
            return {"units": self.units}

    inputs = keras.Input((4,))
    model = keras.Model(inputs, CustomDense(10)(inputs))
    new_model = keras.Model.from_config(
        model.get_config(), custom_objects={"CustomDense": CustomDense}
    )
    assert tuple(new_model(np.ones((2, 4), np.float32)).shape) == (2, 10)
    seq = keras.Sequential([keras.Input((3,)), layers.Dense(2, name="d")])
    again = keras.models.model_from_json(seq.to_json())
    assert json.loads(seq.to_json())["class_name"] == "Sequential"
    assert [layer.name for layer in again.layers] == ["d"]
    assert again.layers[0].kernel is not seq.layers[0].kernel


@pytest.mark.parametrize(
    ("cls", "params"),
    [(layers.SimpleRNN, 5 * (5 + 3) + 5), (layers.LSTM, 4 * (5 * (5 + 3) + 5)),
     (layers.GRU, 3 * (5 * (5 + 3) + 5) + 3 * 5)],  # GRU: reset_after's second bias row
)  # fmt: skip
def test_recurrent_layers_count_keras_parameters_and_differentiate(cls: type, params: int) -> None:
    tf.random.set_seed(3)
    layer = cls(5)
    x = tf.random.normal((2, 4, 3))
    assert tuple(layer(x).shape) == (2, 5)
    assert sum(int(np.prod(v.shape)) for v in layer.trainable_variables) == params
    kernel = layer.trainable_variables[1]  # the recurrent kernel: through every step
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(x) ** 2)
    grad = tape.gradient(loss, kernel).numpy()
    base = kernel.numpy().copy()
    eps, numeric = 1e-3, np.zeros_like(base)
    for idx in np.ndindex(base.shape):
        for sign in (1, -1):
            moved = base.copy()
            moved[idx] += sign * eps
            kernel.assign(moved)
            numeric[idx] += sign * float(tf.reduce_sum(layer(x) ** 2)) / (2 * eps)
    kernel.assign(base)
    np.testing.assert_allclose(grad, numeric, atol=2e-3)


def test_recurrent_layers_return_sequences_and_states() -> None:
    out, h, c = layers.LSTM(4, return_sequences=True, return_state=True)(tf.zeros((2, 5, 3)))
    assert (tuple(out.shape), tuple(h.shape), tuple(c.shape)) == ((2, 5, 4), (2, 4), (2, 4))
    inputs = keras.Input(shape=(None, 8))
    model = keras.Model(inputs, layers.LSTM(16)(inputs))
    assert model.count_params() == 4 * (16 * (8 + 16) + 16)  # the 1,600 Keras shows
    q = keras.initializers.Orthogonal(seed=1)((6, 6))
    np.testing.assert_allclose(q.T @ q, np.eye(6), atol=1e-5)


def test_a_concrete_function_takes_the_traced_tensors_only() -> None:
    @tf.function
    def pow(a: tf.Tensor, b: int) -> tf.Tensor:
        return a**b

    square = pow.get_concrete_function(a=tf.TensorSpec(None, tf.float32), b=2)
    assert float(square(tf.constant(10.0))) == 100.0
    with pytest.raises(TypeError):
        square(tf.constant(10.0), b=3)
    assert str(square) == (
        "ConcreteFunction Input Parameters:\n"
        "  a (POSITIONAL_OR_KEYWORD): TensorSpec(shape=<unknown>, dtype=tf.float32, name=None)\n"
        "  b (POSITIONAL_OR_KEYWORD): Literal[2]\n"
        "Output Type:\n"
        "  TensorSpec(shape=<unknown>, dtype=tf.float32, name=None)\n"
        "Captures:\n"
        "  None"
    )

    @tf.function
    def double(a: tf.Tensor) -> tf.Tensor:
        return a + a

    double_ints = double.get_concrete_function(tf.constant(1))
    assert int(double_ints(a=tf.constant(4))) == 8
    assert double_ints.structured_input_signature == (
        (tf.TensorSpec(shape=(), dtype=tf.int32, name="a"),),
        {},
    )
    with pytest.raises(tf.errors.InvalidArgumentError):
        double_ints(tf.constant(1.0))


def test_pretty_printed_concrete_signatures_lists_every_trace() -> None:
    @tf.function
    def my_relu(x: tf.Tensor) -> tf.Tensor:
        return tf.maximum(0.0, x)

    my_relu(tf.constant(5.5))
    my_relu([1, -1])
    my_relu(tf.constant([3.0, -3.0]))
    my_relu(tf.constant(-2.5))  # the first signature again: no new trace
    text = my_relu.pretty_printed_concrete_signatures()
    traces = text.split("\n\n")
    assert len(traces) == 3
    assert traces[0] == (
        "Input Parameters:\n"
        "  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(), dtype=tf.float32, name=None)\n"
        "Output Type:\n"
        "  TensorSpec(shape=(), dtype=tf.float32, name=None)\n"
        "Captures:\n"
        "  None"
    )
    assert "x (POSITIONAL_OR_KEYWORD): List[Literal[1], Literal[-1]]" in traces[1]


def test_run_functions_eagerly_runs_the_python_on_every_call(
    capsys: pytest.CaptureFixture[str],
) -> None:
    @tf.function
    def get_mse(y_true: tf.Tensor, y_pred: tf.Tensor) -> tf.Tensor:
        print("Calculating MSE!")
        return tf.reduce_mean(tf.pow(y_true - y_pred, 2))

    y_true, y_pred = tf.constant([1, 2, 3]), tf.constant([1, 1, 1])
    for _ in range(3):
        get_mse(y_true, y_pred)
    assert capsys.readouterr().out.count("Calculating MSE!") == 1
    tf.config.run_functions_eagerly(True)
    try:
        for _ in range(3):
            assert int(get_mse(y_true, y_pred)) == 1  # (0 + 1 + 4) // 3 in int32
    finally:
        tf.config.run_functions_eagerly(False)
    assert capsys.readouterr().out.count("Calculating MSE!") == 3


def test_a_tensor_array_accumulates_a_loop_and_differentiates() -> None:
    @tf.function
    def dynamic_rnn(input_data: tf.Tensor, initial_state: tf.Tensor) -> tf.Tensor:
        input_data = tf.transpose(input_data, [1, 0, 2])
        states = tf.TensorArray(tf.float32, size=input_data.shape[0])
        state = initial_state
        for i in tf.range(input_data.shape[0]):
            state = input_data[i] + state
            states = states.write(i, state)
        return tf.transpose(states.stack(), [1, 0, 2])

    x = tf.Variable(tf.ones((2, 3, 4)))
    with tf.GradientTape() as tape:
        out = dynamic_rnn(x, tf.zeros((2, 4)))
    np.testing.assert_allclose(out.numpy()[0, :, 0], [1.0, 2.0, 3.0])
    np.testing.assert_allclose(tape.gradient(out, x).numpy()[0, :, 0], [3.0, 2.0, 1.0])
    grow = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    grow = grow.write(2, 7)
    assert grow.stack().numpy().tolist() == [0, 0, 7]
    with pytest.raises(tf.errors.InvalidArgumentError, match="not resizeable"):
        tf.TensorArray(tf.float32, size=1).write(1, 1.0)


def test_plot_model_draws_nothing_and_says_so() -> None:
    model = keras.Sequential([keras.Input((3,)), layers.Dense(2)])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert keras.utils.plot_model(model, "model.png", show_shapes=True) is None
    assert any("plot_model" in str(w.message) for w in caught)


def test_ragged_and_sparse_tensors_as_the_tensor_guide_prints_them() -> None:
    ragged = tf.ragged.constant([[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]])
    assert str(ragged) == "<tf.RaggedTensor [[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]]>"
    assert str(ragged.shape) == "(4, None)"
    assert ragged.row_lengths().numpy().tolist() == [4, 2, 3, 1]
    assert ragged.to_tensor().numpy().tolist()[1] == [4, 5, 0, 0]
    sparse = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])
    assert str(sparse) == (
        "SparseTensor(indices=tf.Tensor(\n[[0 0]\n [1 2]], shape=(2, 2), dtype=int64), "
        "values=tf.Tensor([1 2], shape=(2,), dtype=int32), "
        "dense_shape=tf.Tensor([3 4], shape=(2,), dtype=int64))"
    )
    dense = tf.sparse.to_dense(sparse)
    assert dense.numpy().tolist() == [[1, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]]
    assert tf.sparse.from_dense(dense).indices.numpy().tolist() == [[0, 0], [1, 2]]


def test_serialize_keras_object_prints_as_the_saving_guide_shows() -> None:
    config = keras.saving.serialize_keras_object(keras.regularizers.L1(0.005))
    assert str(config) == (
        "{'module': 'keras.regularizers', 'class_name': 'L1', "
        "'config': {'l1': 0.004999999888241291}, 'registered_name': None}"
    )
    assert keras.saving.deserialize_keras_object(config).l1 == pytest.approx(0.005)


def test_clone_model_keeps_registered_custom_functions() -> None:
    @keras.saving.register_keras_serializable(package="my_package", name="custom_fn")
    def custom_fn(x: tf.Tensor) -> tf.Tensor:
        return x**2

    inputs = keras.Input(shape=(4,))
    model = keras.Model(inputs, layers.Dense(1, activation=custom_fn)(inputs))
    clone = keras.models.clone_model(model)
    assert clone.layers[-1].activation is custom_fn
    assert clone.layers[-1].kernel is not model.layers[-1].kernel


def test_keras_layers_track_private_attributes_too() -> None:
    class Block(layers.Layer):  # Keras 3's Layer.__setattr__ tracks every attribute name
        def __init__(self) -> None:
            super().__init__()
            self._dense = layers.Dense(2)
            self._scale = self.add_weight(shape=(1,), name="scale")

        def call(self, x: tf.Tensor) -> tf.Tensor:
            return self._dense(x) * self._scale

    block = Block()
    block(tf.ones((1, 3)))
    assert [v.path for v in block.weights] == ["block/scale", "block/dense/kernel",
                                               "block/dense/bias"]  # fmt: skip
    assert len(block.trainable_weights) == 3


def test_numpy_keyword_arguments_of_a_layer_call_become_tensors() -> None:
    seen: dict[str, object] = {}

    class Endpoint(layers.Layer):
        def call(self, logits: tf.Tensor, targets: tf.Tensor = None, factor: int = 1) -> tf.Tensor:
            seen.update(targets=targets, factor=factor)
            return logits - targets

    out = Endpoint()(np.ones((2, 3)), targets=np.zeros((2, 3)), factor=2)
    assert isinstance(seen["targets"], tf.Tensor) and seen["targets"].dtype == tf.float32
    assert seen["factor"] == 2 and out.dtype == tf.float32
