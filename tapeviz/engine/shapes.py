"""TensorShape: a tensor's shape, a tuple of ints with TensorFlow's ``as_list()`` and ``rank``."""

from __future__ import annotations

import numpy as np

__all__ = ["TensorShape"]


class TensorShape(tuple):
    """A tensor's shape: a tuple of ints with TensorFlow's ``as_list()`` and ``rank``."""

    __slots__ = ()

    def as_list(self) -> list[int]:
        """Return the dimensions as a list."""
        return list(self)

    @property
    def rank(self) -> int:
        """Number of dimensions."""
        return len(self)

    @property
    def ndims(self) -> int:
        """Number of dimensions (TensorFlow 1 spelling)."""
        return len(self)

    def num_elements(self) -> int | None:
        """Total number of elements (None if a dimension is unknown)."""
        if any(d is None for d in self):
            return None
        return int(np.prod(self, dtype=np.int64))

    def __repr__(self) -> str:
        return f"TensorShape({list(self)})"

    def __str__(self) -> str:
        return tuple.__repr__(self)
