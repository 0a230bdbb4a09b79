"""model.compile / fit / evaluate / predict on small in-memory data, as the Keras guides use them.

Weights are set explicitly and shuffling is off where values are checked, so every number is
the plain mini-batch SGD computed beside it in numpy.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import tapeviz.tf as tf

keras = tf.keras
LINE = r"(\d+)/\1 ━{20} \d+s \d+(ms|us|s)/step"


def regression_data() -> tuple[np.ndarray, np.ndarray]:
    x = np.linspace(-1.0, 1.0, 10, dtype=np.float32).reshape(-1, 1)
    return x, 3.0 * x + 1.0


def numpy_sgd(
    x: np.ndarray, y: np.ndarray, w: float, b: float, lr: float, epochs: int, batch: int
) -> tuple[list[float], float, float]:
    """Mini-batch SGD on MSE in float32; the epoch loss is the batch losses' weighted mean."""
    w32, b32, lr32 = np.float32(w), np.float32(b), np.float32(lr)
    history = []
    for _ in range(epochs):
        total = 0.0
        for s in range(0, len(x), batch):
            xb, yb = x[s : s + batch, 0], y[s : s + batch, 0]
            err = (xb * w32 + b32) - yb
            total += float(np.mean(err * err)) * len(xb)
            w32 = w32 - lr32 * np.float32(np.mean(2 * err * xb))
            b32 = b32 - lr32 * np.float32(np.mean(2 * err))
        history.append(total / len(x))
    return history, float(w32), float(b32)


def linear_model() -> keras.Sequential:
    model = keras.Sequential([keras.Input(shape=(1,)), keras.layers.Dense(1)])
    model.set_weights([np.array([[0.5]], dtype=np.float32), np.array([0.0], dtype=np.float32)])
    return model


def test_fit_on_a_small_regression_prints_keras_lines_and_a_history(
    capsys: pytest.CaptureFixture[str],
) -> None:
    x, y = regression_data()
    model = linear_model()
    model.compile(optimizer=keras.optimizers.SGD(learning_rate=0.1), loss="mse", metrics=["mae"])
    history = model.fit(x, y, epochs=3, batch_size=4, shuffle=False)
    print(history.history)
    out = capsys.readouterr().out.splitlines()
    assert out[0::2][:3] == ["Epoch 1/3", "Epoch 2/3", "Epoch 3/3"]
    for line in out[1:6:2]:
        assert re.fullmatch(LINE + r" - loss: \d+\.\d{4} - mae: \d+\.\d{4}", line), line
    expected, w, b = numpy_sgd(x, y, 0.5, 0.0, 0.1, 3, 4)
    assert list(history.history) == ["loss", "mae"]  # sorted keys, Keras 3's logs
    np.testing.assert_allclose(history.history["loss"], expected, rtol=1e-5)
    assert out[-1] == str(history.history)
    kernel, bias = model.get_weights()
    np.testing.assert_allclose([kernel[0, 0], bias[0]], [w, b], rtol=1e-5)
    assert all(isinstance(v, float) for v in history.history["loss"])


def test_evaluate_and_predict(capsys: pytest.CaptureFixture[str]) -> None:
    x, y = regression_data()
    model = linear_model()
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    loss, mae = model.evaluate(x, y, batch_size=4)
    pred = 0.5 * x
    assert loss == pytest.approx(float(np.mean((pred - y) ** 2)), rel=1e-6)
    assert mae == pytest.approx(float(np.mean(np.abs(pred - y))), rel=1e-6)
    out = capsys.readouterr().out
    assert re.fullmatch(
        r"3/3 ━{20} \d+s \d+(ms|us|s)/step - loss: \d+\.\d{4} - mae: \d+\.\d{4}\n", out
    )
    got = model.predict(x[:3], verbose=0)
    assert isinstance(got, np.ndarray) and got.shape == (3, 1) and got.dtype == np.float32
    np.testing.assert_allclose(got, 0.5 * x[:3])
    assert capsys.readouterr().out == ""
    assert model.evaluate(x, y, verbose=0, return_dict=True) == {"loss": loss, "mae": mae}


def test_verbose_two_and_zero(capsys: pytest.CaptureFixture[str]) -> None:
    x, y = regression_data()
    model = linear_model()
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, y, epochs=2, batch_size=5, verbose=2)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Epoch 1/2" and out[2] == "Epoch 2/2"
    assert re.fullmatch(r"2/2 - \d+s - \d+(ms|us|s)/step - loss: \d+\.\d{4}", out[1]), out[1]
    model.fit(x, y, epochs=2, verbose=0)
    assert capsys.readouterr().out == ""
    model.fit(x, y, epochs=1, verbose=1)  # one epoch: no "Epoch 1/1" header, as in Keras
    assert re.fullmatch(LINE + r" - loss: \d+\.\d{4}\n", capsys.readouterr().out)


def test_validation_split_and_validation_data() -> None:
    x, y = regression_data()
    model = linear_model()
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    history = model.fit(
        x, y, epochs=2, batch_size=4, validation_split=0.2, shuffle=False, verbose=0
    )
    assert list(history.history) == ["loss", "mae", "val_loss", "val_mae"]
    expected, w, b = numpy_sgd(x[:8], y[:8], 0.5, 0.0, 0.1, 2, 4)
    np.testing.assert_allclose(history.history["loss"], expected, rtol=1e-5)
    val = float(np.mean((x[8:] * np.float32(w) + np.float32(b) - y[8:]) ** 2))
    assert history.history["val_loss"][-1] == pytest.approx(val, rel=1e-5)
    h2 = model.fit(x, y, validation_data=(x, y), epochs=1, verbose=0)
    assert set(h2.history) == {"loss", "mae", "val_loss", "val_mae"}


def test_classification_with_accuracy_and_sparse_crossentropy() -> None:
    tf.random.set_seed(3)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(60, 2)).astype(np.float32)
    labels = (x[:, 0] + x[:, 1] > 0).astype(np.int64)
    model = keras.Sequential(
        [keras.Input(shape=(2,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(2)]
    )
    model.compile(
        optimizer=keras.optimizers.Adam(0.05),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
    history = model.fit(x, labels, epochs=30, batch_size=16, verbose=0)
    assert list(history.history) == ["accuracy", "loss"]  # Keras 3 sorts the logs
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert history.history["accuracy"][-1] >= 0.9
    acc = model.evaluate(x, labels, verbose=0)[1]
    pred = np.argmax(model.predict(x, verbose=0), axis=1)
    assert acc == pytest.approx(float(np.mean(pred == labels)), abs=1e-6)
    assert [m.name for m in model.metrics] == ["loss", "compile_metrics"]


def test_fit_on_a_dataset_with_callbacks() -> None:
    x, y = regression_data()
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
    model = linear_model()
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    seen: list[tuple[int, float]] = []
    hook = keras.callbacks.LambdaCallback(
        on_epoch_end=lambda epoch, logs: seen.append((epoch, logs["loss"]))
    )
    history = model.fit(ds, epochs=3, callbacks=[hook], verbose=0)
    expected, _, _ = numpy_sgd(x, y, 0.5, 0.0, 0.1, 3, 4)
    np.testing.assert_allclose([loss for _, loss in seen], expected, rtol=1e-5)
    assert [e for e, _ in seen] == [0, 1, 2] and history.history["loss"] == [v for _, v in seen]


def test_early_stopping_stops_and_restores(capsys: pytest.CaptureFixture[str]) -> None:
    x, y = regression_data()
    model = linear_model()
    model.compile(optimizer=keras.optimizers.SGD(2.5), loss="mse")  # diverges: loss grows
    stop = keras.callbacks.EarlyStopping(
        monitor="loss", patience=1, verbose=1, restore_best_weights=True
    )
    history = model.fit(x, y, epochs=20, batch_size=10, shuffle=False, verbose=0, callbacks=[stop])
    assert len(history.history["loss"]) < 20
    out = capsys.readouterr().out
    assert re.search(r"Epoch \d+: early stopping", out)
    assert "Restoring model weights from the end of the best epoch" in out


def test_fit_needs_compile_and_evaluate_order() -> None:
    model = linear_model()
    with pytest.raises(ValueError, match=r"You must call `compile\(\)` before calling `fit\(\)`"):
        model.fit(*regression_data())
    model.compile(optimizer="adam", loss="mae", metrics=["mse", "mae"])
    result = model.evaluate(*regression_data(), verbose=0)
    assert len(result) == 3  # loss, then the metrics in compile order


def test_train_and_test_on_batch() -> None:
    x, y = regression_data()
    model = linear_model()
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    loss = model.train_on_batch(x, y)
    assert loss == pytest.approx(float(np.mean((0.5 * x - y) ** 2)), rel=1e-6)
    assert model.optimizer.iterations.numpy() == 1
    assert model.test_on_batch(x, y) < loss
    assert model.predict_on_batch(x).shape == (10, 1)


def test_regularization_losses_join_the_training_loss() -> None:
    x, y = regression_data()
    model = keras.Sequential(
        [
            keras.Input(shape=(1,)),
            keras.layers.Dense(1, kernel_regularizer=keras.regularizers.l2(0.5)),
        ]
    )
    model.set_weights([np.array([[2.0]], dtype=np.float32), np.array([0.0], dtype=np.float32)])
    assert float(model.losses[0]) == pytest.approx(0.5 * 4.0)
    model.compile(optimizer=keras.optimizers.SGD(0.0001), loss="mse")
    loss = model.evaluate(x, y, verbose=0)
    assert loss == pytest.approx(float(np.mean((2 * x - y) ** 2)) + 2.0, rel=1e-5)


def test_learning_rate_callbacks_log_the_rate_in_history_as_keras_3() -> None:
    keras = tf.keras
    rng = np.random.default_rng(0)
    x, y = rng.random((32, 2)).astype("float32"), rng.random((32, 1)).astype("float32")
    model = keras.Sequential([keras.Input(shape=(2,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    sched = keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr if epoch < 1 else lr / 2)
    h = model.fit(x, y, epochs=3, batch_size=8, callbacks=[sched], verbose=0)
    assert h.history["learning_rate"] == pytest.approx([0.1, 0.05, 0.025])
    plateau = keras.callbacks.ReduceLROnPlateau(
        monitor="loss", factor=0.5, patience=1, min_delta=10.0
    )  # fmt: skip  (never better)
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    h = model.fit(x, y, epochs=3, batch_size=8, callbacks=[plateau], verbose=0)
    # the rate each epoch ran at: reduced after epoch 2 (epoch 1 sets the best)
    assert h.history["learning_rate"] == pytest.approx([0.1, 0.1, 0.05])
    assert sorted(h.history) == ["learning_rate", "loss"]
