"""Keras' data adapters: array data (numpy, tensors, lists) or a dataset, as batches.

Arrays are sliced into batches of ``batch_size`` (32 by default), shuffled each epoch when
asked, float64 becoming float32 as in Keras 3; a ``tf.data.Dataset`` gives its own batches.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from tapeviz.engine import nest
from tapeviz.engine.guard import checkpoint
from tapeviz.engine.tensor import TensorLike, constant
from tapeviz.tf.dataset import Dataset

__all__ = [
    "Batches", "as_numpy", "length", "lists_to_tuples", "pack", "pythonify", "take",
    "to_tensors", "unpack",
]  # fmt: skip


def as_numpy(x: Any) -> Any:
    """Array data as numpy (float64 as float32, as Keras' data adapters do)."""
    if isinstance(x, TensorLike):
        return np.asarray(x._value)
    if isinstance(x, dict):
        return {k: as_numpy(v) for k, v in x.items()}
    if (
        isinstance(x, tuple | list) and x and all(isinstance(v, np.ndarray | TensorLike) for v in x)
    ):  # several inputs (or outputs)
        return type(x)(as_numpy(v) for v in x)
    arr = np.asarray(x)
    return arr.astype(np.float32) if arr.dtype == np.float64 else arr


def to_tensors(x: Any) -> Any:
    if x is None:
        return None
    return nest.pack_as(x, [constant(np.ascontiguousarray(v)) for v in nest.flatten(x)])


def length(x: Any) -> int:
    return int(np.shape(nest.flatten(x)[0])[0])


def take(x: Any, idx: np.ndarray) -> Any:
    if x is None:
        return None
    return nest.pack_as(x, [np.asarray(v)[idx] for v in nest.flatten(x)])


def unpack(data: Any) -> tuple[Any, Any, Any]:
    """Keras' ``unpack_x_y_sample_weight``: ``(x, y, sample_weight)`` from a batch.

    ``x``, ``(x,)``, ``(x, y)`` or ``(x, y, sample_weight)`` (a list counts as a tuple), the
    missing parts ``None``; any other length is Keras' ValueError.
    """
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return (data, None, None)
    if len(data) == 1:
        return (data[0], None, None)
    if len(data) == 2:
        return (data[0], data[1], None)
    if len(data) == 3:
        return (data[0], data[1], data[2])
    raise ValueError(
        "Data is expected to be in format `x`, `(x,)`, `(x, y)`, or `(x, y, sample_weight)`, "
        f"found: {data}"
    )


def pack(x: Any, y: Any = None, sample_weight: Any = None) -> Any:
    """Keras' ``pack_x_y_sample_weight``: a batch as ``fit`` hands it to ``train_step``.

    ``x`` alone (``(x,)`` if it is a tuple or list) without ``y``, ``(x, y)`` without
    ``sample_weight``, else ``(x, y, sample_weight)``; so an overridden ``train_step`` may
    write ``x, y = data``.
    """
    if y is None:
        return (x,) if isinstance(x, tuple | list) else x
    if sample_weight is None:
        return (x, y)
    return (x, y, sample_weight)


def lists_to_tuples(x: Any) -> Any:
    """Every list in ``x`` (nested in tuples, lists and dicts) as a tuple, as Keras' adapter."""
    if isinstance(x, list | tuple):
        return tuple(lists_to_tuples(v) for v in x)
    if isinstance(x, dict):
        return {k: lists_to_tuples(v) for k, v in x.items()}
    return x


def pythonify(logs: dict[str, Any]) -> dict[str, Any]:
    """Keras' ``pythonify_logs``: keys sorted, nested dicts flattened, values floats."""
    out: dict[str, Any] = {}
    for k, v in sorted(logs.items()):
        if isinstance(v, dict):
            out.update(pythonify(v))
        else:
            try:
                out[k] = float(v)
            except (TypeError, ValueError):
                out[k] = v
    return out


class Batches:
    """The batches of one pass over array data (or a dataset)."""

    def __init__(
        self,
        x: Any,
        y: Any,
        sw: Any,
        batch_size: int | None,
        shuffle: bool,
        rng: np.random.Generator | None = None,
    ) -> None:
        self.dataset = x if isinstance(x, Dataset) else None
        if self.dataset is None:
            # (Keras' array adapter turns lists into tuples: several inputs arrive as a tuple)
            self.x = lists_to_tuples(as_numpy(x))
            self.y = None if y is None else lists_to_tuples(as_numpy(y))
            self.sw = sw
            self.n = length(self.x)
            self.size = int(batch_size or 32)
            self.steps = math.ceil(self.n / self.size) if self.n else 0
        else:
            card = x._cardinality
            self.steps = card if card >= 0 else None
        self.shuffle, self.rng = shuffle, rng

    def __iter__(self) -> Iterator[Any]:
        if self.dataset is not None:
            for element in self.dataset:
                checkpoint()
                yield element
            return
        order = np.arange(self.n)
        if self.shuffle and self.rng is not None:
            order = self.rng.permutation(self.n)
        for s in range(self.steps):
            checkpoint()
            idx = order[s * self.size : (s + 1) * self.size]
            yield pack(
                to_tensors(take(self.x, idx)),
                to_tensors(take(self.y, idx)),
                None if self.sw is None else constant(np.asarray(self.sw)[idx]),
            )
