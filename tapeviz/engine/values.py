"""Helpers on raw numpy values that tensors share: freezing results, refusing complex ones."""

from __future__ import annotations

from typing import Any

from numpy import ndarray

from tapeviz.engine.errors import UnimplementedError

__all__ = ["freeze"]


def freeze(value: Any) -> Any:
    """Normalise a numpy result: 0-d arrays become numpy scalars, arrays become read-only."""
    if type(value) is ndarray:
        if value.ndim == 0:
            return value[()]
        value.setflags(write=False)
    return value


def _no_complex(tf_dtype: str) -> UnimplementedError:
    return UnimplementedError(
        f"complex numbers are not available in tapeviz: it has no complex dtype (TensorFlow "
        f"would make a {tf_dtype} tensor). Keep the real and imaginary parts as two float "
        "tensors.",
        "complex",
    )
