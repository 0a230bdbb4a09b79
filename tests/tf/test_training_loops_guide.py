"""TensorFlow's "Basic training loops": a tf.Module fitted by hand, then the same with Keras.

The numbers are checked against the same maths in numpy (float32): the hand-written loop and
``model.fit`` take identical steps, so fit's loss per epoch is the hand loop's loss before it,
once the Keras model keeps its numbers in ``add_weight`` weights (Keras 3 does not train the
guide's ``tf.Variable`` attributes: they are not the model's weights).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import tapeviz.tf as tf

TRUE_W = 3.0
TRUE_B = 2.0
NUM_EXAMPLES = 201


def make_data() -> tuple[tf.Tensor, tf.Tensor]:
    tf.random.set_seed(17)
    x = tf.linspace(-2, 2, NUM_EXAMPLES)  # a vector of random x values
    x = tf.cast(x, tf.float32)

    def f(x: Any) -> Any:
        return x * TRUE_W + TRUE_B

    noise = tf.random.normal(shape=[NUM_EXAMPLES])  # generate some noise
    y = f(x) + noise  # calculate y
    return x, y


class MyModel(tf.Module):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # Initialize the weights to `5.0` and the bias to `0.0`
        # In practice, these should be randomly initialized
        self.w = tf.Variable(5.0)
        self.b = tf.Variable(0.0)

    def __call__(self, x: Any) -> Any:
        return self.w * x + self.b


def loss(target_y: Any, predicted_y: Any) -> Any:
    return tf.reduce_mean(tf.square(target_y - predicted_y))


def train(model: MyModel, x: Any, y: Any, learning_rate: float) -> None:
    with tf.GradientTape() as t:
        # Trainable variables are automatically tracked by GradientTape
        current_loss = loss(y, model(x))
    # Use GradientTape to calculate the gradients with respect to W and b
    dw, db = t.gradient(current_loss, [model.w, model.b])
    # Subtract the gradient scaled by the learning rate
    model.w.assign_sub(learning_rate * dw)
    model.b.assign_sub(learning_rate * db)


def numpy_losses(x: np.ndarray, y: np.ndarray, epochs: int) -> list[float]:
    """The same descent in numpy float32: the loss after each step."""
    w, b, lr = np.float32(5.0), np.float32(0.0), np.float32(0.1)
    out = []
    for _ in range(epochs):
        err = (w * x + b) - y
        w = w - lr * np.float32(np.mean(2 * err * x))
        b = b - lr * np.float32(np.mean(2 * err))
        out.append(float(np.mean(np.square(y - (w * x + b)))))
    return out


def test_the_module_and_its_variables(capsys: pytest.CaptureFixture[str]) -> None:
    model = MyModel()
    # List the variables tf.modules's built-in variable aggregation.
    print("Variables:", model.variables)
    assert capsys.readouterr().out == (
        "Variables: (<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=0.0>, "
        "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=5.0>)\n"
    )
    assert model(3.0).numpy() == 15.0  # Verify the model works


def test_training_loop_by_hand(capsys: pytest.CaptureFixture[str]) -> None:
    x, y = make_data()
    model = MyModel()
    weights, biases = [], []
    epochs = range(10)

    def report(model: MyModel, loss: Any) -> str:
        return f"W = {model.w.numpy():1.2f}, b = {model.b.numpy():1.2f}, loss={loss:2.5f}"

    def training_loop(model: MyModel, x: Any, y: Any) -> None:
        for epoch in epochs:
            # Update the model with the single giant batch
            train(model, x, y, learning_rate=0.1)
            # Track this before I update
            weights.append(model.w.numpy())
            biases.append(model.b.numpy())
            current_loss = loss(y, model(x))
            print(f"Epoch {epoch:2d}:")
            print("    ", report(model, current_loss))

    current_loss = loss(y, model(x))
    print("Starting:")
    print("    ", report(model, current_loss))
    training_loop(model, x, y)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Starting:" and out[2] == "Epoch  0:" and out[-2] == "Epoch  9:"
    expected = numpy_losses(x.numpy(), y.numpy(), 10)
    got = [float(re.search(r"loss=([0-9.]+)", line).group(1)) for line in out[3::2]]
    np.testing.assert_allclose(got, expected, rtol=2e-5)
    assert abs(weights[-1] - TRUE_W) < 0.6 and abs(biases[-1] - TRUE_B) < 0.5


class MyModelKeras(tf.keras.Model):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.w = tf.Variable(5.0)
        self.b = tf.Variable(0.0)

    def call(self, x: Any) -> Any:
        return self.w * x + self.b


def test_the_same_solution_with_keras(capsys: pytest.CaptureFixture[str]) -> None:
    x, y = make_data()
    keras_model = MyModelKeras()
    keras_model.compile(
        # By default, fit() uses tf.function().  You can
        # turn that off for debugging, but it is on now.
        run_eagerly=False,
        # Using a built-in optimizer, configuring as an object
        optimizer=tf.keras.optimizers.SGD(learning_rate=0.1),
        # Keras comes with built-in MSE error
        # However, you could use the loss function
        # defined above
        loss=tf.keras.losses.mean_squared_error,
    )
    print(x.shape[0])
    with pytest.warns(UserWarning, match="The model does not have any trainable weights."):
        history = keras_model.fit(x, y, epochs=10, batch_size=1000)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "201"
    assert out[1::2] == [f"Epoch {i}/10" for i in range(1, 11)]
    for line in out[2::2]:
        assert re.fullmatch(r"1/1 ━{20} \d+s \d+(ms|us|s)/step - loss: \d+\.\d{4}", line), line
    # Keras 3 tracks only its own variables (add_weight, keras.Variable): the model's
    # tf.Variables are not its weights, so fit trains nothing and the loss stays where it was.
    start = float(loss(y, 5.0 * x))
    np.testing.assert_allclose(history.history["loss"], [start] * 10, rtol=2e-5)
    assert list(history.history) == ["loss"] and history.epoch == list(range(10))
    assert history.params == {"verbose": "auto", "epochs": 10, "steps": 1}
    assert keras_model.trainable_variables == [] and keras_model.optimizer.iterations.numpy() == 0
    assert float(keras_model.w.numpy()) == 5.0


class MyModelKerasWeights(tf.keras.Model):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.w = self.add_weight(shape=(), initializer=tf.keras.initializers.Constant(5.0))
        self.b = self.add_weight(shape=(), initializer="zeros")

    def call(self, x: Any) -> Any:
        return self.w * x + self.b


def test_keras_weights_train_like_the_hand_loop() -> None:
    x, y = make_data()
    keras_model = MyModelKerasWeights()
    keras_model.compile(
        optimizer=tf.keras.optimizers.SGD(learning_rate=0.1),
        loss=tf.keras.losses.mean_squared_error,
    )
    history = keras_model.fit(x, y, epochs=10, batch_size=1000, verbose=0)
    # fit logs the loss of each step before its update: the hand loop's loss one step earlier
    start = float(loss(y, 5.0 * x))
    expected = [start, *numpy_losses(x.numpy(), y.numpy(), 9)]
    np.testing.assert_allclose(history.history["loss"], expected, rtol=2e-5)
    assert keras_model.optimizer.iterations.numpy() == 10
