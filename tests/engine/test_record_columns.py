"""Ops the elementwise fast path records as columns: the same records, made only when read.

A tape keeps six references per such op instead of an OpRecord and two tuples (issue 32's W6:
recording 10,000 tapes of the seed's step ~1.5x faster, most of it the garbage collector's
scans), and gradient() walks them without keeping a record.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import tapeviz.tf as tf
from tapeviz.engine.records import FLAT, OpRecord, Rows

X = tf.Variable(1.5)


def _fields(rec: OpRecord) -> tuple[Any, ...]:
    return (rec.id, rec.primitive, rec.input_ids, rec.output_ids, dict(rec.params), rec.watched,
            rec.scope)  # fmt: skip


def _shape(rec: OpRecord) -> tuple[Any, ...]:
    """A record's fields that do not name tensors, and its output's value."""
    out = float(np.sum(rec.outputs[0]._value))
    return rec.primitive, len(rec.inputs), dict(rec.params), rec.watched, rec.scope, out


CASES: dict[str, Callable[[Any], Any]] = {
    "seed step": lambda x: 1.0 * tf.pow(x, 2) + -2.0 * x + 1.0,
    "unary chain": lambda x: tf.tanh(tf.sin(x) * tf.exp(x)) - x,
    "a dead end (ceil)": lambda x: tf.math.ceil(x) * 3.0 + x * x,
    "fast, general, fast": lambda x: tf.reduce_sum(tf.stack([x * 2.0, x])) * x,
    "vectors": lambda x: tf.reduce_mean(tf.square(tf.constant([1.0, 2.0, 3.0]) * x - 1.0)),
    "a scope": lambda x: _scoped(x),
}


def _scoped(x: Any) -> Any:
    with tf.name_scope("outer"):
        y = x * x
    return y + x


@pytest.mark.parametrize("name", list(CASES))
def test_a_tape_read_as_records_or_walked_as_columns_gives_the_same(name: str) -> None:
    fn = CASES[name]
    with tf.GradientTape(persistent=True) as walked:
        y1 = fn(X)
    with tf.GradientTape(persistent=True) as read:
        y2 = fn(X)
    kept = list(read.records)  # (made now: what a tape kept before the columns)
    g1, g2 = walked.gradient(y1, X), read.gradient(y2, X)
    if name not in ("fast, general, fast", "vectors"):  # (their reductions: general records)
        assert len(walked._recs) == 0  # the walk kept no record
    assert np.array_equal(np.asarray(g1), np.asarray(g2))
    assert walked._dead_end == read._dead_end == (name == "a dead end (ceil)")
    assert walked.pretty() == read.pretty()
    assert [_shape(r) for r in walked.records] == [_shape(r) for r in kept]
    assert [r.id for r in walked.records] == list(range(len(kept)))


def test_records_keep_their_order_across_fast_and_general_ops() -> None:
    with tf.GradientTape() as tape:
        a = X * 2.0  # fast: a column
        b = tf.reduce_sum(tf.stack([a, a]))  # general: a record (the columns become records)
        c = b * X  # fast again
    names = [r.name for r in tape.records]
    assert names[0] == "read_variable" or names[0] == "multiply"
    assert names[-1] == "multiply" and "reduce_sum" in names
    assert [r.id for r in tape.records] == list(range(len(names)))
    assert tape.records[-1].outputs[0] is c


def test_rows_are_a_snapshot_and_read_like_a_list() -> None:
    with tf.GradientTape() as tape:
        y = X * 3.0
        y = tf.exp(y) + y
        rows = tape.rows()
        z = y * y
    assert isinstance(rows, Rows) and len(rows) == len(tape.records) - 1  # (not z's op)
    records = tape.records
    assert [_fields(r) for r in rows] == [_fields(r) for r in records[: len(rows)]]
    assert [_fields(r) for r in reversed(rows)] == [_fields(r) for r in reversed(records[:-1])]
    assert [_fields(r) for r in rows[1:]] == [_fields(r) for r in records[1 : len(rows)]]
    assert _fields(rows[-1]) == _fields(records[len(rows) - 1])
    with pytest.raises(IndexError):
        rows[len(rows)]
    assert records[-1].outputs[0] is z and tape.op_count() == len(records)


def test_a_gradient_keeps_no_record_of_a_column_op() -> None:
    with tf.GradientTape() as tape:
        y = X * X + 2.0 * X
    assert tape.op_count() and len(tape._pending) == FLAT * (tape.op_count() - len(tape._recs))
    assert float(tape.gradient(y, X)) == pytest.approx(2 * 1.5 + 2.0)
    assert len(tape._recs) == 0  # (the walk made its records as it went and kept none)


def test_a_tf_function_trace_places_its_effects_among_column_ops() -> None:
    v = tf.Variable(1.0)

    @tf.function
    def step(x: Any) -> Any:
        y = x * 2.0
        v.assign_add(y)
        return y * v

    outs = [float(step(tf.constant(float(k)))) for k in range(1, 4)]  # traced once, replayed
    want, total = [], 1.0
    for k in range(1, 4):
        total += 2.0 * k
        want.append(2.0 * k * total)
    assert outs == pytest.approx(want) and float(v) == pytest.approx(total)


def _step_fields(step: Any) -> tuple[Any, ...]:
    contribs = tuple((c.position, c.tensor_id, float(np.sum(c.value))) for c in step.contributions)
    return step.index, _fields(step.record), float(np.sum(step.output_grad)), contribs


def test_the_walk_over_columns_steps_as_over_records() -> None:
    """A BackwardPass given the columns (and reach) yields the steps it yields over records."""
    from tapeviz.engine.backward import BackwardPass

    with tf.GradientTape(persistent=True) as tape:
        s = tf.reduce_sum(tf.stack([X, X]))  # two records, then columns
        y = tf.sin(s * X) * X + tf.exp(s) - 3.0 * X
    rows = tape.rows()
    assert isinstance(rows, Rows) and len(tape._recs) == 2 and len(tape._pending) == 7 * FLAT
    seeds = {y.id: np.float32(1.0)}
    over_columns = [_step_fields(s) for s in BackwardPass(rows, seeds, [X.id], reach=tape._tracked)]
    records = list(tape.records)
    over_records = [_step_fields(s) for s in BackwardPass(records, seeds, [X.id])]
    assert over_columns == over_records and len(over_columns) == len(records)


def test_a_second_order_walk_over_columns_records_on_the_outer_tape() -> None:
    """Taping: the inner walk's rules run on tensors, recorded as columns on the outer tape."""
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = X * X * X
        dy = inner.gradient(y, X)
    d2 = outer.gradient(dy, X)
    assert float(dy) == pytest.approx(3 * 1.5**2) and float(d2) == pytest.approx(6 * 1.5)


def test_a_persistent_tape_walked_while_it_records_keeps_its_snapshot() -> None:
    """gradient() inside the block: the ops the walk itself records are not walked."""
    with tf.GradientTape(persistent=True) as tape:
        y = X * X + X
        g1 = tape.gradient(y, X)  # walks 2 ops; its rules' ops are recorded on the tape
        z = y * 2.0
        g2 = tape.gradient(z, X)
    assert float(g1) == pytest.approx(2 * 1.5 + 1) and float(g2) == pytest.approx(2 * (2 * 1.5 + 1))
    assert tape.op_count() == len(tape.records) > 3


def test_records_read_mid_block_then_read_again_show_every_op() -> None:
    """A list read while the tape records holds the ops so far; reading again adds the rest."""
    with tf.GradientTape() as tape:
        y = X * X
        held = tape.records
        assert [r.name for r in held] == ["multiply"]
        z = y * X
        assert [r.name for r in tape.records] == ["multiply", "multiply"]
        assert tape.records[-1].outputs[0] is z and tape.records is held  # the same list, grown


def test_a_tape_that_only_records_columns_keeps_no_list_until_one_is_needed() -> None:
    from tapeviz.engine.core import NO_RECORDS
    from tapeviz.engine.tape import NO_CALLS

    with tf.GradientTape() as columns:
        y = X * X + 1.0
    assert columns._recs is NO_RECORDS and columns.gradient_calls is NO_CALLS
    with tf.GradientTape() as general:
        z = tf.reduce_sum(X * X)  # (a reduction: recorded by the general path, as a record)
    made = general.records
    assert type(made) is list and [r.name for r in made] == ["multiply", "reduce_sum"]
    made.append(made[0])  # (the list is the tape's own: the shared empty tuple is untouched)
    assert NO_RECORDS == () and NO_CALLS == () and columns._recs is NO_RECORDS
    assert len(tf.GradientTape().records) == 0 and tf.GradientTape().records is not NO_RECORDS
    columns.gradient(y, X)
    general.gradient(z, X)
    assert len(columns.gradient_calls) == len(general.gradient_calls) == 1
    assert columns.gradient_calls is not general.gradient_calls and NO_CALLS == ()
    assert columns._recs is NO_RECORDS  # (the walk made no record to keep)
