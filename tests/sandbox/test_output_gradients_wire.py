"""A gradient() call's output_gradients reach the window, so its graph starts where the call did."""

from __future__ import annotations

import numpy as np

from tapeviz.sandbox.process.isolated import run_isolated

SOURCE = """import tensorflow as tf
v = tf.Variable([2.0, 3.0])
with tf.GradientTape(persistent=True) as t:
  y = v * v
  z = tf.reduce_sum(y)
print(t.gradient(y, v, output_gradients=tf.constant([0.25, 2.0])))
print(t.gradient(z, v))
print(t.gradient([y, z], v, output_gradients=[None, tf.constant(3.0)]))
"""


def test_each_calls_output_gradients_cross_as_arrays() -> None:
    result = run_isolated(SOURCE)
    assert result.error is None
    assert result.output.splitlines()[0] == "tf.Tensor([ 1. 12.], shape=(2,), dtype=float32)"
    first, second, third = result.tapes[0].tape.gradient_calls
    assert first.seeds is not None and len(first.seeds) == 1
    np.testing.assert_array_equal(first.seeds[0], [0.25, 2.0])
    assert second.seeds is None  # no output_gradients: ones
    assert third.seeds is not None and third.seeds[0] is None and float(third.seeds[1]) == 3.0


def test_what_a_broken_worker_sends_is_refused_where_it_is_used() -> None:
    """Seeds of another shape, custom gradients that are not one per input: errors, not crashes."""
    import pytest

    from tapeviz.engine.custom import RecordedGradient
    from tapeviz.engine.errors import InvalidArgumentError
    from tapeviz.models.graph.passes import GradientPass

    result = run_isolated(SOURCE)
    records = list(result.tapes[0].tape.records)
    y = records[0].outputs[0]  # (2,)
    wide = GradientPass("gradient", (y.id,), (), (), (np.ones((2, 1), np.float32),))
    with pytest.raises(ValueError, match="output gradient of shape"):
        wide.seed_values(records)  # never broadcast to (2, 2)
    broken = RecordedGradient("f", [(np.ones(()), [])])
    with pytest.raises(InvalidArgumentError):
        broken.vjp(0, np.ones(()), np.ones(()), np.ones(()))
