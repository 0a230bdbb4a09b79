"""What every part of the scikit-learn subset shares: random states, sample counts, indexing."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

__all__ = ["as_2d", "check_random_state", "column_1d", "num_samples", "safe_indexing"]


def check_random_state(seed: Any) -> np.random.RandomState:
    """A ``RandomState`` from ``None`` (numpy's global one), an int, or a ``RandomState``."""
    if seed is None or seed is np.random:
        return np.random.mtrand._rand
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
        return np.random.RandomState(int(seed))
    if isinstance(seed, np.random.RandomState):
        return seed
    raise ValueError(f"{seed!r} cannot be used to seed a numpy.random.RandomState instance")


def num_samples(x: Any) -> int:
    """The number of samples (rows) of an array-like, as scikit-learn counts them."""
    shape = getattr(x, "shape", None)
    if shape is not None:
        dims = tuple(shape)
        if len(dims) == 0:
            raise TypeError(f"Input should have at least 1 dimension i.e. satisfy `len(x.shape) > "
                            f"0`, got scalar {x!r} instead.")  # fmt: skip
        return int(dims[0])
    if isinstance(x, list | tuple | range):
        return len(x)
    raise TypeError(f"Expected sequence or array-like, got {type(x).__name__}")


def check_consistent_length(*arrays: Any) -> None:
    """Refuse arrays with different numbers of samples (scikit-learn's message)."""
    lengths = [num_samples(a) for a in arrays if a is not None]
    if len(dict.fromkeys(lengths)) > 1:
        raise ValueError(
            "Found input variables with inconsistent numbers of samples: "
            f"{[int(n) for n in lengths]!r}"
        )


def safe_indexing(x: Any, indices: np.ndarray) -> Any:
    """Rows ``indices`` of ``x`` in its own kind: a list stays a list, a tensor a tensor."""
    if isinstance(x, np.ndarray):
        return x.take(indices, axis=0)
    if isinstance(x, list | tuple | range):
        return [x[int(i)] for i in indices]
    if hasattr(x, "shape") and hasattr(x, "__getitem__"):
        return x[indices]  # a torch tensor indexes by an integer array, as in scikit-learn
    raise TypeError(f"cannot take rows of a {type(x).__name__}")


def as_2d(x: Any, what: str, dtype: Any = None) -> np.ndarray:
    """``x`` as a 2-D float array (float32 stays float32), or scikit-learn's message."""
    a = np.asarray(x)
    if a.dtype.kind not in "biuf":
        raise ValueError(f"{what}: the values must be numbers, got {a.dtype}")
    if a.ndim != 2:
        raise ValueError(
            f"Expected a 2D array, got {'scalar' if a.ndim == 0 else f'{a.ndim}D'} array instead. "
            "Reshape your data either using array.reshape(-1, 1) if your data has a single "
            "feature or array.reshape(1, -1) if it contains a single sample."
        )
    if dtype is None:
        dtype = a.dtype if a.dtype in (np.float32, np.float64) else np.float64
    return np.asarray(a, dtype=dtype)


def column_1d(y: Any, what: str) -> np.ndarray:
    """Labels or values as a 1-D array (a one-column 2-D array is read as its column)."""
    a = np.asarray(y)
    if a.ndim == 2 and a.shape[1] == 1:
        a = a[:, 0]
    if a.ndim != 1:
        raise ValueError(f"{what} should be a 1d array, got an array of shape {a.shape} instead.")
    return a
