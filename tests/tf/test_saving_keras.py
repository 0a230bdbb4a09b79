"""Keras 3 saving (keras.io "Save, serialize, export"; keras.saving API docs; ModelCheckpoint)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import tapeviz.tf as tf
from tapeviz.tf import run_files
from tapeviz.tf.run_state import fresh_run_state

keras = tf.keras


@pytest.fixture(autouse=True)
def own_folder() -> Iterator[None]:
    with fresh_run_state():  # each test has an empty folder, as each run does
        yield


def _data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    x = rng.random((16, 3)).astype("float32")
    return x, x.sum(axis=1, keepdims=True)


def _sequential() -> keras.Model:
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"),
                              keras.layers.Dense(1)])  # fmt: skip
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
    return model


def test_a_saved_sequential_model_loads_with_its_weights_and_compile_state() -> None:
    x, y = _data()
    model = _sequential()
    model.fit(x, y, epochs=2, verbose=0)
    model.save("my_model.keras")
    loaded = keras.models.load_model("my_model.keras")
    assert loaded is not model and type(loaded).__name__ == "Sequential"
    assert [w.shape for w in loaded.weights] == [w.shape for w in model.weights]
    for a, b in zip(loaded.get_weights(), model.get_weights(), strict=True):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0))
    assert [layer.name for layer in loaded.layers] == [layer.name for layer in model.layers]
    # compiled as it was: the optimizer (with its state), the loss and the metrics
    assert type(loaded.optimizer).__name__ == "Adam" and loaded.loss == "mse"
    assert float(loaded.optimizer.learning_rate.numpy()) == pytest.approx(0.01)
    assert int(loaded.optimizer.iterations.numpy()) == int(model.optimizer.iterations.numpy())
    assert loaded.evaluate(x, y, verbose=0) == model.evaluate(x, y, verbose=0)
    model.fit(x, y, epochs=1, shuffle=False, verbose=0)  # the same next step: Adam's slots too
    loaded.fit(x, y, epochs=1, shuffle=False, verbose=0)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0), 1e-6)


def test_compile_false_loads_an_uncompiled_model() -> None:
    model = _sequential()
    model.save("m.keras")
    loaded = keras.models.load_model("m.keras", compile=False)
    assert not loaded.compiled and loaded.optimizer is None


def test_a_functional_model_with_operators_round_trips() -> None:
    inputs = keras.Input((3,))
    h = keras.layers.Dense(5, activation="tanh", name="hidden")(inputs)
    outputs = keras.layers.Dense(2)(h) * 2.0 + keras.layers.Dense(2)(inputs)
    model = keras.Model(inputs, outputs, name="net")
    model.save("f.keras")
    loaded = keras.saving.load_model("f.keras")
    x, _ = _data()
    assert type(loaded).__name__ == "Functional" and loaded.name == "net"
    assert loaded.get_layer("hidden").activation is model.get_layer("hidden").activation
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0))


class MLP(keras.Model):
    def __init__(self, units: int = 4, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.hidden = keras.layers.Dense(units, activation="relu")
        self.out = keras.layers.Dense(1)

    def call(self, x: object) -> object:
        return self.out(self.hidden(x))


def test_a_subclassed_model_with_kwargs_is_made_again_from_its_arguments() -> None:
    x, y = _data()
    model = MLP(units=6)
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, y, epochs=1, verbose=0)
    model.save("mlp.keras")
    loaded = keras.models.load_model("mlp.keras")
    assert type(loaded) is MLP and loaded.hidden.units == 6
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0))


class Bare(keras.Model):
    def __init__(self) -> None:
        super().__init__()
        self.d = keras.layers.Dense(1)

    def call(self, x: object) -> object:
        return self.d(x)


def test_a_subclassed_model_without_kwargs_fails_to_load_as_in_keras_3() -> None:
    model = Bare()
    model(np.ones((1, 3), "float32"))
    model.save("bare.keras")  # saving works: its auto config is {trainable, dtype}
    with pytest.raises(TypeError, match="could not be deserialized properly") as info:
        keras.models.load_model("bare.keras")
    assert "Unable to revive model from config" in str(info.value)
    assert "unexpected keyword argument 'trainable'" in str(info.value)


def test_a_script_object_made_with_non_plain_arguments_needs_get_config() -> None:
    class Scale(keras.layers.Layer):
        def __init__(self, factor: object, **kwargs: object) -> None:
            super().__init__(**kwargs)
            self.factor = factor

        def call(self, x: object) -> object:
            return x * self.factor

    model = keras.Sequential([keras.Input((2,)), Scale(np.float32(2.0) * np.ones(2, "float32"))])
    with pytest.raises(NotImplementedError, match="must override `get_config\\(\\)`"):
        model.save("scale.keras")


def test_a_registered_layer_with_get_config_round_trips() -> None:
    @keras.saving.register_keras_serializable(package="MyLayers")
    class Linear(keras.layers.Layer):
        def __init__(self, units: int = 2, **kwargs: object) -> None:
            super().__init__(**kwargs)
            self.units = units

        def build(self, input_shape: object) -> None:
            self.w = self.add_weight(shape=(input_shape[-1], self.units),
                                     initializer="random_normal")  # fmt: skip

        def call(self, x: object) -> object:
            return tf.matmul(x, self.w)

        def get_config(self) -> dict[str, object]:
            return {**super().get_config(), "units": self.units}

    assert keras.saving.get_registered_name(Linear) == "MyLayers>Linear"
    assert keras.saving.get_registered_object("MyLayers>Linear") is Linear
    model = keras.Sequential([keras.Input((3,)), Linear(3), keras.layers.Dense(1)])
    model.save("lin.keras")
    loaded = keras.models.load_model("lin.keras")
    x, _ = _data()
    assert type(loaded.layers[0]) is Linear and loaded.layers[0].units == 3
    np.testing.assert_allclose(loaded(x).numpy(), model(x).numpy())


def test_a_lambda_layer_loads_only_with_safe_mode_off() -> None:
    model = keras.Sequential([keras.Input((2,)), keras.layers.Lambda(lambda v: v * 3.0)])
    model.save("lam.keras")
    loaded = keras.models.load_model("lam.keras", safe_mode=False)
    np.testing.assert_allclose(loaded(np.ones((1, 2), "float32")).numpy(), [[3.0, 3.0]])


def test_save_and_load_paths_follow_keras_3() -> None:
    model = _sequential()
    with pytest.raises(ValueError, match="Invalid filepath extension for saving"):
        model.save("saved_model/my_model")
    with pytest.raises(ValueError, match="`save_format` argument is deprecated"):
        model.save("my_model", save_format="tf")
    with pytest.raises(ValueError, match=r"must end in `\.weights\.h5`"):
        model.save_weights("./checkpoints/my_checkpoint")
    with pytest.raises(ValueError, match="File format not supported"):
        model.load_weights("./checkpoints/my_checkpoint")
    with pytest.raises(ValueError, match=r"File not found: filepath=nothing\.keras"):
        keras.models.load_model("nothing.keras")
    with pytest.raises(ValueError, match="legacy SavedModel format is not supported"):
        keras.models.load_model("saved_model/my_model")


def test_legacy_h5_saves_with_a_warning_and_loads() -> None:
    model = _sequential()
    with pytest.warns(UserWarning, match="HDF5 file"):
        model.save("my_model.h5")
    loaded = keras.models.load_model("my_model.h5")
    x, _ = _data()
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0))


def test_weights_round_trip_and_mismatches_are_keras_errors() -> None:
    x, y = _data()
    model = _sequential()
    model.fit(x, y, epochs=1, verbose=0)
    model.save_weights("w.weights.h5")
    fresh = _sequential()
    fresh.load_weights("w.weights.h5")
    np.testing.assert_allclose(fresh.predict(x, verbose=0), model.predict(x, verbose=0))
    other = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    with pytest.raises(ValueError, match="objects could not be loaded"):
        other.load_weights("w.weights.h5")
    with pytest.raises(FileNotFoundError):
        fresh.load_weights("missing.weights.h5")


def test_model_checkpoint_saves_the_best_epochs_by_name() -> None:
    x, y = _data()
    model = _sequential()
    checkpoint = keras.callbacks.ModelCheckpoint(
        "ckpts/model-{epoch:02d}.keras", monitor="loss", save_best_only=True, verbose=1
    )
    model.fit(x, y, epochs=3, callbacks=[checkpoint], verbose=0)
    saved = run_files.listdir("ckpts")
    assert saved and all(n.startswith("model-0") and n.endswith(".keras") for n in saved)
    best = keras.models.load_model("ckpts/" + saved[-1])
    assert best.count_params() == model.count_params()


def test_model_checkpoint_weights_only_needs_the_weights_suffix() -> None:
    with pytest.raises(ValueError, match=r"must end in `\.weights\.h5`"):
        keras.callbacks.ModelCheckpoint("training_1/cp.ckpt", save_weights_only=True)
    with pytest.raises(ValueError, match=r"must end in `\.keras`"):
        keras.callbacks.ModelCheckpoint("training_1/cp.ckpt")
    x, y = _data()
    model = _sequential()
    cb = keras.callbacks.ModelCheckpoint("training_1/cp.weights.h5", save_weights_only=True,
                                         save_freq=3)  # fmt: skip
    model.fit(x, y, epochs=2, batch_size=4, callbacks=[cb], verbose=0)
    assert run_files.listdir("training_1") == ["cp.weights.h5"]
    fresh = _sequential()
    fresh.load_weights("training_1/cp.weights.h5")
