"""Tapes encoded while the run runs (``encoder.Encoder``) give what encoding it afterwards gives."""

from __future__ import annotations

import io
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from tapeviz.sandbox import RunResult, run
from tapeviz.sandbox.process import results, results_decode, wire
from tapeviz.sandbox.process.encoder import Encoder
from tapeviz.sandbox.process.kept import Kept, Policy

LOOP = """import tensorflow as tf
x = tf.Variable(0.0)
for step in range(120):
    with tf.GradientTape() as tape:
        y = x * x - 2.0 * x + 1.0
    dy = tape.gradient(y, x)
    x.assign_sub(0.1 * dy)
"""

FIT = """import tensorflow as tf
import numpy as np
x = np.linspace(-1, 1, 40, dtype=np.float32).reshape(20, 2)
y = (x[:, :1] * x[:, 1:] > 0).astype(np.float32)
model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="tanh"),
                             tf.keras.layers.Dense(1, activation="sigmoid")])
model.compile(optimizer="sgd", loss="binary_crossentropy")
history = model.fit(x, y, batch_size=8, epochs=4, verbose=0)
"""

TORCH = """import torch
w = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
for step in range(60):
    loss = ((w - 3.0) ** 2).sum()
    loss.backward()
    opt.step()
    opt.zero_grad()
"""

PERSISTENT_LATER = """import tensorflow as tf
x = tf.Variable(2.0)
with tf.GradientTape(persistent=True) as keep:
    y = x ** 3
first = keep.gradient(y, x)
for step in range(80):
    with tf.GradientTape() as tape:
        z = x * float(step)
    tape.gradient(z, x)
second = keep.gradient(y, x)
"""

OUTER = """import tensorflow as tf
x = tf.Variable(1.5)
with tf.GradientTape() as outer:
    total = tf.constant(0.0)
    for step in range(60):
        with tf.GradientTape() as inner:
            y = tf.sin(x * float(step))
        inner.gradient(y, x)
        total = total + y
g = outer.gradient(total, x)
"""

BIG = """import tensorflow as tf
w = tf.Variable(tf.ones((40, 40)))
for step in range(40):
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(w * w * float(step))
    w.assign_sub(0.001 * tape.gradient(y, w))
"""


def _runs(source: str) -> tuple[RunResult, Encoder]:
    """The run, with an Encoder fed its finished tapes at every checkpoint."""
    enc = Encoder()
    result = run(source, ticks=lambda made, so_far: enc.add_finished(made, 10**6), tick_every=1e-9)
    assert result.error is None, result.error
    return result, enc


def _tapes(result: RunResult) -> list[Any]:
    return [info.tape for info in result.tapes]


def _decoded(result: RunResult, policy: Policy | None, enc: Encoder | None) -> Any:
    w = wire.Writer()
    doc = results.encode(result, w, policy, enc)
    buf = io.BytesIO()
    wire.write(buf, doc, w)
    return results_decode.decode(wire.read(io.BytesIO(buf.getvalue())))


def _same(a: Any, b: Any) -> None:
    assert a.output == b.output and len(a.tapes) == len(b.tapes)
    assert sorted(a.namespace) == sorted(b.namespace)
    for ta, tb in zip(a.tapes, b.tapes, strict=True):
        x, y = ta.tape, tb.tape
        assert ta.names == tb.names and x.pretty() == y.pretty()
        for ra, rb in zip(x.records, y.records, strict=True):
            assert ra.name == rb.name and ra.scope == rb.scope and ra.params == rb.params
            for u, v in zip(ra.inputs + ra.outputs, rb.inputs + rb.outputs, strict=True):
                assert u.id == v.id and u.dtype == v.dtype
                np.testing.assert_array_equal(np.asarray(u._value), np.asarray(v._value))
        assert [v.id for v in x.watched()] == [v.id for v in y.watched()]
        for ca, cb in zip(x.gradient_calls, y.gradient_calls, strict=True):
            assert ca.kind == cb.kind and ca.source_ids == cb.source_ids
            for u, v in zip(ca.results, cb.results, strict=True):
                assert (u is None) == (v is None)
                if u is not None:
                    np.testing.assert_array_equal(np.asarray(u._value), np.asarray(v._value))


@pytest.mark.parametrize("source", [LOOP, FIT, TORCH], ids=["loop", "fit", "torch"])
def test_tapes_encoded_while_running_decode_as_encoded_afterwards(source: str) -> None:
    result, enc = _runs(source)
    assert enc.n > 0 and enc.still(_tapes(result))  # encoded while it ran, used as it is
    _same(_decoded(result, None, enc), _decoded(result, None, None))


def test_a_tape_still_recording_is_left_for_later() -> None:
    result, enc = _runs(OUTER)
    assert enc.n == 0  # the outer tape came first and recorded until the loop ended
    assert len(result.tapes) == 61
    _same(_decoded(result, None, enc), _decoded(result, None, None))


def test_a_tape_that_changed_after_it_was_encoded_is_encoded_afresh() -> None:
    result, enc = _runs(PERSISTENT_LATER)
    assert enc.n > 0 and not enc.still(_tapes(result))  # `keep` was called again after
    fresh = _decoded(result, None, None)
    _same(_decoded(result, None, enc), fresh)
    assert len(fresh.tapes[0].tape.gradient_calls) == 2


def test_big_values_go_summarised_and_kept_alike() -> None:
    result = _runs(BIG)[0]
    kept_a, kept_b = Kept(), Kept()
    kept_a.start()
    kept_b.start()
    a = _decoded(result, Policy(1000, kept_a, kept_a.token), Encoder(1000))
    enc_1000 = Encoder(1000)
    for k in range(1, len(result.tapes)):
        enc_1000.add(_tapes(result)[:k])
    b = _decoded(result, Policy(1000, kept_b, kept_b.token), enc_1000)
    assert kept_a.bytes == kept_b.bytes > 0
    for x, y in zip(a.tapes, b.tapes, strict=True):
        outs_a = [r.outputs[0] for r in x.tape.records]
        outs_b = [r.outputs[0] for r in y.tape.records]
        assert [t.id for t in outs_a] == [t.id for t in outs_b]
        assert [repr(t._value) for t in outs_a] == [repr(t._value) for t in outs_b]
    assert "summarised" in repr(a.tapes[-1].tape.records[0].outputs[0]._value)


def test_an_encoder_for_another_threshold_is_not_used() -> None:
    result, enc = _runs(BIG)  # (threshold None: every value whole)
    assert enc.n > 0
    doc = results.encode(result, wire.Writer(), Policy(1000, None, "t"), enc)
    assert "big" in doc["table"]  # encoded afresh, the 40x40 values summarised


def test_the_worker_encodes_a_long_runs_tapes_while_it_runs_and_sends_only_when_streaming() -> None:
    from tapeviz.sandbox.process import server

    source = (  # 0.4 s of steps on any machine: a dozen ticks
        "import tensorflow as tf\nimport time\nx = tf.Variable(0.0)\nt0 = time.perf_counter()\n"
        "while time.perf_counter() - t0 < 0.4:\n"
        "    with tf.GradientTape() as tape:\n        y = x * x - 2.0 * x + 1.0\n"
        "    x.assign_sub(0.1 * tape.gradient(y, x))\n"
    )
    for stream in (False, True):
        sent: list[Any] = []
        ctx = server.Context(1, lambda doc, writer, sent=sent: sent.append(doc))
        tick = ctx.tick

        def due(made: list[Any], so_far: Any, ctx: Any = ctx, tick: Any = tick) -> None:
            ctx._next_send = 0.0  # a snapshot is due at every tick: sent only if streaming
            tick(made, so_far)

        ctx.tick = due
        args = {"source": source, "mode": "script", "variables": [], "stream": stream}
        doc, writer = server.run_handler(args, None, ctx)  # type: ignore[arg-type]
        made = ctx.made_from.tapes
        assert ctx.encoder.n > len(made) // 2  # most tapes were encoded before the script ended
        assert bool(sent) is stream and all("snapshot" in d for d in sent)
        buf = io.BytesIO()
        wire.write(buf, doc, writer)
        got = results_decode.decode(wire.read(io.BytesIO(buf.getvalue())))
        assert len(got.tapes) == len(made) > 100
        assert got.tapes[-1].tape.pretty() == made[-1].tape.pretty()


def test_a_steps_tapes_wait_a_tick_so_their_gradient_calls_come_first() -> None:
    import tapeviz.engine as E
    from tapeviz.engine.tape import GradientTape

    x = E.Variable(2.0)
    created: list[Any] = []
    enc = Encoder()
    for _ in range(3):  # a GAN's step: two tapes, then both gradients
        gen, disc = GradientTape(), GradientTape()
        with gen, disc:
            y = x * x
            z = x * 3.0
        created += [gen, disc]
        enc.add_finished([*created, GradientTape()], 100)  # a tick between the with and the calls
        gen.gradient(y, x)
        disc.gradient(z, x)
    enc.add_finished([*created, GradientTape()], 100)
    assert enc.n == 6 and enc.still(created)  # nothing encoded before its gradient() call


def test_a_streamed_run_whose_old_tape_changed_encodes_afresh_once_then_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tapeviz.sandbox.process import server
    from tapeviz.sandbox.runtime import time_ns

    # The script's clock counts the worker's ticks (0.03 s each), not the wall: `keep` changes
    # after the 6th tick, long after its first encoding, however slow the machine (a loaded CI
    # once ticked first after the change, and the first encoder saw `keep` only as changed).
    ticks = [0]
    monkeypatch.setattr(time_ns, "_time", SimpleNamespace(perf_counter=lambda: ticks[0] * 0.03))

    source = (
        "import tensorflow as tf\nimport time\nx = tf.Variable(2.0)\nt0 = time.perf_counter()\n"
        "with tf.GradientTape(persistent=True) as keep:\n    y = x ** 3\n"
        "keep.gradient(y, x)\nagain = True\n"
        "while time.perf_counter() - t0 < 0.6:\n"
        "    if again and time.perf_counter() - t0 > 0.15:  # long after `keep` was encoded\n"
        "        keep.gradient(y, x)\n        again = False\n"
        "    with tf.GradientTape() as tape:\n        z = x * x\n"
        "    x.assign_sub(0.001 * tape.gradient(z, x))\n"
    )
    sent: list[Any] = []
    ctx = server.Context(1, lambda doc, writer: sent.append(doc))
    first: list[Encoder] = []
    tick = ctx.tick

    def every_tick_sends(made: list[Any], so_far: Any) -> None:
        ticks[0] += 1
        if not first:
            first.append(ctx.encoder)
        ctx._next_send = 0.0  # (not the 3x-age schedule: the test must not depend on timing)
        tick(made, so_far)

    ctx.tick = every_tick_sends
    args = {"source": source, "mode": "script", "variables": [], "stream": True}
    doc, writer = server.run_handler(args, None, ctx)  # type: ignore[arg-type]
    tapes = [info.tape for info in ctx.made_from.tapes]
    assert len(sent) >= 2 and len(tapes) > 1000
    assert not first[0].still(tapes)  # the first encoder went stale when `keep` changed ...
    assert ctx.encoder is not first[0] and ctx.encoder.still(tapes)  # ... a fresh one went on
    assert ctx.encoder.n > len(tapes) // 2
    buf = io.BytesIO()
    wire.write(buf, doc, writer)
    got = results_decode.decode(wire.read(io.BytesIO(buf.getvalue())))
    assert len(got.tapes[0].tape.gradient_calls) == 2 and len(got.tapes) == len(tapes)


def test_an_encoded_tapes_arrays_are_held_as_they_are_not_copied_until_the_document() -> None:
    # Copied when a batch was encoded, the arrays of a run's kept tapes were held twice until
    # it ended: the memory check capped the kept tapes at half as many (2,445 of the PyTorch
    # tutorial's polynomial at 10,000 steps, now 4,457-4,466).
    import tapeviz.tf as tf
    from tapeviz.sandbox.process.table_rows import HELD_BYTES, Table

    n = HELD_BYTES // 4  # float32 elements of an array held as it is
    with tf.GradientTape() as tape:
        x = tf.constant(np.arange(n, dtype=np.float32))
        tape.watch(x)
        y = tf.sin(x) * 2.0
        small = tf.constant([1.0, 2.0]) * 3.0  # (small: its bytes at once)
    written = np.arange(n + 1.0)  # an array something can still write: its bytes now
    view = written[1:]
    view.setflags(write=False)  # (read-only, but its base is not)
    held = tf.constant(0.0, tf.float64)
    held._value = view
    table = Table(None)
    table.rows([*(r.outputs[0] for r in tape.records), held])
    table.flush()
    parts = table.batches[0].data
    assert any(p is y._value for p in parts)  # the engine's array itself, read-only
    assert all(p is not view and p is not small._value for p in parts)
    assert np.frombuffer(b"".join(parts[-2:-1]), np.float32).tolist() == [3.0, 6.0]
    written[1] = 99.0  # written after the batch: the document has the value as it was
    table.seal()
    w = wire.Writer()
    doc = table.doc(w, None)
    buf = io.BytesIO()
    wire.write(buf, {"table": doc}, w)
    data = wire.read(io.BytesIO(buf.getvalue())).blob(doc["data"])
    assert np.frombuffer(data, np.float64, n, len(data) - 8 * n).tolist() == list(range(1, n + 1))
    at = len(data) - 8 * n - 8 - 4 * n  # (float32 arrays, y then `small`, before float64 ones)
    got = np.frombuffer(data, np.float32, n, at)
    np.testing.assert_allclose(got, 2 * np.sin(np.arange(n, dtype=np.float32)), rtol=1e-6)
