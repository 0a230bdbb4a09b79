"""The columnar accessors of received tapes agree with the tensors they stand for."""

from __future__ import annotations

import io

import numpy as np
import pytest

from tapeviz.sandbox import run
from tapeviz.sandbox.process import remote, results, results_decode, wire

SOURCE = """import tensorflow as tf
import numpy as np
w = tf.Variable(np.arange(12, dtype=np.float32).reshape(3, 4) / 7)
b = tf.Variable(0.5, dtype=tf.float64)
k = tf.constant([1, 2, 3])
flags = tf.constant([True, False, True])
for step in range(3):
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(w * w) + tf.cast(tf.reduce_sum(k), tf.float32)
        z = b * b
    grads = tape.gradient([y, tf.cast(z, tf.float32)], [w, b])
    w.assign_sub(0.1 * grads[0])
big = tf.constant([np.inf, 1.0, np.nan])
"""


def _decoded(source: str = SOURCE):  # type: ignore[no-untyped-def]
    result = run(source)
    assert result.error is None, result.error
    w = wire.Writer()
    doc = results.encode(result, w)
    buf = io.BytesIO()
    wire.write(buf, doc, w)
    return results_decode.decode(wire.read(io.BytesIO(buf.getvalue())))


def test_sums_norms_elements_and_sizes_match_the_values() -> None:
    table = _decoded().tapes[0].tape.table
    rows = np.arange(table.count)
    values = [np.asarray(table.value(int(r)), np.float64).reshape(-1) for r in rows]
    np.testing.assert_array_equal(table.sizes(rows), [v.size for v in values])
    np.testing.assert_allclose(table.sums(rows), [v.sum() for v in values], rtol=1e-12)
    np.testing.assert_allclose(
        table.norms(rows), [np.sqrt((v * v).sum()) for v in values], rtol=1e-12
    )
    for index in (0, 5):
        want = [v[index] if v.size > index else np.nan for v in values]
        np.testing.assert_array_equal(table.elements(rows, index), want)
    scalars = rows[table.sizes(rows) == 1]
    same = scalars[table.codes[scalars] == table.codes[scalars[0]]]
    np.testing.assert_array_equal(table.values(same), [values[r][0] for r in same])


def test_reductions_in_small_chunks_give_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    table = _decoded().tapes[0].tape.table
    rows = np.arange(table.count)[::-1]  # any order
    whole = table.norms(rows), table.sums(rows)
    monkeypatch.setattr(remote, "CHUNK", 5)
    np.testing.assert_array_equal(table.norms(rows), whole[0])
    np.testing.assert_array_equal(table.sums(rows), whole[1])


def test_nan_and_inf_propagate() -> None:
    result = _decoded("import tensorflow as tf\nimport numpy as np\n"
                      "x = tf.Variable([np.inf, 1.0])\nv = tf.Variable([np.nan, 2.0])\n"
                      "with tf.GradientTape() as t:\n    y = tf.reduce_sum(x * v)\n")  # fmt: skip
    table = result.tapes[0].tape.table
    rows = np.array(result.tapes[0].tape.watched_rows)
    assert np.isinf(table.norms(rows)[0]) and np.isnan(table.norms(rows)[1])
    assert np.isnan(table.sums(rows)[1])


def test_columns_calls_and_watched_rows_describe_the_records() -> None:
    decoded = _decoded()
    tapes = [t.tape for t in decoded.tapes]
    cols = tapes[0].columns
    assert cols is tapes[1].columns  # shared by every tape of the result
    for tape in tapes:
        a, b = tape.span
        for k, rec in zip(range(a, b), tape.records, strict=True):
            assert cols.prims[cols.prim[k]] is rec.primitive
            assert dict(cols.params[cols.param[k]]) == dict(rec.params)
            ins = cols.ins[cols.in_off[k] : cols.in_off[k + 1]]
            assert [int(tape.table.ids[r]) for r in ins] == list(rec.input_ids)
            outs = cols.outs[cols.out_off[k] : cols.out_off[k + 1]]
            assert [int(tape.table.ids[r]) for r in outs] == list(rec.output_ids)
        (kind, targets, sources, rows), = tape.call_rows  # fmt: skip
        call = tape.gradient_calls[0]
        assert (kind, targets, sources) == (call.kind, call.target_ids, call.source_ids)
        got = [None if r < 0 else tape.table.tensor(r) for r in rows]
        assert all(a is b for a, b in zip(got, call.results, strict=True))
        assert [int(tape.table.ids[r]) for r in tape.watched_rows] == [t.id for t in tape.watched()]


def test_a_released_tape_is_rebuilt_the_same_on_its_next_use() -> None:
    decoded = _decoded()
    tape = decoded.tapes[1].tape
    objs = tape.table._objs
    before = tape.pretty()
    calls = [(c.target_ids, c.source_ids) for c in tape.gradient_calls]
    outputs = [next(i for i, o in objs.items() if o is r.outputs[0]) for r in tape.records]
    tape.watched()  # the variables are made too
    variables = [r for r in tape.watched_rows if tape.table.kinds[r] > 0]
    assert variables and all(objs.get(r) is not None for r in variables)
    tape.release()
    assert tape._records is None and all(objs.get(r) is None for r in outputs)
    assert all(objs.get(r) is not None for r in variables)  # variables stay (one object per id)
    assert tape.pretty() == before  # rebuilt from the columns
    assert [(c.target_ids, c.source_ids) for c in tape.gradient_calls] == calls


LOOP = """import tensorflow as tf
w = tf.Variable(2.0)
b = tf.Variable(0.5)
for step in range({n}):
    with tf.GradientTape() as tape:
        loss = (w * 3.0 + b - 1.0) ** 2
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(0.01 * dw)
    b.assign_sub(0.01 * db)
"""


def test_a_loops_tapes_share_what_they_repeat_and_keep_calls_as_columns() -> None:
    import gc

    gc.collect()
    before = len(gc.get_objects())
    back = _decoded(LOOP.format(n=2000))
    per_tape = (len(gc.get_objects()) - before) / len(back.tapes)
    first, second = back.tapes[0], back.tapes[1]
    assert first.names == ("tape",) and first.names is second.names
    assert first.tape.watched_rows == second.tape.watched_rows
    assert first.tape._watched_rows is second.tape._watched_rows  # one tuple for the loop
    # Each tape is its TapeInfo, its RemoteTape and two small spans: no per-call objects.
    assert per_tape < 5, per_tape
    # The calls, made from the columns when asked for, are the tape's own.
    for info in (first, back.tapes[-1]):
        (call,) = info.tape.call_rows
        assert call.kind == "gradient" and len(call.targets) == 1 and len(call.results) == 2
        table = info.tape.table
        dw, db = (table.tensor(r) for r in call.results)
        assert np.isfinite(float(dw.numpy())) and np.isfinite(float(db.numpy()))
    w = 2.0 - 0.01 * 2 * (2.0 * 3 + 0.5 - 1) * 3  # the first step's gradient, by hand
    dw0 = float(back.tapes[0].tape.table.tensor(first.tape.call_rows[0].results[0]).numpy())
    assert abs((2.0 - 0.01 * dw0) - w) < 1e-6
