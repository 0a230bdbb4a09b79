"""The transformations of a tf.data.Dataset: batch, shuffle, map, filter, take, repeat, ...

Each returns a new dataset whose recipe runs its source's recipe again on every iteration.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from tapeviz.engine import dtypes
from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.specs import TensorSpec
from tapeviz.engine.tensor import Tensor, constant
from tapeviz.tf import random_ops
from tapeviz.tf.data_structure import (
    AUTOTUNE,
    INFINITE,
    UNKNOWN,
    as_tensor,
    batched,
    call_with,
    flatten,
    pack,
    stack_batch,
)

__all__ = ["Transformations"]


class Transformations:
    """The dataset methods that make a new dataset from this one."""

    _cardinality: int
    _spec: Any

    def _derived(
        self, make: Callable[[], Iterator[Any]], cardinality: int, kind: str, spec: Any = None
    ) -> Any:
        return type(self)(make, cardinality, kind, spec)  # type: ignore[call-arg]

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError

    # -- transformations -------------------------------------------------------------------
    def batch(
        self,
        batch_size: int,
        drop_remainder: bool = False,
        num_parallel_calls: Any = None,
        deterministic: Any = None,
        name: str | None = None,
    ) -> Any:
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
                    yield stack_batch(group)
                    group = []
            if group and not drop_remainder:
                yield stack_batch(group)

        card = self._cardinality
        if card >= 0:
            card = card // size if drop_remainder else math.ceil(card / size)
        spec = None
        if self._spec is not None:
            lead = size if drop_remainder else None
            spec = pack(
                self._spec,
                [TensorSpec((lead, *s.shape), s.dtype) for s in flatten(self._spec)],
            )
        return self._derived(make, card, "_BatchDataset", spec)

    def unbatch(self, name: str | None = None) -> Any:
        """The rows of each element, one by one (the inverse of ``batch``)."""
        source = self

        def make() -> Iterator[Any]:
            for element in source:
                leaves = [np.asarray(t._value) for t in flatten(element)]
                kinds = [t.dtype for t in flatten(element)]
                for i in range(len(leaves[0])):
                    yield pack(
                        element,
                        [
                            Tensor(v[i], d) if np.ndim(v[i]) == 0 else constant(v[i])
                            for v, d in zip(leaves, kinds, strict=True)
                        ],
                    )

        return self._derived(make, UNKNOWN, "_UnbatchDataset")

    def shuffle(
        self,
        buffer_size: int,
        seed: int | None = None,
        reshuffle_each_iteration: bool = True,
        name: str | None = None,
    ) -> Any:
        """Elements in random order, drawn from a buffer of ``buffer_size`` (TF's algorithm)."""
        size = int(buffer_size)
        if size <= 0 and size != AUTOTUNE:
            raise InvalidArgumentError("buffer_size must be greater than zero.", "shuffle")
        a, b = random_ops.get_seed(seed)
        key = None if a is None or b is None else (a, b)
        stream = [random_ops.philox(*key) if key else np.random.default_rng()]
        source = self

        def make() -> Iterator[Any]:
            if reshuffle_each_iteration:
                gen = stream[0]
            else:
                gen = random_ops.philox(*key) if key else np.random.default_rng(0)
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

        return self._derived(make, self._cardinality, "_ShuffleDataset", self._spec)

    def map(
        self,
        map_func: Callable[..., Any],
        num_parallel_calls: Any = None,
        deterministic: Any = None,
        name: str | None = None,
    ) -> Any:
        """``map_func`` applied to each element (a tuple element is passed as arguments)."""
        source = self

        def make() -> Iterator[Any]:
            for element in source:
                out = call_with(map_func, element)
                yield pack(out, [as_tensor(t) for t in flatten(out)])

        mapped = self._derived(make, self._cardinality, "_MapDataset")
        mapped._batched = batched(self._spec)
        return mapped

    def filter(self, predicate: Callable[..., Any], name: str | None = None) -> Any:
        """The elements for which ``predicate`` is true."""
        source = self

        def make() -> Iterator[Any]:
            for element in source:
                if bool(call_with(predicate, element)):
                    yield element

        return self._derived(make, UNKNOWN, "_FilterDataset", self._spec)

    def take(self, count: int, name: str | None = None) -> Any:
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
        return self._derived(make, card, "_TakeDataset", self._spec)

    def skip(self, count: int, name: str | None = None) -> Any:
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
        return self._derived(make, card, "_SkipDataset", self._spec)

    def repeat(self, count: int | None = None, name: str | None = None) -> Any:
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
        return self._derived(make, card, "_RepeatDataset", self._spec)

    def enumerate(self, start: int = 0, name: str | None = None) -> Any:
        """``(index, element)`` pairs, the index an int64 scalar."""
        source = self

        def make() -> Iterator[Any]:
            for i, element in enumerate(source, int(start)):
                yield (Tensor(np.int64(i), dtypes.int64), element)

        return self._derived(make, self._cardinality, "_EnumerateDataset")

    def concatenate(self, dataset: Any, name: str | None = None) -> Any:
        """The elements of both datasets, this one's first."""
        first, second = self, dataset

        def make() -> Iterator[Any]:
            yield from first
            yield from second

        a, b = self._cardinality, dataset._cardinality
        card = a + b if a >= 0 and b >= 0 else (INFINITE if INFINITE in (a, b) else UNKNOWN)
        return self._derived(make, card, "_ConcatenateDataset", self._spec)

    def shard(self, num_shards: int, index: int, name: str | None = None) -> Any:
        """Every ``num_shards``-th element, starting at ``index``."""
        source, k, i0 = self, int(num_shards), int(index)
        return self._derived(
            lambda: (e for j, e in enumerate(source) if j % k == i0),
            UNKNOWN,
            "_ShardDataset",
            self._spec,
        )

    def prefetch(self, buffer_size: Any, name: str | None = None) -> Any:
        """The same elements (prefetching only overlaps work on an accelerator)."""
        return self._derived(self._make, self._cardinality, "_PrefetchDataset", self._spec)

    def cache(self, filename: str = "", name: str | None = None) -> Any:
        """The same elements (in memory already)."""
        if filename:
            from tapeviz.tf.unavailable import NotAvailableInTapeviz

            raise NotAvailableInTapeviz("tf.data.Dataset.cache(filename)", "file")
        return self._derived(self._make, self._cardinality, "_CacheDataset", self._spec)

    def apply(self, transformation_func: Callable[[Any], Any]) -> Any:
        """``transformation_func(self)``."""
        return transformation_func(self)

    def reduce(self, initial_state: Any, reduce_func: Callable[[Any, Any], Any]) -> Any:
        """Fold the elements: ``state = reduce_func(state, element)``."""
        state = initial_state
        for element in self:
            state = reduce_func(state, element)
        return state
