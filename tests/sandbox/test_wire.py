"""What the window receives is validated: a malformed or hostile frame is a ProtocolError.

A compromised worker controls every byte it sends; decoding must never run code, never crash,
and never raise anything but ProtocolError (which the window shows as an error).
"""

from __future__ import annotations

import copy
import io
import json
import random
import struct

import numpy as np
import pytest

from tapeviz.sandbox import run
from tapeviz.sandbox.process import results, results_decode, wire
from tapeviz.sandbox.process.wire import ProtocolError

SOURCE = """import tensorflow as tf
x = tf.Variable([1.0, 2.0])
with tf.GradientTape(persistent=True) as tape:
    y = tf.reduce_sum(x[0:1] * x ** 2)
print(tape.gradient(y, x))
"""


def _frame_bytes(source: str = SOURCE) -> bytes:
    result = run(source)
    assert result.error is None
    w = wire.Writer()
    doc = results.encode(result, w)
    buf = io.BytesIO()
    wire.write(buf, doc, w)
    return buf.getvalue()


def _decode(data: bytes) -> object:
    return results_decode.decode(wire.read(io.BytesIO(data)))


def test_a_valid_frame_decodes() -> None:
    back = _decode(_frame_bytes())
    assert back.output.startswith("tf.Tensor([")  # type: ignore[attr-defined]
    assert back.tapes[0].tape.pretty() == run(SOURCE).tapes[0].tape.pretty()  # type: ignore[attr-defined]


def test_random_byte_flips_and_truncations_raise_only_protocol_errors() -> None:
    data = _frame_bytes()
    rng = random.Random(1234)
    for _ in range(600):
        mutated = bytearray(data)
        for _ in range(rng.randint(1, 6)):
            i = rng.randrange(len(mutated))
            mutated[i] = rng.randrange(256)
        if rng.random() < 0.3:
            mutated = mutated[: rng.randrange(len(mutated))]
        try:
            back = _decode(bytes(mutated))
        except ProtocolError:
            continue
        for info in back.tapes:  # type: ignore[attr-defined]
            info.tape.records  # noqa: B018  (materialising must hold too)


def _doc_and_blobs() -> tuple[dict, list[bytes]]:
    frame = wire.read(io.BytesIO(_frame_bytes()))
    return frame.doc, frame.blobs


def _encode(doc: dict, blobs: list[bytes]) -> bytes:
    body = json.dumps(doc).encode()
    parts = [struct.pack("<II", len(body), len(blobs)), body]
    for b in blobs:
        parts += [struct.pack("<Q", len(b)), b]
    return b"".join(parts)


def _hostile(edit) -> None:  # type: ignore[no-untyped-def]
    doc, blobs = _doc_and_blobs()
    doc = copy.deepcopy(doc)
    blobs = list(blobs)
    edit(doc, blobs)
    with pytest.raises(ProtocolError):
        back = _decode(_encode(doc, blobs))
        for info in back.tapes:  # type: ignore[attr-defined]
            info.tape.records  # noqa: B018


def _blob_of(doc: dict, *path: str) -> int:
    ref = doc
    for p in path:
        ref = ref[p]
    return ref["$a"][0]


def _set_ints(doc: dict, blobs: list[bytes], value: int, *path: str) -> None:
    ref = doc
    for p in path:
        ref = ref[p]
    a, b, *width = ref["$i"]
    key, dtype = ("$ints32", np.int32) if width else ("$ints", np.int64)
    ints = np.frombuffer(blobs[doc[key]], dtype).copy()
    ints[a:b] = np.clip(value, np.iinfo(dtype).min, np.iinfo(dtype).max)
    blobs[doc[key]] = ints.tobytes()


@pytest.mark.parametrize(
    "edit",
    [
        lambda d, b: d["records"]["prims"].__setitem__(0, "__import__"),
        lambda d, b: d["records"]["params"].append({"key": {"pickle": "cos\nsystem"}}),
        lambda d, b: d["table"]["dtypes"].__setitem__("$i", [0, 10**9]),
        lambda d, b: _set_ints(d, b, 10**12, "table", "dims"),
        lambda d, b: _set_ints(d, b, 10**6, "records", "in"),
        lambda d, b: _set_ints(d, b, 200, "table", "dtypes"),
        lambda d, b: _set_ints(d, b, -1, "table", "kinds"),
        lambda d, b: d["records"]["tape_name_sets"].__setitem__(0, [{"a": 1}]),
        lambda d, b: _set_ints(d, b, 5, "records", "tape_name"),
        lambda d, b: _set_ints(d, b, 99, "records", "call_tape"),
        lambda d, b: _set_ints(d, b, 10**6, "records", "call_results"),
        lambda d, b: _set_ints(d, b, 5, "records", "call_kind"),
        lambda d, b: _set_ints(d, b, 7, "records", "call_n_targets"),
        lambda d, b: _set_ints(d, b, -3, "records", "call_n_sources"),
        lambda d, b: d.__setitem__("error", {"message": 1}),
        lambda d, b: d.__setitem__("namespace", {"x": 10**9}),
        lambda d, b: d["table"].__setitem__("data", 10**6),
        lambda d, b: d["records"]["params"].__setitem__(0, {"k": {"s": ["a", 1, 2]}}),
        lambda d, b: d.update({"$ints": 10**6, "$ints32": 10**6}),
        lambda d, b: d["records"].__setitem__("call_seeds", [[99, [None]]]),
        lambda d, b: d["records"].__setitem__("call_seeds", [[0, [None, None]]]),
        lambda d, b: d["records"].__setitem__("call_seeds", [[0, [None]], [0, [None]]]),
        lambda d, b: d["records"].__setitem__("call_seeds", {"0": [None]}),
        lambda d, b: d["records"].__setitem__("call_seeds", [[0, [{"pickle": "x"}]]]),
    ],
    ids=[
        "primitive",
        "param tag",
        "int range",
        "shape",
        "input rows",
        "dtype codes",
        "kinds",
        "tape names",
        "tape name index",
        "call tape",
        "call result row",
        "call kind",
        "call targets",
        "call sources",
        "error type",
        "namespace row",
        "blob index",
        "slice",
        "ints blob",
        "seeds of a missing call",
        "seeds not one per target",
        "seeds twice",
        "seeds not a list",
        "seed not an array",
    ],
)
def test_hostile_documents_are_refused(edit) -> None:  # type: ignore[no-untyped-def]
    _hostile(edit)


def test_oversized_and_deep_frames_are_refused() -> None:
    with pytest.raises(ProtocolError):
        wire.read(io.BytesIO(struct.pack("<II", wire.MAX_JSON + 1, 0)))
    deep = ("[" * 100_000 + "]" * 100_000).encode()
    with pytest.raises(ProtocolError):
        wire.read(io.BytesIO(struct.pack("<II", len(deep), 0) + deep))
    with pytest.raises(ProtocolError):
        wire.read(io.BytesIO(struct.pack("<II", 2, 1) + b"{}" + struct.pack("<Q", 2**40)))


def _paths(doc: object, prefix: tuple = ()) -> list[tuple]:  # type: ignore[type-arg]
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:5]):
            out += _paths(v, (*prefix, i))
    return out


def test_structured_mutations_raise_only_protocol_errors() -> None:
    doc0, blobs = _doc_and_blobs()
    rng = random.Random(99)
    values = [
        None,
        True,
        -1,
        0,
        1,
        2**31,
        2**63,
        1e308,
        float("nan"),
        "",
        "x" * 300,
        [],
        [1],
        {},
        {"$a": [0, "int32", [3]]},
        {"$a": [999, "float32", []]},
        {"t": [1]},
    ]
    paths = [p for p in _paths(doc0) if p]
    for _ in range(2000):
        doc = copy.deepcopy(doc0)
        for _ in range(rng.randint(1, 3)):
            path = rng.choice(paths)
            ref = doc
            try:
                for p in path[:-1]:
                    ref = ref[p]
                ref[path[-1]] = copy.deepcopy(rng.choice(values))
            except (KeyError, IndexError, TypeError):
                continue
        try:
            back = _decode(_encode(doc, blobs))
            for info in back.tapes:  # type: ignore[attr-defined]
                info.tape.records  # noqa: B018
                info.tape.gradient_calls  # noqa: B018
                info.tape.pretty()
        except ProtocolError:
            pass


def test_overlapping_decodes_keep_collection_off_until_the_last_leaves() -> None:
    """Two threads (de)coding at once: the first to finish does not turn collection back on."""
    import gc

    was = gc.isenabled()
    gc.enable()
    try:
        first, second = results.no_collection(), results.no_collection()
        first.__enter__()
        second.__enter__()
        first.__exit__(None, None, None)
        assert not gc.isenabled()  # the second is still inside
        second.__exit__(None, None, None)
        assert gc.isenabled()  # as the first found it
        gc.disable()
        with results.no_collection():
            pass
        assert not gc.isenabled()  # off before: off after
    finally:
        gc.enable() if was else gc.disable()


def _through_inbox(data: bytes) -> wire.Frame | None:
    import os

    r, w = os.pipe()
    try:
        os.write(w, data)  # (small frames: the pipe holds them)
        os.close(w)
        w = -1
        return wire.Inbox(r).recv(0.5)
    finally:
        os.close(r)
        if w >= 0:
            os.close(w)


def test_the_inbox_reads_a_frame_in_place_without_copying_its_blobs() -> None:
    data = _frame_bytes()
    frame = _through_inbox(data)
    assert frame is not None
    owners = {id(b.obj) for b in frame.blobs if isinstance(b, memoryview)}
    assert len(owners) == 1 and len(frame.blobs) >= 2  # views of the one received buffer
    assert all(b.readonly for b in frame.blobs)
    back = results_decode.decode(frame)
    assert back.tapes[0].tape.pretty() == _decode(data).tapes[0].tape.pretty()  # type: ignore[attr-defined]
    arrays = [frame.array({"$a": [i, "uint8", [len(b)]]}) for i, b in enumerate(frame.blobs)]
    assert not any(a.flags.writeable for a in arrays)


def test_byte_flips_through_the_inbox_raise_only_protocol_errors() -> None:
    data = _frame_bytes()
    rng = random.Random(99)
    for _ in range(200):
        mutated = bytearray(data)
        for _ in range(rng.randint(1, 6)):
            mutated[rng.randrange(len(mutated))] = rng.randrange(256)
        try:
            frame = _through_inbox(bytes(mutated))
            if frame is not None:
                results_decode.decode(frame)
        except ProtocolError:
            pass


@pytest.mark.parametrize(
    "values",
    [
        [],
        [0, 1, 2**31 - 1, -(2**31)],  # the int32 pack's bounds
        [2**31],  # just over: the int64 pack
        [-(2**31) - 1],
        np.arange(300, dtype=np.int64) * 10**7,  # a long column over int32
        np.arange(300, dtype=np.int64),
        np.array([[1, 2], [3, 4]]),  # (2-d: packed flat)
        [True, False, True],
        np.array([5, 6, 7], dtype=np.int32),
    ],
)
def test_packed_integers_come_back_equal_in_the_narrowest_pack_that_holds_them(values) -> None:  # type: ignore[no-untyped-def]
    w = wire.Writer()
    doc = {"col": w.ints(values), "other": w.ints([10**12, 1])}  # both packs in one frame
    buf = io.BytesIO()
    wire.write(buf, doc, w)
    frame = wire.read(io.BytesIO(buf.getvalue()))
    got = frame.ints(frame.doc["col"])
    want = np.asarray(values, np.int64).reshape(-1)
    np.testing.assert_array_equal(got, want)
    fits = not len(want) or (want.min() >= -(2**31) and want.max() < 2**31)
    assert got.dtype == (np.int32 if fits else np.int64)
    assert frame.ints(frame.doc["other"]).tolist() == [10**12, 1]


def _holds_buffer(arr: np.ndarray | bytes, buffer: object) -> bool:
    """Whether ``arr`` is (a view of) a view of ``buffer``."""
    base = arr
    while base is not None:
        if isinstance(base, memoryview):
            return base.obj is buffer
        base = getattr(base, "base", None)
    return False


def test_small_parts_of_a_received_buffer_are_copied_big_ones_stay_views() -> None:
    writer = wire.Writer()
    big = np.arange(20_000, dtype=np.float32)  # most of the frame (80 KB): kept as a view
    doc = {"big": writer.array(big), "small": writer.array(np.arange(10, dtype=np.float32)),
           "ints": writer.ints(list(range(1000))), "raw": writer.blob(b"abc")}  # fmt: skip
    buf = io.BytesIO()
    wire.write(buf, doc, writer)
    frame = wire._parse(bytearray(buf.getvalue()))  # (what the inbox does with a whole frame)
    assert sum(len(b) for b in frame.blobs) >= wire.SMALL_SHARED
    buffer = frame.blobs[0].obj
    got_big, got_small = frame.array(frame.doc["big"]), frame.array(frame.doc["small"])
    ints, raw = frame.ints(frame.doc["ints"]), frame.blob(frame.doc["raw"])
    assert _holds_buffer(got_big, buffer) and np.array_equal(got_big, big)
    assert not _holds_buffer(got_small, buffer) and got_small.tolist() == list(range(10))
    assert not _holds_buffer(ints, buffer) and ints.tolist() == list(range(1000))
    assert type(raw) is bytes and raw == b"abc"
    assert not any(a.flags.writeable for a in (got_big, got_small, ints))


def test_a_big_text_with_small_blobs_is_not_kept_alive_by_them() -> None:
    """The frame's size counts its JSON too: a 2 MB printed text with a few columns."""
    writer = wire.Writer()
    doc = {"output": "€" * 1_000_000, "i": writer.ints([3, 1, 2]),
           "a": writer.array(np.arange(10, dtype=np.float32))}  # fmt: skip
    buf = io.BytesIO()
    wire.write(buf, doc, writer)
    frame = wire._parse(bytearray(buf.getvalue()))
    assert sum(len(b) for b in frame.blobs) < wire.SMALL_SHARED
    buffer = frame.blobs[0].obj
    kept = [frame.ints(frame.doc["i"]), frame.array(frame.doc["a"])]
    kept.append(frame.part(frame.doc).ints(frame.doc["i"]))  # (a part: the same frame's size)
    assert not any(_holds_buffer(a, buffer) for a in kept)
    assert kept[0].tolist() == [3, 1, 2] and not kept[0].flags.writeable


def test_a_small_received_frame_is_read_in_place() -> None:
    """Under SMALL_SHARED bytes, copying each column would cost more than keeping the frame."""
    writer = wire.Writer()
    doc = {"a": writer.array(np.arange(10, dtype=np.float32)), "i": writer.ints([3, 1, 2]),
           "j": writer.ints(np.array([2**40, -1])), "raw": writer.blob(b"abc")}  # fmt: skip
    buf = io.BytesIO()
    wire.write(buf, doc, writer)
    frame = _through_inbox(buf.getvalue())
    assert frame is not None and sum(len(b) for b in frame.blobs) < wire.SMALL_SHARED
    got, i, j = frame.array(frame.doc["a"]), frame.ints(frame.doc["i"]), frame.ints(frame.doc["j"])
    assert got.tolist() == list(range(10)) and i.tolist() == [3, 1, 2]
    assert j.tolist() == [2**40, -1] and j.dtype == np.int64 and i.dtype == np.int32
    assert all(_holds_buffer(a, frame.blobs[0].obj) for a in (got, i, j))
    assert not any(a.flags.writeable for a in (got, i, j))
    assert frame.blob(frame.doc["raw"]) == b"abc"


LOOP_SCRIPT = """x = tf.Variable(1.0)
for i in range(300):
    with tf.GradientTape() as t:
        y = x * x
    x.assign_sub(0.01 * t.gradient(y, x))
"""


def test_a_decoded_loop_keeps_no_view_of_the_answer_it_came_in() -> None:
    data = _frame_bytes(LOOP_SCRIPT.replace("300", "3000"))
    frame = wire._parse(bytearray(data))  # (what the inbox does with a whole frame)
    assert sum(len(b) for b in frame.blobs) >= wire.SMALL_SHARED
    buffer = frame.blobs[0].obj
    tapes = results_decode.decode(frame).tapes
    table = tapes.table  # type: ignore[attr-defined]
    kept = [table.ids, table.codes, table.kinds, table.offsets, table.data,
            *tapes._recs["cols"].values()]  # type: ignore[attr-defined]  # fmt: skip
    assert not any(_holds_buffer(a, buffer) for a in kept)
    again = _decode(data).tapes  # type: ignore[attr-defined]
    assert [t.tape.pretty() for t in tapes] == [t.tape.pretty() for t in again]


def test_notes_cross_as_messages_and_a_forged_one_is_only_text() -> None:
    """A worded note comes back as its message (the window translates it); an unknown code,
    wrong fields or a non-string are plain text or nothing, never an error."""
    source = SOURCE.replace("persistent=True", "watch_accessed_variables=False")
    back = _decode(_frame_bytes(source))
    (note,) = back.notes  # type: ignore[attr-defined]
    assert note.msg is not None and note.msg.code == "note_unwatched"
    assert note == note.msg.text and "watch_accessed_variables=False" in note
    doc, blobs = _doc_and_blobs()
    doc["notes"] = [
        {"text": "forged", "code": "note_unwatched", "fields": [["line", "1"]]},  # fields missing
        {"text": "kept as text", "code": "no_such_code", "fields": []},
        {"code": "note_caret", "fields": [], "text": 5},
        ["not", "a", "note"],
        "plain",
    ]
    notes = _decode(_encode(doc, blobs)).notes  # type: ignore[attr-defined]
    caret = "^ was read as ** (power); in Python code write x**2"  # its template, not "text"
    assert [str(n) for n in notes] == ["forged", "kept as text", caret, "", "plain"]
    assert [n.msg is not None for n in notes] == [False, False, True, False, False]


def test_a_column_total_is_exact_where_an_int64_sum_would_wrap() -> None:
    """Counts a hostile worker chose so their int64 sum wraps round to a small length."""
    wraps = np.array([2**62] * 4 + [5] + [0] * 59, np.int64)  # int64 sum: 5
    assert int(wraps.sum()) == 5 and wire.total(wraps) == 2**64 + 5
    assert wire.total(np.arange(100, dtype=np.int32)) == 4950
    assert wire.total(np.array([3, -1], np.int64)) == 2
