"""Window-side stand-ins for what the worker recorded: a tensor table and tapes over it.

:class:`RemoteTape` is an engine ``Recorder`` whose ``records`` are rebuilt from the received
columns on first use, so the graph, the stepper (``engine.backward``) and the gradient check
read it exactly as they read a live ``GradientTape``. Tensors keep the worker's ids; the worker
numbers them from a base of its own (see :mod:`tapeviz.sandbox.process.server`), so they never
collide with tensors the window makes.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from tapeviz.engine import dtypes
from tapeviz.engine.core import OpRecord, Recorder
from tapeviz.engine.primitives import Primitive
from tapeviz.engine.tape import GradientCall
from tapeviz.engine.tensor import VARIABLES, Tensor, TensorLike, Variable, freeze
from tapeviz.sandbox.process.remote_batch import make_rows
from tapeviz.sandbox.process.row_names import RowNames

_DTYPES = [dtypes.as_dtype(n) for n in ("float16", "float32", "float64", "int8", "int16",
                                         "int32", "int64", "uint8", "bool")]  # fmt: skip
_new_record = tuple.__new__
CHUNK = 1 << 22  # elements gathered at once by the per-row reductions (bounded scratch memory)
BIG_ROW = 4096  # elements of a row reduced on its own (gathering its bytes would cost more)


class TensorTable:
    """Every tensor of a received result, materialised on demand (one object per row)."""

    def __init__(
        self,
        ids: np.ndarray,
        codes: np.ndarray,
        kinds: np.ndarray,
        dims: np.ndarray,
        dim_offsets: np.ndarray,
        offsets: np.ndarray,
        data: bytes | memoryview,
        names: RowNames,
    ) -> None:
        self.ids = ids
        self.codes = codes
        self.kinds = kinds  # 0 tensor, 1 variable, 2 trainable variable
        self.dims = dims
        self.dim_offsets = dim_offsets
        self.offsets = offsets
        self.data = data
        self.names = names  # row -> name (RowNames: two columns read as a dict)
        self.count = len(ids)
        self._objs: dict[int, TensorLike] = {}  # the rows made so far (most never are)

    def shape(self, row: int) -> tuple[int, ...]:
        """The shape of row ``row``."""
        return tuple(int(d) for d in self.dims[self.dim_offsets[row] : self.dim_offsets[row + 1]])

    def value(self, row: int) -> Any:
        """The value of row ``row`` as the engine holds it (numpy scalar or read-only array)."""
        dt = _DTYPES[self.codes[row]].np
        a, b = int(self.offsets[row]), int(self.offsets[row + 1])
        arr = np.frombuffer(self.data, dtype=dt, count=(b - a) // dt.itemsize, offset=a)
        return freeze(arr.reshape(self.shape(row)))

    def values(self, rows: np.ndarray) -> np.ndarray:
        """The values of many scalar rows of one dtype at once (for per-step series)."""
        if not len(rows):
            return np.zeros(0)
        dt = _DTYPES[self.codes[rows[0]]].np
        if np.any(self.codes[rows] != self.codes[rows[0]]) or np.any(
            self.offsets[rows + 1] - self.offsets[rows] != dt.itemsize
        ):
            return np.array([np.asarray(self.value(int(r)), np.float64).sum() for r in rows])
        return self.gather(self.offsets[rows], dt)

    # -- many rows at once (per-step series, without materialising tensors) ----------------
    def sizes(self, rows: np.ndarray) -> np.ndarray:
        """The element count of each row."""
        rows = np.asarray(rows, np.int64)
        itemsize = _ITEMSIZES[self.codes[rows]]
        return (self.offsets[rows + 1] - self.offsets[rows]) // itemsize

    def sums(self, rows: np.ndarray) -> np.ndarray:
        """The sum of each row's elements, in float64 (nan and inf propagate)."""
        return self._reduce(rows, squared=False)

    def norms(self, rows: np.ndarray) -> np.ndarray:
        """The Euclidean norm of each row, in float64 (nan if an element is nan)."""
        return np.sqrt(self._reduce(rows, squared=True))

    def elements(self, rows: np.ndarray, index: int) -> np.ndarray:
        """Element ``index`` (of the flattened value) of each row, in float64; nan if too small."""
        rows = np.asarray(rows, np.int64)
        out = np.full(len(rows), np.nan)
        ok = np.flatnonzero(self.sizes(rows) > index) if len(rows) else rows
        for sel, dt in self._by_dtype(rows[ok]):
            starts = self.offsets[rows[ok][sel]] + index * dt.itemsize
            out[ok[sel]] = self._pick(starts, dt)
        return out

    def gather(self, starts: np.ndarray, dt: np.dtype) -> np.ndarray:
        """One element of ``dt`` from each byte offset in ``starts`` (a new array of ``dt``)."""
        flat = np.frombuffer(self.data, dtype=np.uint8)
        return flat[starts[:, None] + np.arange(dt.itemsize)].reshape(-1).view(dt)

    def _pick(self, starts: np.ndarray, dt: np.dtype) -> np.ndarray:
        return self.gather(starts, dt).astype(np.float64)

    def _by_dtype(self, rows: np.ndarray) -> Iterator[tuple[np.ndarray, np.dtype]]:
        """(positions in ``rows``, numpy dtype) for each dtype among the rows."""
        codes = self.codes[rows]
        for code in np.flatnonzero(np.bincount(codes, minlength=len(_DTYPES))).tolist():
            yield np.flatnonzero(codes == code), _DTYPES[code].np

    def _reduce(self, rows: np.ndarray, squared: bool) -> np.ndarray:
        """Sum (of squares) of each row's elements: one gather per dtype, in bounded chunks."""
        rows = np.asarray(rows, np.int64)
        out = np.zeros(len(rows))
        for sel, dt in self._by_dtype(rows):
            r = rows[sel]
            counts = (self.offsets[r + 1] - self.offsets[r]) // dt.itemsize
            if not counts.any():
                continue
            if counts.max() == 1 and counts.min() == 1:  # scalars: one pick
                v = self._pick(self.offsets[r], dt)
                out[sel] = v * v if squared else v
                continue
            big = counts >= BIG_ROW
            for pos in np.flatnonzero(big).tolist():  # a network's weights: one view each
                a = np.frombuffer(self.data, dt, int(counts[pos]), int(self.offsets[r[pos]]))
                a = a.astype(np.float64)
                out[sel[pos]] = np.dot(a, a) if squared else a.sum()
            sel, r, counts = sel[~big], r[~big], counts[~big]
            begin = 0
            bounds = np.cumsum(counts)
            while begin < len(r):  # rows whose elements fit the chunk (at least one row)
                end = max(begin + 1, int(np.searchsorted(bounds, bounds[begin] - counts[begin]
                                                         + CHUNK, "right")))  # fmt: skip
                out[sel[begin:end]] = self._reduce_chunk(r[begin:end], counts[begin:end], dt,
                                                         squared)  # fmt: skip
                begin = end
        return out

    def _reduce_chunk(
        self, rows: np.ndarray, counts: np.ndarray, dt: np.dtype, squared: bool
    ) -> np.ndarray:
        total = int(counts.sum())
        out = np.zeros(len(rows))
        if total == 0:
            return out
        starts = np.repeat(self.offsets[rows], counts)
        first = np.repeat(np.cumsum(counts) - counts, counts)
        byte = starts + (np.arange(total) - first) * dt.itemsize
        values = self._pick(byte, dt)
        if squared:
            values *= values
        nonempty = np.flatnonzero(counts)
        cuts = (np.cumsum(counts) - counts)[nonempty]
        out[nonempty] = np.add.reduceat(values, cuts)
        return out

    def forget(self, rows: np.ndarray) -> None:
        """Drop the tensors made for ``rows`` (not variables): the next use makes them again."""
        rows = np.asarray(rows, np.int64)
        objs = self._objs
        for r in rows[self.kinds[rows] == 0].tolist():
            objs.pop(r, None)

    def tensor(self, row: int) -> TensorLike:
        """The Tensor (or Variable) of row ``row``."""
        obj = self._objs.get(row)
        if obj is None:
            kind, code = int(self.kinds[row]), int(self.codes[row])
            obj = self.make(row, self.value(row), self.names.get(row), int(self.ids[row]),
                            kind, code)  # fmt: skip
        return obj

    def make(self, row: int, value: Any, name: str | None, tid: int, kind: int,
             code: int) -> TensorLike:  # fmt: skip
        """Make (and keep) row ``row``'s Tensor, or Variable for a ``kind`` above 0."""
        if kind:
            var = object.__new__(Variable)
            var._value, var.dtype, var.id = value, _DTYPES[code], tid
            var.name = name or "Variable:0"
            var.trainable = kind == 2
            var._snapshot = None
            VARIABLES[tid] = var
            obj: TensorLike = var
        else:
            obj = Tensor(value, _DTYPES[code], name, tid)
        self._objs[row] = obj
        return obj


_ITEMSIZES = np.array([d.np.itemsize for d in _DTYPES], np.int64)


class _Calls(NamedTuple):
    kind: str
    targets: tuple[int, ...]
    sources: tuple[int, ...]
    results: tuple[int, ...]


CALL_PARTS = ("targets", "sources", "results")  # a call's variable-length parts, in order


class CallColumns(NamedTuple):
    """Every gradient() call of a result as columns, in tape order; a tape's are a range."""

    tape: np.ndarray  # per call: its tape
    kind: np.ndarray  # per call: an index into ``kinds``
    kinds: list[str]
    t_off: np.ndarray  # call c's target ids are targets[t_off[c]:t_off[c + 1]]
    targets: np.ndarray
    s_off: np.ndarray  # its source ids, likewise
    sources: np.ndarray
    r_off: np.ndarray  # its result rows (-1 for None), likewise
    results: np.ndarray
    seeds: dict[int, tuple[np.ndarray | None, ...]] = {}  # noqa: RUF012  call -> output_gradients

    def rows(self, first: int, end: int) -> tuple[_Calls, ...]:
        """Calls ``first`` … ``end - 1`` as (kind, target ids, source ids, result rows)."""
        return tuple(
            _Calls(
                self.kinds[int(self.kind[c])],
                tuple(self.targets[self.t_off[c] : self.t_off[c + 1]].tolist()),
                tuple(self.sources[self.s_off[c] : self.s_off[c + 1]].tolist()),
                tuple(self.results[self.r_off[c] : self.r_off[c + 1]].tolist()),
            )
            for c in range(first, end)
        )


class RecordColumns(NamedTuple):
    """Every record of a result as columns, shared by the result's tapes (rows of the table)."""

    prim: np.ndarray  # per record: an index into ``prims``
    param: np.ndarray  # per record: an index into ``params``
    watched: np.ndarray  # per record: recorded for gradients
    ins: np.ndarray  # the input rows of every record, one after another
    in_off: np.ndarray  # record k's inputs are ins[in_off[k]:in_off[k + 1]]
    outs: np.ndarray  # the output rows, likewise
    out_off: np.ndarray
    prims: list[Primitive]
    params: list[Mapping[str, Any]]


class RemoteTape(Recorder):
    """A tape the worker recorded; reads like a finished ``GradientTape``."""

    for_gradients = True
    kind = "GradientTape"  # how pretty() names it: what the worker recorded

    def __init__(
        self,
        table: TensorTable,
        recs: dict[str, Any],
        k: int,
        watched: Sequence[int],
        persistent: bool,
        watch_accessed: bool,
    ) -> None:
        """Tape ``k`` of a result whose records, tape bounds and calls ``recs`` holds."""
        self.watch_accessed_variables = watch_accessed
        self.table = table
        self._recs = recs  # shared by the result's tapes: a 10,000-tape loop keeps 10,000 of us
        self._k = k
        self._watched_rows = watched
        self._persistent = persistent
        self._records: list[OpRecord] | None = None
        self._tracked_ids: dict[int, None] | None = None
        self._watched_map: dict[int, TensorLike] | None = None
        self._gradient_calls: list[GradientCall] | None = None
        self._scanned = 0
        self._dead_end = False

    @property
    def persistent(self) -> bool:
        """Whether the tape was persistent."""
        return self._persistent

    @property
    def span(self) -> tuple[int, int]:
        """The rows of the result's record columns that are this tape's: span[0] … span[1] - 1."""
        bounds, k = self._recs["bounds"], self._k
        return int(bounds[k]), int(bounds[k + 1])

    def __len__(self) -> int:
        bounds, k = self._recs["bounds"], self._k
        return int(bounds[k + 1] - bounds[k])

    @property
    def columns(self) -> RecordColumns:
        """The records of every tape of the result as columns (``span`` is this tape's part)."""
        r = self._recs
        cols = r.get("columns")
        if cols is None:
            c = r["cols"]
            cols = r["columns"] = RecordColumns(
                c["prim"], c["param"], c["watched"], c["in"], r["in_off"], c["out"],
                r["out_off"], r["prims"], r["params"],
            )  # fmt: skip
        return cols

    @property
    def call_rows(
        self,
    ) -> tuple[tuple[str, tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]:
        """Each gradient call as (kind, target ids, source ids, result rows; -1 for None).

        Made from the result's call columns at each use: a 10,000-tape run keeps no per-call
        objects.
        """
        first, k = self._recs["first_call"], self._k
        return self._recs["calls"].rows(int(first[k]), int(first[k + 1]))

    @property
    def op_labels(self) -> list[str | None] | None:
        """The framework's own name of each op (torch's ``MulBackward0``), if it sent them."""
        labels = self._recs.get("labels")
        if labels is None:
            return None
        names, column = labels
        a, b = self.span
        return [names[i] if i >= 0 else None for i in column[a:b].tolist()]

    @property
    def grad_before(self) -> dict[int, Any] | None:
        """torch: the ``.grad`` each input held before this pass added to it (engine id → value)."""
        return self._recs.get("grad_before", {}).get(self._k)

    @property
    def hooked(self) -> dict[int, Any] | None:
        """torch: what ``register_hook`` functions made of a tensor's gradient (engine id)."""
        return self._recs.get("hooked", {}).get(self._k)

    @property
    def watched_rows(self) -> tuple[int, ...]:
        """The table rows of the watched tensors and variables, in order."""
        return tuple(self._watched_rows)

    @property
    def records(self) -> list[OpRecord]:  # type: ignore[override]
        """The recorded ops, rebuilt on first use."""
        if self._records is None:
            self._records = self._build()
        return self._records

    def rows(self) -> list[OpRecord]:  # type: ignore[override]
        """The records (what the backward walk reads: a received tape has no pending ops)."""
        return self.records

    def op_count(self) -> int:
        """How many ops the tape recorded."""
        return len(self)

    def _build(self) -> list[OpRecord]:
        r = self._recs
        cols, prims, params = r["cols"], r["prims"], r["params"]
        (a, b), in_off, out_off = self.span, r["in_off"], r["out_off"]
        i0, o0 = int(in_off[a]), int(out_off[a])
        ins = cols["in"][i0 : in_off[b]].tolist()  # (the tape's rows as ints, once)
        outs = cols["out"][o0 : out_off[b]].tolist()
        ins_at = (in_off[a : b + 1] - i0).tolist()
        outs_at = (out_off[a : b + 1] - o0).tolist()
        named = []  # the rows in the order the records name them (the tensors made so)
        for k in range(b - a):
            named += ins[ins_at[k] : ins_at[k + 1]]
            named += outs[outs_at[k] : outs_at[k + 1]]
        make_rows(self.table, named)
        objs = self.table._objs
        ids = cols["id"][a:b].tolist()
        prim, param = cols["prim"][a:b].tolist(), cols["param"][a:b].tolist()
        watched = cols["watched"][a:b].tolist()
        scoped = r.get("scopes")
        names, scope = scoped if scoped is not None else ((), None)
        scopes = scope[a:b].tolist() if scope is not None else [-1] * (b - a)
        out = []
        for k in range(b - a):
            xs = tuple([objs[i] for i in ins[ins_at[k] : ins_at[k + 1]]])
            ys = tuple([objs[i] for i in outs[outs_at[k] : outs_at[k + 1]]])
            at = () if scopes[k] < 0 else names[scopes[k]]
            fields = (ids[k], prims[prim[k]], xs, ys, params[param[k]], bool(watched[k]), at)
            out.append(_new_record(OpRecord, fields))
        return out

    def release(self) -> None:
        """Forget the records rebuilt for this tape and their tensors (rebuilt on next use).

        A timeline that scrubs through 10,000 steps keeps only the tapes it shows.
        """
        if self._records is None:
            return
        r, (a, b) = self._recs, self.span
        ins = r["cols"]["in"][r["in_off"][a] : r["in_off"][b]]
        outs = r["cols"]["out"][r["out_off"][a] : r["out_off"][b]]
        self.table.forget(np.concatenate([ins, outs]))
        self._records = self._tracked_ids = self._watched_map = self._gradient_calls = None
        self._scanned, self._dead_end = 0, False

    @property
    def _tracked(self) -> dict[int, None]:  # type: ignore[override]
        if self._tracked_ids is None:
            tracked = dict.fromkeys(self._watched)
            for rec in self.records:
                if rec.watched:
                    for o in rec.outputs:
                        tracked[o.id] = None
            self._tracked_ids = tracked
        return self._tracked_ids

    @property
    def _watched(self) -> dict[int, TensorLike]:  # type: ignore[override]
        if self._watched_map is None:
            ts = [self.table.tensor(r) for r in self._watched_rows]
            self._watched_map = {t.id: t for t in ts}
        return self._watched_map

    def watched(self) -> tuple[TensorLike, ...]:
        """Every watched tensor and variable, in order."""
        return tuple(self._watched.values())

    def watched_variables(self) -> tuple[Variable, ...]:
        """The watched variables, in order."""
        return tuple(v for v in self._watched.values() if isinstance(v, Variable))

    @property
    def gradient_calls(self) -> list[GradientCall]:
        """The gradient()/jacobian() calls made of the tape, with their results."""
        if self._gradient_calls is None:
            tensor = self.table.tensor
            first = int(self._recs["first_call"][self._k])
            seeds = self._recs["calls"].seeds
            self._gradient_calls = [
                GradientCall(c.kind, c.targets, c.sources,
                             tuple(None if r < 0 else tensor(r) for r in c.results),
                             seeds.get(first + i))
                for i, c in enumerate(self.call_rows)
            ]  # fmt: skip
        return self._gradient_calls

    def pretty(self, names: Mapping[int, str] | None = None) -> str:
        """The recorded ops as text (the same format as ``GradientTape.pretty``)."""
        from tapeviz.engine.pretty import format_tape

        return format_tape(self, names)

    def __repr__(self) -> str:
        return f"<RemoteTape persistent={self._persistent} ops={len(self)}>"
