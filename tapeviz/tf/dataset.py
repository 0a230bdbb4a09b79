"""``tf.data.Dataset`` over in-memory data: slices, batches, shuffles, maps and repeats.

A dataset is a recipe: iterating it (``for x, y in ds:``) runs the recipe again, as in
TensorFlow, so a ``shuffle`` gives a new order each epoch unless ``reshuffle_each_iteration``
is False. Shuffling uses TensorFlow's buffer algorithm with the seed rules of ``tf.random``.
Elements are tensors (or tuples and dicts of them, as the data was given).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from tapeviz.engine import dtypes
from tapeviz.engine.errors import EngineTypeError, InvalidArgumentError
from tapeviz.engine.guard import checkpoint
from tapeviz.engine.namespace import Namespace
from tapeviz.engine.specs import TensorSpec
from tapeviz.engine.tensor import Tensor, TensorLike, constant, convert_to_tensor, freeze
from tapeviz.tf import random_ops
from tapeviz.tf.unavailable import FILE_DATASETS

__all__ = ["AUTOTUNE", "DATA", "INFINITE", "UNKNOWN", "Dataset"]

AUTOTUNE = -1
INFINITE = -1
UNKNOWN = -2


def _as_tensor(x: Any) -> TensorLike:
    return x if isinstance(x, TensorLike) else convert_to_tensor(x)


def _flatten(structure: Any) -> list[Any]:
    """tf.data's structure: tuples and dicts nest; a list is data (one tensor), as in TF."""
    if isinstance(structure, tuple):
        return [leaf for s in structure for leaf in _flatten(s)]
    if isinstance(structure, dict):
        return [leaf for s in structure.values() for leaf in _flatten(s)]
    return [structure]


def _pack(structure: Any, leaves: list[Any]) -> Any:
    it = iter(leaves)

    def build(s: Any) -> Any:
        if isinstance(s, tuple):
            items = [build(v) for v in s]
            return type(s)(*items) if hasattr(s, "_fields") else tuple(items)
        if isinstance(s, dict):
            return {k: build(v) for k, v in s.items()}
        return next(it)

    return build(structure)


def _call(fn: Callable[..., Any], element: Any) -> Any:
    """Call a map/filter function the TensorFlow way: a tuple element is unpacked."""
    if isinstance(element, tuple):
        return fn(*element)
    return fn(element)


def _spec_of(element: Any) -> Any:
    return _pack(element, [TensorSpec.from_tensor(_as_tensor(t)) for t in _flatten(element)])


class Dataset:
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
        leaves = [_as_tensor(t) for t in _flatten(tensors)]
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
                yield _pack(
                    structure,
                    [
                        Tensor(v[i], d) if v[i].ndim == 0 else constant(v[i])
                        for v, d in zip(values, kinds, strict=True)
                    ],
                )

        spec = _pack(structure, [TensorSpec(t.shape[1:], t.dtype) for t in leaves])
        return Dataset(make, n, "_TensorSliceDataset", spec)

    @staticmethod
    def from_tensors(tensors: Any, name: str | None = None) -> Dataset:
        """A dataset of one element: ``tensors`` itself."""
        leaves = [_as_tensor(t) for t in _flatten(tensors)]
        element = _pack(tensors, leaves)
        return Dataset(lambda: iter([element]), 1, "_TensorDataset", _spec_of(element))

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
        flat = _flatten(parts)
        for d in flat:
            if not isinstance(d, Dataset):
                raise EngineTypeError(f"zip: expected datasets, got {type(d).__name__}", "data")

        def make() -> Iterator[Any]:
            for items in zip(*[iter(d) for d in flat], strict=False):
                yield _pack(parts, list(items))

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
                yield _pack(item, [_as_tensor(t) for t in _flatten(item)])

        return Dataset(make, UNKNOWN, "_FlatMapDataset", output_signature)

    # -- transformations -------------------------------------------------------------------
    def batch(
        self,
        batch_size: int,
        drop_remainder: bool = False,
        num_parallel_calls: Any = None,
        deterministic: Any = None,
        name: str | None = None,
    ) -> Dataset:
        """Consecutive elements stacked ``batch_size`` at a time (the last batch may be short)."""
        size = int(batch_size)
        if size <= 0:
            raise InvalidArgumentError("batch_size must be greater than zero.", "batch")
        source = self

        def make() -> Iterator[Any]:
            group: list[Any] = []
            for element in source:
                group.append(element)
                if len(group) == size:
                    yield _stack(group)
                    group = []
            if group and not drop_remainder:
                yield _stack(group)

        card = self._cardinality
        if card >= 0:
            card = card // size if drop_remainder else math.ceil(card / size)
        spec = None
        if self._spec is not None:
            lead = size if drop_remainder else None
            spec = _pack(
                self._spec,
                [TensorSpec((lead, *s.shape), s.dtype) for s in _flatten(self._spec)],
            )
        return Dataset(make, card, "_BatchDataset", spec)

    def unbatch(self, name: str | None = None) -> Dataset:
        """The rows of each element, one by one (the inverse of ``batch``)."""
        source = self

        def make() -> Iterator[Any]:
            for element in source:
                leaves = [np.asarray(t._value) for t in _flatten(element)]
                kinds = [t.dtype for t in _flatten(element)]
                for i in range(len(leaves[0])):
                    yield _pack(
                        element,
                        [
                            Tensor(v[i], d) if v[i].ndim == 0 else constant(v[i])
                            for v, d in zip(leaves, kinds, strict=True)
                        ],
                    )

        return Dataset(make, UNKNOWN, "_UnbatchDataset")

    def shuffle(
        self,
        buffer_size: int,
        seed: int | None = None,
        reshuffle_each_iteration: bool = True,
        name: str | None = None,
    ) -> Dataset:
        """Elements in random order, drawn from a buffer of ``buffer_size`` (TF's algorithm)."""
        size = int(buffer_size)
        if size <= 0 and size != AUTOTUNE:
            raise InvalidArgumentError("buffer_size must be greater than zero.", "shuffle")
        a, b = random_ops.get_seed(seed)
        key = None if a is None or b is None else (a, b)
        stream = [random_ops._philox(*key) if key else np.random.default_rng()]
        source = self

        def make() -> Iterator[Any]:
            if reshuffle_each_iteration:
                gen = stream[0]
            else:
                gen = random_ops._philox(*key) if key else np.random.default_rng(0)
            buffer: list[Any] = []
            for element in source:
                buffer.append(element)
                if len(buffer) >= size > 0:
                    k = int(gen.integers(len(buffer)))
                    buffer[k], buffer[-1] = buffer[-1], buffer[k]
                    yield buffer.pop()
            while buffer:
                k = int(gen.integers(len(buffer)))
                buffer[k], buffer[-1] = buffer[-1], buffer[k]
                yield buffer.pop()

        return Dataset(make, self._cardinality, "_ShuffleDataset", self._spec)

    def map(
        self,
        map_func: Callable[..., Any],
        num_parallel_calls: Any = None,
        deterministic: Any = None,
        name: str | None = None,
    ) -> Dataset:
        """``map_func`` applied to each element (a tuple element is passed as arguments)."""
        source = self

        def make() -> Iterator[Any]:
            for element in source:
                out = _call(map_func, element)
                yield _pack(out, [_as_tensor(t) for t in _flatten(out)])

        return Dataset(make, self._cardinality, "_MapDataset")

    def filter(self, predicate: Callable[..., Any], name: str | None = None) -> Dataset:
        """The elements for which ``predicate`` is true."""
        source = self

        def make() -> Iterator[Any]:
            for element in source:
                if bool(_call(predicate, element)):
                    yield element

        return Dataset(make, UNKNOWN, "_FilterDataset", self._spec)

    def take(self, count: int, name: str | None = None) -> Dataset:
        """The first ``count`` elements (all of them for −1)."""
        n = int(count)
        source = self

        def make() -> Iterator[Any]:
            if n == 0:
                return
            for i, element in enumerate(source):
                yield element
                if n >= 0 and i + 1 >= n:
                    return

        card = self._cardinality
        if n >= 0:
            card = n if card in (INFINITE,) else (min(card, n) if card >= 0 else UNKNOWN)
        return Dataset(make, card, "_TakeDataset", self._spec)

    def skip(self, count: int, name: str | None = None) -> Dataset:
        """All but the first ``count`` elements."""
        n = int(count)
        source = self

        def make() -> Iterator[Any]:
            for i, element in enumerate(source):
                if n < 0:
                    return
                if i >= n:
                    yield element

        card = self._cardinality
        if card >= 0:
            card = 0 if n < 0 else max(0, card - n)
        return Dataset(make, card, "_SkipDataset", self._spec)

    def repeat(self, count: int | None = None, name: str | None = None) -> Dataset:
        """The dataset ``count`` times over (forever when None or −1)."""
        n = -1 if count is None else int(count)
        source = self

        def make() -> Iterator[Any]:
            k = 0
            while n < 0 or k < n:
                empty = True
                for element in source:
                    empty = False
                    yield element
                k += 1
                if empty:
                    return

        card = self._cardinality
        if card > 0:
            card = INFINITE if n < 0 else card * n
        elif card == 0 or n == 0:
            card = 0
        return Dataset(make, card, "_RepeatDataset", self._spec)

    def enumerate(self, start: int = 0, name: str | None = None) -> Dataset:
        """``(index, element)`` pairs, the index an int64 scalar."""
        source = self

        def make() -> Iterator[Any]:
            for i, element in enumerate(source, int(start)):
                yield (Tensor(np.int64(i), dtypes.int64), element)

        return Dataset(make, self._cardinality, "_EnumerateDataset")

    def concatenate(self, dataset: Dataset, name: str | None = None) -> Dataset:
        """The elements of both datasets, this one's first."""
        first, second = self, dataset

        def make() -> Iterator[Any]:
            yield from first
            yield from second

        a, b = self._cardinality, dataset._cardinality
        card = a + b if a >= 0 and b >= 0 else (INFINITE if INFINITE in (a, b) else UNKNOWN)
        return Dataset(make, card, "_ConcatenateDataset", self._spec)

    def shard(self, num_shards: int, index: int, name: str | None = None) -> Dataset:
        """Every ``num_shards``-th element, starting at ``index``."""
        source, k, i0 = self, int(num_shards), int(index)
        return Dataset(
            lambda: (e for j, e in enumerate(source) if j % k == i0),
            UNKNOWN,
            "_ShardDataset",
            self._spec,
        )

    def prefetch(self, buffer_size: Any, name: str | None = None) -> Dataset:
        """The same elements (prefetching only overlaps work on an accelerator)."""
        return Dataset(self._make, self._cardinality, "_PrefetchDataset", self._spec)

    def cache(self, filename: str = "", name: str | None = None) -> Dataset:
        """The same elements (in memory already)."""
        if filename:
            from tapeviz.tf.unavailable import NotAvailableInTapeviz

            raise NotAvailableInTapeviz("tf.data.Dataset.cache(filename)", "file")
        return Dataset(self._make, self._cardinality, "_CacheDataset", self._spec)

    def apply(self, transformation_func: Callable[[Dataset], Dataset]) -> Dataset:
        """``transformation_func(self)``."""
        return transformation_func(self)

    def reduce(self, initial_state: Any, reduce_func: Callable[[Any, Any], Any]) -> Any:
        """Fold the elements: ``state = reduce_func(state, element)``."""
        state = initial_state
        for element in self:
            state = reduce_func(state, element)
        return state

    # -- iteration -------------------------------------------------------------------------
    def __iter__(self) -> Iterator[Any]:
        return iter(self._make())

    def as_numpy_iterator(self) -> Iterator[Any]:
        """The elements as numpy values."""
        for element in self:
            yield _pack(element, [t.numpy() for t in _flatten(element)])

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
                self._spec = _spec_of(element)
                break
        return self._spec

    def __repr__(self) -> str:
        return f"<{self._kind} element_spec={self.element_spec!r}>"


def _stack(group: list[Any]) -> Any:
    """A batch: each leaf stacked (as a constant: batching records no op)."""
    first = group[0]
    flat = [_flatten(e) for e in group]
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
        leaves.append(
            Tensor(freeze(np.stack([np.asarray(p._value) for p in parts])), parts[0].dtype)
        )
    return _pack(first, leaves)


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
