"""TensorFlow's tf.function guide (guide/function): its cells print what TensorFlow printed.

A Function runs its Python when it traces; later calls with the same argument types run the
traced graph: Python side effects (print, list appends, attribute and global reads) happen at
trace time only, tf.print and Variable assigns on every call.
"""

from __future__ import annotations

import textwrap
from typing import Any

import numpy as np
import pytest

import tapeviz.tf as tf
from tapeviz.sandbox import run


def _out(src: str) -> str:
    r = run("import tensorflow as tf\n" + textwrap.dedent(src))
    assert r.error is None, r.error
    return r.output


CELLS: dict[str, tuple[str, str]] = {
    "tracing": (
        """
        @tf.function
        def double(a):
          print("Tracing with", a)
          return a + a

        print(double(tf.constant(1)))
        print(double(tf.constant(1.1)))
        print(double(tf.constant(2)))
        """,
        'Tracing with Tensor("a:0", shape=(), dtype=int32)\n'
        "tf.Tensor(2, shape=(), dtype=int32)\n"
        'Tracing with Tensor("a:0", shape=(), dtype=float32)\n'
        "tf.Tensor(2.2, shape=(), dtype=float32)\n"
        "tf.Tensor(4, shape=(), dtype=int32)\n",
    ),
    "side_effects": (
        """
        @tf.function
        def f(x):
          print("Traced with", x)
          tf.print("Executed with", x)

        f(1)
        f(1)
        f(2)
        """,
        "Traced with 1\nExecuted with 1\nExecuted with 1\nTraced with 2\nExecuted with 2\n",
    ),
    "list_append": (
        """
        external_list = []

        @tf.function
        def side_effect(x):
          print('Python side effect')
          external_list.append(x)

        side_effect(1)
        side_effect(1)
        side_effect(1)
        assert len(external_list) == 1
        print(len(external_list))
        """,
        "Python side effect\n1\n",
    ),
    "counter": (
        """
        class Model(tf.Module):
          def __init__(self):
            self.v = tf.Variable(0)
            self.counter = 0

          @tf.function
          def __call__(self):
            if self.counter == 0:
              self.counter += 1
              self.v.assign_add(1)
            return self.v

        m = Model()
        for n in range(3):
          print(m().numpy())
        """,
        "1\n2\n3\n",
    ),
    "iterator": (
        """
        @tf.function
        def buggy_consume_next(iterator):
          tf.print("Value:", next(iterator))

        iterator = iter([1, 2, 3])
        buggy_consume_next(iterator)
        buggy_consume_next(iterator)
        buggy_consume_next(iterator)
        """,
        "Value: 1\nValue: 1\nValue: 1\n",
    ),
    "dataset_iterator": (
        """
        @tf.function
        def good_consume_next(iterator):
          tf.print("Value:", next(iterator))

        iterator = iter(tf.data.Dataset.from_tensor_slices([1, 2, 3]))
        good_consume_next(iterator)
        good_consume_next(iterator)
        good_consume_next(iterator)
        """,
        "Value: 1\nValue: 2\nValue: 3\n",
    ),
    "globals": (
        """
        @tf.function
        def buggy_add():
          return 1 + foo

        @tf.function
        def recommended_add(foo):
          return 1 + foo

        foo = 1
        print("Buggy:", buggy_add())
        print("Correct:", recommended_add(foo))
        foo = 100
        print("Buggy:", buggy_add())
        print("Correct:", recommended_add(foo))
        """,
        "Buggy: tf.Tensor(2, shape=(), dtype=int32)\n"
        "Correct: tf.Tensor(2, shape=(), dtype=int32)\n"
        "Buggy: tf.Tensor(2, shape=(), dtype=int32)\n"
        "Correct: tf.Tensor(101, shape=(), dtype=int32)\n",
    ),
    "variable_global": (
        """
        @tf.function
        def variable_add():
          return 1 + foo

        foo = tf.Variable(1)
        print("Variable:", variable_add())
        foo.assign(100)
        print("Variable:", variable_add())
        """,
        "Variable: tf.Tensor(2, shape=(), dtype=int32)\n"
        "Variable: tf.Tensor(101, shape=(), dtype=int32)\n",
    ),
    "object_attributes": (
        """
        class SimpleModel(tf.Module):
          def __init__(self):
            self.bias = 0.
            self.weight = 2.

        @tf.function
        def evaluate(model, x):
          return model.weight * x + model.bias

        simple_model = SimpleModel()
        x = tf.constant(10.)
        print(evaluate(simple_model, x))
        simple_model.bias += 5.0
        print(evaluate(simple_model, x))

        class BetterModel:
          def __init__(self):
            self.bias = tf.Variable(0.)
            self.weight = tf.Variable(2.)

        better_model = BetterModel()
        print(evaluate(better_model, x))
        better_model.bias.assign_add(5.0)
        print(evaluate(better_model, x))
        """,
        "tf.Tensor(20.0, shape=(), dtype=float32)\n" * 3
        + "tf.Tensor(25.0, shape=(), dtype=float32)\n",
    ),
    "count": (
        """
        class Count(tf.Module):
          def __init__(self):
            self.count = None

          @tf.function
          def __call__(self):
            if self.count is None:
              self.count = tf.Variable(0)
            return self.count.assign_add(1)

        c = Count()
        print(c())
        print(c())
        """,
        "tf.Tensor(1, shape=(), dtype=int32)\ntf.Tensor(2, shape=(), dtype=int32)\n",
    ),
    "retracing": (
        """
        def train_one_step():
          pass

        @tf.function
        def train(num_steps):
          print("Tracing with num_steps = ", num_steps)
          tf.print("Executing with num_steps = ", num_steps)
          for _ in tf.range(num_steps):
            train_one_step()

        train(num_steps=10)
        train(num_steps=20)
        train(num_steps=tf.constant(10))
        train(num_steps=tf.constant(20))
        """,
        "Tracing with num_steps =  10\nExecuting with num_steps =  10\n"
        "Tracing with num_steps =  20\nExecuting with num_steps =  20\n"
        'Tracing with num_steps =  Tensor("num_steps:0", shape=(), dtype=int32)\n'
        "Executing with num_steps =  10\nExecuting with num_steps =  20\n",
    ),
    "unread_variable": (
        """
        v = tf.Variable(1.0)
        print(v.assign(2.0))
        print(v.assign_add(0.5).assign_sub(1.0))
        print(v)
        """,
        "<tf.Variable 'UnreadVariable' shape=() dtype=float32, numpy=2.0>\n"
        "<tf.Variable 'UnreadVariable' shape=() dtype=float32, numpy=1.5>\n"
        "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.5>\n",
    ),
}


@pytest.mark.parametrize("name", sorted(CELLS))
def test_guide_cell_prints_what_tensorflow_printed(name: str) -> None:
    src, want = CELLS[name]
    assert _out(src) == want


def test_init_scope_lifts_the_increment_out_of_the_graph() -> None:
    class Model(tf.Module):
        def __init__(self) -> None:
            self.v = tf.Variable(0)
            self.counter = 0

        @tf.function
        def __call__(self) -> Any:
            if self.counter == 0:
                with tf.init_scope():
                    self.counter += 1
                    self.v.assign_add(1)
            return self.v

    m = Model()
    assert [int(m().numpy()) for _ in range(3)] == [1, 1, 1]


def test_a_second_optimizer_in_a_traced_function_raises_value_error() -> None:
    opt1 = tf.keras.optimizers.Adam(learning_rate=1e-2)
    opt2 = tf.keras.optimizers.Adam(learning_rate=1e-3)

    @tf.function
    def train_step(w: Any, x: Any, y: Any, optimizer: Any) -> None:
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(w * x - y))
        gradients = tape.gradient(loss, [w])
        optimizer.apply_gradients(zip(gradients, [w], strict=True))

    w = tf.Variable(2.0)
    x, y = tf.constant([-1.0]), tf.constant([2.0])
    train_step(w, x, y, opt1)
    train_step(w, x, y, opt1)  # a tape inside: the Python runs again, the optimizer steps
    assert int(opt1.iterations) == 2
    with pytest.raises(ValueError, match=r"singleton tf\.Variables created on the first call"):
        train_step(w, x, y, opt2)


def test_a_variable_created_on_every_call_raises_value_error() -> None:
    @tf.function
    def f(x: Any) -> Any:
        return tf.Variable(1.0)

    with pytest.raises(ValueError, match="singleton"):
        f(1.0)


def test_a_replayed_call_is_recorded_on_the_callers_tape() -> None:
    w = tf.Variable(3.0)

    @tf.function
    def loss(x: Any) -> Any:
        return w * x * x

    x = tf.constant(2.0)
    for _ in range(3):  # the first call traces, the others replay
        with tf.GradientTape() as tape:
            y = loss(x)
        assert float(y) == 12.0
        assert float(tape.gradient(y, w)) == 4.0
    w.assign(1.0)
    assert float(loss(tf.constant(5.0))) == 25.0
    assert [r.name for r in loss.last_trace.records] == ["multiply", "multiply"]


def test_other_variables_retrace_and_reads_of_values_run_python_again() -> None:
    traced: list[Any] = []

    @tf.function
    def get(v: Any) -> Any:
        traced.append(1)
        return v + 0.0

    a, b = tf.Variable(1.0), tf.Variable(2.0)
    assert [float(get(a)), float(get(b)), float(get(a))] == [1.0, 2.0, 1.0]
    assert get.experimental_get_tracing_count() == 2 and len(traced) == 2

    @tf.function
    def branch(x: Any) -> Any:
        if x > 0:  # Python reads the value: each call runs the Python again
            return x
        return -x

    assert [float(branch(tf.constant(s))) for s in (2.0, -3.0)] == [2.0, 3.0]


def test_a_shared_signature_with_other_shapes_runs_python() -> None:
    spec = (tf.TensorSpec(shape=[None], dtype=tf.float32),)

    @tf.function(input_signature=spec)
    def total(x: Any) -> Any:
        return tf.reduce_sum(x * 2.0)

    assert float(total(tf.constant([1.0, 2.0]))) == 6.0
    assert float(total(tf.constant([1.0, 2.0, 3.0]))) == 12.0
    assert float(total(tf.constant([4.0, 5.0]))) == 18.0
    np.testing.assert_allclose(total(np.array([1.0], np.float32)).numpy(), 2.0)


def test_function_results_are_tensors_as_tensorflow_returns_them() -> None:
    v = tf.Variable(2.0)

    @tf.function
    def f() -> Any:
        return {"n": 3, "v": v, "t": v * 2.0, "none": None}

    out = f()
    assert str(out["n"]) == "tf.Tensor(3, shape=(), dtype=int32)"
    assert type(out["v"]) is tf.Tensor and float(out["v"]) == 2.0
    assert float(out["t"]) == 4.0 and out["none"] is None
