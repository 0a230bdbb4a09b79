"""A run's result as data: the worker side (:func:`encode`; the window's is ``results_decode``).

Tensors travel as one columnar table (id, dtype, kind, shape, value bytes; one row per distinct
tensor object, so a Variable's snapshots at different steps stay distinct), records as integer
columns into that table, tapes as ranges of records. The window rebuilds engine ``Tensor``,
``Variable`` and ``OpRecord`` objects lazily, a tape at a time, so a 10,000-tape run costs only
what is shown. Every index, dtype, shape and primitive name is checked while decoding.
"""

from __future__ import annotations

import gc
import itertools
import operator
import threading
from collections.abc import Sequence
from operator import attrgetter, methodcaller
from typing import Any

import numpy as np

from tapeviz.engine import dtypes, strings
from tapeviz.engine.core import OpRecord
from tapeviz.engine.tensor import TensorLike, Variable
from tapeviz.sandbox.errors import UserCodeError
from tapeviz.sandbox.process import fit_columns, grad_notes, kept, plots
from tapeviz.sandbox.process import params as P
from tapeviz.sandbox.process.kept import Policy
from tapeviz.sandbox.process.wire import ProtocolError, Writer
from tapeviz.sandbox.result import RunResult, TapeInfo

DTYPE_CODES = {
    name: i
    for i, name in enumerate(
        ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool")
    )
}
MAX_NAMES = 10_000  # namespace entries sent back
MAX_TEXT = 2_000_000  # characters of printed output (the sandbox caps it at 1,000,000)


class _Rows:
    """Distinct tensor objects, each given a row of the table (computed in one batch)."""

    __slots__ = ("groups", "objs", "refs", "row_of")

    def __init__(self) -> None:
        self.refs: list[TensorLike] = []  # every use, in order; rows come from ``finish``
        self.objs: list[TensorLike] = []
        self.groups = np.zeros(0, np.int64)  # per row: dtype code, +100 for arrays
        self.row_of = np.zeros(0, np.int64)  # per use: its row (``finish``)

    def last_use(self) -> np.ndarray:
        """Per row: the position of its last use (later tapes' uses come later)."""
        last = np.full(len(self.objs), -1, np.int64)
        np.maximum.at(last, self.row_of, np.arange(len(self.row_of)))
        return last

    def add(self, ts: list[TensorLike]) -> slice:
        """Register uses of ``ts``; their rows are ``finish()[returned slice]``."""
        start = len(self.refs)
        self.refs.extend(ts)
        return slice(start, len(self.refs))

    def finish(self) -> np.ndarray:
        """The row of every registered use; fills ``objs`` (one per distinct object).

        Rows are ordered by kind: scalars of each dtype first, then arrays of each dtype, so
        the table's values go out as a few array copies instead of one ``tobytes`` per tensor.
        """
        refs = self.refs
        if not refs:
            self.objs = []
            return np.zeros(0, np.int64)
        keys = np.fromiter(map(id, refs), np.int64, len(refs))
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        objs = [refs[i] for i in first.tolist()]
        n = len(objs)
        codes = np.fromiter(map(_CODES.get, map(_DTYPE, objs), itertools.repeat(99)), np.int64, n)
        arrays = np.fromiter(
            map(operator.is_, map(type, map(_VALUE, objs)), itertools.repeat(np.ndarray)),
            np.bool_,
            n,
        )
        group = codes + 100 * arrays
        order = np.argsort(group, kind="stable")
        rank = np.empty(len(order), np.int64)
        rank[order] = np.arange(len(order))
        self.objs = [objs[i] for i in order.tolist()]
        self.groups = group[order]
        self.row_of = rank[inverse]
        return self.row_of


def _error_doc(err: UserCodeError | None) -> Any:
    if err is None:
        return None
    return {
        "message": err.message[:5000],
        "line": err.line,
        "col": err.col,
        "hint": None if err.hint is None else err.hint[:2000],
        "kind": err.kind,
        "limit": err.limit,
        "code": err.code,
        "fields": [list(pair) for pair in err.fields],
        "hint_code": err.hint_code,
        "hint_fields": [list(pair) for pair in err.hint_fields],
    }


def _table_doc(rows: _Rows, writer: Writer, policy: Policy | None) -> dict[str, Any]:
    """The tensor table's columns; C-level ``map`` calls keep 100,000 rows under ~50 ms.

    Values above the policy's size go as summaries (``big``; see :mod:`kept`), not bytes.
    """
    objs = rows.objs
    codes_of = {dtypes.as_dtype(name): code for name, code in DTYPE_CODES.items()}
    try:
        codes = list(map(codes_of.__getitem__, map(_DTYPE, objs)))
    except KeyError:
        bad = next(t for t in objs if t.dtype not in codes_of)
        raise ProtocolError(f"tensors of dtype {bad.dtype.name} cannot be shown") from None
    values = list(map(_VALUE, objs))
    shapes = list(map(_SHAPE, values))
    is_var = list(map(isinstance, objs, itertools.repeat(Variable)))  # (Keras' variables too)
    kinds = [(2 if t.trainable else 1) if v else 0 for t, v in zip(objs, is_var, strict=True)]
    # Names as an index into the distinct names: a loop names its variable on 100,000 rows,
    # and a {row: name} JSON object took the window 40 ms to parse (one C call, the GIL held).
    all_names = list(map(_NAME, objs))
    name_rows = np.flatnonzero(np.fromiter(map(bool, all_names), np.bool_, len(all_names)))
    distinct: dict[str, int] = {}
    name_index = [distinct.setdefault(all_names[i], len(distinct)) for i in name_rows.tolist()]
    big = kept.big_part(values, rows.groups, policy, writer, rows.last_use)  # (shapes read)
    return {
        "ids": writer.ints(np.fromiter(map(_ID, objs), np.int64, len(objs))),
        "dtypes": writer.ints(codes),
        "kinds": writer.ints(kinds),
        "ndims": writer.ints(np.fromiter(map(len, shapes), np.int64, len(shapes))),
        "dims": writer.ints(np.fromiter(itertools.chain.from_iterable(shapes), np.int64)),
        "data": writer.blob(_values_bytes(values, rows.groups)),
        "name_rows": writer.ints(name_rows),
        "name_index": writer.ints(name_index),
        "name_list": list(distinct),
        **({"big": big} if big is not None else {}),
    }


_DTYPE, _VALUE, _SHAPE = attrgetter("dtype"), attrgetter("_value"), attrgetter("shape")
_TAPE, _RECORDS, _PRIM = attrgetter("tape"), attrgetter("records"), attrgetter("primitive")
_INPUTS, _OUTPUTS, _WATCHED = attrgetter("inputs"), attrgetter("outputs"), attrgetter("watched")
_PARAMS, _SCOPE = attrgetter("params"), attrgetter("scope")
_ID, _BYTES = attrgetter("id"), methodcaller("tobytes")
_ENGINE_DTYPES = [dtypes.as_dtype(name) for name in DTYPE_CODES]
_CODES = {dt: i for i, dt in enumerate(_ENGINE_DTYPES)}


def _values_bytes(values: list[Any], groups: np.ndarray) -> bytes:
    """Every value's bytes in row order, a group (one dtype, scalars or arrays) at a time."""
    parts = []
    bounds = np.flatnonzero(np.diff(groups)) + 1
    for a, b in zip([0, *bounds.tolist()], [*bounds.tolist(), len(values)], strict=True):
        chunk = values[a:b]
        if not chunk:
            continue
        dt = _ENGINE_DTYPES[int(groups[a]) % 100].np
        if groups[a] < 100:  # numpy scalars of one dtype
            parts.append(np.fromiter(chunk, dt, len(chunk)).tobytes())
        else:
            parts.extend(map(_BYTES, chunk))
    return b"".join(parts)


def _NAME(t: Any) -> Any:
    return getattr(t, "name", None)


def _param_key(params: Any) -> Any:
    try:
        key = tuple(params.items())
        hash(key)
        return key
    except TypeError:  # an index array: no dedupe
        return None


def _params_column(recs: list[OpRecord], writer: Writer) -> tuple[list[Any], np.ndarray]:
    codes: dict[Any, int] = {}
    docs: list[Any] = [{}]
    column = np.zeros(len(recs), np.int32)
    params = list(map(_PARAMS, recs))
    for k in itertools.compress(range(len(params)), params):  # the records that have params
        p = params[k]
        key = _param_key(p)
        code = codes.get(key) if key is not None else None
        if code is None:
            code = len(docs)
            docs.append(P.encode_params(p, writer))
            if key is not None:
                codes[key] = code
        column[k] = code
    return docs, column


def _tape_docs(tapes: Sequence[TapeInfo], rows: _Rows, writer: Writer) -> tuple[dict, Any]:
    """Records and tapes as columns (rows filled in by the caller once all uses are known).

    Every pass over the records is a C-level ``map`` (a 10,000-tape loop has 50,000 records).
    """
    per_tape = list(map(_RECORDS, map(_TAPE, tapes)))
    recs = list(itertools.chain.from_iterable(per_tape))
    counts = list(map(len, per_tape))
    n = len(recs)
    prim_objs = list(map(_PRIM, recs))
    prim_index = {p: i for i, p in enumerate(dict.fromkeys(prim_objs))}
    prims = [p.name for p in prim_index]
    inputs, outputs = list(map(_INPUTS, recs)), list(map(_OUTPUTS, recs))
    ins = rows.add(list(itertools.chain.from_iterable(inputs)))
    outs = rows.add(list(itertools.chain.from_iterable(outputs)))
    param_docs, param_column = _params_column(recs, writer)
    watched_objs = [list(info.tape._watched.values()) for info in tapes]
    watched = rows.add([t for ws in watched_objs for t in ws])
    calls, where, mask = _call_columns(tapes, rows, writer)
    doc = {
        "prims": list(prims),
        "params": param_docs,
        "id": writer.ints(np.fromiter(map(_ID, recs), np.int64, n)),
        "prim": writer.ints(np.fromiter(map(prim_index.__getitem__, prim_objs), np.int64, n)),
        "watched": writer.ints(np.fromiter(map(_WATCHED, recs), np.bool_, n)),
        "param": writer.ints(param_column),
        "nin": writer.ints(np.fromiter(map(len, inputs), np.int64, n)),
        "nout": writer.ints(np.fromiter(map(len, outputs), np.int64, n)),
        "tape_start": writer.ints(np.concatenate([[0], np.cumsum(counts, dtype=np.int64)])),
        "tape_flags": writer.ints(
            [
                bool(getattr(i.tape, "persistent", False))
                + 2 * bool(i.tape.watch_accessed_variables)
                for i in tapes
            ]
        ),
        "tape_index": writer.ints([i.index for i in tapes]),
        **_name_columns(tapes, writer),
        "tape_n_watched": writer.ints([len(w) for w in watched_objs]),
        **calls,
        **_label_columns(tapes, counts, writer),
        **_scope_columns(recs, writer),
        **fit_columns.encode(tapes, writer),  # a Keras fit's epochs and logs, per tape
        **grad_notes.encode(tapes, writer),  # torch: the .grad each backward() added to
    }

    def fill(row_of: np.ndarray) -> None:
        doc["in"] = writer.ints(row_of[ins])
        doc["out"] = writer.ints(row_of[outs])
        doc["tape_watched"] = writer.ints(row_of[watched])
        got = np.full(len(mask), -1, np.int64)  # -1: a None result
        got[mask] = row_of[where]
        doc["call_results"] = writer.ints(got)

    return doc, fill


def _label_columns(tapes: Sequence[TapeInfo], counts: list[int], writer: Writer) -> dict[str, Any]:
    """A framework's own op names (torch's ``MulBackward0``), per record; none for TF tapes."""
    per_tape = [getattr(i.tape, "op_labels", None) for i in tapes]
    if not any(per_tape):
        return {}
    distinct: dict[str, int] = {}
    column: list[int] = []
    for labels, n in zip(per_tape, counts, strict=True):
        if not labels or len(labels) != n:
            column.extend([-1] * n)
            continue
        column.extend(-1 if s is None else distinct.setdefault(str(s)[:80], len(distinct))
                      for s in labels)  # fmt: skip
    return {"label_names": list(distinct), "label": writer.ints(column)}


def _scope_columns(recs: list[OpRecord], writer: Writer) -> dict[str, Any]:
    """Each record's name scope (``sequential/dense``), for a graph folded by layer."""
    scopes = list(map(_SCOPE, recs))
    if not any(scopes):
        return {}
    distinct: dict[tuple[str, ...], int] = {(): -1}
    column = [distinct.setdefault(sc, len(distinct) - 1) for sc in scopes]
    names = ["/".join(sc)[:200] for sc in distinct if sc]
    return {"scope_names": names, "scope": writer.ints(column)}


def _name_columns(tapes: Sequence[TapeInfo], writer: Writer) -> dict[str, Any]:
    """The names the tapes were bound to: each distinct tuple once, and one index per tape."""
    sets: dict[tuple[str, ...], int] = {}
    index = [sets.setdefault(tuple(i.names), len(sets)) for i in tapes]
    return {"tape_name_sets": [list(names) for names in sets], "tape_name": writer.ints(index)}


def _call_columns(
    tapes: Sequence[TapeInfo], rows: _Rows, writer: Writer
) -> tuple[dict[str, Any], slice, np.ndarray]:
    """The tapes' gradient() calls as columns, in tape order (a 10,000-step loop makes 10,000).

    Returns the columns, the rows' uses of the calls' tensor results and which results are
    tensors (the others, None, go out as row -1).
    """
    tape, kinds, kind, targets, sources, sizes, results, mask = [], {}, [], [], [], [], [], []
    seeds: list[Any] = []  # [call, [output gradient or None per target]]: output_gradients
    for k, info in enumerate(tapes):
        for c in getattr(info.tape, "gradient_calls", ()):
            given = getattr(c, "seeds", None)
            if given is not None:
                seeds.append([len(tape), [_seed(v, writer) for v in given]])
            tape.append(k)
            kind.append(kinds.setdefault(c.kind, len(kinds)))
            targets += c.target_ids
            sources += c.source_ids
            sizes.append((len(c.target_ids), len(c.source_ids), len(c.results)))
            for r in c.results:
                mask.append(isinstance(r, TensorLike))
                if mask[-1]:
                    results.append(r)
    n = np.array(sizes, np.int64).reshape(-1, 3)
    columns = {
        "call_tape": writer.ints(tape),
        "call_kinds": list(kinds),
        "call_kind": writer.ints(kind),
        "call_n_targets": writer.ints(n[:, 0]),
        "call_n_sources": writer.ints(n[:, 1]),
        "call_n_results": writer.ints(n[:, 2]),
        "call_targets": writer.ints(targets),
        "call_sources": writer.ints(sources),
        "call_seeds": seeds,
    }
    return columns, rows.add(results), np.array(mask, np.bool_)


def _seed(value: Any, writer: Writer) -> Any:
    """One output gradient of a call, as an array (None: that target was seeded with ones)."""
    if value is None:
        return None
    arr = np.asarray(value)
    return writer.array(arr) if arr.dtype.kind in "biuf" else None


def encode(result: RunResult, writer: Writer, policy: Policy | None = None) -> dict[str, Any]:
    """The JSON document (arrays in ``writer``) for a RunResult (big values as ``policy`` says)."""
    with no_collection():
        return _encode(result, writer, policy)


class no_collection:  # noqa: N801
    """No cyclic garbage collection while (de)coding: it allocates a lot and frees nothing.

    A collection started by those allocations would scan the whole heap (every object of the
    run, or of the window) for nothing. Threads may overlap (a reader decodes while another
    encodes): the first in turns collection off and the last out restores what the first
    found, so one thread leaving does not turn collection back on under another still inside.
    """

    _lock = threading.Lock()
    _inside = 0
    _was = False

    def __enter__(self) -> None:
        with no_collection._lock:
            if no_collection._inside == 0:
                no_collection._was = gc.isenabled()
                gc.disable()
            no_collection._inside += 1

    def __exit__(self, *exc: object) -> None:
        with no_collection._lock:
            no_collection._inside -= 1
            if no_collection._inside == 0 and no_collection._was:
                gc.enable()


def _encode(result: RunResult, writer: Writer, policy: Policy | None) -> dict[str, Any]:
    rows = _Rows()
    records, fill = _tape_docs(result.tapes, rows, writer)
    records.update(fit_columns.encode_names(result.namespace, writer))  # the models' names
    # Names only for tensors the tapes show (the window names nodes with them): a script's other
    # arrays stay in the worker, so the window's memory grows only by what it shows.
    shown = set(map(id, rows.refs))
    tensors = [(str(k), v) for k, v in result.namespace.items() if id(v) in shown]
    tensors = tensors[:MAX_NAMES]
    names = rows.add([v for _, v in tensors])
    value: Any = None
    tensor = isinstance(result.value, TensorLike) and result.value.dtype in _CODES
    single = rows.add([result.value] if tensor else [])
    if not tensor and result.value is not None:  # (a tf.string tensor too: as its repr)
        value = {"repr": _short_repr(result.value)}
    grads = [(str(k), g) for k, g in result.gradients.items()]
    grad_rows = rows.add([g for _, g in grads if isinstance(g, TensorLike)])
    row_of = rows.finish()
    fill(row_of)
    if single.stop > single.start:
        value = {"tensor": int(row_of[single.start])}
    got = iter(row_of[grad_rows].tolist())
    gradients = {k: (next(got) if isinstance(g, TensorLike) else -1) for k, g in grads}
    return {
        "output": result.output,
        "elapsed": result.elapsed,
        "error": _error_doc(result.error),
        "notes": list(result.notes),
        "dropped": result.dropped_tapes,
        "output_marks": _marks_doc(result.output_marks, writer),
        "records": records,
        "namespace": dict(zip([k for k, _ in tensors], row_of[names].tolist(), strict=True)),
        "value": value,
        "gradients": gradients,
        "table": _table_doc(rows, writer, policy),
        "figures": plots.encode(result.figures, writer),
        **({"kept": policy.token} if policy is not None else {}),
    }


def _marks_doc(marks: Sequence[tuple[int, int]], writer: Writer) -> dict[str, Any]:
    """The output marks as two integer columns (offsets, tape counts)."""
    return {
        "offsets": writer.ints([m[0] for m in marks]),
        "tapes": writer.ints([m[1] for m in marks]),
    }


def _short_repr(value: Any) -> str:
    if type(value) in (bool, int, float, str):
        text_ = repr(value) if type(value) is not int or value.bit_length() < 4000 else "<int>"
    elif isinstance(value, TensorLike):  # a tf.string or complex tensor (the table: real numbers)
        dtype = value.dtype
        small = value.size <= 1000 and (
            not dtype.is_string or strings.total_bytes(value._value) <= 100_000
        )
        text_ = repr(value) if small else f"<tf.Tensor: shape={value.shape}, dtype={dtype.name}>"
    else:
        text_ = f"<{type(value).__name__}>"
    return text_[:2000]
