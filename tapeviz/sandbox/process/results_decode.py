"""A run's result back as objects the models can read: the window side of ``results``.

:func:`decode` checks every index, dtype, shape and primitive name of what
:func:`tapeviz.sandbox.process.results.encode` wrote in the worker, and rebuilds engine
``Tensor``, ``Variable`` and ``OpRecord`` objects lazily, a tape at a time
(:class:`~tapeviz.sandbox.process.remote.RemoteTape`).
"""

from __future__ import annotations

import io
import math
import sys
from typing import Any

import numpy as np

from tapeviz.engine.primitives import PRIMITIVES
from tapeviz.sandbox.errors import UserCodeError
from tapeviz.sandbox.messages import Note, checked, say
from tapeviz.sandbox.process import fit_columns, grad_notes, plots, results
from tapeviz.sandbox.process import params as P
from tapeviz.sandbox.process.remote import CALL_PARTS, CallColumns, TensorTable
from tapeviz.sandbox.process.remote_tapes import RemoteTapes
from tapeviz.sandbox.process.results import DTYPE_CODES, MAX_TEXT, no_collection
from tapeviz.sandbox.process.row_names import RowNames, compact
from tapeviz.sandbox.process.summarised_table import SummarisedTable, read_big
from tapeviz.sandbox.process.wire import (
    MAX_RANK,
    Frame,
    ProtocolError,
    Writer,
    items,
    need,
    read,
    rising,
    span,
    text,
    total,
    write,
)  # fmt: skip
from tapeviz.sandbox.result import RunResult

_ITEMSIZE = np.array([np.dtype(name).itemsize for name in DTYPE_CODES], np.int64)


def _within(column: np.ndarray, lo: int, stop: int) -> bool:
    """Whether every value of a non-empty integer column is in ``range(lo, stop)``."""
    low, high = span(column)
    return low >= lo and high < stop


def decode_note(item: Any) -> Note:
    """A note received: its text, said in the window's language if it is a known message."""
    if isinstance(item, str):
        return Note(item[:5000])
    if not isinstance(item, dict):
        return Note("")
    message = checked(item.get("code"), item.get("fields"))
    if message is not None:
        return Note(message)
    words = item.get("text")
    return Note(words[:5000] if isinstance(words, str) else "")


def _error(doc: Any) -> UserCodeError | None:
    if doc is None:
        return None
    line, col = need(doc, "line", (int, type(None))), need(doc, "col", (int, type(None)))
    # tapeviz's wording: used only if it is a known code with exactly its fields
    message = checked(doc.get("code"), doc.get("fields"))
    hint = checked(doc.get("hint_code"), doc.get("hint_fields"))
    return UserCodeError(
        text(doc, "message", 20_000),
        line,
        col,
        text(doc, "hint", 20_000, None),
        text(doc, "kind", 40),
        text(doc, "limit", 40, None),
        *((message.code, message.fields) if message else (None, ())),
        *((hint.code, hint.fields) if hint else (None, ())),
    )


def _table(doc: Any, frame: Frame, pool: Any = None) -> TensorTable:
    ids = frame.ints(need(doc, "ids", dict))
    n = len(ids)
    codes = frame.ints(need(doc, "dtypes", dict))
    kinds = frame.ints(need(doc, "kinds", dict))
    ndims = frame.ints(need(doc, "ndims", dict))
    dims = frame.ints(need(doc, "dims", dict))
    data = frame.blob(need(doc, "data", int))
    if not (len(codes) == len(kinds) == len(ndims) == n):
        raise ProtocolError("the tensor table's columns differ in length")
    if n:
        (c_lo, c_hi), (k_lo, k_hi), (r_lo, r_hi) = span(codes), span(kinds), span(ndims)
        if r_hi > MAX_RANK:
            raise ProtocolError(
                f"a tensor of {r_hi} dimensions (the window shows at most {MAX_RANK})"
            )
        if c_hi >= len(DTYPE_CODES) or k_hi > 2 or min(c_lo, k_lo, r_lo) < 0:
            raise ProtocolError("bad dtype, kind or rank in the tensor table")
    if total(ndims) != len(dims) or (len(dims) and span(dims)[0] < 0):
        raise ProtocolError("bad shapes in the tensor table")
    itemsize = _ITEMSIZE[codes]
    # Element counts per row: products of each row's dims (empty product 1 for scalars).
    counts = np.ones(n, np.float64)
    if len(dims):
        owner = np.repeat(np.arange(n), ndims.astype(np.int64))
        np.multiply.at(counts, owner, dims.astype(np.float64))
    nbytes = counts * itemsize
    big = read_big(need(doc, "big", dict, None), frame, codes, counts, pool)
    nbytes[list(big)] = 0  # summarised: no bytes (see kept.py)
    if n and nbytes.sum() != len(data):
        raise ProtocolError("the tensor table's values do not match its shapes")
    rows = frame.ints(need(doc, "name_rows", dict))
    index = frame.ints(need(doc, "name_index", dict))
    texts = need(doc, "name_list", list)
    if len(rows) != len(index) or len(rows) > n or len(texts) > len(rows):
        raise ProtocolError("the tensor names' columns do not match")
    if len(rows) and (span(rows)[0] < 0 or span(rows)[1] >= n or span(index)[0] < 0
                      or span(index)[1] >= len(texts)):  # fmt: skip
        raise ProtocolError("a bad tensor name")
    if not all(isinstance(v, str) and len(v) <= 1000 for v in texts):
        raise ProtocolError("a bad tensor name")
    clean = RowNames(rows, index, [sys.intern(v) for v in texts])
    offsets = np.zeros(n + 1, np.int64)
    np.cumsum(nbytes.astype(np.int64), out=offsets[1:])
    dim_offsets = np.zeros(n + 1, np.int64)
    np.cumsum(ndims.astype(np.int64), out=dim_offsets[1:])
    parts = (ids, codes, kinds, dims, compact(dim_offsets), compact(offsets), data, clean)
    return SummarisedTable(*parts, big=big) if big else TensorTable(*parts)


def _records(doc: Any, frame: Frame, n_rows: int) -> dict[str, Any]:
    prims = items(doc, "prims", lambda p: p if isinstance(p, str) else None, 10_000)
    if any(p not in PRIMITIVES for p in prims):
        raise ProtocolError("a record names an unknown primitive")
    param_docs = need(doc, "params", list)
    params = [P.decode_params(p, frame) for p in param_docs]
    cols = {
        k: frame.ints(need(doc, k, dict))
        for k in ("id", "prim", "watched", "param", "nin", "nout", "in", "out")
    }
    m = len(cols["id"])
    if any(len(cols[k]) != m for k in ("prim", "watched", "param", "nin", "nout")):
        raise ProtocolError("the record columns differ in length")
    if m and not _within(cols["prim"], 0, len(prims)):
        raise ProtocolError("a record's primitive is out of range")
    if m and not _within(cols["param"], 0, len(params)):
        raise ProtocolError("a record's params are out of range")
    for k, n in (("in", "nin"), ("out", "nout")):
        if (m and span(cols[n])[0] < 0) or total(cols[n]) != len(cols[k]):
            raise ProtocolError("the record inputs or outputs do not add up")
        if len(cols[k]) and not _within(cols[k], 0, n_rows):
            raise ProtocolError("a record refers to a missing tensor")
    if m and span(cols["nout"])[0] < 1:
        raise ProtocolError("a record without an output")
    labels = None
    if "label_names" in doc:  # a framework's own op names (torch's grad_fn names)
        label_names = items(doc, "label_names", lambda s: s if isinstance(s, str) else None,
                            10_000)  # fmt: skip
        column = frame.ints(need(doc, "label", dict))
        if len(column) != m or (m and not _within(column, -1, len(label_names))):
            raise ProtocolError("the record labels are out of range")
        labels = (label_names, column)
    scopes = None
    if "scope_names" in doc:  # each record's name scope (a graph folded by layer)
        scope_names = items(doc, "scope_names", lambda s: s if isinstance(s, str) else None,
                            100_000)  # fmt: skip
        column = frame.ints(need(doc, "scope", dict))
        if len(column) != m or (m and not _within(column, -1, len(scope_names))):
            raise ProtocolError("the record scopes are out of range")
        parts = [tuple(p for p in name.split("/") if p) for name in scope_names]
        scopes = (parts, column)
    in_off = np.zeros(m + 1, np.int64)
    np.cumsum(cols["nin"], out=in_off[1:])
    out_off = np.zeros(m + 1, np.int64)
    np.cumsum(cols["nout"], out=out_off[1:])
    return {
        "prims": [PRIMITIVES[p] for p in prims],
        "params": params,
        "cols": cols,
        "in_off": compact(in_off),
        "out_off": compact(out_off),
        "count": m,
        "labels": labels,
        "scopes": scopes,
    }


def _tapes(doc: Any, frame: Frame, table: TensorTable, recs: dict[str, Any]) -> RemoteTapes:
    n = table.count
    start = frame.ints(need(doc, "tape_start", dict))
    flags = frame.ints(need(doc, "tape_flags", dict))
    index = frame.ints(need(doc, "tape_index", dict))
    watched = frame.ints(need(doc, "tape_watched", dict))
    n_watched = frame.ints(need(doc, "tape_n_watched", dict))
    names = frame.ints(need(doc, "tape_name", dict))  # an index into tape_name_sets
    count = len(flags)
    if not (len(start) == count + 1 and len(index) == len(n_watched) == len(names) == count):
        raise ProtocolError("the tape columns differ in length")
    if count and (start[0] != 0 or start[-1] != recs["count"] or not rising(start)):
        raise ProtocolError("the tapes' records are out of range")
    if (count and span(n_watched)[0] < 0) or total(n_watched) != len(watched):
        raise ProtocolError("the tapes' watched tensors do not add up")
    if len(watched) and not _within(watched, 0, n):
        raise ProtocolError("a tape watches a missing tensor")
    calls = _calls(doc, frame, n, count)
    recs["calls"] = calls
    # Per tape, as arrays (a list of 100,000 Python ints costs the window ~3.6 MB each)
    recs["first_call"] = compact(np.searchsorted(calls.tape, np.arange(count + 1), side="left"))
    recs["bounds"] = compact(start.astype(np.int64))
    for note in grad_notes.NOTES:  # torch's .grad before a pass, its gradient hooks' results
        recs[note] = grad_notes.decode(doc, frame, count, note)
    name_sets = [_names(v) for v in need(doc, "tape_name_sets", list)]
    w_off = np.zeros(count + 1, np.int64)
    np.cumsum(n_watched, out=w_off[1:])
    w_off = compact(w_off)
    if count and not _within(names, 0, len(name_sets)):
        raise ProtocolError("bad tape names")
    return RemoteTapes(table, recs, flags, index, names, name_sets, watched, w_off,
                       fits=fit_columns.decode(doc, frame, count),
                       variable_names=fit_columns.decode_names(doc, frame))  # fmt: skip


def _calls(doc: Any, frame: Frame, n_rows: int, n_tapes: int) -> CallColumns:
    """The gradient() calls' columns, checked: in tape order, each part within its column."""
    tape = frame.ints(need(doc, "call_tape", dict))
    kind = frame.ints(need(doc, "call_kind", dict))
    kinds = need(doc, "call_kinds", list)
    sizes = [frame.ints(need(doc, f"call_n_{part}", dict)) for part in CALL_PARTS]
    flat = [frame.ints(need(doc, f"call_{part}", dict)) for part in CALL_PARTS]
    m = len(tape)
    if not (len(kind) == m and all(len(c) == m for c in sizes)):
        raise ProtocolError("the gradient calls' columns differ in length")
    if m and (not _within(tape, 0, n_tapes) or not rising(tape)):
        raise ProtocolError("a gradient call of a missing tape")
    if m and not _within(kind, 0, len(kinds)):
        raise ProtocolError("a gradient call of an unknown kind")
    offsets = []
    for c, values in zip(sizes, flat, strict=True):
        if (m and span(c)[0] < 0) or total(c) != len(values):
            raise ProtocolError("the gradient calls' parts do not add up")
        off = np.zeros(m + 1, np.int64)
        np.cumsum(c, out=off[1:])
        offsets.append(off)
    results = flat[2]
    if len(results) and not _within(results, -1, n_rows):
        raise ProtocolError("a reference to a missing tensor")
    names = [k if isinstance(k, str) and len(k) < 40 else "gradient" for k in kinds]
    (t_off, s_off, r_off), (targets, sources, results) = offsets, flat
    seeds = _seeds(doc.get("call_seeds", []), frame, t_off)
    return CallColumns(tape, kind, names, t_off, targets, s_off, sources, r_off, results, seeds)


def _seeds(doc: Any, frame: Frame, t_off: np.ndarray) -> dict[int, tuple[np.ndarray | None, ...]]:
    """The output_gradients of the calls given some: call -> one array (or None) per target."""
    if not isinstance(doc, list) or len(doc) > len(t_off) - 1:
        raise ProtocolError("the calls' output gradients are not a list")
    out: dict[int, tuple[np.ndarray | None, ...]] = {}
    for entry in doc:
        if not (isinstance(entry, list) and len(entry) == 2 and type(entry[0]) is int):
            raise ProtocolError("a call's output gradients are not plain data")
        c, given = entry
        if not 0 <= c < len(t_off) - 1 or c in out or not isinstance(given, list):
            raise ProtocolError("output gradients of a missing call")
        if len(given) != int(t_off[c + 1] - t_off[c]):
            raise ProtocolError("output gradients that are not one per target")
        arrays = tuple(None if g is None else frame.array(g) for g in given)
        if any(a is not None and a.dtype.kind not in "biuf" for a in arrays):
            raise ProtocolError("an output gradient is not numeric")
        out[c] = arrays
    return out


def _names(value: Any) -> tuple[str, ...]:
    """A checked tuple of names (what a tape was bound to)."""
    if not (isinstance(value, list) and len(value) <= 100) or not all(
        isinstance(s, str) and len(s) <= 200 for s in value
    ):
        raise ProtocolError("bad tape names")
    return tuple(value)


def _row(value: Any, n_rows: int, none: bool = True) -> int:
    """A checked row of the tensor table (-1, "no tensor", only where ``none`` allows it)."""
    if type(value) is not int or not (-1 if none else 0) <= value < n_rows:
        raise ProtocolError("a reference to a missing tensor")
    return value


def _marks(doc: Any, frame: Frame, output: str, tapes: int) -> tuple[tuple[int, int], ...]:
    """Checked output marks: offsets within the output, counts within the tapes, both rising."""
    offsets = frame.ints(need(doc, "offsets", dict))
    counts = frame.ints(need(doc, "tapes", dict))
    if len(offsets) != len(counts) or len(offsets) > len(output) + 1:
        raise ProtocolError("the output marks' columns differ in length")
    if len(offsets) and (
        not _within(offsets, 0, len(output) + 1)
        or not _within(counts, 0, tapes + 1)
        or not rising(offsets, strictly=True)
        or not rising(counts)
    ):
        raise ProtocolError("bad output marks")
    return tuple(zip(offsets.tolist(), counts.tolist(), strict=True))


def decode(frame: Frame, pool: Any = None) -> RunResult:
    """A RunResult whose tapes are :class:`RemoteTape` objects over the received data.

    Its summarised values (see :mod:`kept`) are fetched from ``pool`` (None: they cannot be).
    """
    with no_collection():
        return _decode(frame, pool)


def _decode(frame: Frame, pool: Any) -> RunResult:
    doc = frame.doc
    table = _table(need(doc, "table", dict), frame, pool)
    n = table.count
    try:
        recs = _records(need(doc, "records", dict), frame, n)
    except RecursionError:
        raise ProtocolError("the message is nested too deeply") from None
    tapes = _tapes(need(doc, "records", dict), frame, table, recs)
    namespace = {}
    for k, r in need(doc, "namespace", dict).items():
        if len(k) <= 200:
            namespace[k] = table.tensor(_row(r, n, none=False))
    value_doc = need(doc, "value", (dict, type(None)))
    value: Any = None
    if value_doc is not None:
        value = (
            table.tensor(_row(value_doc["tensor"], n, none=False))
            if "tensor" in value_doc
            else text(value_doc, "repr", 5000)
        )
    gradients = {
        k: (None if r == -1 else table.tensor(r))
        for k, r in ((k, _row(v, n)) for k, v in need(doc, "gradients", dict).items())
    }
    elapsed = need(doc, "elapsed", float)
    output = text(doc, "output", MAX_TEXT)
    dropped = need(doc, "dropped", int)
    if dropped < 0:
        raise ProtocolError("a negative count of dropped tapes")
    marks = _marks(need(doc, "output_marks", dict), frame, output, len(tapes) + dropped)
    return RunResult(
        output,
        tapes,  # type: ignore[arg-type]
        namespace,
        value,
        elapsed if math.isfinite(elapsed) else 0.0,
        _error(need(doc, "error", (dict, type(None)))),
        tuple(items(doc, "notes", decode_note, 1000)),
        gradients,
        dropped,
        marks,
        plots.decode(need(doc, "figures", list), frame),
    )


def refused(why: str, doc: Any) -> RunResult:
    """A run whose answer cannot be read: the user's error says why; what it printed is kept.

    The worker sends this instead of an answer it read and refused; the window makes it when
    it cannot read a small one the worker sent without reading it (``server.WINDOW_REFUSES``).
    """
    error = UserCodeError.of(say("answer_refused", why=why[:500]), kind="limit", limit="answer")
    output = doc.get("output") if isinstance(doc, dict) else None
    output = output if isinstance(output, str) and len(output) <= MAX_TEXT else ""
    return RunResult(output, (), {}, None, 0.0, error)


def round_trip(result: RunResult) -> RunResult:
    """``result`` as the window receives it: encoded, framed and decoded in this process."""
    writer = Writer()
    buf = io.BytesIO()
    write(buf, results.encode(result, writer), writer)
    return decode(read(io.BytesIO(buf.getvalue())))
