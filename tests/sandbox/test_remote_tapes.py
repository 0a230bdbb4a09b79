"""A received result's tapes are one lazy sequence: no object per tape until a view reads it.

A 100,000-tape run made 200,000 objects (a TapeInfo and a RemoteTape per tape) that every
full garbage collection of the window walked (60 ms of the UI thread each time). The timeline's
index and the Tapes dock's rows now read the columns, and what they show is unchanged.
"""

from __future__ import annotations

import gc

import numpy as np
import pytest

from tapeviz.models.timeline.timeline import timelines_of
from tapeviz.sandbox import RunResult, run
from tapeviz.sandbox.process import results, results_decode, wire
from tapeviz.sandbox.process.remote_tapes import RemoteTapes

LOOP = """import tensorflow as tf
w = tf.Variable([1.0, -2.0], name="w")
b = tf.Variable(0.5, name="b")
for i in range({steps}):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w * w) + b * b
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(0.1 * dw)
    b.assign_sub(0.1 * db)
with tf.GradientTape(persistent=True) as last_tape:
    y = b * 3.0
g = last_tape.gradient(y, b)
"""


_received = results_decode.round_trip  # the run as the window gets it


@pytest.fixture(scope="module")
def pair() -> tuple[RunResult, RunResult]:
    """A run in-process and the same run as the window receives it."""
    local = run(LOOP.format(steps=60))
    assert local.error is None, local.error
    return local, _received(local)


def _made(tapes: RemoteTapes) -> int:
    return sum(info is not None for info in tapes._made)


def test_the_tapes_are_made_only_when_read(pair: tuple[RunResult, RunResult]) -> None:
    local, _ = pair
    tapes = _received(local).tapes
    assert isinstance(tapes, RemoteTapes) and len(tapes) == len(local.tapes) == 61
    assert _made(tapes) == 0
    info = tapes[5]
    assert _made(tapes) == 1 and tapes[5] is info and tapes[-56] is info  # made once, kept
    assert info.index == 5 and info.names == local.tapes[5].names == ("tape",)
    assert tapes[-1].tape.persistent and not tapes[0].tape.persistent
    with pytest.raises(IndexError):
        tapes[61]


def test_reading_from_the_columns_matches_the_tapes(pair: tuple[RunResult, RunResult]) -> None:
    local, received = pair
    tapes = received.tapes
    assert isinstance(tapes, RemoteTapes)
    for k in (0, 1, 30, 60):
        info = tapes[k]
        assert tapes.name(k) == info.name == local.tapes[k].name
        assert tapes.names(k) == info.names
        assert tapes.op_count(k) == len(info.tape) == len(local.tapes[k].tape.records)
        assert tuple(tapes.spans()[k]) == info.tape.span
        assert tapes.call_rows(k) == info.tape.call_rows
    assert tapes[2:5] == tuple(tapes[k] for k in (2, 3, 4))
    assert tapes == tuple(tapes) and tapes != tuple(tapes)[:-1]
    assert [i.name for i in tapes] == [i.name for i in local.tapes]


def test_the_timeline_reads_columns_not_tapes() -> None:
    """Finding a 300-step loop makes at most the tapes its first step shows."""
    received = _received(run(LOOP.format(steps=300)))
    tapes = received.tapes
    assert isinstance(tapes, RemoteTapes)
    (timeline,) = timelines_of(received)
    assert timeline.steps == 300
    assert _made(tapes) <= 2  # the first tape (the columns) and the step the timeline reads


def test_the_received_timeline_equals_the_in_process_one(
    pair: tuple[RunResult, RunResult],
) -> None:
    local, received = pair
    (mine,) = timelines_of(local)
    (theirs,) = timelines_of(received)
    assert (mine.steps, mine.loss_name) == (theirs.steps, theirs.loss_name) == (60, "loss")
    np.testing.assert_array_equal(mine.loss, theirs.loss)
    assert [p.label for p in mine.parameters] == [p.label for p in theirs.parameters]
    for j in range(len(mine.parameters)):
        np.testing.assert_array_equal(mine.values(j), theirs.values(j))


def test_a_big_run_leaves_no_per_tape_objects_for_the_collector() -> None:
    received = _received(run(LOOP.format(steps=3000)))
    gc.collect()
    before = len(gc.get_objects())
    tapes = received.tapes
    timelines_of(received)
    gc.collect()
    assert len(gc.get_objects()) - before < 500  # was 2 objects a tape (6,000 here)
    assert len(tapes) == 3001


def test_tensor_names_cross_the_wall_as_an_index(pair: tuple[RunResult, RunResult]) -> None:
    """Names go as distinct strings and two int columns, not a {row: name} JSON object."""
    local, received = pair
    writer = wire.Writer()
    table = results.encode(local, writer)["table"]
    assert "names" not in table and sorted(table["name_list"]) == ["b:0", "w:0"]
    names = received.tapes[0].tape.table.names
    assert sorted(set(names.values())) == ["b:0", "w:0"] and len(names) > 2


def test_a_received_tape_reads_like_a_recorded_one(pair: tuple[RunResult, RunResult]) -> None:
    """rows() and op_count(), which the engine's tapes answer from their columns, work too."""
    local, received = pair
    for k in (0, 30, -1):
        tape, here = received.tapes[k].tape, local.tapes[k].tape
        assert tape.op_count() == here.op_count() == len(here.records) > 0
        assert [r.name for r in tape.rows()] == [r.name for r in here.records]
