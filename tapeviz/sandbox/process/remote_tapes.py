"""A received result's tapes as one sequence over its columns, each tape made when first read.

A 100,000-tape run made 200,000 objects (a :class:`TapeInfo` and a :class:`RemoteTape` per
tape) that every full garbage collection of the window then walked: 60 ms on the UI thread,
each time. :class:`RemoteTapes` keeps the tapes' columns and makes a tape's objects only when a
view asks for that tape; the timeline's index and the Tapes dock's rows read the columns
(``spans``, ``first_names``, ``op_counts``, ``call_rows``; ``RunResult.tape_names`` and
``tape_ops`` use them).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, overload

import numpy as np

from tapeviz.sandbox.process.fit_columns import FitColumns
from tapeviz.sandbox.process.remote import RecordColumns, RemoteTape, TensorTable
from tapeviz.sandbox.result import TapeInfo


class RemoteTapes(Sequence[TapeInfo]):
    """The tapes of a received result, in creation order; equal to the tuple of its tapes."""

    __slots__ = ("_flags", "_index", "_made", "_names", "_recs", "_rows", "_same", "_sets",
                 "_w_off", "fits", "table", "variable_names")  # fmt: skip

    def __init__(
        self,
        table: TensorTable,
        recs: dict[str, Any],
        flags: np.ndarray,
        index: np.ndarray,
        names: np.ndarray,
        name_sets: list[tuple[str, ...]],
        watched: np.ndarray,
        w_off: np.ndarray,
        fits: FitColumns | None = None,
        variable_names: dict[int, str] | None = None,
    ) -> None:
        """Tapes over ``recs``' records; tape k watches ``watched[w_off[k]:w_off[k + 1]]``.

        ``fits``: what a Keras ``fit`` marked on its tapes; ``variable_names``: the names the
        script's models give their variables (tensor id → name).
        """
        self.fits = fits
        self.variable_names = variable_names or {}
        self.table = table
        self._recs = recs
        self._flags, self._index, self._names, self._sets = flags, index, names, name_sets
        self._rows, self._w_off = watched, w_off
        self._made: list[TapeInfo | None] = [None] * len(flags)
        # A loop's tapes watch the same rows: one tuple for all of them.
        self._same: dict[tuple[int, ...], tuple[int, ...]] = {}

    def __len__(self) -> int:
        return len(self._made)

    @overload
    def __getitem__(self, k: int) -> TapeInfo: ...
    @overload
    def __getitem__(self, k: slice) -> tuple[TapeInfo, ...]: ...
    def __getitem__(self, k: int | slice) -> TapeInfo | tuple[TapeInfo, ...]:
        if isinstance(k, slice):
            return tuple(self[j] for j in range(*k.indices(len(self))))
        n = len(self._made)
        k = int(k)
        if k < 0:
            k += n
        if not 0 <= k < n:
            raise IndexError("tape index out of range")
        info = self._made[k]
        if info is None:
            info = self._made[k] = self._make(k)
        return info

    def __iter__(self) -> Iterator[TapeInfo]:
        for k in range(len(self._made)):
            yield self[k]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, tuple | RemoteTapes):
            return tuple(self) == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<RemoteTapes: {len(self)} tapes>"

    def _make(self, k: int) -> TapeInfo:
        w = self._w_off
        mine = tuple(self._rows[w[k] : w[k + 1]].tolist())
        f = int(self._flags[k])
        watched = self._same.setdefault(mine, mine)
        tape = RemoteTape(self.table, self._recs, k, watched, bool(f & 1), bool(f & 2))
        return TapeInfo(tape, self.names(k), int(self._index[k]))  # type: ignore[arg-type]

    # -- read from the columns, without making the tape -----------------------------------
    def names(self, k: int) -> tuple[str, ...]:
        """The names tape ``k`` was bound to."""
        return self._sets[int(self._names[k])]

    def name(self, k: int) -> str:
        """Tape ``k``'s first name, or ``tape #i`` (as :attr:`TapeInfo.name`)."""
        names = self.names(k)
        return names[0] if names else f"tape #{int(self._index[k]) + 1}"

    def op_count(self, k: int) -> int:
        """How many ops tape ``k`` recorded."""
        bounds = self._recs["bounds"]
        return int(bounds[k + 1] - bounds[k])

    def first_names(self) -> list[str]:
        """Every tape's :meth:`name`, in order (each name set's first name found once)."""
        firsts = [names[0] if names else None for names in self._sets]
        codes, index = self._names.tolist(), self._index.tolist()
        return [f"tape #{i + 1}" if (first := firsts[c]) is None else first
                for c, i in zip(codes, index, strict=True)]  # fmt: skip

    def op_counts(self) -> list[int]:
        """Every tape's :meth:`op_count`, in order."""
        return np.diff(np.asarray(self._recs["bounds"], np.int64)).tolist()  # type: ignore[no-any-return]

    def recorded(self) -> bool:
        """Whether any tape recorded an op (without counting each tape's)."""
        bounds = self._recs["bounds"]
        return len(bounds) > 1 and int(bounds[-1]) > int(bounds[0])

    def spans(self) -> np.ndarray:
        """Each tape's rows of the record columns, as an (n, 2) array of [start, end)."""
        bounds = np.asarray(self._recs["bounds"], np.int64)
        return np.stack([bounds[:-1], bounds[1:]], axis=1)

    def call_columns(self) -> Any:
        """Every tape's gradient calls as columns (a :class:`~.remote.CallColumns`)."""
        return self._recs["calls"]

    def call_rows(self, k: int) -> tuple[Any, ...]:
        """Tape ``k``'s gradient calls as (kind, target ids, source ids, result rows)."""
        first = self._recs["first_call"]
        return self._recs["calls"].rows(int(first[k]), int(first[k + 1]))

    @property
    def columns(self) -> RecordColumns:
        """The records of every tape as columns (each tape's part: :meth:`spans`)."""
        return self[0].tape.columns  # type: ignore[attr-defined,no-any-return]
