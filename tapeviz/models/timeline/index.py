"""The facts about a run's tapes that a timeline needs, as flat arrays (built once, then dropped).

Every input and output of every record becomes a *slot* (its tape, its tensor id, the ref of
its value), every gradient call a row of call columns, every tape a *structure code*: two
tapes get the same code when they recorded the same primitives with the same parameters, wired
the same way (each input is an earlier op of the same tape, a given variable, or a constant)
and asked for the same gradients. Both builders end in one vectorised core: :func:`from_remote`
takes a received result's columns (its tapes share one table), :func:`from_live` reads the
records of in-process tapes into the same columns first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from operator import attrgetter
from typing import Any

import numpy as np

from tapeviz.engine.tensor import TensorLike, Variable
from tapeviz.models.timeline.calls import Calls, Gather
from tapeviz.models.timeline.store import ObjectStore, Store

_EMPTY = np.zeros(0, np.int64)


class Lookup:
    """(tape, tensor id) → the value of the first slot recorded for that pair, many at once."""

    def __init__(self, tapes: np.ndarray, ids: np.ndarray, values: np.ndarray) -> None:
        self.lo = int(ids.min()) if len(ids) else 0
        self.span = (int(ids.max()) - self.lo + 1) if len(ids) else 1
        self.uniq: np.ndarray | None = None
        if (int(tapes.max()) + 1 if len(tapes) else 1) * self.span >= 2**62:
            self.uniq = np.unique(ids)  # ids too far apart for one integer key: rank them
            self.lo, self.span = 0, len(self.uniq)
        key = self._key(tapes, ids)[0]
        order = np.argsort(key, kind="stable")  # equal keys keep slot order: the first wins
        self.keys, self.values = key[order], np.asarray(values, np.int64)[order]

    def _key(self, tapes: np.ndarray, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.uniq is not None:
            rank = np.searchsorted(self.uniq, ids)
            known = self.uniq[np.minimum(rank, len(self.uniq) - 1)] == ids
        else:
            rank = ids - self.lo
            known = (rank >= 0) & (rank < self.span)
        return tapes.astype(np.int64) * self.span + rank, known

    def find(self, tapes: Any, ids: Any) -> np.ndarray:
        """The value for each (tape, id) pair, -1 where that tape has no such slot."""
        tapes, ids = np.asarray(tapes, np.int64), np.asarray(ids, np.int64)
        if not len(self.keys) or not ids.size:
            return np.full(ids.shape, -1, np.int64)
        key, known = self._key(tapes, ids)
        i = np.minimum(np.searchsorted(self.keys, key), len(self.keys) - 1)
        return np.where(known & (self.keys[i] == key), self.values[i], -1)


@dataclass
class TapeIndex:
    """A run's tapes as slots, calls and codes (``in_*``: record inputs; ``out_*``: outputs)."""

    store: Store
    codes: np.ndarray  # per tape
    calls: Calls
    in_tape: np.ndarray
    in_ids: np.ndarray
    in_refs: np.ndarray
    out_tape: np.ndarray
    out_ids: np.ndarray
    out_refs: np.ndarray
    variables: dict[int, int]  # variable id -> ref of the variable itself (its value at the end)
    names: dict[int, str]  # tensor id -> the script's name for it, or its model's (Keras path)
    own_names: dict[int, str] = field(default_factory=dict)  # variable id -> its own name
    _reads: Lookup | None = field(default=None, repr=False)
    _outputs: Lookup | None = field(default=None, repr=False)

    @property
    def tapes(self) -> int:
        """How many tapes."""
        return len(self.codes)

    def first_reads(self, tapes: Any, ids: Any) -> np.ndarray:
        """The ref of the first record input with that id on each tape (-1: never read)."""
        if self._reads is None:
            self._reads = Lookup(self.in_tape, self.in_ids, self.in_refs)
        return self._reads.find(tapes, ids)

    def outputs(self, tapes: Any, ids: Any) -> np.ndarray:
        """The ref of the op output with that id on each tape (-1: not an output there)."""
        if self._outputs is None:
            self._outputs = Lookup(self.out_tape, self.out_ids, self.out_refs)
        return self._outputs.find(tapes, ids)

    def read_after(self, tape: int, tensor_id: int) -> int:
        """The ref of the first read of ``tensor_id`` by a tape after ``tape`` (-1: none)."""
        hits = np.flatnonzero((self.in_ids == tensor_id) & (self.in_tape > tape))
        return int(self.in_refs[hits[0]]) if len(hits) else -1


def param_signature(params: Mapping[str, Any]) -> Any:
    """A hashable stand-in for an op's parameters, blind to the batch's size.

    Index arrays count by dtype and rank, target shapes (``reshape``'s, ``broadcast_to``'s) by
    rank: a loop's last, partial batch (``Flatten`` reshapes to ``(16, 784)``, not
    ``(32, 784)``) is the same step as the others.
    """
    return tuple((k, ("rank", len(v)) if k == "shape" and isinstance(v, tuple | list)
                  else _signature(v)) for k, v in params.items())  # fmt: skip


def _signature(v: Any) -> Any:
    if isinstance(v, np.ndarray):
        return ("array", v.dtype.str, v.ndim)
    if isinstance(v, tuple | list):
        return (type(v).__name__, *map(_signature, v))
    if isinstance(v, slice):
        return ("slice", _signature(v.start), _signature(v.stop), _signature(v.step))
    if v is None or isinstance(v, bool | int | float | str | np.generic):
        return v
    return ("other", type(v).__name__)


def _params_key(params: Mapping[str, Any], cache: dict[Any, Any]) -> Any:
    """:func:`param_signature`, remembered for hashable parameters (most of them)."""
    if not params:
        return ()
    try:
        key = tuple(params.items())
        got = cache.get(key)
    except TypeError:  # an index array
        return param_signature(params)
    if got is None:
        got = cache[key] = param_signature(params)
    return got


def _ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``concatenate([arange(s, s + c) for s, c in zip(starts, counts)])``, vectorised."""
    counts = np.asarray(counts, np.int64)
    ends = np.cumsum(counts)
    return np.repeat(np.asarray(starts, np.int64) - (ends - counts), counts) + np.arange(
        int(ends[-1]) if len(ends) else 0
    )


def _names(namespace: Mapping[str, Any]) -> dict[int, str]:
    names: dict[int, str] = {}
    for key, value in namespace.items():
        if isinstance(value, TensorLike):
            names.setdefault(value.id, key)
    return names


def _wiring(producer: np.ndarray, ids: np.ndarray, variable_ids: np.ndarray) -> np.ndarray:
    """Each slot's wiring: the local op that made it (≥ 0), variable v (-2 - v) or -1."""
    if not len(variable_ids):
        return np.where(producer >= 0, producer, -1)
    ordinal = np.searchsorted(variable_ids, ids)
    is_var = variable_ids[np.minimum(ordinal, len(variable_ids) - 1)] == ids
    return np.where(producer >= 0, producer, np.where(is_var, -2 - ordinal, -1))


def _group_codes(parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]], n: int) -> np.ndarray:
    """Exact structure codes: tapes equal in every part (flat, per-tape start, per-tape length).

    Tapes whose parts have the same lengths are compared as rows of one matrix.
    """
    lengths = np.stack([p[2] for p in parts], axis=1) if parts else np.zeros((n, 0), np.int64)
    codes = np.zeros(n, np.int64)
    group = _row_codes(lengths) if n else np.zeros(0, np.int64)
    base = 0
    for g in range(int(group.max()) + 1 if n else 0):
        members = np.flatnonzero(group == g)
        shape = lengths[members[0]]
        cols = [flat[start[members][:, None] + np.arange(shape[i])]
                for i, (flat, start, _) in enumerate(parts)]  # fmt: skip
        rows = np.ascontiguousarray(np.hstack(cols)) if cols else np.zeros((len(members), 0))
        local = _row_codes(rows)
        codes[members] = base + local
        base += int(local.max()) + 1 if len(local) else 0
    return codes


def _row_codes(rows: np.ndarray) -> np.ndarray:
    """Equal rows get equal codes (0, 1, ... in sorted order): a lexsort, then the changes."""
    n = len(rows)
    if n == 0 or rows.shape[1] == 0:
        return np.zeros(n, np.int64)
    order = np.lexsort(rows.T[::-1])
    ranked = rows[order]
    new = np.concatenate([[0], (ranked[1:] != ranked[:-1]).any(axis=1)]).astype(np.int64)
    codes = np.empty(n, np.int64)
    codes[order] = np.cumsum(new)
    return codes


def from_remote(tapes: Any, namespace: Mapping[str, Any]) -> TapeIndex:
    """The index of a received result's tapes (its ``RemoteTapes``), from its columns alone.

    No tape object is made: a 100,000-tape run's index reads the spans and calls columns.
    """
    table, cols = tapes.table, tapes.columns
    spans = tapes.spans()
    counts = spans[:, 1] - spans[:, 0]
    rec = _ranges(spans[:, 0], counts)
    nin, nout = np.diff(cols.in_off)[rec], np.diff(cols.out_off)[rec]
    in_refs = cols.ins[_ranges(cols.in_off[rec], nin)]
    out_refs = cols.outs[_ranges(cols.out_off[rec], nout)]
    var_rows = np.flatnonzero(table.kinds > 0)
    variables = dict(zip(table.ids[var_rows].tolist(), var_rows.tolist(), strict=True))
    signatures: dict[Any, int] = {}
    pcode = np.array(
        [signatures.setdefault(param_signature(p), len(signatures)) for p in cols.params], np.int64
    )
    names = {**getattr(tapes, "variable_names", {}), **_names(namespace)}
    own = {vid: table.names[row].split(":")[0] for vid, row in variables.items()
           if table.names.get(row)}  # fmt: skip
    return _index(table, counts, cols.prim[rec], pcode[cols.param[rec]], nin, nout, in_refs,
                  out_refs, variables, _gradient_calls(tapes), names, own)  # fmt: skip


def _gradient_calls(tapes: Any) -> Calls:
    """The received tapes' gradient() calls, picked from their call columns at once.

    (Gathered call by call, 100,000 tapes took the pool ~0.5 s of Python, the GIL held: the
    window's thread got it back only every other millisecond meanwhile.)
    """
    columns = getattr(tapes, "call_columns", None)
    if columns is None:
        gathered = Gather(len(tapes))
        for t in range(len(tapes)):
            for kind, targets, sources, results in tapes.call_rows(t):
                if kind == "gradient":
                    gathered.call(t, targets, sources, results)
        return gathered.calls()
    cc = columns()
    grad = cc.kinds.index("gradient") if "gradient" in cc.kinds else -1
    picked = np.flatnonzero(np.asarray(cc.kind) == grad)

    def part(flat: np.ndarray, off: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        off = np.asarray(off, np.int64)
        lengths = off[picked + 1] - off[picked]
        offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        return np.asarray(flat, np.int64)[_ranges(off[picked], lengths)], offsets

    targets, t_off = part(cc.targets, cc.t_off)
    sources, s_off = part(cc.sources, cc.s_off)
    results, _ = part(cc.results, cc.r_off)  # (one per source)
    tape = np.asarray(cc.tape, np.int64)[picked]
    first = np.searchsorted(tape, np.arange(len(tapes) + 1))
    return Calls(tape, targets, t_off, sources, results, s_off, first)


def _index(
    store: Store,
    counts: np.ndarray,
    prim: np.ndarray,
    pcode: np.ndarray,
    nin: np.ndarray,
    nout: np.ndarray,
    in_refs: np.ndarray,
    out_refs: np.ndarray,
    variables: dict[int, int],
    calls: Calls,
    names: dict[int, str],
    own_names: dict[int, str],
) -> TapeIndex:
    """The index from per-record columns (records in tape order, ``counts`` per tape)."""
    n = len(counts)
    rec_tape = np.repeat(np.arange(n), counts)
    rec_local = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    in_tape, out_tape = np.repeat(rec_tape, nin), np.repeat(rec_tape, nout)
    ids = store.ids
    in_ids, out_ids = ids[in_refs], ids[out_refs]
    variable_ids = np.array(sorted(variables), np.int64)
    made = Lookup(out_tape, out_ids, np.repeat(rec_local, nout))
    wiring = _wiring(made.find(in_tape, in_ids), in_ids, variable_ids)
    rec_sig = np.stack([prim, pcode, nin, nout], axis=1).astype(np.int64).reshape(-1)
    parts = _structure_parts(n, counts, rec_sig, in_tape, wiring, calls, made, variable_ids)
    return TapeIndex(store, _group_codes(parts, n), calls, in_tape, in_ids, in_refs, out_tape,
                     out_ids, out_refs, variables, names, own_names)  # fmt: skip


def _structure_parts(
    n: int,
    counts: np.ndarray,
    rec_sig: np.ndarray,
    in_tape: np.ndarray,
    wiring: np.ndarray,
    calls: Calls,
    made: Lookup,
    variable_ids: np.ndarray,
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(flat values, start per tape, length per tape) of each part that defines a structure."""

    def starts(lengths: np.ndarray) -> np.ndarray:
        return np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)

    per_in = np.bincount(in_tape, minlength=n).astype(np.int64)
    targets_tape = np.repeat(calls.tape, np.diff(calls.t_off))
    sources_tape = np.repeat(calls.tape, np.diff(calls.s_off))
    t_wiring = _wiring(made.find(targets_tape, calls.targets), calls.targets, variable_ids)
    s_wiring = _wiring(made.find(sources_tape, calls.sources), calls.sources, variable_ids)
    shape = np.stack([np.diff(calls.t_off), np.diff(calls.s_off)], axis=1).reshape(-1)
    per_call = np.bincount(calls.tape, minlength=n).astype(np.int64)
    per_t = np.bincount(targets_tape, minlength=n).astype(np.int64)
    per_s = np.bincount(sources_tape, minlength=n).astype(np.int64)
    return [
        (rec_sig, 4 * starts(counts), 4 * counts),
        (wiring, starts(per_in), per_in),
        (shape, 2 * starts(per_call), 2 * per_call),
        (t_wiring, starts(per_t), per_t),
        (s_wiring, starts(per_s), per_s),
    ]


_INPUTS, _OUTPUTS, _PRIMITIVE, _PARAMS = (
    attrgetter("inputs"), attrgetter("outputs"), attrgetter("primitive"), attrgetter("params")
)  # fmt: skip


def from_live(tapes: Sequence[Any], namespace: Mapping[str, Any]) -> TapeIndex:
    """The index of in-process tapes (or RemoteTapes of different results), from their records.

    The records are read into the same columns a received result has (C-level ``map`` calls,
    one ref per distinct tensor object), then indexed as :func:`from_remote` does.
    """
    per_tape = [t.records for t in tapes]
    counts = np.fromiter(map(len, per_tape), np.int64, len(per_tape))
    recs = list(chain.from_iterable(per_tape))
    inputs, outputs = list(map(_INPUTS, recs)), list(map(_OUTPUTS, recs))
    nin = np.fromiter(map(len, inputs), np.int64, len(recs))
    nout = np.fromiter(map(len, outputs), np.int64, len(recs))
    prims: dict[Any, int] = {}
    prim = np.fromiter(
        (prims.setdefault(p, len(prims)) for p in map(_PRIMITIVE, recs)), np.int64, len(recs)
    )
    cache: dict[Any, Any] = {}
    codes_of: dict[Any, int] = {}
    pcode = np.fromiter(
        (codes_of.setdefault(_params_key(q, cache), len(codes_of)) for q in map(_PARAMS, recs)),
        np.int64, len(recs),
    )  # fmt: skip
    gathered = Gather(len(tapes))
    results: list[Any] = []
    for t, tape in enumerate(tapes):
        for c in getattr(tape, "gradient_calls", ()):
            if c.kind == "gradient":
                k = len(results)
                results += c.results
                gathered.call(t, c.target_ids, c.source_ids, range(k, k + len(c.results)))
    variables = [v for v in chain(chain.from_iterable(t.watched() for t in tapes),
                                  namespace.values()) if isinstance(v, Variable)]  # fmt: skip
    flat_in = list(chain.from_iterable(inputs))
    flat_out = list(chain.from_iterable(outputs))
    found = [r for r in results if r is not None]
    store, refs = ObjectStore.of([*flat_in, *flat_out, *found, *variables])
    a, b, c = len(flat_in), len(flat_in) + len(flat_out), len(flat_in) + len(flat_out) + len(found)
    result_refs = np.full(len(results), -1, np.int64)
    result_refs[[i for i, r in enumerate(results) if r is not None]] = refs[b:c]
    calls = gathered.calls()
    calls.results = result_refs[calls.results] if len(calls.results) else calls.results
    var_refs: dict[int, int] = {}
    for v, r in zip(variables, refs[c:].tolist(), strict=True):
        var_refs.setdefault(v.id, r)
    from tapeviz.tf.keras_src.naming import variable_names  # (a live run: tapeviz.tf is loaded)

    names = {**variable_names(namespace), **_names(namespace)}
    own = {vid: str(store.objs[r].name).split(":")[0] for vid, r in var_refs.items()}
    return _index(store, counts, prim, pcode, nin, nout, refs[:a], refs[a:b], var_refs, calls,
                  names, own)  # fmt: skip


def index_of(infos: Sequence[Any], namespace: Mapping[str, Any]) -> TapeIndex:
    """The index of a run's tapes (its TapeInfos): from the columns of a received result."""
    if infos and hasattr(infos, "spans"):  # a received result's RemoteTapes
        return from_remote(infos, namespace)
    return from_live([i.tape for i in infos], namespace)
