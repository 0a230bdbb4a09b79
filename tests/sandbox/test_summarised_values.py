"""Big values cross the process wall summarised; the full value comes when the window asks.

Issue 31 item 7 / issue 32 (Memory): a tape of 8 x 20 MB tensors grew the window by 343 MB.
Now every value above ``summaries.SUMMARY_BYTES`` crosses as a summary (shape, dtype, min, max,
mean, nan/inf counts, a thumbnail) plus a handle; the worker keeps the last run's values, the
window fetches one on request, and a newer run (or a restart) makes it "no longer available".
"""

from __future__ import annotations

import io
import os

import numpy as np
import pytest

from tapeviz.engine.tensor import TensorLike
from tapeviz.models import values
from tapeviz.models.graph.model import GraphModel
from tapeviz.models.timeline.timeline import timelines_of
from tapeviz.sandbox import run
from tapeviz.sandbox.process import kept, results, results_decode, summaries, wire
from tapeviz.sandbox.process.client import Pool
from tapeviz.sandbox.process.isolated import run_isolated
from tapeviz.sandbox.process.summaries import NotFetched, Summarised, ValueGone
from tapeviz.sandbox.process.summarised_table import SummarisedTable, fetch

# 8 tensors of 2500 x 2000 float32 (20 MB each) on one tape, with known values.
BIG = """import tensorflow as tf
x = tf.Variable(tf.reshape(tf.range(5_000_000, dtype=tf.float32), (2500, 2000)) / 5e6)
with tf.GradientTape() as t:
    a = x * 2.0
    b = a + 1.0
    c = b * a
    d = c - x
    e = d * 0.5
    f = e + c
    g = f * f
    loss = tf.reduce_sum(g)
grad = t.gradient(loss, x)
"""
SMALL = """import tensorflow as tf
w = tf.Variable(tf.reshape(tf.range(3000, dtype=tf.float32), (60, 50)) / 3000.0)
b = tf.Variable(0.5)
for i in range(6):
    with tf.GradientTape() as t:
        y = w * w
        loss = tf.reduce_sum(y) + b * b
    gw, gb = t.gradient(loss, [w, b])
    w.assign_sub(0.1 * gw)
    b.assign_sub(0.1 * gb)
"""


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.fixture
def received(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The bytes of every frame the window reads from a worker (blobs and JSON)."""
    sizes: list[int] = []
    real = wire.Inbox.recv

    def spy(self: wire.Inbox, timeout: float) -> wire.Frame | None:
        frame = real(self, timeout)
        if frame is not None:
            sizes.append(sum(len(b) for b in frame.blobs))
        return frame

    monkeypatch.setattr(wire.Inbox, "recv", spy)
    return sizes


def _loopback(result: object, policy: kept.Policy | None) -> object:
    w = wire.Writer()
    doc = results.encode(result, w, policy)  # type: ignore[arg-type]
    buf = io.BytesIO()
    wire.write(buf, doc, w)
    return results_decode.decode(wire.read(io.BytesIO(buf.getvalue())))


# -- the summary itself --------------------------------------------------------------------
def test_a_summary_holds_numpys_statistics_and_a_small_thumbnail() -> None:
    arr = np.linspace(-3, 5, 600_000, dtype=np.float32).reshape(600, 1000)
    arr[3, 4], arr[5, 6], arr[7, 8] = np.nan, np.inf, -np.inf
    stats, head, thumb = summaries.summarise(arr)
    s = Summarised(arr.shape, arr.dtype, stats, head, thumb)
    finite = arr[np.isfinite(arr)].astype(np.float64)
    assert (s.minimum, s.maximum) == (-np.inf, np.inf)
    assert (s.nans, s.posinf, s.neginf) == (1, 1, 1) and s.kinds == "nan, inf, -inf"
    clean = arr.copy()
    clean[~np.isfinite(clean)] = 0
    stats, _, _ = summaries.summarise(clean)
    c = Summarised(arr.shape, arr.dtype, stats, head, thumb)
    assert c.minimum == float(clean.min()) and c.maximum == float(clean.max())
    assert c.mean == pytest.approx(float(clean.astype(np.float64).mean()), rel=1e-9)
    assert c.squares == pytest.approx(float((clean.astype(np.float64) ** 2).sum()), rel=1e-9)
    assert thumb.shape[0] <= summaries.THUMB and thumb.shape[1] <= summaries.THUMB
    np.testing.assert_array_equal(thumb[0, :3], arr[0, [0, 16, 32]])  # strided (1000/64 → 16)
    np.testing.assert_array_equal(head, arr.reshape(-1)[: summaries.HEAD])
    assert finite.size == arr.size - 3
    assert c.text() == "shape (600, 1000) float32, min -3 max 5 mean 1"


def test_a_summarised_value_reads_everywhere_but_refuses_maths() -> None:
    arr = np.arange(20, dtype=np.float32).reshape(4, 5)
    s = Summarised(arr.shape, arr.dtype, summaries.summarise(arr)[0], arr.reshape(-1)[:16],
                   arr)  # fmt: skip
    assert (s.shape, s.dtype, s.ndim, s.size, s.nbytes, len(s)) == ((4, 5), arr.dtype, 2, 20,
                                                                    80, 4)  # fmt: skip
    assert np.shape(s) == (4, 5) and np.ndim(s) == 2 and np.size(s) == 20
    assert values.short(s) == "(4, 5) [0, 1, 2, …]"
    assert values.full(s) == "shape (4, 5) float32, min 0 max 19 mean 9.5"
    assert not values.nonfinite(s) and values.summarised(s) is s
    for maths in (lambda: np.asarray(s), lambda: s + 1, lambda: 2 * s, lambda: s[0],
                  lambda: np.exp(s), lambda: s.reshape(-1), lambda: s == 0, lambda: s.T,
                  lambda: float(s), lambda: arr @ s):  # fmt: skip
        with pytest.raises(NotFetched, match="summarised"):
            maths()
    s.full = arr  # fetched: it computes as the array
    np.testing.assert_array_equal(s + 1, arr + 1)
    np.testing.assert_array_equal(np.exp(s), np.exp(arr))
    assert s.reshape(-1)[7] == 7 and values.summarised(s) is None
    assert values.full(s).startswith("[[ 0.  1.")


# -- encoded and decoded in this process ---------------------------------------------------
def test_the_table_answers_from_the_summaries_as_from_the_values() -> None:
    result = run(SMALL)
    whole = _loopback(result, None)
    parts = _loopback(result, kept.Policy(4096, kept.Kept(), "t"))
    table, reference = parts.tapes.table, whole.tapes.table  # type: ignore[attr-defined]
    assert isinstance(table, SummarisedTable) and len(table.summaries) >= 12
    assert len(table.data) < len(reference.data) - 12 * 12_000
    rows = np.arange(table.count)
    np.testing.assert_array_equal(table.sizes(rows), reference.sizes(rows))
    np.testing.assert_allclose(table.sums(rows), reference.sums(rows), rtol=1e-9)
    np.testing.assert_allclose(table.norms(rows), reference.norms(rows), rtol=1e-9)
    for index in (0, 15, 16):
        want = reference.elements(rows, index)
        got = table.elements(rows, index)
        small = ~table.is_big
        np.testing.assert_array_equal(got[small], want[small])
        if index < summaries.HEAD:
            np.testing.assert_array_equal(got, want)
        else:
            assert np.isnan(got[table.is_big]).all()  # not among the first: unknown
    tl, ref = timelines_of(parts)[0], timelines_of(whole)[0]
    assert [p.shape for p in tl.parameters] == [(60, 50), ()]
    np.testing.assert_allclose(tl.values(0), ref.values(0), rtol=1e-9)
    np.testing.assert_allclose(tl.grad_norm, ref.grad_norm, rtol=1e-9)


def test_over_the_keep_limit_the_last_tapes_values_are_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(kept, "KEEP_BYTES", 3 * 12_000)  # three of the 60 x 50 float32 values
    store = kept.Kept()
    store.start()
    decoded = _loopback(run(SMALL), kept.Policy(4096, store, store.token))
    last = decoded.tapes[-1].tape.records  # type: ignore[attr-defined]
    first = decoded.tapes[0].tape.records  # type: ignore[attr-defined]
    big = [r.outputs[0] for r in (*first, *last) if r.outputs[0].size > 1]
    assert big and all(values.summarised(t) is not None for t in big)
    assert last[0].outputs[0]._value.vid >= 0  # the last tape's y = w * w: kept
    assert first[0].outputs[0]._value.vid == -1  # the first tape's: summarised, not kept
    assert store.bytes <= kept.KEEP_BYTES
    with pytest.raises(ValueGone, match="run again"):
        fetch(first[0].outputs[0]._value)


# -- through a worker ----------------------------------------------------------------------
def test_a_tape_of_8_big_tensors_crosses_small_and_each_comes_whole_on_request(
    pool: Pool, received: list[int]
) -> None:
    run_isolated("1 + 1", pool=pool)
    received.clear()
    before = _rss()
    result = run_isolated(BIG, pool=pool)
    grown = _rss() - before
    assert result.error is None, result.error
    assert sum(received) < 1_000_000  # was 200 MB: every 20 MB value summarised
    assert grown < 40 * 2**20, f"the window grew by {grown / 2**20:.0f} MB"
    records = result.tapes[0].tape.records
    assert len(records) == 8
    x = np.arange(5_000_000, dtype=np.float32).reshape(2500, 2000) / np.float32(5e6)
    a = records[0].outputs[0]
    s = values.summarised(a)
    assert s is not None and s.shape == (2500, 2000) and s.dtype == np.float32
    assert values.full(a) == "shape (2500, 2000) float32, min 0 max 2 mean 1"
    assert str(a).startswith("tf.Tensor(<summarised value: shape (2500, 2000) float32")
    with pytest.raises(NotFetched):
        np.asarray(a)
    got = fetch(s)
    np.testing.assert_array_equal(got, x * np.float32(2.0))
    assert a._value is got and values.summarised(a) is None  # the tensor holds it from now on
    grad = values.summarised(result.namespace["grad"])
    assert grad is not None
    x64 = x.astype(np.float64)
    f = 6 * x64**2 + 2.5 * x64  # f = 1.5 c - 0.5 x, c = (2x + 1) 2x
    assert grad.mean == pytest.approx(float(np.mean(2 * f * (12 * x64 + 2.5))), rel=1e-4)
    b = values.summarised(records[1].outputs[0])
    run_isolated("1 + 1", pool=pool)  # the next run: the big values are dropped
    with pytest.raises(ValueGone, match="no longer available: run again"):
        fetch(b)  # type: ignore[arg-type]
    assert values.summarised(records[1].outputs[0]) is b  # the summary stays


def test_a_lowered_threshold_the_stepper_and_gradients_after_fetching(
    pool: Pool, monkeypatch: pytest.MonkeyPatch, received: list[int]
) -> None:
    monkeypatch.setattr(summaries, "SUMMARY_BYTES", 4096)  # 60 x 50 float32: 12,000 bytes
    received.clear()
    result = run_isolated(SMALL, pool=pool)
    local = run(SMALL)
    assert result.error is None and sum(received) < 100_000
    names = {v.id: k for k, v in result.namespace.items()}
    model = GraphModel(result.tapes, names)
    assert model.gradients == {}  # the backward pass needs w's numbers: not drawn
    from tapeviz.ui.stepper.panel import build_steppers

    with pytest.raises(NotFetched):
        build_steppers(model)
    tape = result.tapes[-1].tape
    for rec in tape.records:
        for t in (*rec.inputs, *rec.outputs):
            if values.summarised(t) is not None:
                fetch(t._value)
    model.select(model.current)
    steppers = build_steppers(model)
    assert steppers is not None
    reference = GraphModel(local.tapes, {v.id: k for k, v in local.namespace.items()
                                         if isinstance(v, TensorLike)})  # fmt: skip
    assert model.gradients.keys() == reference.gradients.keys()
    for nid, g in reference.gradients.items():
        np.testing.assert_allclose(values.as_array(model.gradients[nid]), values.as_array(g))


def test_a_restarted_worker_has_no_values(pool: Pool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(summaries, "SUMMARY_BYTES", 4096)
    result = run_isolated(SMALL, pool=pool)
    s = values.summarised(result.tapes[0].tape.records[0].outputs[0])
    assert s is not None and s.fetchable
    for w in list(pool._idle):  # every worker ends (a crash, a restart)
        w.kill()
    with pytest.raises(ValueGone, match="run again"):
        fetch(s)


def test_a_snapshot_keeps_nothing_alive(pool: Pool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(summaries, "SUMMARY_BYTES", 4096)
    seen: list[object] = []
    source = SMALL.replace("range(6)", "range(1500)")
    result = run_isolated(source, pool=pool, on_snapshot=seen.append)
    assert result.error is None and seen
    for snap in seen:
        table = snap.tapes.table  # type: ignore[attr-defined]
        assert all(s.vid == summaries.SNAPSHOT for s in getattr(table, "summaries", {}).values())
    final = result.tapes.table  # type: ignore[attr-defined]
    assert any(s.vid >= 0 for s in final.summaries.values())
