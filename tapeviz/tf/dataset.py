"""``tf.data.Dataset`` over in-memory data: slices, batches, shuffles, maps and repeats.

A dataset is a recipe: iterating it (``for x, y in ds:``) runs the recipe again, as in
TensorFlow, so a ``shuffle`` gives a new order each epoch unless ``reshuffle_each_iteration``
is False. Shuffling uses TensorFlow's buffer algorithm with the seed rules of ``tf.random``.
Elements are tensors (or tuples and dicts of them, as the data was given).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from tapeviz.engine import dtypes, tracelog
from tapeviz.engine.errors import EngineTypeError, InvalidArgumentError
from tapeviz.engine.guard import checkpoint
from tapeviz.engine.namespace import Namespace
from tapeviz.engine.specs import TensorSpec
from tapeviz.engine.tensor import Tensor, constant
from tapeviz.tf.data_structure import (
    AUTOTUNE,
    INFINITE,
    UNKNOWN,
    as_tensor,
    flatten,
    pack,
    spec_of,
)
from tapeviz.tf.data_transforms import Transformations
from tapeviz.tf.unavailable import FILE_DATASETS

__all__ = ["AUTOTUNE", "DATA", "INFINITE", "UNKNOWN", "Dataset"]


class Dataset(Transformations):
    """A sequence of elements built from in-memory tensors (``Dataset.from_tensor_slices``)."""

    def __init__(
        self,
        make: Callable[[], Iterator[Any]],
        cardinality: int,
        kind: str,
        spec: Any = None,
    ) -> None:
        self._make = make
        self._cardinality = cardinality
        self._kind = kind
        self._spec = spec

    # -- sources ---------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors: Any, name: str | None = None) -> Dataset:
        """One element per row (first-axis slice) of ``tensors`` (a tensor, tuple or dict)."""
        leaves = [as_tensor(t) for t in flatten(tensors)]
        if not leaves:
            raise InvalidArgumentError("from_tensor_slices needs at least one tensor", "data")
        if any(not t.shape for t in leaves):
            raise InvalidArgumentError(
                "Unbatching a tensor is only supported for rank >= 1 (from_tensor_slices of "
                "a scalar)",
                "data",
            )
        n = int(leaves[0].shape[0])
        for t in leaves[1:]:
            if int(t.shape[0]) != n:
                raise InvalidArgumentError(
                    f"Dimensions {n} and {int(t.shape[0])} are not compatible: all the tensors "
                    "must have the same first dimension",
                    "data",
                )
        values = [np.asarray(t._value) for t in leaves]
        kinds = [t.dtype for t in leaves]
        structure = tensors

        def make() -> Iterator[Any]:
            for i in range(n):
                checkpoint()
                yield pack(
                    structure,
                    [
                        Tensor(v[i], d) if np.ndim(v[i]) == 0 else constant(v[i])
                        for v, d in zip(values, kinds, strict=True)
                    ],
                )

        spec = pack(structure, [TensorSpec(t.shape[1:], t.dtype) for t in leaves])
        return Dataset(make, n, "_TensorSliceDataset", spec)

    @staticmethod
    def from_tensors(tensors: Any, name: str | None = None) -> Dataset:
        """A dataset of one element: ``tensors`` itself."""
        leaves = [as_tensor(t) for t in flatten(tensors)]
        element = pack(tensors, leaves)
        return Dataset(lambda: iter([element]), 1, "_TensorDataset", spec_of(element))

    @staticmethod
    def range(*args: int, output_type: Any = dtypes.int64, name: str | None = None) -> Dataset:
        """Like Python's ``range``, as int64 scalar elements."""
        r = range(*(int(a) for a in args))
        dt = dtypes.as_dtype(output_type)

        def make() -> Iterator[Any]:
            for i in r:
                checkpoint()
                yield Tensor(dt.np.type(i), dt)

        return Dataset(make, len(r), "_RangeDataset", TensorSpec((), dt))

    @staticmethod
    def zip(*datasets: Any, name: str | None = None) -> Dataset:
        """Tuples of the elements of several datasets (as long as the shortest)."""
        parts = datasets[0] if len(datasets) == 1 else datasets
        flat = flatten(parts)
        for d in flat:
            if not isinstance(d, Dataset):
                raise EngineTypeError(f"zip: expected datasets, got {type(d).__name__}", "data")

        def make() -> Iterator[Any]:
            for items in zip(*[iter(d) for d in flat], strict=False):
                yield pack(parts, list(items))

        counts = [d._cardinality for d in flat]
        finite = [c for c in counts if c >= 0]
        card = min(finite) if finite else (UNKNOWN if UNKNOWN in counts else INFINITE)
        return Dataset(make, card, "_ZipDataset")

    @staticmethod
    def from_generator(
        generator: Callable[[], Any],
        output_types: Any = None,
        output_shapes: Any = None,
        args: Any = None,
        output_signature: Any = None,
        name: str | None = None,
    ) -> Dataset:
        """The elements a Python generator function yields, as tensors."""

        def make() -> Iterator[Any]:
            for item in generator(*(args or ())):
                checkpoint()
                yield pack(item, [as_tensor(t) for t in flatten(item)])

        return Dataset(make, UNKNOWN, "_FlatMapDataset", output_signature)

    # -- iteration -------------------------------------------------------------------------
    def __iter__(self) -> Iterator[Any]:
        tracelog.touch()  # a tf.function that reads a dataset runs its Python on every call
        return iter(self._make())

    def as_numpy_iterator(self) -> Iterator[Any]:
        """The elements as numpy values."""
        for element in self:
            yield pack(element, [t.numpy() for t in flatten(element)])

    def cardinality(self) -> Tensor:
        """The number of elements (−1 infinite, −2 unknown), an int64 scalar."""
        return Tensor(np.int64(self._cardinality), dtypes.int64)

    def __len__(self) -> int:
        if self._cardinality == INFINITE:
            raise TypeError("The dataset is infinite.")
        if self._cardinality < 0:
            raise TypeError("The dataset length is unknown.")
        return self._cardinality

    def __bool__(self) -> bool:
        return True

    @property
    def element_spec(self) -> Any:
        """The TensorSpec (structure) of an element; found from the first one if need be."""
        if self._spec is None:
            for element in self:
                spec = spec_of(element)
                if getattr(self, "_batched", False):  # a map of batches: the batch size varies
                    spec = pack(spec, [TensorSpec((None, *s.shape[1:]), s.dtype) if s.shape
                                        else s for s in flatten(spec)])  # fmt: skip
                self._spec = spec
                break
        return self._spec

    def __repr__(self) -> str:
        return f"<{self._kind} element_spec={self.element_spec!r}>"


DATA = Namespace(
    "tf.data",
    {
        "Dataset": Dataset,
        "AUTOTUNE": AUTOTUNE,
        "INFINITE_CARDINALITY": INFINITE,
        "UNKNOWN_CARDINALITY": UNKNOWN,
        **FILE_DATASETS,
        "experimental": Namespace(
            "tf.data.experimental",
            {"AUTOTUNE": AUTOTUNE, "INFINITE_CARDINALITY": INFINITE,
             "UNKNOWN_CARDINALITY": UNKNOWN, "cardinality": lambda d: d.cardinality()},
        ),
    },
)  # fmt: skip
