"""A received run's gradient calls and tape names are read from its columns at once (issue 32).

Gathered tape by tape, a 100,000-tape run's calls held the GIL ~0.5 s in the pool while the
window waited for it; the columns give the same calls and names.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tapeviz.models.timeline import index
from tapeviz.sandbox import run
from tapeviz.sandbox.process import results_decode

LOOP = """import tensorflow as tf
x = tf.Variable(3.0)
for i in range(20):
    with tf.GradientTape() as t:
        y = x * x
    x.assign_sub(0.01 * t.gradient(y, x))
"""
PERSISTENT = """import tensorflow as tf
x = tf.Variable(3.0)
w = tf.Variable([1.0, 2.0])
z = tf.constant(1.0)
for i in range(5):
    with tf.GradientTape(persistent=True) as t:
        y = x * x + tf.reduce_sum(w)
        q = y * 2.0
    g = t.gradient(y, [x, w, z])
    h = t.gradient(q, x)
    j = t.jacobian(q, w)
"""
UNNAMED = """import tensorflow as tf
x = tf.Variable(2.0)
for i in range(3):
    with tf.GradientTape() as tapes_in_a_list:
        y = x * x
    print(tapes_in_a_list.gradient(y, x))
gs = []
for i in range(2):
    gs.append(tf.GradientTape())
"""


_received = results_decode.round_trip  # the run as the window gets it


class _OneByOne:
    """The received tapes without their call columns: the calls gathered tape by tape."""

    def __init__(self, tapes: Any) -> None:
        self.tapes = tapes

    def __len__(self) -> int:
        return len(self.tapes)

    def call_rows(self, k: int) -> Any:
        return self.tapes.call_rows(k)


@pytest.mark.parametrize("source", [LOOP, PERSISTENT, "x = 1\n"])
def test_the_gradient_calls_from_the_columns_are_those_gathered_one_by_one(source: str) -> None:
    tapes = _received(run(source)).tapes
    fast = index._gradient_calls(tapes)
    slow = index._gradient_calls(_OneByOne(tapes))
    for name in ("tape", "targets", "t_off", "sources", "results", "s_off", "first"):
        np.testing.assert_array_equal(getattr(fast, name), getattr(slow, name), err_msg=name)
    if source is PERSISTENT:  # two gradient() calls a tape; the jacobian is not one
        assert len(fast.tape) == 10 and fast.of(0) == slow.of(0)


@pytest.mark.parametrize("source", [LOOP, UNNAMED])
def test_the_first_names_from_the_columns_are_each_tapes_name(source: str) -> None:
    local = run(source)
    tapes = _received(local).tapes
    assert tapes.first_names() == [tapes.name(k) for k in range(len(tapes))]
    assert tapes.first_names() == [info.name for info in local.tapes]
