"""GradientTape follows TensorFlow 2 semantics."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import tapeviz as tv
from tapeviz.engine import core


def test_unwatched_constant_gives_none_and_records_unwatched_op() -> None:
    x = tv.constant(3.0)
    with tv.GradientTape() as tape:
        y = x * x
    assert tape.gradient(y, x) is None
    assert [r.name for r in tape.records] == ["multiply"]
    assert tape.records[0].watched is False


def test_watch_a_list_and_nested_structures_of_sources() -> None:
    a, b = tv.constant(2.0), tv.constant(5.0)
    with tv.GradientTape(persistent=True) as tape:
        tape.watch([a, (b,)])
        y = a * b
    grads = tape.gradient(y, {"a": a, "pair": [b, a]})
    assert float(grads["a"]) == 5.0
    assert [float(g) for g in grads["pair"]] == [2.0, 5.0]


def test_list_targets_are_summed() -> None:
    x = tv.Variable(2.0)
    with tv.GradientTape() as tape:
        y1 = x * x
        y2 = 3.0 * x
    assert float(tape.gradient([y1, y2], x)) == 7.0


def test_non_trainable_variable_is_not_watched_unless_asked() -> None:
    v = tv.Variable(2.0, trainable=False)
    with tv.GradientTape(persistent=True) as tape:
        y = v * v
    assert tape.gradient(y, v) is None
    with tv.GradientTape() as tape:
        tape.watch(v)
        y = v * v
    assert float(tape.gradient(y, v)) == 4.0


def test_watched_variables_in_order_of_creation_with_int_variables() -> None:
    # TensorFlow: "Returns variables watched by this tape in order of construction", and a
    # trainable int variable that is read is watched too (it only never gets a gradient).
    a, b, c = tv.Variable(1.0, name="a"), tv.Variable(2.0, name="b"), tv.Variable(3.0, name="c")
    n = tv.Variable(4, name="n")
    with tv.GradientTape() as tape:
        _ = b * a + b * c
        _ = n * 2
    assert [v.name for v in tape.watched_variables()] == ["a:0", "b:0", "c:0", "n:0"]


def test_unconnected_gradients_zero_and_none() -> None:
    x, z = tv.Variable([1.0, 2.0]), tv.Variable(5.0)
    with tv.GradientTape(persistent=True) as tape:
        y = tv.reduce_sum(x * x)
    assert tape.gradient(y, z) is None
    zero = tape.gradient(y, z, unconnected_gradients=tv.UnconnectedGradients.ZERO)
    assert float(zero) == 0.0
    g = tape.gradient(y, [x, z], unconnected_gradients="zero")
    np.testing.assert_array_equal(g[0].numpy(), [2.0, 4.0])
    with pytest.raises(ValueError, match="unconnected_gradients"):
        tape.gradient(y, x, unconnected_gradients="sometimes")


def test_output_gradients_weight_the_targets() -> None:
    x = tv.Variable([1.0, 2.0, 3.0])
    with tv.GradientTape() as tape:
        y = x * x
    g = tape.gradient(y, x, output_gradients=tv.constant([1.0, 0.0, 2.0]))
    np.testing.assert_array_equal(g.numpy(), [2.0, 0.0, 12.0])


def test_gradient_with_respect_to_an_intermediate_tensor() -> None:
    x = tv.Variable(3.0)
    with tv.GradientTape() as tape:
        h = x * 2.0
        y = h * h
    assert float(tape.gradient(y, h)) == 12.0


def test_gradient_of_target_itself_is_one() -> None:
    x = tv.Variable(3.0)
    with tv.GradientTape() as tape:
        y = x * 2.0
    assert [float(g) for g in tape.gradient(y, [y, x])] == [1.0, 2.0]


def test_watching_after_the_op_does_not_connect_it() -> None:
    x = tv.constant(3.0)
    with tv.GradientTape() as tape:
        y = x * x
        tape.watch(x)
    assert tape.gradient(y, x) is None


def test_stop_recording_pauses_only_inside_the_block() -> None:
    x = tv.Variable(2.0)
    with tv.GradientTape() as tape:
        with tape.stop_recording():
            hidden = x * x
        shown = x * 3.0
        total = shown + hidden
    assert [r.name for r in tape.records] == ["multiply", "add"]
    assert float(tape.gradient(total, x)) == 3.0  # x·x was not recorded


def test_stop_recording_outside_the_tape_is_an_error() -> None:
    tape = tv.GradientTape()
    with pytest.raises(RuntimeError, match="which is not recording"), tape.stop_recording():
        pass  # never entered: TensorFlow's RuntimeError
    with tape:
        pass
    with pytest.raises(ValueError, match="Tape is not recording"), tape.stop_recording():
        pass  # entered and left: TensorFlow's ValueError


def test_reentering_an_active_tape_raises_value_error() -> None:
    tape = tv.GradientTape()
    with tape, pytest.raises(ValueError, match="re-enter an already-active"), tape:
        pass


def test_a_used_non_persistent_tape_records_anew_when_entered_again() -> None:
    x = tv.Variable(2.0)
    tape = tv.GradientTape()
    with tape:
        y = x * x
    assert float(tape.gradient(y, x)) == 4.0
    with pytest.raises(RuntimeError, match="one set of gradients"):
        tape.gradient(y, x)
    with tape:  # as in TensorFlow, a fresh recording
        z = x * x * x
    assert float(tape.gradient(z, x)) == 12.0
    assert [r.name for r in tape.records] == ["multiply", "multiply"]


def test_gradient_of_a_tape_that_never_recorded_is_a_runtime_error() -> None:
    with pytest.raises(RuntimeError, match="one set of gradients"):
        tv.GradientTape().gradient(tv.constant(1.0), tv.constant(1.0))


def test_gradient_of_a_variable_target_with_respect_to_itself_is_one() -> None:
    v0 = tv.Variable(3.0)
    with tv.GradientTape() as tape:
        r = v0  # no op reads it: TensorFlow still gives d v0 / d v0 = 1
    g = tape.gradient(r, v0)
    assert g is not None and float(g) == 1.0 and g.dtype == tv.float32
    c = tv.constant([1.0, 2.0])
    with tv.GradientTape() as tape:
        pass
    assert tape.gradient(c, c).numpy().tolist() == [1.0, 1.0]


def test_reset_clears_records_and_allows_a_new_gradient() -> None:
    x = tv.Variable(2.0)
    with tv.GradientTape(persistent=True) as tape:
        y = x * x
        tape.reset()
        z = x * 5.0
    assert len(tape.records) == 1
    assert tape.gradient(y, x) is None
    assert float(tape.gradient(z, x)) == 5.0
    with pytest.raises(ValueError, match="Tape is not recording"):
        tape.reset()  # TensorFlow: reset() only inside the with block
    with tape:
        tape.reset()
        w = x * x * x
    assert float(tape.gradient(w, x)) == 12.0
    assert float(z) == 10.0


def test_non_persistent_gradient_inside_the_block_stops_recording() -> None:
    x = tv.Variable(2.0)
    with tv.GradientTape() as tape:
        y = x * x
        assert float(tape.gradient(y, x)) == 4.0
        _ = x * 7.0
    assert len(tape.records) == 1


def test_persistent_gradient_inside_the_block_is_itself_recorded() -> None:
    x = tv.Variable(3.0)
    with tv.GradientTape(persistent=True) as tape:
        y = x * x * x
        dy = tape.gradient(y, x)  # recorded on the same tape
    assert float(dy) == 27.0
    assert float(tape.gradient(dy, x)) == 18.0


def test_third_derivative_with_three_nested_tapes() -> None:
    x = tv.Variable(2.0)
    with tv.GradientTape() as t3:
        with tv.GradientTape() as t2:
            with tv.GradientTape() as t1:
                y = x**4
            g1 = t1.gradient(y, x)
        g2 = t2.gradient(g1, x)
    g3 = t3.gradient(g2, x)
    assert [float(g) for g in (g1, g2, g3)] == [32.0, 48.0, 48.0]


def test_integer_sources_give_none_with_a_warning() -> None:
    i = tv.constant(3)
    with tv.GradientTape() as tape:
        with pytest.warns(UserWarning, match="must be floating"):
            tape.watch(i)
        y = i * i
    with pytest.warns(UserWarning, match="must be floating"):
        assert tape.gradient(y, i) is None


def test_target_must_be_a_tensor() -> None:
    x = tv.Variable(1.0)
    with tv.GradientTape() as tape:
        _ = x * 2.0
    with pytest.raises(TypeError, match="target must be a tensor"):
        tape.gradient(3.0, x)


def test_watch_rejects_plain_python_values() -> None:
    with tv.GradientTape() as tape, pytest.raises(ValueError, match=r"got float 1\.0"):
        tape.watch([1.0, 2.0])


def test_failing_op_leaves_tape_usable_and_stack_intact() -> None:
    x = tv.Variable([1.0, 2.0, 3.0])
    outer = tv.GradientTape()
    with outer:
        with pytest.raises(tv.InvalidArgumentError), tv.GradientTape() as inner:
            _ = x * x
            _ = x + tv.constant([1.0, 2.0])  # shapes (3,) and (2,)
        assert core.STATE.active == [outer]
        y = tv.reduce_sum(x * x)
    assert core.STATE.active == [] and core.STATE.entered == []
    np.testing.assert_array_equal(outer.gradient(y, x).numpy(), [2.0, 4.0, 6.0])
    assert len(inner.records) == 1


def test_tapes_are_per_thread() -> None:
    x = tv.Variable(2.0)
    seen: list[int] = []

    def other() -> None:
        _ = x * x  # must not be recorded by the main thread's tape
        seen.append(len(core.STATE.active))

    with tv.GradientTape() as tape:
        t = threading.Thread(target=other)
        t.start()
        t.join()
        y = x * 3.0
    assert seen == [0]
    assert len(tape.records) == 1 and float(tape.gradient(y, x)) == 3.0


def test_jacobian_of_a_vector_function() -> None:
    x = tv.Variable([1.0, 2.0])
    with tv.GradientTape() as tape:
        y = tv.stack([x[0] * x[1], tv.sin(x[0]), x[1] ** 2])
    j = tape.jacobian(y, x)
    expected = [[2.0, 1.0], [np.cos(1.0), 0.0], [0.0, 4.0]]
    np.testing.assert_allclose(j.numpy(), expected, rtol=1e-6)
    assert j.shape == (3, 2)


def test_batch_jacobian_takes_per_example_blocks() -> None:
    x = tv.Variable([[1.0, 2.0], [3.0, 4.0]])
    with tv.GradientTape() as tape:
        y = x * x
    bj = tape.batch_jacobian(y, x)
    assert bj.shape == (2, 2, 2)
    np.testing.assert_array_equal(bj.numpy(), [[[2, 0], [0, 4]], [[6, 0], [0, 8]]])


def test_gradient_calls_are_kept_for_the_ui() -> None:
    x = tv.Variable(2.0)
    with tv.GradientTape() as tape:
        y = x * x
    g = tape.gradient(y, x)
    (call,) = tape.gradient_calls
    assert call.kind == "gradient" and call.target_ids == (y.id,) and call.source_ids == (x.id,)
    assert call.results == (g,)


def test_records_are_frozen_plain_data() -> None:
    x = tv.Variable(3.0, name="x")
    with tv.GradientTape() as tape:
        y = x * 2.0
    (rec,) = tape.records
    assert rec.id == 0 and rec.name == "multiply"
    assert rec.input_ids[0] == x.id and rec.output_ids == (y.id,)
    assert [float(v) for v in rec.input_values] == [3.0, 2.0]
    assert float(rec.output_values[0]) == 6.0
    with pytest.raises(AttributeError):
        rec.watched = False  # type: ignore[misc]
    with pytest.raises(TypeError):
        rec.params["x"] = 1  # type: ignore[index]
