"""``tf.TensorSpec``: a shape (with ``None`` for any size) and a dtype that tensors can match."""

from __future__ import annotations

from typing import Any

from tapeviz.engine import dtypes
from tapeviz.engine.tensor import TensorLike, TensorShape

__all__ = ["TensorSpec"]


class TensorSpec:
    """What a tensor must look like: ``TensorSpec(shape=[None, 2], dtype=tf.float32)``."""

    __slots__ = ("dtype", "name", "shape")

    def __init__(self, shape: Any, dtype: Any = dtypes.float32, name: str | None = None) -> None:
        if shape is None:
            self.shape: TensorShape | None = None  # unknown rank
        else:
            dims = list(shape.as_list()) if isinstance(shape, TensorShape) else list(shape)
            self.shape = TensorShape(None if d is None else int(d) for d in dims)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name

    @classmethod
    def from_tensor(cls, tensor: Any, name: str | None = None) -> TensorSpec:
        """The spec of ``tensor``'s shape and dtype."""
        return cls(tensor.shape, tensor.dtype, name)

    def is_compatible_with(self, other: Any) -> bool:
        """Same dtype, and each known dimension equal (``None`` matches any size)."""
        if not isinstance(other, TensorSpec | TensorLike):
            return False
        if other.dtype is not self.dtype:
            return False
        mine = self.shape
        theirs = other.shape
        if mine is None or theirs is None:
            return True
        if len(mine) != len(theirs):
            return False
        return all(a is None or b is None or a == b for a, b in zip(mine, theirs, strict=True))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TensorSpec):
            return NotImplemented
        return (self.shape, self.dtype, self.name) == (other.shape, other.dtype, other.name)

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype.name, self.name))

    def __repr__(self) -> str:
        shape = "<unknown>" if self.shape is None else str(self.shape)
        return f"TensorSpec(shape={shape}, dtype={self.dtype!r}, name={self.name!r})"
