"""tf.saved_model.save / load (TF's "Using the SavedModel format" and modules guides)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import tapeviz.tf as tf
from tapeviz.tf import run_files
from tapeviz.tf.run_state import fresh_run_state


@pytest.fixture(autouse=True)
def own_folder() -> Iterator[None]:
    with fresh_run_state():
        yield


class CustomModule(tf.Module):
    def __init__(self) -> None:
        super().__init__()
        self.v = tf.Variable(1.0)
        self.traced = 0

    @tf.function
    def __call__(self, x: object) -> object:
        self.traced += 1
        return x * self.v

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def mutate(self, new_v: object) -> None:
        self.v.assign(new_v)


def test_a_loaded_module_replays_its_traces_on_its_own_variables() -> None:
    module = CustomModule()
    module(tf.constant(0.0))
    tf.saved_model.save(module, "module_no_signatures")
    assert run_files.listdir("module_no_signatures") == [
        "assets", "fingerprint.pb", "saved_model.pb", "variables"
    ]  # fmt: skip
    imported = tf.saved_model.load("module_no_signatures")
    assert not isinstance(imported, CustomModule)
    traced = module.traced
    assert float(imported(tf.constant(3.0)).numpy()) == 3.0
    assert module.traced == traced  # none of the function's Python ran
    imported.mutate(tf.constant(2.0))
    assert float(imported(tf.constant(3.0)).numpy()) == 6.0
    assert float(module.v.numpy()) == 1.0 and float(imported.v.numpy()) == 2.0
    assert len(imported.signatures) == 0
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        imported(tf.constant([3.0]))  # only the traced signature was saved


def test_a_module_of_modules_keeps_its_structure() -> None:
    class Dense(tf.Module):
        def __init__(self, n_in: int, n_out: int) -> None:
            super().__init__()
            self.w = tf.Variable(tf.random.normal([n_in, n_out]), name="w")
            self.b = tf.Variable(tf.zeros([n_out]), name="b")

        def __call__(self, x: object) -> object:
            return tf.nn.relu(tf.matmul(x, self.w) + self.b)

    class SequentialModule(tf.Module):
        def __init__(self) -> None:
            super().__init__()
            self.dense_1 = Dense(3, 3)
            self.dense_2 = Dense(3, 2)

        @tf.function
        def __call__(self, x: object) -> object:
            return self.dense_2(self.dense_1(x))

    model = SequentialModule()
    expected = model([[2.0, 2.0, 2.0]])
    tf.saved_model.save(model, "the_saved_model")
    new_model = tf.saved_model.load("the_saved_model")
    np.testing.assert_allclose(new_model([[2.0, 2.0, 2.0]]).numpy(), expected.numpy())
    assert new_model.dense_1.w.shape == (3, 3) and len(new_model.variables) == 4
    assert tf.saved_model.contains_saved_model("the_saved_model")
    assert not tf.saved_model.contains_saved_model("elsewhere")


def test_signatures_take_keywords_and_name_the_outputs() -> None:
    module = tf.Module()
    module.v = tf.Variable(2.0)
    module.f = tf.function(lambda x: x * module.v,
                           input_signature=[tf.TensorSpec([], tf.float32)])  # fmt: skip
    module.f(tf.constant(1.0))
    tf.saved_model.save(module, "sig", signatures=module.f)
    imported = tf.saved_model.load("sig")
    out = imported.signatures["serving_default"](x=tf.constant(4.0))
    assert list(out) == ["output_0"] and float(out["output_0"].numpy()) == 8.0


def test_a_keras_model_loads_as_a_servable_copy() -> None:
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    tf.saved_model.save(model, "keras_export")
    loaded = tf.saved_model.load("keras_export")
    x = np.ones((2, 3), "float32")
    np.testing.assert_allclose(loaded.serve(x).numpy(), model(x).numpy())
    np.testing.assert_allclose(loaded(x).numpy(), model(x).numpy())


def test_saving_needs_a_trackable_and_loading_a_folder() -> None:
    with pytest.raises(ValueError, match="Expected an object of type `Trackable`"):
        tf.saved_model.save(object(), "x")
    with pytest.raises(OSError, match="SavedModel file does not exist"):
        tf.saved_model.load("missing")
