"""Where a timeline reads values: a received TensorTable, or the live tensors of an in-process run.

Both answer the same questions about many values at once, by *ref* (a row of the table, or an
index into :class:`ObjectStore`): their sums, norms, one element, their sizes. A received
result's :class:`~tapeviz.sandbox.process.remote.TensorTable` computes them from its columns
without materialising a tensor; :class:`ObjectStore` reads the tensors a live run kept.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Protocol

import numpy as np

from tapeviz.engine.tensor import TensorLike

_ID = attrgetter("id")


class Store(Protocol):
    """Values by ref, many at once (float64 results; nan where there is nothing)."""

    ids: np.ndarray  # the tensor id of every ref

    def sums(self, rows: np.ndarray) -> np.ndarray:
        """The sum of each value's elements."""
        ...

    def norms(self, rows: np.ndarray) -> np.ndarray:
        """The Euclidean norm of each value."""
        ...

    def elements(self, rows: np.ndarray, index: int) -> np.ndarray:
        """Element ``index`` of each flattened value (nan where the value is smaller)."""
        ...

    def sizes(self, rows: np.ndarray) -> np.ndarray:
        """The element count of each value."""
        ...

    def value(self, row: int) -> Any:
        """One value, as the engine holds it."""
        ...

    def shape(self, row: int) -> tuple[int, ...]:
        """One value's shape."""
        ...


class ObjectStore:
    """The tensors of an in-process run, each given a ref the first time it is added."""

    def __init__(self) -> None:
        self.objs: list[TensorLike] = []
        self._refs: dict[int, int] = {}  # id(obj) -> ref
        self._ids: list[int] = []
        self._id_array: np.ndarray | None = None

    def ref(self, t: TensorLike) -> int:
        """The ref of ``t`` (added now if new)."""
        key = id(t)
        r = self._refs.get(key)
        if r is None:
            r = self._refs[key] = len(self.objs)
            self.objs.append(t)
            self._ids.append(t.id)
            self._id_array = None
        return r

    @classmethod
    def of(cls, ts: list[TensorLike]) -> tuple[ObjectStore, np.ndarray]:
        """A store of ``ts``'s distinct objects (in order of first use) and each use's ref."""
        store = cls()
        if not ts:
            return store, np.zeros(0, np.int64)
        keys = np.fromiter(map(id, ts), np.int64, len(ts))
        order = np.argsort(keys, kind="stable")
        ranked = keys[order]
        first = np.concatenate([[True], ranked[1:] != ranked[:-1]])
        group = np.cumsum(first) - 1  # per sorted use: which distinct object
        leaders = order[first]  # each distinct object's first use (stable: the earliest)
        rank = np.empty(len(leaders), np.int64)
        rank[np.argsort(leaders)] = np.arange(len(leaders))  # refs in order of first use
        refs = np.empty(len(ts), np.int64)
        refs[order] = rank[group]
        store.objs = [ts[i] for i in np.sort(leaders).tolist()]
        store._ids = list(map(_ID, store.objs))
        store._refs = dict(zip(map(id, store.objs), range(len(store.objs)), strict=True))
        return store, refs

    @property
    def ids(self) -> np.ndarray:  # type: ignore[override]
        """The tensor id of every ref."""
        if self._id_array is None:
            self._id_array = np.array(self._ids, np.int64)
        return self._id_array

    def _values(self, rows: np.ndarray) -> list[Any]:
        objs = self.objs
        return [objs[r]._value for r in np.asarray(rows, np.int64).tolist()]

    def _scalars(self, values: list[Any]) -> np.ndarray | None:
        """The values as float64 if every one is a numpy scalar (the common, fast case)."""
        if all(isinstance(v, np.generic) for v in values):
            return np.array(values, dtype=np.float64)
        return None

    def sums(self, rows: np.ndarray) -> np.ndarray:
        """The sum of each value's elements."""
        values = self._values(rows)
        fast = self._scalars(values)
        if fast is not None:
            return fast
        return np.array([np.sum(np.asarray(v, np.float64)) for v in values], np.float64)

    def norms(self, rows: np.ndarray) -> np.ndarray:
        """The Euclidean norm of each value."""
        values = self._values(rows)
        fast = self._scalars(values)
        if fast is not None:
            return np.abs(fast)
        out = []
        for v in values:
            a = np.asarray(v, np.float64).reshape(-1)
            out.append(np.sqrt(np.dot(a, a)))
        return np.array(out, np.float64)

    def elements(self, rows: np.ndarray, index: int) -> np.ndarray:
        """Element ``index`` of each flattened value (nan where the value is smaller)."""
        out = []
        for v in self._values(rows):
            a = np.asarray(v).reshape(-1)
            out.append(float(a[index]) if a.size > index else np.nan)
        return np.array(out, np.float64)

    def sizes(self, rows: np.ndarray) -> np.ndarray:
        """The element count of each value."""
        return np.array([np.size(v) for v in self._values(rows)], np.int64)

    def value(self, row: int) -> Any:
        """One value, as the engine holds it."""
        return self.objs[row]._value

    def shape(self, row: int) -> tuple[int, ...]:
        """One value's shape."""
        return tuple(np.shape(self.objs[row]._value))


def pick(store: Store, refs: np.ndarray, how: str | int) -> np.ndarray:
    """Each ref's value summarised: ``"sum"``, ``"norm"`` or element ``how``; nan for ref -1."""
    refs = np.asarray(refs, np.int64)
    out = np.full(len(refs), np.nan)
    ok = np.flatnonzero(refs >= 0)
    if len(ok):
        if how == "sum":
            out[ok] = store.sums(refs[ok])
        elif how == "norm":
            out[ok] = store.norms(refs[ok])
        else:
            out[ok] = store.elements(refs[ok], int(how))
    return out


def element_matrix(store: Store, refs: np.ndarray, elements: np.ndarray) -> np.ndarray:
    """(refs × elements) elements of each ref's flattened value; nan for ref -1 or too small."""
    refs, elements = np.asarray(refs, np.int64), np.asarray(elements, np.int64)
    out = np.full((len(refs), len(elements)), np.nan)
    ok = np.flatnonzero(refs >= 0)
    if isinstance(store, ObjectStore):  # live tensors: one gather per value
        for pos, r in zip(ok.tolist(), refs[ok].tolist(), strict=True):
            flat = np.ravel(store.value(r))
            inside = elements < flat.size
            out[pos, inside] = flat[elements[inside]]
        return out
    for c, e in enumerate(elements.tolist()):  # a received table: one column at a time
        out[ok, c] = store.elements(refs[ok], e)
    return out
