"""The window's side of summarised values: a table whose big rows are summaries; fetching.

:func:`read_big` checks the ``big`` part of a received table (see :mod:`kept`);
:class:`SummarisedTable` gives those rows' tensors a :class:`~summaries.Summarised` value, and
answers the timeline's many-rows questions (sizes, sums, norms, elements) from the summaries.
:func:`fetch` asks the worker that ran the script for one value, whole (blocking: call it from
the thread pool, never the UI thread); the tensors of its row then hold the array.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.engine.tensor import freeze
from tapeviz.sandbox.process import summaries
from tapeviz.sandbox.process.remote import TensorTable
from tapeviz.sandbox.process.summaries import Summarised, ValueGone
from tapeviz.sandbox.process.wire import Frame, ProtocolError, need, text

FETCH_TIMEOUT = 30.0  # seconds a fetch waits for the worker (it may be busy) and its answer
GONE = "no longer available: run again"
_STATS = len(summaries.STATS)


class ValueSource:
    """Where a received result's summarised values can be fetched: its worker, its run."""

    __slots__ = ("pid", "pool", "token")

    def __init__(self, pool: Any, pid: int, token: str) -> None:
        self.pool, self.pid, self.token = pool, pid, token

    def fetch(self, s: Summarised, timeout: float = FETCH_TIMEOUT) -> np.ndarray:
        """Value ``s`` whole, from the worker (:class:`ValueGone` if it no longer has it)."""
        from tapeviz.sandbox.process.client import WorkerFailure

        if self.pool.values_token not in (None, self.token):  # a newer run came since
            raise ValueGone(GONE)
        try:
            frame = self.pool.call_on(
                self.pid, "value", {"token": self.token, "id": s.vid}, timeout=timeout
            )
        except WorkerFailure as exc:
            raise ValueGone(GONE if exc.reason == "gone" else f"{GONE} ({exc.message})") from None
        doc = frame.doc.get("result") if isinstance(frame.doc, dict) else None
        if not isinstance(doc, dict) or doc.get("gone") is True:
            raise ValueGone(GONE)
        arr = frame.array(need(doc, "value", dict))
        if arr.dtype != s.dtype or arr.shape != s.shape:
            raise ProtocolError("the fetched value is not the summarised one")
        return arr


def fetch(s: Summarised, timeout: float = FETCH_TIMEOUT) -> np.ndarray:
    """The full value of ``s`` (fetched once, then kept); :class:`ValueGone` if it cannot be.

    Blocks until the worker answers: call it off the UI thread.
    """
    if s.full is not None:
        return s.full
    if s.vid == summaries.SNAPSHOT:
        raise ValueGone("the full value can be fetched once the run has ended")
    if s.source is None or s.vid < 0:
        raise ValueGone(f"{GONE} (the run kept too many big values to keep this one)")
    arr = freeze(s.source.fetch(s, timeout))
    s.full = arr
    if s.on_fetched is not None:
        s.on_fetched(arr)
    return arr


def read_big(
    doc: Any, frame: Frame, codes: np.ndarray, counts: np.ndarray, pool: Any = None
) -> dict[int, tuple[Any, ...]]:
    """The summarised rows of a received table: row -> Summarised's arguments but the shape.

    Checks every row, id, statistic and array (dtype the row's, sizes within the caps).
    """
    from tapeviz.sandbox.process.results import DTYPE_CODES

    if doc is None:
        return {}
    names = list(DTYPE_CODES)
    rows, vids = frame.ints(need(doc, "rows", dict)), frame.ints(need(doc, "vids", dict))
    stats = frame.array(need(doc, "stats", dict), "float64")
    heads, thumbs = need(doc, "heads", list), need(doc, "thumbs", list)
    n = len(rows)
    if not (len(vids) == len(heads) == len(thumbs) == n) or stats.shape != (n, _STATS):
        raise ProtocolError("the summaries' columns differ in length")
    if n and (rows.min() < 0 or rows.max() >= len(codes) or len(np.unique(rows)) != n
              or vids.min() < summaries.SNAPSHOT):  # fmt: skip
        raise ProtocolError("a summary of a missing tensor")
    source = None
    if pool is not None:
        source = ValueSource(pool, need(doc, "pid", int), text(doc, "token", 64))
    out = {}
    for k, r in enumerate(rows.tolist()):
        dtype = names[int(codes[r])]
        head = frame.array(heads[k], dtype, 1)
        thumb = frame.array(thumbs[k], dtype, 2)
        if head.size > min(summaries.HEAD, counts[r]) or thumb.size > summaries.THUMB**2:
            raise ProtocolError("a summary's thumbnail is too large")
        out[r] = (np.dtype(dtype), stats[k], head, thumb, int(vids[k]), source)
    return out


class SummarisedTable(TensorTable):
    """A tensor table some of whose rows are summaries (no bytes in ``data``)."""

    def __init__(self, *args: Any, big: dict[int, tuple[Any, ...]]) -> None:
        """:class:`TensorTable`'s arguments, and :func:`read_big`'s rows."""
        super().__init__(*args)
        self.summaries = {r: Summarised(self.shape(r), *parts) for r, parts in big.items()}
        self.is_big = np.zeros(self.count, np.bool_)
        self.is_big[list(self.summaries)] = True
        for r, s in self.summaries.items():
            s.on_fetched = lambda arr, r=r: self._fetched(r, arr)

    def _fetched(self, row: int, arr: np.ndarray) -> None:
        """The full value of ``row`` arrived: its tensor (if made) holds it from now on."""
        obj = self._objs.get(row)
        if obj is not None:
            obj._value = arr

    def value(self, row: int) -> Any:
        """The value of row ``row``: the array, or its :class:`Summarised` until fetched."""
        s = self.summaries.get(row)
        if s is None:
            return super().value(row)
        return s if s.full is None else s.full

    def _patched(self, rows: np.ndarray, out: np.ndarray, what: str) -> np.ndarray:
        rows = np.asarray(rows, np.int64)
        for pos in np.flatnonzero(self.is_big[rows]).tolist():
            s = self.summaries[int(rows[pos])]
            out[pos] = {"size": s.size, "sum": s.total, "norm": np.sqrt(s.squares)}[what]
        return out

    def sizes(self, rows: np.ndarray) -> np.ndarray:
        """The element count of each row."""
        return self._patched(rows, super().sizes(rows), "size")

    def sums(self, rows: np.ndarray) -> np.ndarray:
        """The sum of each row's elements (a summary's as the worker computed it)."""
        return self._patched(rows, super().sums(rows), "sum")

    def norms(self, rows: np.ndarray) -> np.ndarray:
        """The Euclidean norm of each row (a summary's as the worker computed it)."""
        return self._patched(rows, super().norms(rows), "norm")

    def elements(self, rows: np.ndarray, index: int) -> np.ndarray:
        """Element ``index`` of each row; of a summary only if fetched or among its first."""
        rows = np.asarray(rows, np.int64)
        big = self.is_big[rows]
        out = np.full(len(rows), np.nan)
        small = np.flatnonzero(~big)
        out[small] = super().elements(rows[small], index)
        for pos in np.flatnonzero(big).tolist():
            s = self.summaries[int(rows[pos])]
            known = (s.full if s.full is not None else s.head).reshape(-1)
            if index < known.size:
                out[pos] = float(known[index])
        return out
