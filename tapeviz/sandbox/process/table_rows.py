"""The tensor table of a run's answer, its rows made a batch of objects at a time (worker side).

Plain engine Tensors are immutable: their row (value bytes, shape, name) is made when first
seen. Anything else (Variables, Keras variables, torch tensors and parameters) can change until
the run ends: those rows are *late*, made when the document is (:meth:`Table.seal`). The
window's side is ``remote.TensorTable``.
"""

from __future__ import annotations

import operator
from itertools import chain, compress, repeat
from operator import attrgetter, methodcaller
from typing import Any

import numpy as np

from tapeviz.engine import dtypes
from tapeviz.engine.tensor import Tensor, TensorLike, Variable
from tapeviz.sandbox.process import kept
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
HELD_BYTES = 4096  # an array this big or bigger is held as it is until the document is made
_DTYPE, _VALUE, _SHAPE = attrgetter("dtype"), attrgetter("_value"), attrgetter("shape")
_RECORDS, _PRIM = attrgetter("records"), attrgetter("primitive")
_INPUTS, _OUTPUTS, _WATCHED = attrgetter("inputs"), attrgetter("outputs"), attrgetter("watched")
_PARAMS, _ID, _BYTES = attrgetter("params"), attrgetter("id"), methodcaller("tobytes")
_NBYTES = attrgetter("nbytes")


def _name(t: Any) -> Any:
    return getattr(t, "name", None)


def _values_parts(values: list[Any], groups: np.ndarray) -> list[Any]:
    """Every value's bytes in row order, as parts, a group (a dtype's scalars or arrays) at a time.

    A dtype's scalars are one ``bytes``; a read-only contiguous array of :data:`HELD_BYTES` or
    more (an engine value: never written again) is itself, joined when the document is made. Copied
    at once, the arrays of the tapes a run kept were held twice until it ended (the tapes hold
    them too), so a run's tapes were capped to stay within the memory limit at half as many.
    """
    parts: list[Any] = []
    bounds = np.flatnonzero(np.diff(groups)) + 1
    for a, b in zip([0, *bounds.tolist()], [*bounds.tolist(), len(values)], strict=True):
        chunk = values[a:b]
        if not chunk:
            continue
        dt = _ENGINE_DTYPES[int(groups[a]) % 100].np
        if groups[a] < 100:  # numpy scalars of one dtype
            parts.append(np.fromiter(chunk, dt, len(chunk)).tobytes())
        elif max(map(_NBYTES, chunk)) < HELD_BYTES:  # (small arrays: copied, at C speed)
            parts.extend(map(_BYTES, chunk))
        else:
            parts.extend(map(_as_is_or_bytes, chunk))
    return parts


def _as_is_or_bytes(arr: np.ndarray) -> Any:
    """``arr`` itself if nothing can write it again and it is one block; else its bytes now.

    Below :data:`HELD_BYTES` its bytes (a copy costs less than the checks, and holds little).
    """
    if arr.nbytes < HELD_BYTES or not arr.flags.c_contiguous:
        return arr.tobytes()
    base: Any = arr
    while isinstance(base, np.ndarray):  # (a read-only view of a writable array: copied)
        if base.flags.writeable:
            return arr.tobytes()
        base = base.base
    return arr


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
        self.data = _values_parts(values, groups)


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
            data += b.data
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
            "ids": writer.ints(cat(ids)),
            "dtypes": writer.ints(cat(codes)),
            "kinds": writer.ints(cat(kinds)),
            "ndims": writer.ints(cat(ndims)),
            "dims": writer.ints(cat(dims)),
            "data": writer.blob(b"".join(data)),
            "name_rows": writer.ints(cat(name_rows)),
            "name_index": writer.ints(name_index),
            "name_list": list(distinct),
            **({"big": big} if big is not None else {}),
        }


def cat(parts: list[Any]) -> np.ndarray:
    """The parts as one array (an empty int64 one for none)."""
    return np.concatenate(parts) if parts else np.zeros(0, np.int64)
