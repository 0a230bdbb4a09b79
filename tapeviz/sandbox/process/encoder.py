"""A run's tapes turned into columns as they finish: the incremental half of ``results.encode``.

The worker hands each finished tape to an :class:`Encoder` while the script still runs (at
its checkpoints, ``server.TICK_S`` apart), so when a 10,000-tape script ends only its last
tapes are left to encode, and a streamed run's snapshots no longer encode the whole run again.

What can still change after a tape is encoded is left for the document: anything that is
not a plain engine ``Tensor`` (Variables, Keras variables, torch tensors and parameters can
be assigned) gets a *late* row, numbered apart (-1, -2, …) and made when the document is;
plain Tensors are immutable, so their rows (value bytes, shape, name) are made when first
seen. A tape that changed after it was encoded (a persistent tape called again, a tape
re-entered) makes the encoder unusable: the caller encodes the run afresh.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from itertools import chain, compress, repeat
from operator import attrgetter, methodcaller
from typing import Any

import numpy as np

from tapeviz.engine import dtypes
from tapeviz.engine.core import OpRecord
from tapeviz.engine.state import STATE
from tapeviz.engine.tape import GradientCall
from tapeviz.engine.tensor import Tensor, TensorLike, Variable
from tapeviz.sandbox.process import kept
from tapeviz.sandbox.process import params as P
from tapeviz.sandbox.process.kept import Policy
from tapeviz.sandbox.process.wire import ProtocolError, Writer

DTYPE_CODES = {
    name: i
    for i, name in enumerate(
        ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool")
    )
}
_ENGINE_DTYPES = [dtypes.as_dtype(name) for name in DTYPE_CODES]
CODES = {dt: i for i, dt in enumerate(_ENGINE_DTYPES)}
_MISSING = -(1 << 62)
_DTYPE, _VALUE, _SHAPE = attrgetter("dtype"), attrgetter("_value"), attrgetter("shape")
_RECORDS, _PRIM = attrgetter("records"), attrgetter("primitive")
_INPUTS, _OUTPUTS, _WATCHED = attrgetter("inputs"), attrgetter("outputs"), attrgetter("watched")
_PARAMS, _ID, _BYTES = attrgetter("params"), attrgetter("id"), methodcaller("tobytes")
_NBYTES = attrgetter("nbytes")


def _name(t: Any) -> Any:
    return getattr(t, "name", None)


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


class _Rows:
    """Rows of the tensor table for a batch of distinct objects, in ``order``'s row order."""

    def __init__(self, objs: list[TensorLike], threshold: int | None) -> None:
        try:
            codes = np.fromiter(map(CODES.__getitem__, map(_DTYPE, objs)), np.int64, len(objs))
        except KeyError:
            bad = next(t for t in objs if t.dtype not in CODES)
            raise ProtocolError(f"tensors of dtype {bad.dtype.name} cannot be shown") from None
        values = list(map(_VALUE, objs))
        arrays = np.fromiter(
            map(operator.is_, map(type, values), repeat(np.ndarray)), np.bool_, len(values)
        )
        groups = codes + 100 * arrays
        self.order = np.argsort(groups, kind="stable")  # scalars of each dtype, then arrays
        order = self.order.tolist()
        objs = [objs[i] for i in order]
        values = [values[i] for i in order]
        groups = groups[self.order]
        shapes = list(map(_SHAPE, values))
        is_var = list(map(isinstance, objs, repeat(Variable)))  # (Keras' variables too)
        self.ids = np.fromiter(map(_ID, objs), np.int64, len(objs))
        self.codes = groups % 100
        self.kinds = np.array(
            [(2 if t.trainable else 1) if v else 0 for t, v in zip(objs, is_var, strict=True)]
            if any(is_var)
            else np.zeros(len(objs)),
            np.int64,
        )
        self.ndims = np.fromiter(map(len, shapes), np.int64, len(shapes))
        self.dims = np.fromiter(chain.from_iterable(shapes), np.int64)
        names = list(map(_name, objs))
        self.name_rows = np.flatnonzero(np.fromiter(map(bool, names), np.bool_, len(names)))
        self.names = [names[i] for i in self.name_rows.tolist()]
        self.big: list[int] = []  # positions in this batch of values sent summarised
        self.big_values: list[np.ndarray] = []
        first = int(np.searchsorted(groups, 100))  # arrays come after the scalars
        if threshold is not None and first < len(values):
            sizes = np.fromiter(map(_NBYTES, values[first:]), np.int64, len(values) - first)
            self.big = (np.flatnonzero(sizes > threshold) + first).tolist()
            for k in self.big:
                self.big_values.append(values[k])
                values[k] = np.empty(0, values[k].dtype)
        self.data = _values_bytes(values, groups)


class Table:
    """The run's tensor table, grown a batch of uses at a time (see the module's text).

    Objects are numbered as first seen (the columns hold these numbers); a batch's rows are
    made at :meth:`flush` (scalars of a dtype together, then arrays: a few copies for all the
    bytes), and :meth:`final` maps the numbers to the rows the document has.
    """

    def __init__(self, threshold: int | None) -> None:
        self.threshold = threshold
        self.row_of: dict[int, int] = {}  # id(object) -> its number
        self.count = 0  # numbers given
        self.early: list[TensorLike] = []  # plain Tensors with a row (held: ids stay theirs)
        self._pending: list[TensorLike] = []  # plain Tensors waiting for flush()
        self._pending_at: list[int] = []  # their numbers
        self.late: list[TensorLike] = []
        self._late_at: list[int] = []
        self.batches: list[_Rows] = []
        self._row = np.zeros(0, np.int64)  # number -> row (late ones: after seal())
        self.last: dict[int, int] = {}  # a big value's number -> its last use
        self.uses = 0
        self._late: _Rows | None = None

    def rows(self, objs: list[Any]) -> np.ndarray:
        """The number of each use in ``objs`` (rows once sealed: :meth:`final`)."""
        n = len(objs)
        if not n:
            return np.zeros(0, np.int64)
        keys = list(map(id, objs))
        row_of = self.row_of
        if n < 256:  # (a small run: dicts cost less than numpy's calls)
            new = {k: o for k, o in zip(keys, objs, strict=True) if k not in row_of}
            if new:
                row_of.update(zip(new, self._new(list(new.values())).tolist(), strict=True))
            found = np.array(list(map(row_of.__getitem__, keys)), np.int64)
            miss = found[:0]
        else:
            found = np.fromiter(map(row_of.get, keys, repeat(_MISSING)), np.int64, n)
            miss = np.flatnonzero(found == _MISSING)
        if len(miss):
            new_keys, first, inverse = np.unique(
                np.array(keys, np.int64)[miss], return_index=True, return_inverse=True
            )
            assigned = self._new([objs[i] for i in miss[first].tolist()])
            self.row_of.update(zip(new_keys.tolist(), assigned.tolist(), strict=True))
            found[miss] = assigned[inverse.reshape(-1)]
        if self.last:
            at = np.flatnonzero(np.isin(found, np.fromiter(self.last, np.int64, len(self.last))))
            self.last.update(zip(found[at].tolist(), (at + self.uses).tolist(), strict=True))
        self.uses += n
        return found

    def _new(self, objs: list[TensorLike]) -> np.ndarray:
        numbers = np.arange(self.count, self.count + len(objs), dtype=np.int64)
        self.count += len(objs)
        plain = list(map(operator.is_, map(type, objs), repeat(Tensor)))
        other = list(map(operator.not_, plain))
        nums = numbers.tolist()
        self._pending += compress(objs, plain)
        self._pending_at += compress(nums, plain)
        self.late += compress(objs, other)
        self._late_at += compress(nums, other)
        return numbers

    def flush(self) -> None:
        """Make the rows of the plain Tensors seen since the last flush."""
        if not self._pending:
            return
        batch = _Rows(self._pending, self.threshold)
        at = np.array(self._pending_at, np.int64)[batch.order]  # numbers in row order
        base = len(self.early)
        self._grow()
        self._row[at] = base + np.arange(len(at))
        self.early.extend(self._pending[i] for i in batch.order.tolist())
        for k in batch.big:
            self.last.setdefault(int(at[k]), self.uses)
        self.batches.append(batch)
        self._pending, self._pending_at = [], []

    def _grow(self) -> None:
        if len(self._row) < self.count:
            grown = np.full(max(self.count, 2 * len(self._row)), -1, np.int64)
            grown[: len(self._row)] = self._row
            self._row = grown

    def seal(self) -> None:
        """Make every row now (late ones with their values as they are now)."""
        self.flush()
        self._grow()
        self._late = _Rows(self.late, self.threshold) if self.late else None
        if self._late is not None:
            at = np.array(self._late_at, np.int64)[self._late.order]
            self._row[at] = len(self.early) + np.arange(len(at))

    def final(self, rows: Any) -> np.ndarray:
        """Numbers (from :meth:`rows`) as the sealed table's rows."""
        return self._row[np.asarray(rows, np.int64).reshape(-1)]

    def doc(self, writer: Writer, policy: Policy | None) -> dict[str, Any]:
        """The sealed table's columns (values above the policy's size summarised)."""
        batches = [*self.batches, *([self._late] if self._late is not None else [])]
        ids, codes, kinds, ndims, dims, data = [], [], [], [], [], []
        name_rows: list[np.ndarray] = []
        name_index: list[int] = []
        distinct: dict[str, int] = {}
        big_rows: list[int] = []
        big_values: list[np.ndarray] = []
        base = 0
        for b in batches:
            ids.append(b.ids)
            codes.append(b.codes)
            kinds.append(b.kinds)
            ndims.append(b.ndims)
            dims.append(b.dims)
            data.append(b.data)
            name_rows.append(b.name_rows + base)
            name_index += [distinct.setdefault(v, len(distinct)) for v in b.names]
            big_rows += [base + k for k in b.big]
            big_values += b.big_values
            base += len(b.ids)
        last: list[int] = []
        if big_rows:  # (each big row's number, to read its last use)
            number_of = np.full(base, -1, np.int64)
            given = np.flatnonzero(self._row >= 0)
            number_of[self._row[given]] = given
            last = [self.last.get(int(number_of[r]), self.uses) for r in big_rows]
        big = kept.big_part(big_rows, big_values, last, policy, writer)
        return {
            "ids": writer.ints(_cat(ids)),
            "dtypes": writer.ints(_cat(codes)),
            "kinds": writer.ints(_cat(kinds)),
            "ndims": writer.ints(_cat(ndims)),
            "dims": writer.ints(_cat(dims)),
            "data": writer.blob(b"".join(data)),
            "name_rows": writer.ints(_cat(name_rows)),
            "name_index": writer.ints(name_index),
            "name_list": list(distinct),
            **({"big": big} if big is not None else {}),
        }


def _cat(parts: list[Any]) -> np.ndarray:
    return np.concatenate(parts) if parts else np.zeros(0, np.int64)


def _param_key(params: Any) -> Any:
    try:
        key = tuple(params.items())
        hash(key)
        return key
    except TypeError:  # an index array: no dedupe
        return None


class Encoder:
    """A run's finished tapes as columns, added a batch at a time (:meth:`add`)."""

    def __init__(self, threshold: int | None = None) -> None:
        self.table = Table(threshold)
        self.n = 0  # tapes encoded
        self._settled = 0  # tapes finished at the last add_finished()
        self.broken = False  # an add() failed: the run is encoded afresh
        self._seen: dict[str, list[int]] = {k: [] for k in ("tape", "records", "count", "calls")}
        self._cols: dict[str, list[np.ndarray]] = {
            k: [] for k in ("id", "prim", "watched", "param", "nin", "nout", "in", "out")
        }
        self.prims: dict[Any, int] = {}
        self._param_codes: dict[Any, int] = {}
        self.params: list[Any] = [None]  # code 0: no params
        self._calls: dict[str, list[Any]] = {
            k: [] for k in ("tape", "kind", "n", "targets", "sources", "results", "mask")
        }
        self.kinds: dict[str, int] = {}
        self.seeds: list[tuple[int, tuple[Any, ...]]] = []  # (call, output gradients given)
        self.n_calls = 0

    def add(self, tapes: Sequence[Any]) -> None:
        """Encode ``tapes[self.n:]`` (finished tapes; the ones before were added already)."""
        if self.broken or len(tapes) <= self.n:
            return
        try:
            self._add(tapes[self.n :])
        except Exception:
            self.broken = True
            raise

    def add_finished(self, created: list[Any], limit: int) -> None:
        """Encode the run's finished tapes that were finished at the last call already.

        Finished: not the newest (it may still record) and before the first one still inside
        its ``with`` block; at most ``limit`` tapes in all (the run keeps no more). Waiting a
        call (a tick) lets a step's tapes get their gradient() calls first: a GAN's two tapes
        end their ``with`` blocks before either is asked (encoded in between, the run would be
        encoded afresh at its end).
        """
        stop = min(len(created) - 1, limit, self._settled)
        self._settled = len(created) - 1
        if stop <= self.n or self.broken:
            return
        new = created[self.n : stop]
        entered = [id(r) for r in STATE.entered]
        if entered:
            ids = list(map(id, new))
            new = new[: min([ids.index(e) for e in entered if e in ids], default=len(new))]
        if new:
            try:
                self._add(new)
            except Exception:
                self.broken = True
                raise

    def still(self, tapes: Sequence[Any]) -> bool:
        """Whether the tapes added so far are ``tapes``' first ones, unchanged since."""
        if self.broken or len(tapes) < self.n:
            return False
        recorders = list(tapes[: self.n])
        lists = list(map(_RECORDS, recorders))
        calls = list(map(getattr, recorders, repeat("gradient_calls"), repeat(())))
        seen = self._seen
        return (
            list(map(id, recorders)) == seen["tape"]
            and list(map(id, lists)) == seen["records"]
            and list(map(len, lists)) == seen["count"]
            and list(map(id, chain.from_iterable(calls))) == seen["calls"]
        )

    def _add(self, tapes: Sequence[Any]) -> None:
        recorders = list(tapes)
        per_tape = list(map(_RECORDS, recorders))
        calls = list(map(getattr, recorders, repeat("gradient_calls"), repeat(())))
        recs = list(chain.from_iterable(per_tape))
        n = len(recs)
        prim_objs = list(map(_PRIM, recs))
        for p in dict.fromkeys(prim_objs):
            self.prims.setdefault(p, len(self.prims))
        inputs, outputs = list(map(_INPUTS, recs)), list(map(_OUTPUTS, recs))
        cols = self._cols
        cols["id"].append(np.fromiter(map(_ID, recs), np.int64, n))
        cols["prim"].append(np.fromiter(map(self.prims.__getitem__, prim_objs), np.int64, n))
        cols["watched"].append(np.fromiter(map(_WATCHED, recs), np.bool_, n))
        cols["param"].append(self._param_column(recs))
        cols["nin"].append(np.fromiter(map(len, inputs), np.int64, n))
        cols["nout"].append(np.fromiter(map(len, outputs), np.int64, n))
        cols["in"].append(self.table.rows(list(chain.from_iterable(inputs))))
        cols["out"].append(self.table.rows(list(chain.from_iterable(outputs))))
        self._add_calls(calls)
        seen = self._seen
        seen["tape"] += map(id, recorders)
        seen["records"] += map(id, per_tape)
        seen["count"] += map(len, per_tape)
        seen["calls"] += map(id, chain.from_iterable(calls))
        self.table.flush()
        self.n += len(tapes)

    def _param_column(self, recs: list[OpRecord]) -> np.ndarray:
        column = np.zeros(len(recs), np.int64)
        params = list(map(_PARAMS, recs))
        codes = self._param_codes
        for k in compress(range(len(params)), params):  # the records that have params
            p = params[k]
            key = _param_key(p)
            code = codes.get(key) if key is not None else None
            if code is None:
                code = len(self.params)
                self.params.append(p)
                if key is not None:
                    codes[key] = code
            column[k] = code
        return column

    def _add_calls(self, per_tape: list[Any]) -> None:
        """The tapes' gradient() calls (a 10,000-step loop makes 10,000), by C-level passes."""
        calls = list(chain.from_iterable(per_tape))
        if not calls:
            return
        if not all(map(operator.is_, map(type, calls), repeat(GradientCall))):
            calls = [GradientCall(c.kind, tuple(c.target_ids), tuple(c.source_ids),
                                  tuple(c.results), getattr(c, "seeds", None))
                     for c in calls]  # fmt: skip
        c = self._calls
        c["tape"].append(self.n + np.repeat(np.arange(len(per_tape)), list(map(len, per_tape))))
        kind_of, tids, sids, outs, given = zip(*calls, strict=True)
        for k in dict.fromkeys(kind_of):
            self.kinds.setdefault(k, len(self.kinds))
        c["kind"] += map(self.kinds.__getitem__, kind_of)
        c["targets"] += chain.from_iterable(tids)
        c["sources"] += chain.from_iterable(sids)
        c["n"] += zip(map(len, tids), map(len, sids), map(len, outs), strict=True)
        flat = list(chain.from_iterable(outs))
        mask = list(map(isinstance, flat, repeat(TensorLike)))
        c["mask"] += mask
        c["results"].append(self.table.rows(list(compress(flat, mask))))
        self.seeds += [(self.n_calls + k, g) for k, g in enumerate(given) if g is not None]
        self.n_calls += len(calls)

    def columns(self, writer: Writer) -> dict[str, Any]:
        """The records' and calls' columns (call after ``table.seal()``)."""
        cols, c, final = self._cols, self._calls, self.table.final
        n = np.array(c["n"], np.int64).reshape(-1, 3)
        results = np.full(len(c["mask"]), -1, np.int64)  # -1: a None result
        results[np.array(c["mask"], np.bool_)] = final(_cat(c["results"]))
        return {
            "prims": [p.name for p in self.prims],
            "params": [{} if p is None else P.encode_params(p, writer) for p in self.params],
            **{k: writer.ints(_cat(cols[k])) for k in ("id", "prim", "param", "nin", "nout")},
            "watched": writer.ints(_cat(cols["watched"]).astype(np.int64)),
            "in": writer.ints(final(_cat(cols["in"]))),
            "out": writer.ints(final(_cat(cols["out"]))),
            "call_tape": writer.ints(_cat(c["tape"])),
            "call_kinds": list(self.kinds),
            "call_kind": writer.ints(c["kind"]),
            "call_n_targets": writer.ints(n[:, 0]),
            "call_n_sources": writer.ints(n[:, 1]),
            "call_n_results": writer.ints(n[:, 2]),
            "call_targets": writer.ints(c["targets"]),
            "call_sources": writer.ints(c["sources"]),
            "call_seeds": [[k, [_seed(v, writer) for v in g]] for k, g in self.seeds],
            "call_results": writer.ints(results),
        }


def _seed(value: Any, writer: Writer) -> Any:
    """One output gradient of a call, as an array (None: that target was seeded with ones)."""
    if value is None:
        return None
    arr = np.asarray(value)
    return writer.array(arr) if arr.dtype.kind in "biuf" else None
