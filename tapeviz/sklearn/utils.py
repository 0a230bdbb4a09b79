"""``sklearn.utils``: ``Bunch``, ``shuffle``, ``resample`` and ``sample_without_replacement``."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.sklearn._validation import (
    check_consistent_length,
    check_random_state,
    num_samples,
    safe_indexing,
)

__all__ = ["Bunch", "resample", "sample_without_replacement", "shuffle"]


class Bunch(dict):  # type: ignore[type-arg]
    """A dict whose keys read as attributes too (``iris.data`` is ``iris["data"]``)."""

    _open_attributes = True  # a script may set any public name (it becomes a key)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(kwargs)

    def __getattr__(self, key: str) -> Any:
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None

    def __setattr__(self, key: str, value: Any) -> None:
        self[key] = value

    def __dir__(self) -> list[str]:
        return list(self.keys())

    def _held_names(self) -> list[str]:
        """The keys, which a script reads as attributes (the sandbox's policy asks)."""
        return [k for k in self if isinstance(k, str)]


def resample(
    *arrays: Any,
    replace: bool = True,
    n_samples: int | None = None,
    random_state: Any = None,
    stratify: Any = None,
) -> Any:
    """Rows drawn with (or without) replacement, the same rows of every array."""
    rng = check_random_state(random_state)
    if not arrays:
        return None
    n = num_samples(arrays[0])
    wanted = n if n_samples is None else int(n_samples)
    if wanted > n and not replace:
        raise ValueError(f"Cannot sample {wanted} out of arrays with dim {n} when replace is False")
    check_consistent_length(*arrays)
    if stratify is not None:
        raise ValueError("resample's stratify is not available in tapeviz")
    if replace:
        indices = rng.choice(n, size=wanted, p=None, replace=True)
    else:
        indices = np.arange(n)
        rng.shuffle(indices)
        indices = indices[:wanted]
    out = [safe_indexing(a, indices) for a in arrays]
    return out[0] if len(out) == 1 else out


def shuffle(*arrays: Any, random_state: Any = None, n_samples: int | None = None) -> Any:
    """The arrays' rows in one random order (the same order for every array)."""
    return resample(*arrays, replace=False, n_samples=n_samples, random_state=random_state)


def sample_without_replacement(
    n_population: int, n_samples: int, method: str = "auto", random_state: Any = None
) -> np.ndarray:
    """``n_samples`` distinct integers from ``[0, n_population)``, by scikit-learn's methods."""
    if n_population < 0:
        raise ValueError(f"n_population should be greater than 0, got {n_population}.")
    if n_samples > n_population:
        raise ValueError(
            "n_population should be greater or equal than n_samples, got "
            f"n_samples > n_population ({n_samples} > {n_population})"
        )
    methods = ("auto", "tracking_selection", "reservoir_sampling", "pool")
    if method not in methods:
        raise ValueError(f"Expected a method name in {methods}, got {method}. ")
    rng = check_random_state(random_state)
    ratio = n_samples / n_population if n_population != 0 else 1.0
    if method == "auto" and 0.01 < ratio < 0.99:
        return rng.permutation(n_population)[:n_samples]
    out = np.empty((n_samples,), dtype=int)
    if method == "pool":
        pool = np.arange(n_population)
        for i in range(n_samples):
            j = rng.randint(n_population - i)
            out[i] = pool[j]
            pool[j] = pool[n_population - i - 1]
    elif method == "tracking_selection" or (method == "auto" and ratio < 0.2):
        selected: dict[int, None] = {}
        for i in range(n_samples):
            j = rng.randint(n_population)
            while j in selected:
                j = rng.randint(n_population)
            selected[j] = None
            out[i] = j
    else:  # reservoir sampling
        out[:] = np.arange(n_samples)
        for i in range(n_samples, n_population):
            j = rng.randint(0, i + 1)
            if j < n_samples:
                out[j] = i
    return out
