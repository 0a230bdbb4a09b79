"""The cell that holds a tensor's value, and the numpy array it may share with a script.

The engine's values are frozen: a recorded tape keeps the very arrays it read, so the timeline
plays each step back as it was. PyTorch's ``Tensor.numpy()`` and ``torch.from_numpy`` share
memory instead, and a script sees the other side's writes. Both hold here, because only an
array actually handed to (or received from) numpy is shared: such a cell becomes a
:class:`SharedCell`, which

- on every read compares the array with its frozen value and, if numpy wrote into the array
  since, takes a new frozen snapshot of it (the same engine id and version: numpy writes do not
  count as in-place ops in torch either);
- on every write (an in-place op, an optimizer step, a gradient accumulated into ``.grad``)
  copies the new value into the array as well.

Recorded tapes keep the frozen snapshots they read, never the array. When only the cell still
holds an array it made, nobody can see the sharing any more and the cell stops paying for it.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from tapeviz.engine.tensor import Tensor as _ETensor
from tapeviz.engine.tensor import freeze


class Cell:
    """A value shared by a tensor and its detached aliases, with its in-place version count."""

    __slots__ = ("array", "t", "version")
    meta: _ETensor  # ``t`` as stored, never refreshed from numpy (set below)

    def __init__(self, t: _ETensor) -> None:
        self.t = t
        self.version = 0
        self.array: np.ndarray | None = None

    def share(self, array: np.ndarray | None = None) -> np.ndarray:
        """The numpy array that shares this cell's values: made now, or ``array`` (from_numpy)."""
        if array is None:
            if self.array is not None:
                return self.array
            array = np.array(self.t._value)
        self.array = array
        self.__class__ = SharedCell  # same slots: only ``t`` reads and writes differently
        return array

    def unshare(self) -> None:
        """Stop sharing (the array keeps its values; the tensor no longer follows it)."""
        if self.array is not None:
            self.array = None
            self.__class__ = Cell


_T = Cell.t  # the slot itself: SharedCell's property reads and writes it
# ``cell.meta``: the slot under a second name, read without refreshing from numpy. For what a
# numpy write cannot change: shape, dtype, engine id and name (tensor.shape, tensor.dtype, ...).
Cell.meta = _T


def _refs(cell: Cell) -> int:
    """How many references reach the cell's array, as counted from here."""
    return sys.getrefcount(cell.array)


_probe = object.__new__(Cell)
_probe.array = np.zeros(1)
_ALONE = _refs(_probe)  # the count of an array only its cell holds (Python versions differ)
del _probe


def _unseen(cell: Cell) -> bool:
    """Whether nobody but ``cell`` can reach its array: one that owns its memory, held once."""
    if cell.array is None:
        return True
    return cell.array.base is None and _refs(cell) <= _ALONE  # no local holds it here


_BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _same(a: np.ndarray, value: Any) -> bool:
    """Whether ``a`` holds exactly ``value``'s bits (NaNs and signed zeros included)."""
    b = np.asarray(value)
    bits = _BITS.get(a.dtype.itemsize)
    if bits is None or a.ndim == 0 or not (a.flags.c_contiguous and b.flags.c_contiguous):
        return a.tobytes() == b.tobytes()
    return bool(np.array_equal(a.view(bits), b.view(bits)))


class SharedCell(Cell):
    """A cell whose value is also a numpy array a script holds (see the module docstring)."""

    __slots__ = ()

    @property  # type: ignore[override]
    def t(self) -> _ETensor:
        """The frozen value, refreshed first if numpy wrote into the shared array."""
        t: _ETensor = _T.__get__(self)
        if _unseen(self):  # before holding the array here
            self.unshare()
            return t
        a: np.ndarray = self.array  # type: ignore[assignment]
        if not _same(a, t._value):
            t = _ETensor(freeze(np.array(a)), t.dtype, t.name, t.id)
            _T.__set__(self, t)
        return t

    @t.setter
    def t(self, value: _ETensor) -> None:
        _T.__set__(self, value)
        if _unseen(self):
            self.unshare()
            return
        a: np.ndarray = self.array  # type: ignore[assignment]
        v = value._value
        if a.shape == np.shape(v) and a.dtype == value.dtype.np and a.flags.writeable:
            a[...] = v
        else:
            self.unshare()
