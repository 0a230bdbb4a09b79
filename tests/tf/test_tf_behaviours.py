"""The TensorFlow behaviours issue 14 found different, each as TensorFlow 2.21 shows it."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import tapeviz.tf as tf


def test_gradient_of_a_variable_target_is_one() -> None:
    v0 = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        r = v0
    assert float(tape.gradient(r, v0)) == 1.0


def test_watched_variables_in_creation_order_including_int_variables() -> None:
    a, b = tf.Variable(1.0, name="a"), tf.Variable(2.0, name="b")
    n = tf.Variable(3, name="n")
    with tf.GradientTape() as tape:
        _ = n + 1
        _ = b * a
    assert [v.name for v in tape.watched_variables()] == ["a:0", "b:0", "n:0"]


def test_gradient_inside_a_non_persistent_tape_stops_it_recording() -> None:
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = x * x
        assert float(tape.gradient(y, x)) == 4.0
        z = y * x  # not recorded any more
    assert [r.name for r in tape.records] == ["multiply"]
    assert float(z) == 8.0


def test_reentering_an_active_tape_and_stop_recording_errors() -> None:
    tape = tf.GradientTape()
    with (
        pytest.raises(RuntimeError, match="Trying to stop recording a tape which is not recording"),
        tape.stop_recording(),
    ):
        pass
    with tape, pytest.raises(ValueError, match="Tape is still recording"), tape:
        pass


def test_batch_jacobian_needs_rank_two() -> None:
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    with pytest.raises(ValueError, match=re.escape("Shape (3,) must have rank at least 2")):
        tape.batch_jacobian(y, x)


def test_a_tf_function_creating_a_variable_on_every_call_raises() -> None:
    @tf.function
    def f(x: Any) -> Any:
        v = tf.Variable(1.0)
        return v

    with pytest.raises(
        ValueError, match=r"only supports singleton tf\.Variables created on the first"
    ):
        f(1.0)

    class Count(tf.Module):
        def __init__(self) -> None:
            super().__init__()
            self.count: Any = None

        @tf.function
        def __call__(self) -> Any:
            if self.count is None:
                self.count = tf.Variable(0)
            return self.count.assign_add(1)

    c = Count()
    assert [int(c().numpy()), int(c().numpy())] == [1, 2]

    @tf.function
    def g() -> Any:
        return tf.Variable(2.0) * 3.0

    with pytest.raises(ValueError):
        g()


def test_optimizer_learning_rate_is_an_assignable_variable(
    capsys: pytest.CaptureFixture[str],
) -> None:
    opt = tf.keras.optimizers.SGD(learning_rate=0.01)
    assert opt.learning_rate.numpy() == np.float32(0.01)
    print(opt.learning_rate)
    print(opt.iterations)
    assert capsys.readouterr().out == (
        "<Variable path=SGD/learning_rate, shape=(), dtype=float32, value=0.01>\n"
        "<Variable path=SGD/iteration, shape=(), dtype=int64, value=0>\n"
    )
    opt.learning_rate = 0.5
    assert opt.learning_rate.numpy() == np.float32(0.5)
    opt.learning_rate.assign(0.25)
    x = tf.Variable(1.0)
    opt.apply_gradients([(tf.constant(1.0), x)])
    assert float(x.numpy()) == 0.75 and int(opt.iterations.numpy()) == 1
    adam = tf.keras.optimizers.Adam()
    assert adam.name == "adam" and adam.learning_rate.numpy() == np.float32(0.001)


def test_an_optimizer_is_bound_to_the_variables_it_first_saw() -> None:
    opt = tf.keras.optimizers.Adam()
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    opt.apply_gradients([(tf.constant(1.0), a)])
    with pytest.raises(ValueError, match="can only be called for the variables it was originally"):
        opt.apply_gradients([(tf.constant(1.0), b)])


def test_learning_rate_schedules() -> None:
    schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=1, decay_rate=0.5)
    opt = tf.keras.optimizers.SGD(learning_rate=schedule)
    x = tf.Variable(0.0)
    for _ in range(3):
        opt.apply_gradients([(tf.constant(1.0), x)])
    assert float(x.numpy()) == pytest.approx(-(0.1 + 0.05 + 0.025))
    assert float(opt.learning_rate.numpy()) == pytest.approx(0.0125)
    with pytest.raises(TypeError, match="not settable"):
        opt.learning_rate = 0.1


def test_relu6_and_the_version_string() -> None:
    assert tf.nn.relu6(tf.constant([-1.0, 3.0, 9.0])).numpy().tolist() == [0.0, 3.0, 6.0]
    assert tf.__version__.startswith("2.21") and "tapeviz" in tf.__version__
    assert int(tf.__version__.split(".")[0]) == 2
    assert tf.keras.__version__.startswith("3.")


@pytest.mark.parametrize(
    "call",
    [
        lambda: tf.io.read_file("data.txt"),
        lambda: tf.io.gfile.GFile("x"),
        lambda: tf.keras.datasets.mnist.load_data(),
        lambda: tf.keras.utils.get_file("x", "https://example.com/x"),
        lambda: tf.data.TFRecordDataset("x"),
        lambda: tf.keras.callbacks.TensorBoard("logs"),
        lambda: tf.saved_model.LoadOptions(),
    ],
)
def test_reading_files_and_downloads_are_a_clear_error(call: Any) -> None:
    with pytest.raises(
        tf.errors.NotAvailableInTapeviz, match="is not available in tapeviz"
    ) as info:
        call()
    assert isinstance(info.value, tf.errors.UnimplementedError)
    assert isinstance(info.value, tf.errors.OpError) and isinstance(info.value, NotImplementedError)


def test_device_config_and_init_scope_are_cpu_stand_ins() -> None:
    with tf.device("/GPU:0"):
        x = tf.constant(1.0) + 1.0
    assert float(x) == 2.0
    assert tf.config.list_physical_devices("GPU") == []
    assert tf.config.list_physical_devices() == [
        tf.config.PhysicalDevice(name="/physical_device:CPU:0", device_type="CPU")
    ]
    with pytest.raises(ValueError, match="non-GPU"):
        tf.config.experimental.set_memory_growth(tf.config.list_physical_devices()[0], True)
    tf.config.run_functions_eagerly(True)
    assert tf.config.functions_run_eagerly() is True
    tf.config.run_functions_eagerly(False)
    with tf.init_scope():
        assert tf.executing_eagerly()


def test_tensor_spec_and_input_signature() -> None:
    spec = tf.TensorSpec(shape=[None], dtype=tf.int32)
    assert repr(spec) == "TensorSpec(shape=(None,), dtype=tf.int32, name=None)"

    @tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
    def next_collatz(x: Any) -> Any:
        return tf.where(x % 2 == 0, x // 2, 3 * x + 1)

    assert next_collatz(tf.constant([1, 2])).numpy().tolist() == [4, 1]
    with pytest.raises(TypeError, match="Can not cast"):
        next_collatz(tf.constant([[1, 2], [3, 4]]))  # a 1-D spec
    with pytest.raises(TypeError):
        next_collatz(tf.constant([1.0, 2.0]))  # an int32 spec
    assert next_collatz([5]).numpy().tolist() == [16]  # Python values are converted


def test_supported_names_come_from_the_namespace() -> None:
    names = tf.supported_names()
    assert next(iter(names)) == "tf"
    for family, member in [
        ("tf", "GradientTape"),
        ("tf.random", "normal"),
        ("tf", "Module"),
        ("tf.nn", "elu"),
        ("tf.math", "is_nan"),
        ("tf", "reduce_prod"),
        ("tf.keras", "Model"),
        ("tf", "meshgrid"),
        ("tf", "tensordot"),
        ("tf.keras.layers", "BatchNormalization"),
        ("tf.keras.layers", "Dense"),
        ("tf", "eye"),
        ("tf", "TensorSpec"),
        ("tf", "einsum"),
        ("tf", "pad"),
        ("tf", "custom_gradient"),
        ("tf.linalg", "solve"),
        ("tf", "clip_by_norm"),
        ("tf.random", "set_seed"),
        ("tf.data", "Dataset"),
        ("tf.nn", "softmax"),
        ("tf", "sinh"),
        ("tf", "init_scope"),
        ("tf", "device"),
    ]:
        assert member in names[family], (family, member)
    assert all(v == sorted(v, key=str.lower) for v in names.values())
    assert "read_file" not in names.get("tf.io", [])
    assert "save" in names["tf.saved_model"] and "Checkpoint" in names["tf.train"]
    assert "load_data" in tf.unavailable_names()["tf.keras.datasets.mnist"]


def test_namespaces_import_as_modules() -> None:
    from tapeviz.tf.keras import layers
    from tapeviz.tf.keras.layers import Dense

    assert layers is tf.keras.layers and Dense is tf.keras.layers.Dense


def test_control_flow_runs_eagerly() -> None:
    assert (
        float(tf.cond(tf.constant(True), lambda: tf.constant(1.0), lambda: tf.constant(2.0))) == 1.0
    )
    i, total = tf.while_loop(
        lambda i, t: i < 5, lambda i, t: (i + 1, t + i), (tf.constant(0), tf.constant(0))
    )
    assert (int(i), int(total)) == (5, 10)
    squares = tf.map_fn(lambda v: v * v, tf.constant([1.0, 2.0, 3.0]))
    assert squares.numpy().tolist() == [1.0, 4.0, 9.0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tensor had NaN values"):
        tf.debugging.check_numerics(tf.constant([0.0, np.nan]), "bad")


def test_new_ops_respect_the_sandbox_size_limit() -> None:
    from tapeviz.engine.guard import ResourceLimitError, size_limits

    calls = [
        lambda: tf.pad(tf.ones([10]), [[10**7, 0]]),
        lambda: tf.linalg.diag(tf.ones([5000])),
        lambda: tf.einsum("i,j->ij", tf.ones([5000]), tf.ones([5000])),
        lambda: tf.tile(tf.ones([10]), [10**6]),
        lambda: tf.gather(tf.ones([10, 10**5]), tf.zeros([100], tf.int32)),
        lambda: tf.keras.layers.Dense(10**7)(tf.ones((1, 3))),
        lambda: tf.random.normal([10**7]),
        lambda: tf.one_hot([1, 2], 10**7),
        lambda: tf.eye(5000),
        lambda: tf.keras.utils.to_categorical([1], 10**7),
    ]
    with size_limits(10**6, 10**9):
        for call in calls:
            with pytest.raises(ResourceLimitError):
                call()
