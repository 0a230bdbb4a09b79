"""The encoder reads a tape's ops as kept (``op_columns.gather``): what its records would give."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tapeviz.tf as tf
from tapeviz.engine.core import NO_RECORDS
from tapeviz.sandbox import run
from tapeviz.sandbox.process import op_columns
from tapeviz.sandbox.process.encoder import Encoder

LOOP = """import tensorflow as tf
x = tf.Variable(0.0)
for step in range(30):
    with tf.GradientTape() as tape:
        y = x * x - 2.0 * x + tf.exp(-x)
    x.assign_sub(0.1 * tape.gradient(y, x))
"""

MIXED = """import tensorflow as tf
w = tf.Variable([[0.5, -1.0], [2.0, 0.25]])
b = tf.Variable([0.1, 0.2])
xs = tf.constant([[1.0, 2.0], [3.0, -1.0]])
for step in range(6):
    with tf.GradientTape(persistent=True) as tape:
        h = tf.tanh(tf.matmul(xs, w) + b) * 2.0
        loss = tf.reduce_mean(tf.square(h - 1.0)) + tf.reduce_sum(b * b)
        if step % 2:
            z = tf.sigmoid(loss) - tf.reduce_max(h)
    tape.gradient(loss, [w, b])
    with tf.GradientTape() as empty:
        pass
"""

KERAS = """import tensorflow as tf
import numpy as np
x = np.linspace(-1, 1, 24, dtype=np.float32).reshape(12, 2)
y = (x[:, :1] > 0).astype(np.float32)
model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="relu"),
                             tf.keras.layers.Dense(1, activation="sigmoid")])
model.compile(optimizer="adam", loss="binary_crossentropy")
model.fit(x, y, batch_size=4, epochs=2, verbose=0)
"""


def _from_records(tapes: list[Any]) -> dict[str, list[Any]]:
    """The oracle: the columns the encoder made from every tape's records before."""
    recs = [r for t in tapes for r in t.records]
    params = [(k, r.params) for k, r in enumerate(recs) if r.params]
    return {
        "prims": [r.primitive for r in recs], "ids": [r.id for r in recs],
        "watched": [r.watched for r in recs], "n_in": [len(r.inputs) for r in recs],
        "n_out": [len(r.outputs) for r in recs],
        "inputs": [id(t) for r in recs for t in r.inputs],
        "outputs": [id(t) for r in recs for t in r.outputs],
        "params": [(k, id(p)) for k, p in params], "scopes": [r.scope for r in recs],
    }  # fmt: skip


def _gathered(tapes: list[Any]) -> dict[str, list[Any]]:
    held = [op_columns.parts(t) for t in tapes]
    ops = op_columns.gather(held)
    return {
        "prims": ops.prims, "ids": ops.ids, "watched": ops.watched, "n_in": ops.n_in,
        "n_out": ops.n_out, "inputs": list(map(id, ops.inputs)),
        "outputs": list(map(id, ops.outputs)), "params": [(k, id(p)) for k, p in ops.params],
        "scopes": ops.scopes,
    }  # fmt: skip


@pytest.mark.parametrize("source", [LOOP, MIXED, KERAS], ids=["loop", "mixed", "keras"])
def test_the_ops_gathered_as_kept_are_the_records_ops(source: str) -> None:
    result = run(source)
    assert result.error is None, result.error
    tapes = [info.tape for info in result.tapes]
    got = _gathered(tapes)  # (before the oracle: reading records changes what a tape holds)
    want = _from_records(tapes)
    assert got == want
    assert len(got["prims"]) > 5 * len(tapes) // 2


def test_tapes_holding_records_then_columns_in_one_batch() -> None:
    x = tf.Variable(1.5)
    tapes = []
    for k in range(4):
        with tf.GradientTape() as tape:
            y = x * x + 1.0  # columns
            if k % 2:
                tape.records  # noqa: B018  (read: the ops so far become records)
                y = tf.reduce_sum(y * 3.0) - x  # a record, then columns again
        tapes.append(tape)
    held = [op_columns.parts(t) for t in tapes]
    assert [bool(m) for m, _ in held] == [False, True, False, True] and all(f for _, f in held)
    got = _gathered(tapes)
    assert got == _from_records(tapes)
    assert got["ids"] == [0, 1, 0, 1, 2, 3, 4, 0, 1, 0, 1, 2, 3, 4]


def test_encoding_makes_no_record_and_a_tape_read_later_is_encoded_afresh() -> None:
    result = run(LOOP)
    tapes = [info.tape for info in result.tapes]
    enc = Encoder()
    enc.add(tapes)
    assert enc.n == len(tapes) == 30 and all(t._recs is NO_RECORDS for t in tapes)
    assert enc.still(tapes)
    tapes[3].records  # noqa: B018  (its ops are now held in other lists)
    assert not enc.still(tapes)


def test_the_scope_column_spans_every_op_when_scopes_start_in_a_later_batch() -> None:
    plain = [info.tape for info in run(LOOP).tapes][:5]
    layered = [info.tape for info in run(KERAS).tapes][:4]
    enc = Encoder()
    enc.add(plain)  # (a first tick: no op in a scope, no column yet)
    assert not enc.scope_names
    enc.add(plain + layered)
    names = {k: sc for sc, k in enc.scope_names.items()}
    column = np.concatenate(enc._cols["scope"])
    got = [() if k < 0 else names[int(k)] for k in column]
    want = [r.scope for t in plain + layered for r in t.records]
    assert got == want and any(want) and not any(want[: sum(enc.counts()[:5])])
