"""The structure of tf.data elements: tuples and dicts nest, anything else is one tensor.

Also the cardinality constants and how a group of elements becomes a batch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.specs import TensorSpec
from tapeviz.engine.tensor import Tensor, TensorLike, convert_to_tensor, freeze

__all__ = [
    "AUTOTUNE", "INFINITE", "UNKNOWN", "as_tensor", "batched", "call_with", "flatten", "pack",
    "spec_of", "stack_batch",
]  # fmt: skip

AUTOTUNE = -1
INFINITE = -1
UNKNOWN = -2


def as_tensor(x: Any) -> TensorLike:
    return x if isinstance(x, TensorLike) else convert_to_tensor(x)


def flatten(structure: Any) -> list[Any]:
    """tf.data's structure: tuples and dicts nest; a list is data (one tensor), as in TF."""
    if isinstance(structure, tuple):
        return [leaf for s in structure for leaf in flatten(s)]
    if isinstance(structure, dict):
        return [leaf for s in structure.values() for leaf in flatten(s)]
    return [structure]


def pack(structure: Any, leaves: list[Any]) -> Any:
    it = iter(leaves)

    def build(s: Any) -> Any:
        if isinstance(s, tuple):
            items = [build(v) for v in s]
            return type(s)(*items) if hasattr(s, "_fields") else tuple(items)
        if isinstance(s, dict):
            return {k: build(v) for k, v in s.items()}
        return next(it)

    return build(structure)


def call_with(fn: Callable[..., Any], element: Any) -> Any:
    """Call a map/filter function the TensorFlow way: a tuple element is unpacked."""
    if isinstance(element, tuple):
        return fn(*element)
    return fn(element)


def spec_of(element: Any) -> Any:
    return pack(element, [TensorSpec.from_tensor(as_tensor(t)) for t in flatten(element)])


def batched(spec: Any) -> bool:
    """Whether an element spec has an unknown leading size (the elements are batches)."""
    leaves = flatten(spec) if spec is not None else []
    return bool(leaves) and all(s.shape and s.shape[0] is None for s in leaves)


def stack_batch(group: list[Any]) -> Any:
    """A batch: each leaf stacked (as a constant: batching records no op)."""
    first = group[0]
    flat = [flatten(e) for e in group]
    leaves = []
    for k in range(len(flat[0])):
        parts = [f[k] for f in flat]
        if any(tuple(p.shape) != tuple(parts[0].shape) for p in parts):
            raise InvalidArgumentError(
                "Cannot batch tensors with different shapes in component "
                f"{k}. First element had shape {list(parts[0].shape)} and element "
                f"{next(i for i, p in enumerate(parts) if p.shape != parts[0].shape)} had shape "
                f"{list(next(p for p in parts if p.shape != parts[0].shape).shape)}.",
                "batch",
            )
        dt = parts[0].dtype  # (its numpy dtype: one string is bytes, not an S array)
        leaves.append(Tensor(freeze(np.stack([np.asarray(p._value, dt.np) for p in parts])), dt))
    return pack(first, leaves)
