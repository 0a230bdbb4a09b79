"""Making tensors: ``torch.tensor``, ``zeros``, ``arange``, ``randn``, ... and ``manual_seed``.

Random numbers are torch's own (:mod:`tapeviz.torch._cpu_rng`: mt19937 and torch's transforms),
so ``torch.manual_seed(42); torch.rand(3)`` prints what every PyTorch course prints.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from tapeviz.engine import diagnostics
from tapeviz.engine.guard import check_elements, checkpoint, shape_size
from tapeviz.engine.tensor import Tensor as _ETensor
from tapeviz.engine.tensor import freeze
from tapeviz.tf import run_state
from tapeviz.torch import _dtypes as D
from tapeviz.torch._cpu_rng import CPUNumbers
from tapeviz.torch._tensor import Tensor


class _Random(threading.local):
    """The default generator's numbers and seed (private: scripts get a Generator view)."""

    def __init__(self) -> None:
        self._numbers: CPUNumbers | None = None
        self._seed: int | None = None


RANDOM = _Random()
run_state.register_attributes(__name__, RANDOM, lambda: {"_numbers": None, "_seed": None})


class _Warned(threading.local):
    not_writable = False  # torch warns once (per program; here per run)


_WARNED = _Warned()
run_state.register_attributes(__name__ + ".warned", _WARNED, lambda: {"not_writable": False})


def _rng(generator: Any = None) -> CPUNumbers:
    """The numbers of ``generator`` (a :class:`Generator`), else ``torch.manual_seed``'s."""
    if generator is not None:
        if not isinstance(generator, Generator):
            raise TypeError(f"generator must be a torch.Generator, not {type(generator).__name__}")
        return generator._numbers
    if RANDOM._numbers is None:
        RANDOM._seed = int(np.random.SeedSequence().entropy % 2**63)
        RANDOM._numbers = CPUNumbers(RANDOM._seed)
    return RANDOM._numbers


_DEFAULT_SEED = 67280421310721  # a new torch.Generator's seed, as torch's


class Generator:
    """``torch.Generator``: random numbers of its own, seeded apart from ``torch.manual_seed``.

    Like the global generator its numbers are torch's: a new one is seeded 67280421310721.
    """

    def __init__(self, device: Any = "cpu") -> None:
        self.device = device
        self.manual_seed(_DEFAULT_SEED)

    def manual_seed(self, seed: int) -> Generator:
        """Seed this generator; returns it (``torch.Generator().manual_seed(42)``)."""
        self._seed = int(seed) % 2**64
        self._numbers = CPUNumbers(self._seed)
        return self

    def seed(self) -> int:
        """Seed from the OS's entropy; returns the seed."""
        return self.manual_seed(int(np.random.SeedSequence().entropy % 2**63))._seed

    def initial_seed(self) -> int:
        """The seed in use."""
        return self._seed

    def __repr__(self) -> str:
        return "<torch._C.Generator object>"


class _DefaultGenerator(Generator):
    """``torch.default_generator``: the numbers ``torch.manual_seed`` seeds, as a Generator."""

    def __init__(self) -> None:
        self.device = "cpu"

    @property
    def _numbers(self) -> CPUNumbers:  # (the run's own: run_state gives every run fresh ones)
        return _rng()

    @property
    def _seed(self) -> int:
        _rng()
        return int(RANDOM._seed or 0)

    def manual_seed(self, seed: int) -> Generator:
        """Seed the default numbers (``torch.manual_seed``); returns this generator."""
        RANDOM._seed = int(seed)
        RANDOM._numbers = CPUNumbers(RANDOM._seed)
        return self


DEFAULT_GENERATOR = _DefaultGenerator()


def manual_seed(seed: int) -> Generator:
    """Seed the random numbers: the same seed gives the same numbers; returns the generator."""
    return DEFAULT_GENERATOR.manual_seed(seed)


def seed() -> int:
    """Seed from the OS's entropy; returns the seed."""
    RANDOM._numbers = None
    _rng()
    return int(RANDOM._seed or 0)


def initial_seed() -> int:
    """The seed in use."""
    _rng()
    return int(RANDOM._seed or 0)


def _leaf(value: np.ndarray, dtype: D.dtype, requires_grad: bool) -> Tensor:
    arr = np.asarray(value).astype(dtype._engine.np, copy=False)
    out = Tensor._wrap(_ETensor(freeze(np.array(arr)), dtype._engine))
    if requires_grad:
        out.requires_grad_(True)
    return out


def _infer(data: Any) -> D.dtype:
    """The dtype torch gives a tensor made from ``data`` (Python floats: the default dtype)."""
    if isinstance(data, Tensor):
        return data.dtype
    if isinstance(data, np.ndarray | np.generic):
        try:
            return D.as_torch(data.dtype)
        except TypeError:
            raise TypeError(f"can't convert np.ndarray of type {data.dtype}") from None
    kinds = _kinds(data)
    if "f" in kinds:
        return D.DEFAULT.value
    if "i" in kinds:
        return D.int64
    if "b" in kinds:
        return D.bool_
    return D.DEFAULT.value  # empty lists


def _kinds(data: Any) -> str:
    if isinstance(data, bool | np.bool_):
        return "b"
    if isinstance(data, int | np.integer):
        return "i"
    if isinstance(data, float | np.floating):
        return "f"
    if isinstance(data, Tensor):
        d = data.dtype
        return "f" if d.is_floating_point else ("b" if d is D.bool_ else "i")
    if isinstance(data, list | tuple):
        return "".join(dict.fromkeys(k for x in data for k in _kinds(x)))
    if isinstance(data, np.ndarray):
        return data.dtype.kind
    raise TypeError(f"Could not infer dtype of {type(data).__name__}")


def _array(data: Any) -> np.ndarray:
    if isinstance(data, Tensor):
        return np.asarray(data._t._value)
    if isinstance(data, list | tuple) and any(isinstance(x, Tensor) for x in data):
        parts = [_array(x) for x in data]
        if any(p.ndim for p in parts):
            raise ValueError("only one element tensors can be converted to Python scalars")
        return np.array([p.item() for p in parts])
    try:
        return np.array(data)
    except ValueError as exc:
        raise ValueError(str(exc).split(". ")[0]) from None


def tensor(data: Any, *, dtype: Any = None, device: Any = None, requires_grad: bool = False,
           pin_memory: bool = False) -> Tensor:  # fmt: skip
    """A new leaf tensor holding a copy of ``data`` (numbers, nested lists, arrays)."""
    want = D.as_torch(dtype) if dtype is not None else _infer(data)
    _kinds(data) if not isinstance(data, np.ndarray | Tensor) else None
    arr = _array(data)
    if arr.dtype == object:
        raise ValueError("expected sequence of equal-length lists (a ragged nested list)")
    return _leaf(arr, want, requires_grad)


def as_tensor(data: Any, dtype: Any = None, device: Any = None) -> Tensor:
    """``data`` as a tensor: a tensor or a numpy array of the right dtype shares its memory."""
    if isinstance(data, Tensor) and (dtype is None or D.as_torch(dtype) is data.dtype):
        return data
    if isinstance(data, np.ndarray) and (dtype is None or _numpy_dtype(data) is D.as_torch(dtype)):
        return from_numpy(data)
    return tensor(data, dtype=dtype)


_NOT_WRITABLE = (
    "The given NumPy array is not writable, and PyTorch does not support non-writable tensors. "
    "This means writing to this tensor will result in undefined behavior. You may want to copy "
    "the array to protect its data or make it writable before converting it to a tensor. This "
    "type of warning will be suppressed for the rest of this program."
)


def _numpy_dtype(ndarray: np.ndarray) -> D.dtype | None:
    try:
        return D.as_torch(ndarray.dtype)
    except TypeError:
        return None


def from_numpy(ndarray: np.ndarray) -> Tensor:
    """A tensor sharing memory with a numpy array (and its dtype), as torch's ``from_numpy``.

    Later writes into the array are seen by the tensor, the tensor's in-place changes by the
    array; the tensor cannot be resized.
    """
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    want = _numpy_dtype(ndarray)
    if want is None:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{ndarray.dtype.name}. The only supported "
            "types are: float64, float32, float16, int64, int32, int16, int8, uint8, and bool."
        )
    if not ndarray.dtype.isnative:
        raise ValueError(
            "given numpy array has byte order different from the native byte order. Conversion "
            "between byte orders is currently not supported."
        )
    if any(s < 0 for s in ndarray.strides):
        raise ValueError(
            "At least one stride in the given numpy array is negative, and tensors with negative "
            "strides are not currently supported. (You can probably work around this by making a "
            "copy of your array  with array.copy().) "
        )
    if not ndarray.flags.writeable and not _WARNED.not_writable:
        _WARNED.not_writable = True
        diagnostics.warn(_NOT_WRITABLE)
    out = _leaf(ndarray, want, False)
    out._c.share(ndarray)
    return out


def _shape(size: Sequence[Any]) -> tuple[int, ...]:
    if len(size) == 1 and isinstance(size[0], list | tuple):
        size = tuple(size[0])
    shape = tuple(int(s) for s in size)
    if any(s < 0 for s in shape):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(shape)}: "
                           f"{list(shape)}")  # fmt: skip
    check_elements(shape_size(shape), "the new tensor")  # (np.zeros would not touch the pages)
    return shape


def _want(dtype: Any) -> D.dtype:
    return D.DEFAULT.value if dtype is None else D.as_torch(dtype)


def zeros(
    *shape: Any,
    size: Any = None,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """A tensor of zeros."""
    return _leaf(np.zeros(_shape(shape or (size,))), _want(dtype), requires_grad)


def ones(
    *shape: Any,
    size: Any = None,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """A tensor of ones."""
    return _leaf(np.ones(_shape(shape or (size,))), _want(dtype), requires_grad)


empty = zeros


def full(size: Any, fill_value: Any, *, dtype: Any = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:  # fmt: skip
    """A tensor filled with ``fill_value`` (its dtype inferred from it)."""
    want = D.as_torch(dtype) if dtype is not None else _infer(fill_value)
    return _leaf(np.full(_shape((size,)), fill_value), want, requires_grad)


def _like(maker: Any) -> Any:
    def op(input: Tensor, *, dtype: Any = None, device: Any = None,
           requires_grad: bool = False) -> Tensor:  # fmt: skip
        want = input.dtype if dtype is None else D.as_torch(dtype)
        return maker(tuple(input.shape), dtype=want, requires_grad=requires_grad)

    op.__doc__ = f"Like ``{maker.__name__}`` with ``input``'s shape and dtype."
    return op


zeros_like, ones_like, empty_like = _like(zeros), _like(ones), _like(zeros)


def full_like(input: Tensor, fill_value: Any, *, dtype: Any = None,
              requires_grad: bool = False) -> Tensor:  # fmt: skip
    """A tensor like ``input`` filled with ``fill_value``."""
    return full(tuple(input.shape), fill_value, dtype=dtype or input.dtype,
                requires_grad=requires_grad)  # fmt: skip


def arange(start: Any, end: Any = None, step: Any = 1, *, dtype: Any = None, device: Any = None,
           requires_grad: bool = False) -> Tensor:  # fmt: skip
    """``start, start+step, ...`` below ``end`` (int64 for integer arguments)."""
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    ints = all(isinstance(v, int) for v in (start, end, step))
    want = D.as_torch(dtype) if dtype is not None else (D.int64 if ints else D.DEFAULT.value)
    n = max(0, int(np.ceil((float(end) - float(start)) / float(step))))
    check_elements(max(int(n), 0), "torch.arange")
    return _leaf(start + step * np.arange(n), want, requires_grad)


def linspace(start: Any, end: Any, steps: int, *, dtype: Any = None, device: Any = None,
             requires_grad: bool = False) -> Tensor:  # fmt: skip
    """``steps`` evenly spaced values from ``start`` to ``end``."""
    check_elements(int(steps), "torch.linspace")
    return _leaf(np.linspace(float(start), float(end), int(steps)), _want(dtype), requires_grad)


def logspace(start: Any, end: Any, steps: int, base: float = 10.0, *, dtype: Any = None) -> Tensor:
    """``base ** linspace(start, end, steps)``."""
    check_elements(int(steps), "torch.logspace")
    return _leaf(base ** np.linspace(float(start), float(end), int(steps)), _want(dtype), False)


def eye(n: int, m: int | None = None, *, dtype: Any = None, device: Any = None,
        requires_grad: bool = False) -> Tensor:  # fmt: skip
    """The identity matrix."""
    check_elements(int(n) * int(n if m is None else m), "torch.eye")
    return _leaf(np.eye(int(n), None if m is None else int(m)), _want(dtype), requires_grad)


def rand(
    *shape: Any,
    size: Any = None, dtype: Any = None, generator: Any = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:  # fmt: skip
    """Uniform samples from [0, 1)."""
    want = _want(dtype)
    numbers = _rng(generator).uniform(_shape(shape or (size,)), want._engine.np, 0.0, 1.0)
    return _leaf(numbers, want, requires_grad)


def randn(
    *shape: Any,
    size: Any = None, dtype: Any = None, generator: Any = None, device: Any = None,
          requires_grad: bool = False) -> Tensor:  # fmt: skip
    """Standard normal samples."""
    want = _want(dtype)
    numbers = _rng(generator).normal(_shape(shape or (size,)), want._engine.np, 0.0, 1.0)
    return _leaf(numbers, want, requires_grad)


def randint(low: int, high: Any = None, size: Any = None, *, dtype: Any = None,
            generator: Any = None, device: Any = None) -> Tensor:  # fmt: skip
    """Integers from ``low`` (0 if omitted) up to ``high``."""
    if size is None:
        low, high, size = 0, low, high
    want = D.int64 if dtype is None else D.as_torch(dtype)
    if int(high) <= int(low):
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} "
                           f">= to={high}")  # fmt: skip
    return _leaf(_rng(generator).integers(int(low), int(high), _shape((size,))), want, False)


def randperm(n: int, *, dtype: Any = None, generator: Any = None, device: Any = None) -> Tensor:
    """A random permutation of ``0..n-1``."""
    want = D.int64 if dtype is None else D.as_torch(dtype)
    return _leaf(_rng(generator).permutation(int(n)), want, False)


def normal(
    mean: Any = 0.0,
    std: Any = 1.0,
    size: Any = None,
    *,
    generator: Any = None,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """Normal samples with the given mean and std (tensors or numbers)."""
    m = np.asarray(mean._t._value) if isinstance(mean, Tensor) else mean
    s = np.asarray(std._t._value) if isinstance(std, Tensor) else std
    shape = _shape((size,)) if size is not None else np.broadcast(m, s).shape
    want = mean.dtype if isinstance(mean, Tensor) and dtype is None else _want(dtype)
    every = np.broadcast_shapes(shape, np.shape(m), np.shape(s))
    check_elements(shape_size(every), "torch.normal")
    if isinstance(mean, Tensor) or isinstance(std, Tensor):  # torch: normal_(0, 1)·std + mean
        z = _rng(generator).normal(shape, want._engine.np, 0.0, 1.0)
        return _leaf(z * s + m, want, requires_grad)
    return _leaf(_rng(generator).normal(shape, want._engine.np, m, s), want, requires_grad)


def bernoulli(input: Tensor, p: Any = None, *, generator: Any = None) -> Tensor:
    """1 with probability ``input`` (elementwise), else 0."""
    shape = input._t._value.shape
    if p is None:
        return _leaf(_rng(generator).bernoulli(np.asarray(input._t._value), shape), input.dtype,
                     False)  # fmt: skip
    return _leaf(_rng(generator).side_stream().random(shape) < p, input.dtype, False)


def multinomial(
    input: Tensor, num_samples: int, replacement: bool = False, *, generator: Any = None
) -> Tensor:
    """Indices drawn with probabilities proportional to ``input``'s rows."""
    w = np.asarray(input._t._value, np.float64)
    rows = w.reshape(-1, w.shape[-1])
    k = int(num_samples)
    check_elements(len(rows) * k, "torch.multinomial")
    if not replacement and k > w.shape[-1]:
        raise RuntimeError(
            "cannot sample n_sample > prob_dist.size(-1) samples without replacement"
        )
    side = _rng(generator).side_stream()  # (torch's draws here are not reproduced)
    if replacement:  # every row at once: row i's cumulative weights shifted by i, one search
        cdf = np.cumsum(rows, axis=1)
        cdf = cdf / cdf[:, -1:] + np.arange(len(rows))[:, None]
        u = side.random((len(rows), k)) + np.arange(len(rows))[:, None]
        flat = np.searchsorted(cdf.ravel(), u.ravel(), side="right")
        out = flat.reshape(len(rows), k) - np.arange(len(rows))[:, None] * rows.shape[1]
        out = np.minimum(out, rows.shape[1] - 1)
    else:
        out = []
        for i, r in enumerate(rows):
            if not i & 1023:
                checkpoint()
            out.append(side.choice(len(r), k, replace=False, p=r / r.sum()))
    return _leaf(np.array(out).reshape(*w.shape[:-1], int(num_samples)), D.int64, False)


def legacy_value(args: tuple[Any, ...], dtype: D.dtype) -> _ETensor:
    """What ``torch.Tensor(...)`` makes: from data (a list), or zeros of the given sizes."""
    if len(args) == 1 and not isinstance(args[0], int):
        arr = _array(args[0])
    else:
        arr = np.zeros(_shape(args))
    return _ETensor(freeze(np.array(arr, dtype=dtype._engine.np)), dtype._engine)
