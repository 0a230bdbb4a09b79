"""The received tensor table's names as two columns, read like a ``{row: name}`` dict.

A loop names its variable's snapshot on every tape: 100,000 rows named ``Variable:0`` were a
dict of 100,000 entries (~8 MB of the window's memory with its int keys). Here they are one
sorted int32 column of rows, one int32 column of indices into the distinct names, and the names.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import numpy as np


def compact(values: np.ndarray) -> np.ndarray:
    """``values`` (non-negative integers) as int32 when they fit, else as they are."""
    if len(values) and int(values.max()) >= 2**31:
        return values
    return values.astype(np.int32)


class RowNames(Mapping[int, str]):
    """``row -> name`` for the rows that have one."""

    __slots__ = ("_index", "_rows", "_texts")

    def __init__(self, rows: np.ndarray, index: np.ndarray, texts: list[str]) -> None:
        """Row ``rows[k]`` is named ``texts[index[k]]`` (a row given twice: its last name)."""
        order = np.argsort(rows, kind="stable")
        rows, index = np.asarray(rows, np.int64)[order], np.asarray(index, np.int64)[order]
        last = np.ones(len(rows), np.bool_)  # (as dict(zip(rows, names)) keeps a repeated key)
        last[:-1] = rows[1:] != rows[:-1]
        self._rows, self._index = compact(rows[last]), compact(index[last])
        self._texts = texts

    def __getitem__(self, row: int) -> str:
        rows = self._rows
        k = int(np.searchsorted(rows, row))
        if k < len(rows) and rows[k] == row:
            return self._texts[int(self._index[k])]
        raise KeyError(row)

    def get_many(self, rows: np.ndarray) -> list[str | None]:
        """The name of each of ``rows`` (None where it has none): one search for them all."""
        names, texts = self._rows, self._texts
        if not len(names):
            return [None] * len(rows)
        k = np.minimum(np.searchsorted(names, rows), len(names) - 1)
        index = np.where(names[k] == rows, self._index[k], -1).tolist()
        return [texts[i] if i >= 0 else None for i in index]

    def __contains__(self, row: object) -> bool:
        return isinstance(row, int | np.integer) and self.get(int(row)) is not None

    def __iter__(self) -> Iterator[int]:
        return iter(self._rows.tolist())

    def __len__(self) -> int:
        return len(self._rows)

    @property
    def nbytes(self) -> int:
        """The bytes of the two columns."""
        return int(self._rows.nbytes + self._index.nbytes)
