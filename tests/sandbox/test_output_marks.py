"""Printed output knows its step: each write notes how many tapes the run had created by then."""

from __future__ import annotations

import copy
import io
import json
import struct

import numpy as np
import pytest

from tapeviz.sandbox import run
from tapeviz.sandbox.process import results, results_decode, wire
from tapeviz.sandbox.process.isolated import run_isolated
from tapeviz.sandbox.process.wire import ProtocolError

LOOP = """import tensorflow as tf
x = tf.Variable(2.0)
print("before")
for step in range(5):
    with tf.GradientTape() as tape:
        y = x * x
    g = tape.gradient(y, x)
    if step % 2 == 0:
        tf.print("step", step, "dy/dx =", g)
    print("  after", step)
    x.assign_sub(0.1 * g)
print("done")
"""


def _line_tapes(result) -> list[tuple[str, int]]:  # type: ignore[no-untyped-def]
    out, offset = [], 0
    for line in result.output.splitlines(keepends=True):
        out.append((line.rstrip("\n"), result.tapes_at(offset)))
        offset += len(line)
    return out


def test_print_and_tf_print_both_note_the_tapes_created_so_far() -> None:
    result = run(LOOP)
    assert result.error is None
    assert _line_tapes(result) == [
        ("before", 0),
        ("step 0 dy/dx = 4", 1),
        ("  after 0", 1),
        ("  after 1", 2),
        ("step 2 dy/dx = 2.56", 3),
        ("  after 2", 3),
        ("  after 3", 4),
        ("step 4 dy/dx = 1.63839984", 5),  # float32, as TF prints it
        ("  after 4", 5),
        ("done", 5),
    ]
    offsets = [m[0] for m in result.output_marks]
    counts = [m[1] for m in result.output_marks]
    assert offsets == sorted(set(offsets)) and counts == sorted(counts)
    assert len(result.output_marks) == 6  # one mark per change of the tape count, not per write


def test_a_run_without_tapes_marks_its_output_at_zero() -> None:
    assert run("print(1)\nprint(2)").output_marks == ((0, 0),)
    assert run("x = 1").output_marks == ()


def test_marks_cross_the_process_wall_unchanged() -> None:
    here, there = run(LOOP), run_isolated(LOOP)
    assert there.error is None
    assert there.output_marks == here.output_marks
    assert _line_tapes(there) == _line_tapes(here)


def test_tapes_past_the_limit_still_count() -> None:
    from tapeviz.sandbox import Limits

    result = run(LOOP, limits=Limits(max_tapes=2))
    assert len(result.tapes) == 2 and result.dropped_tapes == 3
    assert result.output_marks[-1][1] == 5


def _doc_and_blobs() -> tuple[dict, list[bytes]]:
    w = wire.Writer()
    doc = results.encode(run(LOOP), w)
    buf = io.BytesIO()
    wire.write(buf, doc, w)
    frame = wire.read(io.BytesIO(buf.getvalue()))
    return frame.doc, list(frame.blobs)


def _decode(doc: dict, blobs: list[bytes]) -> object:
    body = json.dumps(doc).encode()
    parts = [struct.pack("<II", len(body), len(blobs)), body]
    for b in blobs:
        parts += [struct.pack("<Q", len(b)), b]
    return results_decode.decode(wire.read(io.BytesIO(b"".join(parts))))


def _set(doc: dict, blobs: list[bytes], column: str, index: int, value: int) -> None:
    a, _, *width = doc["output_marks"][column]["$i"]
    key, dtype = ("$ints32", np.int32) if width else ("$ints", np.int64)
    ints = np.frombuffer(blobs[doc[key]], dtype).copy()
    ints[a + index] = value
    blobs[doc[key]] = ints.tobytes()


@pytest.mark.parametrize(
    "edit",
    [
        lambda d, b: _set(d, b, "offsets", 0, -1),
        lambda d, b: _set(d, b, "offsets", 2, 10**6),
        lambda d, b: _set(d, b, "offsets", 1, 0),  # not rising
        lambda d, b: _set(d, b, "tapes", 1, 99),  # more tapes than the run had
        lambda d, b: _set(d, b, "tapes", 3, 0),  # counts fall
        lambda d, b: d["output_marks"]["tapes"].__setitem__("$i", [0, 1]),  # lengths differ
        lambda d, b: d.pop("output_marks"),
        lambda d, b: d.__setitem__("output_marks", [[0, 1]]),
        lambda d, b: d.__setitem__("dropped", -3),
    ],
    ids=[
        "negative",
        "past the end",
        "not rising",
        "too many",
        "falling",
        "lengths",
        "missing",
        "not columns",
        "dropped",
    ],
)
def test_hostile_marks_are_refused(edit) -> None:  # type: ignore[no-untyped-def]
    doc, blobs = _doc_and_blobs()
    doc = copy.deepcopy(doc)
    edit(doc, blobs)
    with pytest.raises(ProtocolError):
        _decode(doc, blobs)


def test_valid_marks_decode() -> None:
    doc, blobs = _doc_and_blobs()
    assert _decode(doc, blobs).output_marks == run(LOOP).output_marks  # type: ignore[attr-defined]
