"""A run's result as data: the worker side (:func:`encode`; the window's is ``results_decode``).

Tensors travel as one columnar table (id, dtype, kind, shape, value bytes; one row per distinct
tensor object, so a Variable's snapshots at different steps stay distinct), records as integer
columns into that table, tapes as ranges of records. The window rebuilds engine ``Tensor``,
``Variable`` and ``OpRecord`` objects lazily, a tape at a time, so a 10,000-tape run costs only
what is shown. Every index, dtype, shape and primitive name is checked while decoding.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Sequence
from operator import attrgetter
from typing import Any

import numpy as np

from tapeviz.engine.tensor import TensorLike
from tapeviz.sandbox.errors import UserCodeError
from tapeviz.sandbox.out_value import value_text
from tapeviz.sandbox.process import fit_columns, grad_notes, plots
from tapeviz.sandbox.process.encoder import Encoder
from tapeviz.sandbox.process.kept import Policy
from tapeviz.sandbox.process.table_rows import CODES, DTYPE_CODES
from tapeviz.sandbox.process.wire import Writer
from tapeviz.sandbox.result import RunResult, TapeInfo

__all__ = ["DTYPE_CODES", "MAX_TEXT", "encode", "no_collection"]
MAX_NAMES = 10_000  # namespace entries sent back
MAX_TEXT = 2_000_000  # characters of printed output (the sandbox caps it at 1,000,000)


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


def note_doc(note: str) -> Any:
    """A note as its text, and its code and fields if tapeviz worded it (the window's language)."""
    msg = getattr(note, "msg", None)
    if msg is None:
        return str(note)
    return {"text": str(note), "code": msg.code, "fields": [list(pair) for pair in msg.fields]}


_TAPE = attrgetter("tape")


def _tape_columns(tapes: Sequence[TapeInfo], enc: Encoder, writer: Writer) -> dict[str, Any]:
    """What is per tape (read when the document is made: names and watches can still change)."""
    counts = enc.counts()  # (the encoder read them: every tape's ops as kept)
    watched_objs = [list(info.tape._watched.values()) for info in tapes]
    watched = enc.table.rows([t for ws in watched_objs for t in ws])
    return {
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
        "tape_watched": watched,  # (rows numbered by the caller once the table is sealed)
        **_label_columns(tapes, counts, writer),
        **fit_columns.encode(tapes, writer),  # a Keras fit's epochs and logs, per tape
        **grad_notes.encode(tapes, writer),  # torch: the .grad each backward() added to
    }


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


def _name_columns(tapes: Sequence[TapeInfo], writer: Writer) -> dict[str, Any]:
    """The names the tapes were bound to: each distinct tuple once, and one index per tape."""
    sets: dict[tuple[str, ...], int] = {}
    index = [sets.setdefault(tuple(i.names), len(sets)) for i in tapes]
    return {"tape_name_sets": [list(names) for names in sets], "tape_name": writer.ints(index)}


def encode(
    result: RunResult, writer: Writer, policy: Policy | None = None, enc: Encoder | None = None
) -> dict[str, Any]:
    """The JSON document (arrays in ``writer``) for a RunResult (big values as ``policy`` says).

    ``enc``: the run's tapes encoded so far while it ran (see :mod:`encoder`); used when its
    tapes are still the result's first ones, unchanged, else the run is encoded afresh.
    """
    threshold = policy.threshold if policy is not None else None
    recorders = list(map(_TAPE, result.tapes))
    if enc is None or enc.table.threshold != threshold or not enc.still(recorders):
        enc = Encoder(threshold)
    with no_collection():
        enc.add(recorders)
        return _encode(result, writer, policy, enc)


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


def _encode(result: RunResult, writer: Writer, policy: Policy | None, enc: Encoder) -> Any:
    table = enc.table
    per_tape = _tape_columns(result.tapes, enc, writer)
    # Names only for tensors the tapes show (the window names nodes with them): a script's other
    # arrays stay in the worker, so the window's memory grows only by what it shows.
    shown = table.row_of
    tensors = [(str(k), v) for k, v in result.namespace.items() if id(v) in shown]
    tensors = tensors[:MAX_NAMES]
    names = table.rows([v for _, v in tensors])
    value: Any = None
    tensor = isinstance(result.value, TensorLike) and result.value.dtype in CODES
    single = table.rows([result.value] if tensor else [])
    if not tensor and result.value is not None:  # (a tf.string tensor too: as its repr)
        value = {"repr": value_text(result.value)}
    grads = [(str(k), g) for k, g in result.gradients.items()]
    grad_rows = table.rows([g for _, g in grads if isinstance(g, TensorLike)])
    table.seal()
    records = {
        **enc.columns(writer),
        **per_tape,
        "tape_watched": writer.ints(table.final(per_tape["tape_watched"])),
        **fit_columns.encode_names(result.namespace, writer),  # the models' names
    }
    if len(single):
        value = {"tensor": int(table.final(single)[0])}
    got = iter(table.final(grad_rows).tolist())
    gradients = {k: (next(got) if isinstance(g, TensorLike) else -1) for k, g in grads}
    return {
        "output": result.output,
        "elapsed": result.elapsed,
        "error": _error_doc(result.error),
        "notes": [note_doc(n) for n in result.notes],
        "dropped": result.dropped_tapes,
        "output_marks": _marks_doc(result.output_marks, writer),
        "records": records,
        "namespace": dict(zip([k for k, _ in tensors], table.final(names).tolist(), strict=True)),
        "value": value,
        "gradients": gradients,
        "table": table.doc(writer, policy),
        "figures": plots.encode(result.figures, writer),
        **({"kept": policy.token} if policy is not None else {}),
    }


def _marks_doc(marks: Sequence[tuple[int, int]], writer: Writer) -> dict[str, Any]:
    """The output marks as two integer columns (offsets, tape counts)."""
    return {
        "offsets": writer.ints([m[0] for m in marks]),
        "tapes": writer.ints([m[1] for m in marks]),
    }
