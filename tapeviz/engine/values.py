"""Helpers on raw numpy values that tensors share: freezing results, refusing complex ones."""

from __future__ import annotations

from typing import Any

from numpy import ndarray

__all__ = ["freeze"]


def freeze(value: Any) -> Any:
    """Normalise a numpy result: 0-d arrays become numpy scalars, arrays become read-only."""
    if type(value) is ndarray:
        if value.ndim == 0:
            return value[()]
        value.setflags(write=False)
    return value
