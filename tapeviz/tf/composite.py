"""``tf.ragged`` and ``tf.sparse``: rows of different lengths, and values by index.

A ``RaggedTensor`` keeps its rows as a flat tensor of values and the row lengths (printed
``<tf.RaggedTensor [[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]]>``, shape ``(4, None)``); a
``SparseTensor`` keeps ``indices`` (int64), ``values`` and ``dense_shape`` (int64), printed as
TensorFlow prints them, and ``tf.sparse.to_dense`` scatters the values into zeros. Both convert
to and from ordinary tensors; neither is differentiable here (their values are, after
``to_tensor``/``to_dense``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz import engine as E
from tapeviz.engine import dtypes
from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.guard import check_elements
from tapeviz.engine.namespace import Namespace
from tapeviz.engine.tensor import TensorLike, TensorShape, convert_to_tensor

__all__ = ["RAGGED", "SPARSE", "RaggedTensor", "SparseTensor"]


def _rows(value: Any) -> list[Any]:
    if isinstance(value, TensorLike):
        return list(np.asarray(value._value))
    if not isinstance(value, list | tuple):
        raise ValueError(f"tf.ragged.constant needs a nested list, got {type(value).__name__}")
    check_elements(len(value), "tf.ragged.constant")
    return list(value)


class RaggedTensor:
    """A 2-D tensor whose rows may have different lengths (``tf.ragged.constant``)."""

    def __init__(self, values: Any, row_lengths: Any) -> None:
        self.flat_values = values
        self._lengths = [int(n) for n in row_lengths]

    @classmethod
    def from_row_lengths(cls, values: Any, row_lengths: Any, validate: bool = True) -> Any:
        """Rows of ``values`` of the given lengths."""
        lengths = np.asarray(getattr(row_lengths, "_value", row_lengths)).tolist()
        t = convert_to_tensor(values)
        if sum(lengths) != int(t.shape[0]):
            raise InvalidArgumentError("row_lengths do not add up to the number of values")
        return cls(t, lengths)

    @property
    def dtype(self) -> Any:
        """The values' dtype."""
        return self.flat_values.dtype

    @property
    def shape(self) -> TensorShape:
        """``(rows, None)``: the row length is not one size."""
        return TensorShape([len(self._lengths), None, *self.flat_values.shape[1:]])

    @property
    def ragged_rank(self) -> int:
        """How many ragged dimensions (one)."""
        return 1

    @property
    def values(self) -> Any:
        """Every row's values, concatenated."""
        return self.flat_values

    def row_lengths(self) -> Any:
        """The length of each row (int64)."""
        return E.constant(np.array(self._lengths, dtype=np.int64))

    def nrows(self) -> Any:
        """The number of rows (int64)."""
        return E.constant(np.int64(len(self._lengths)))

    def _split(self) -> list[np.ndarray]:
        flat = np.asarray(self.flat_values._value)
        ends = np.cumsum(self._lengths)
        return [flat[e - n : e] for e, n in zip(ends, self._lengths, strict=True)]

    def to_list(self) -> list[Any]:
        """The rows as Python lists."""
        return [row.tolist() for row in self._split()]

    def to_tensor(self, default_value: Any = None, name: Any = None, shape: Any = None) -> Any:
        """A dense tensor: each row padded with ``default_value`` (zero, or ``b''``)."""
        width = max(self._lengths, default=0)
        check_elements(len(self._lengths) * width, "RaggedTensor.to_tensor")
        if self.dtype.is_string:
            fill = b"" if default_value is None else E.constant(default_value)._value
        else:
            fill = 0 if default_value is None else default_value
        dense = np.full((len(self._lengths), width), fill, dtype=self.dtype.np)
        for i, row in enumerate(self._split()):
            dense[i, : len(row)] = row
        return E.constant(dense)

    def __len__(self) -> int:
        return len(self._lengths)

    def __getitem__(self, i: int) -> Any:
        return E.constant(self._split()[i])

    def __repr__(self) -> str:
        return f"<tf.RaggedTensor {self.to_list()}>"


def ragged_constant(pylist: Any, dtype: Any = None, ragged_rank: Any = None, **_: Any) -> Any:
    """A RaggedTensor from a list of rows of different lengths."""
    rows = _rows(pylist)
    flat: list[Any] = [v for row in rows for v in (row if isinstance(row, list | tuple) else [row])]
    values = E.constant(flat, dtype=dtype) if flat or dtype else E.constant([], dtype=dtypes.int32)
    lengths = [len(row) if isinstance(row, list | tuple) else 1 for row in rows]
    return RaggedTensor(values, lengths)


class SparseTensor:
    """Values at ``indices`` of a ``dense_shape``; everything else zero."""

    def __init__(self, indices: Any, values: Any, dense_shape: Any) -> None:
        self.indices = E.constant(np.asarray(getattr(indices, "_value", indices), dtype=np.int64))
        self.values = convert_to_tensor(values)
        self.dense_shape = E.constant(
            np.asarray(getattr(dense_shape, "_value", dense_shape), dtype=np.int64)
        )
        if self.indices.shape[0] != self.values.shape[0]:
            raise InvalidArgumentError("indices and values must have the same number of rows")

    @property
    def dtype(self) -> Any:
        """The values' dtype."""
        return self.values.dtype

    @property
    def shape(self) -> TensorShape:
        """The dense shape."""
        return TensorShape(np.asarray(self.dense_shape._value).tolist())

    def __repr__(self) -> str:
        return (f"SparseTensor(indices={self.indices}, values={self.values}, "
                f"dense_shape={self.dense_shape})")  # fmt: skip


def to_dense(sp_input: SparseTensor, default_value: Any = None, **_: Any) -> Any:
    """The dense tensor: the values at their indices, zero (or ``default_value``) elsewhere."""
    shape = tuple(int(d) for d in np.asarray(sp_input.dense_shape._value))
    check_elements(int(np.prod(shape)), "tf.sparse.to_dense")
    fill = 0 if default_value is None else default_value
    dense = np.full(shape, fill, dtype=sp_input.dtype.np)
    idx = np.asarray(sp_input.indices._value)
    if idx.size:
        dense[tuple(idx.T)] = np.asarray(sp_input.values._value)
    return E.constant(dense)


def from_dense(tensor: Any, name: Any = None) -> SparseTensor:
    """The non-zero entries of ``tensor`` as a SparseTensor."""
    arr = np.asarray(convert_to_tensor(tensor)._value)
    idx = np.argwhere(arr != 0)
    return SparseTensor(idx, arr[tuple(idx.T)] if idx.size else arr.reshape(-1)[:0], arr.shape)


RAGGED = Namespace("tf.ragged", {"constant": ragged_constant, "RaggedTensor": RaggedTensor})
SPARSE = Namespace(
    "tf.sparse",
    {"SparseTensor": SparseTensor, "to_dense": to_dense, "from_dense": from_dense},
)
