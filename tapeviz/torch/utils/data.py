"""``torch.utils.data``: ``Dataset``, ``TensorDataset``, ``DataLoader``, ``random_split``.

``DataLoader`` batches with torch's ``default_collate`` (tensors stacked, Python floats as
float64, ints as int64, tuples transposed into lists); ``shuffle`` draws a new order every epoch
from ``torch.manual_seed``'s generator. Everything runs in the script's process
(``num_workers`` is accepted and ignored).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from tapeviz.engine.tensor import Tensor as _ETensor
from tapeviz.engine.tensor import freeze as _freeze
from tapeviz.torch import _dtypes as _D
from tapeviz.torch._cpu_rng import CPUNumbers
from tapeviz.torch._creation import _rng
from tapeviz.torch._creation import tensor as _tensor
from tapeviz.torch._shape import stack as _stack
from tapeviz.torch._tensor import Tensor

# Called with (dataset, batch) for every batch a DataLoader gives (nn._net_view registers one).
BATCH_NOTES: list[Callable[[Any, Any], None]] = []

__all__ = [
    "BatchSampler", "ConcatDataset", "DataLoader", "Dataset", "RandomSampler",
    "SequentialSampler", "Subset", "TensorDataset", "default_collate", "random_split",
]  # fmt: skip

_COLLATE_ERROR = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"
)


class Dataset:
    """A map-style dataset: ``__getitem__(index)`` and (usually) ``__len__``."""

    def __getitem__(self, index: Any) -> Any:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Dataset) -> ConcatDataset:
        return ConcatDataset([self, other])


class TensorDataset(Dataset):
    """Samples ``(t0[i], t1[i], ...)`` of tensors that share their first dimension."""

    def __init__(self, *tensors: Tensor) -> None:
        if not all(tensors[0].size(0) == t.size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index: Any) -> tuple[Tensor, ...]:
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``."""

    def __init__(self, dataset: Any, indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self) -> int:
        return len(self.indices)


class ConcatDataset(Dataset):
    """Datasets one after another."""

    def __init__(self, datasets: Sequence[Any]) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        self.cumulative_sizes = list(np.cumsum([len(d) for d in self.datasets]).tolist())

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx: int) -> Any:
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        d = int(np.searchsorted(self.cumulative_sizes, idx, side="right"))
        start = 0 if d == 0 else self.cumulative_sizes[d - 1]
        return self.datasets[d][idx - start]


def random_split(dataset: Any, lengths: Sequence[float], generator: Any = None) -> list[Subset]:
    """Split ``dataset`` into random non-overlapping subsets of the given lengths (or fractions)."""
    n = len(dataset)
    sizes = list(lengths)
    if math.isclose(sum(sizes), 1) and sum(sizes) <= 1:
        counts = [math.floor(n * frac) for frac in sizes]
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        sizes = counts
    if sum(sizes) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = _rng(generator).permutation(n).tolist()  # (torch: randperm(n, generator))
    out, start = [], 0
    for size in sizes:
        out.append(Subset(dataset, order[start : start + int(size)]))
        start += int(size)
    return out


class SequentialSampler:
    """Indices ``0..len-1`` in order."""

    def __init__(self, data_source: Any) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler:
    """Indices in a new random order every pass (from ``torch.manual_seed``'s generator)."""

    def __init__(
        self,
        data_source: Any,
        replacement: bool = False,
        num_samples: int | None = None,
        generator: Any = None,
    ) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator

    @property
    def num_samples(self) -> int:
        """How many indices a pass gives."""
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        if self.generator is None:  # as torch: a new generator each pass, seeded from the global
            numbers = CPUNumbers(_rng().random_int64())
        else:
            numbers = _rng(self.generator)
        if self.replacement:
            return iter(numbers.integers(0, n, (self.num_samples,)).tolist())
        order: list[int] = []
        for _ in range(self.num_samples // n if n else 0):
            order.extend(numbers.permutation(n).tolist())
        if n and self.num_samples % n:
            order.extend(numbers.permutation(n).tolist()[: self.num_samples % n])
        return iter(order)

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler:
    """Lists of ``batch_size`` indices from ``sampler``."""

    def __init__(self, sampler: Any, batch_size: int, drop_last: bool) -> None:
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(
                f"batch_size should be a positive integer value, but got batch_size={batch_size}"
            )
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list[int]]:
        batch: list[int] = []
        for idx in self.sampler:
            batch.append(idx)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else math.ceil(n / self.batch_size)


def default_collate(batch: Sequence[Any]) -> Any:
    """Torch's collate: stack tensors, numbers as tensors, recurse into tuples, lists and dicts."""
    elem = batch[0]
    if isinstance(elem, Tensor):
        return _stack(list(batch), 0)
    if isinstance(elem, np.ndarray):
        if elem.dtype.kind in "OUS":
            raise TypeError(_COLLATE_ERROR.format(elem.dtype))
        return _stack([_tensor(b) for b in batch], 0)
    if isinstance(elem, np.generic):
        return _tensor(np.array(batch))
    if isinstance(elem, bool):
        return _tensor(list(batch))
    if isinstance(elem, float):
        return _tensor(list(batch), dtype=_D.float64)
    if isinstance(elem, int):
        return _tensor(list(batch))
    if isinstance(elem, str | bytes):
        return batch
    if isinstance(elem, Mapping):
        return {key: default_collate([d[key] for d in batch]) for key in elem}
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):
        return type(elem)(*(default_collate(list(s)) for s in zip(*batch, strict=True)))
    if isinstance(elem, Sequence):
        if any(len(b) != len(elem) for b in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        out = [default_collate(list(s)) for s in zip(*batch, strict=True)]
        return out if isinstance(elem, tuple) else _same_type(elem, out)
    raise TypeError(_COLLATE_ERROR.format(type(elem)))


def _same_type(elem: Any, items: list[Any]) -> Any:
    try:
        return type(elem)(items)
    except TypeError:
        return items


def _fast_batch(dataset: TensorDataset, indices: list[int]) -> list[Tensor] | None:
    """A ``TensorDataset`` batch by one numpy index (what indexing then stacking gives)."""
    if any(t._rg for t in dataset.tensors):
        return None
    idx = np.asarray(indices, dtype=np.int64)
    out = []
    for t in dataset.tensors:
        v = np.asarray(t._t._value)[idx]
        out.append(Tensor._wrap(_ETensor(_freeze(v), t._t.dtype)))
    return out


class DataLoader:
    """Batches of a dataset: ``for x, y in DataLoader(ds, batch_size=32, shuffle=True)``."""

    def __init__(
        self,
        dataset: Any,
        batch_size: int | None = 1,
        shuffle: bool | None = None,
        sampler: Any = None,
        batch_sampler: Any = None,
        num_workers: int = 0,
        collate_fn: Callable[[list[Any]], Any] | None = None,
        pin_memory: bool = False,
        drop_last: bool = False,
        timeout: float = 0,
        worker_init_fn: Any = None,
        multiprocessing_context: Any = None,
        generator: Any = None,
        *,
        prefetch_factor: int | None = None,
        persistent_workers: bool = False,
        pin_memory_device: str = "",
        in_order: bool = True,
    ) -> None:
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError(
                    "batch_sampler option is mutually exclusive with batch_size, shuffle, "
                    "sampler, and drop_last"
                )
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError(
                "batch_size=None option disables auto-batching and is mutually exclusive with "
                "drop_last"
            )
        if sampler is None:
            sampler = (
                RandomSampler(dataset, generator=generator)
                if shuffle
                else SequentialSampler(dataset)
            )
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset = dataset
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.num_workers = num_workers
        self.generator = generator
        self.collate_fn = (
            collate_fn
            if collate_fn is not None
            else (default_collate if batch_sampler is not None else _convert)
        )

    def __iter__(self) -> Iterator[Any]:
        _rng(self.generator).random_int64()  # torch draws the workers' base seed per pass
        return self._batches()

    def _batches(self) -> Iterator[Any]:
        if self.batch_sampler is None:
            for i in self.sampler:
                yield self.collate_fn(self.dataset[i])
            return
        fast = type(self.dataset) is TensorDataset and self.collate_fn is default_collate
        for indices in self.batch_sampler:
            batch = _fast_batch(self.dataset, list(indices)) if fast else None
            if batch is None:
                batch = self.collate_fn([self.dataset[i] for i in indices])
            for note in BATCH_NOTES:  # (the Network view: which data set a batch came from)
                note(self.dataset, batch)
            yield batch

    def __len__(self) -> int:
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        return len(self.sampler)


def _convert(data: Any) -> Any:
    """``default_convert``: numpy arrays become tensors, containers are walked."""
    if isinstance(data, np.ndarray) and data.dtype.kind not in "OUS":
        return _tensor(data)
    if isinstance(data, Mapping):
        return {k: _convert(v) for k, v in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(_convert(d) for d in data))
    if isinstance(data, tuple):
        return [_convert(d) for d in data]
    return data
