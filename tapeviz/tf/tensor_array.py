"""``tf.TensorArray``: a list of same-typed tensors written one at a time, then stacked.

TensorFlow's answer to appending to a Python list inside a ``tf.function`` (the function guide's
``states = states.write(i, state)`` ... ``states.stack()``). Eagerly it is a list of tensors;
``stack``/``concat``/``gather`` are recorded ops, so gradients flow through them as in
TensorFlow. ``write`` returns the array (use the returned one, as in TensorFlow).
"""

from __future__ import annotations

from typing import Any

from tapeviz import engine as E
from tapeviz.engine import dtypes
from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.guard import check_elements
from tapeviz.engine.tensor import TensorLike, TensorShape, convert_to_tensor

__all__ = ["TensorArray"]


class TensorArray:
    """A growable array of tensors of one dtype (``tf.TensorArray(tf.float32, size=3)``)."""

    def __init__(
        self,
        dtype: Any,
        size: Any = None,
        dynamic_size: Any = None,
        clear_after_read: Any = None,
        tensor_array_name: Any = None,
        handle: Any = None,
        flow: Any = None,
        infer_shape: bool = True,
        element_shape: Any = None,
        colocate_with_first_write_call: bool = True,
        name: Any = None,
    ) -> None:
        self._dtype = dtypes.as_dtype(dtype)
        n = int(getattr(size, "numpy", lambda: size)() if size is not None else 0)
        check_elements(n, "TensorArray")
        self._items: list[Any] = [None] * n
        self._dynamic = bool(dynamic_size)
        self._element_shape = None if element_shape is None else TensorShape(element_shape)

    @property
    def dtype(self) -> Any:
        """The dtype of every element."""
        return self._dtype

    @property
    def element_shape(self) -> TensorShape | None:
        """The shape of the elements written so far (None before the first: unknown)."""
        if self._element_shape is not None:
            return self._element_shape
        first = next((t for t in self._items if t is not None), None)
        return None if first is None else TensorShape(first.shape)

    @property
    def dynamic_size(self) -> bool:
        """Whether writing past the end grows the array."""
        return self._dynamic

    def size(self, name: Any = None) -> Any:
        """The number of elements, as an int32 tensor."""
        return E.constant(len(self._items), dtype=dtypes.int32)

    def _index(self, index: Any) -> int:
        return int(index.numpy() if isinstance(index, TensorLike) else index)

    def write(self, index: Any, value: Any, name: Any = None) -> TensorArray:
        """Put ``value`` at ``index``; returns the array (TensorFlow returns a new one)."""
        i = self._index(index)
        t = convert_to_tensor(value, dtype=self._dtype)
        if t.dtype is not self._dtype:
            raise InvalidArgumentError(
                f"TensorArray dtype is {self._dtype.name} but Op is trying to write dtype "
                f"{t.dtype.name}",
                "TensorArrayWrite",
            )
        if i < 0:
            raise InvalidArgumentError(f"Tried to write to index {i} < 0", "TensorArrayWrite")
        if i >= len(self._items):
            if not self._dynamic:
                raise InvalidArgumentError(
                    f"Tried to write to index {i} but array is not resizeable and size is: "
                    f"{len(self._items)}",
                    "TensorArrayWrite",
                )
            check_elements(i + 1, "TensorArray")
            self._items.extend([None] * (i + 1 - len(self._items)))
        self._items[i] = t
        return self

    def read(self, index: Any, name: Any = None) -> Any:
        """The element at ``index``."""
        i = self._index(index)
        if not 0 <= i < len(self._items):
            raise InvalidArgumentError(
                f"Tried to read from index {i} but array size is: {len(self._items)}",
                "TensorArrayRead",
            )
        t = self._items[i]
        return t if t is not None else self._zeros()

    def _zeros(self) -> Any:
        shape = self.element_shape
        if shape is None:
            raise InvalidArgumentError(
                "TensorArray has size zero, but element shape <unknown> is not fully "
                "defined. Currently only static shapes are supported when packing zero-size "
                "TensorArrays.",
                "TensorArrayStack",
            )
        return E.zeros(tuple(shape.as_list()), dtype=self._dtype)

    def _all(self) -> list[Any]:
        return [t if t is not None else self._zeros() for t in self._items]

    def stack(self, name: Any = None) -> Any:
        """Every element, stacked along a new first axis."""
        items = self._all()
        if not items:
            shape = self.element_shape
            return E.zeros((0, *(shape.as_list() if shape is not None else [])), dtype=self._dtype)
        return E.stack(items, axis=0)

    def gather(self, indices: Any, name: Any = None) -> Any:
        """The elements at ``indices``, stacked."""
        idx = [int(i) for i in (indices.numpy() if isinstance(indices, TensorLike) else indices)]
        return E.stack([self.read(i) for i in idx], axis=0)

    def concat(self, name: Any = None) -> Any:
        """Every element, concatenated along their first axis."""
        return E.concat(self._all(), axis=0)

    def unstack(self, value: Any, name: Any = None) -> TensorArray:
        """Fill the array with the rows of ``value``."""
        t = convert_to_tensor(value, dtype=self._dtype)
        n = int(t.shape[0])
        check_elements(n, "TensorArray")
        self._items = [t[i] for i in range(n)]
        return self

    def scatter(self, indices: Any, value: Any, name: Any = None) -> TensorArray:
        """Write the rows of ``value`` at ``indices``."""
        t = convert_to_tensor(value, dtype=self._dtype)
        idx = indices.numpy() if isinstance(indices, TensorLike) else indices
        for k, i in enumerate(idx):
            self.write(int(i), t[k])
        return self

    def close(self, name: Any = None) -> None:
        """Nothing to release (TensorFlow frees the array)."""

    def __repr__(self) -> str:
        return f"<TensorArray dtype={self._dtype.name} size={len(self._items)}>"
