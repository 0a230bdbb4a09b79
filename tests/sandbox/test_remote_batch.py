"""A received tape's tensors made in one batch are those made one row at a time.

``make_rows`` reads many scalar rows with one gather per dtype and their names with one
search; each tensor must be what ``TensorTable.tensor`` makes: value (a numpy scalar of the
row's dtype, or a read-only array), dtype, name, id, a Variable registered as one.
"""

from __future__ import annotations

import numpy as np
import pytest

from tapeviz.engine.tensor import VARIABLES, Variable
from tapeviz.sandbox import run
from tapeviz.sandbox.process import remote_batch, results_decode

SCRIPT = """import tensorflow as tf
x = tf.Variable(1.5, name="x")
k = tf.Variable(3, dtype=tf.int32, name="k")
v = tf.Variable([1.0, 2.0, 3.0], name="v")
d = tf.constant(0.25, dtype=tf.float64)
with tf.GradientTape(persistent=True) as tape:
    y = x
    for i in range(40):
        y = y * 1.01 + 0.5
        z = tf.cast(k * (i % 3), tf.float32)
        y = y + z
    w = tf.reduce_sum(v * y)
    e = tf.cast(x, tf.float64) * d
    named = tf.identity(w, name="total")
g = tape.gradient([w, e], [x, v])
"""


def fields(t: object) -> tuple:
    value = t._value  # type: ignore[attr-defined]
    return (type(t).__name__, t.id, t.name, t.dtype.name, type(value),  # type: ignore[attr-defined]
            np.asarray(value).dtype, np.asarray(value).shape, np.asarray(value).tolist(),
            getattr(value, "flags", None) is None or not value.flags.writeable,
            getattr(t, "trainable", None))  # fmt: skip


def records(local: object, one_by_one: bool, monkeypatch: pytest.MonkeyPatch) -> list:
    with monkeypatch.context() as m:
        if one_by_one:
            m.setattr(remote_batch, "MIN_BATCH", 10**9)
        received = results_decode.round_trip(local)  # type: ignore[arg-type]
        tape = received.tapes[0].tape
        recs = tape.records
    out = []
    for rec in recs:
        out.append((rec.id, rec.name, rec.watched, rec.scope, dict(rec.params),
                    [fields(t) for t in rec.inputs], [fields(t) for t in rec.outputs]))  # fmt: skip
        for t in (*rec.inputs, *rec.outputs):
            if isinstance(t, Variable):
                assert VARIABLES[t.id] is t  # registered, as one made alone is
    return out


def test_a_batch_makes_the_tensors_one_by_one_makes(monkeypatch: pytest.MonkeyPatch) -> None:
    local = run(SCRIPT)  # (one run, received twice: the same ids)
    assert local.error is None, local.error
    batch, alone = records(local, False, monkeypatch), records(local, True, monkeypatch)
    assert len(batch) > remote_batch.MIN_BATCH  # (the batch path ran)
    assert batch == alone
    dtypes = {str(f[5]) for rec in batch for f in rec[5] + rec[6]}
    assert {"float32", "int32", "float64"} <= dtypes
    assert any(f[6] == (3,) for rec in batch for f in rec[5])  # arrays too, read-only


def test_a_tensor_is_made_once_and_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    local = run(SCRIPT)
    received = results_decode.round_trip(local)
    tape = received.tapes[0].tape
    first = tape.records[0].inputs[0]
    table = tape.table
    row = next(r for r, t in table._objs.items() if t is first)
    assert table.tensor(row) is first
    remote_batch.make_rows(table, list(table._objs))  # nothing new to make
    assert table.tensor(row) is first


def test_every_row_of_a_table_batch_or_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    local = run(SCRIPT)
    batch = results_decode.round_trip(local).tapes[0].tape.table  # type: ignore[arg-type]
    rows = list(range(batch.count))[::-1]  # (any order: each row is made as itself)
    before = dict(batch._objs)  # (the namespace's, made when the run was received)
    remote_batch.make_rows(batch, rows)
    got = [fields(batch._objs[r]) for r in rows]
    assert any(f[0] == "Variable" for f in got)  # the variables' rows: Variables, registered
    made = [r for r in rows if r not in before]
    last = {t.id: t for t in (batch._objs[r] for r in made) if isinstance(t, Variable)}
    assert all(VARIABLES[tid] is t for tid, t in last.items())  # (the last made, as alone)
    alone = results_decode.round_trip(local).tapes[0].tape.table  # type: ignore[arg-type]
    assert got == [fields(alone.tensor(r)) for r in rows]
