"""Big values cross the process wall summarised; the full value is fetched when the user opens it.

The worker sends a tensor value of more than :data:`SUMMARY_BYTES` as a summary (its shape,
dtype, min, max, mean, sum, sum of squares, nan and ±inf counts, its first elements and a
strided thumbnail of at most 64 x 64) plus a handle: the run's token and a value id under which
the worker keeps the array (:mod:`tapeviz.sandbox.process.kept`). The window's tensors of such
rows hold a :class:`Summarised` in place of the array: it reads like a value everywhere a value
is read (shape, dtype, size, text) but its numbers raise :class:`NotFetched` until the full
value was fetched (off the UI thread); then it computes like the array itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

SUMMARY_BYTES = 1_000_000  # a value larger than this crosses the wall as a summary
HEAD = 16  # first elements sent with a summary (previews, element plots)
THUMB = 64  # a thumbnail samples at most THUMB x THUMB elements (THUMB**2 of a vector)
CHUNK = 1 << 20  # elements reduced at once while summarising (bounded scratch memory)
STATS = ("minimum", "maximum", "mean", "total", "squares", "nans", "posinf", "neginf")
NOT_KEPT, SNAPSHOT = -1, -2  # a value id of a value not kept (too many), of a streamed snapshot


class NotFetched(Exception):
    """A summarised value's numbers were needed before the full value was fetched."""


class ValueGone(Exception):
    """The worker no longer has a summarised value (a new run, a restart, or never kept)."""


def summarise(arr: np.ndarray) -> tuple[list[float], np.ndarray, np.ndarray]:
    """The worker's summary of a big array: :data:`STATS` (float64), its head, a thumbnail."""
    flat = arr.reshape(-1)  # (a view of a contiguous array; a copy of the rare other)
    n = flat.size
    lo, hi, total, squares, nans, pos, neg = math.inf, -math.inf, 0.0, 0.0, 0, 0, 0
    for start in range(0, n, CHUNK):
        part = flat[start : start + CHUNK]
        wide = part.astype(np.float64)
        with np.errstate(all="ignore"):  # (inf - inf: nan, as numpy's own sum)
            s = float(wide.sum())
            squares += float(np.dot(wide, wide))
        total += s
        if not math.isfinite(s) and part.dtype.kind == "f":  # (a finite sum: no nan, no inf)
            here = int(np.count_nonzero(np.isnan(part)))
            nans += here
            pos += int(np.count_nonzero(np.isposinf(part)))
            neg += int(np.count_nonzero(np.isneginf(part)))
            if here < len(part):  # (fmin/fmax skip nan)
                lo, hi = min(lo, float(np.fmin.reduce(wide))), max(hi, float(np.fmax.reduce(wide)))
        elif len(wide):
            lo, hi = min(lo, float(wide.min())), max(hi, float(wide.max()))
    if nans == n:
        lo = hi = math.nan
    stats = [lo, hi, total / n if n else math.nan, total, squares, nans, pos, neg]
    return stats, np.array(flat[:HEAD]), thumbnail(arr)


def thumbnail(arr: np.ndarray) -> np.ndarray:
    """A strided sample of ``arr`` seen as rows x last axis (a copy).

    At most THUMB x THUMB elements, and at most a 16th of the value's (a summary stays small
    beside the value whatever the threshold).
    """
    rows = arr.reshape(-1, arr.shape[-1]) if arr.ndim else arr.reshape(1, 1)
    r, c = rows.shape
    budget = max(HEAD, min(THUMB * THUMB, arr.size // 16))
    if r == 1:
        return np.array(rows[:, :: max(1, -(-c // budget))])
    side = math.isqrt(budget)
    return np.array(rows[:: max(1, -(-r // side)), :: max(1, -(-c // side))])


def _refuse(name: str) -> Callable[..., Any]:
    """A method that is the full value's (:class:`NotFetched` before it was fetched)."""

    def method(self: Summarised, *args: Any, **kwargs: Any) -> Any:
        return getattr(self.numbers(), name)(*args, **kwargs)

    method.__name__ = name
    return method


def _deferred(value: Summarised, name: str) -> Callable[..., Any]:
    """The full value's method ``name``, looked up when called."""
    return lambda *args, **kwargs: getattr(value.numbers(), name)(*args, **kwargs)


_DEFERRED_CALLS = frozenset(
    n for n in dir(np.ndarray) if not n.startswith("_") and callable(getattr(np.ndarray, n))
)
_DEFERRED_ATTRS = frozenset(("T", "mT", "real", "imag", "flat", "base", "data", "strides",
                             "flags", "ctypes"))  # fmt: skip


class Summarised:
    """A big value summarised by the worker: reads like its array, computes only once fetched.

    ``shape``, ``dtype``, ``ndim``, ``size`` and ``nbytes`` are the array's; ``minimum`` …
    ``neginf`` (:data:`STATS`) its statistics; ``head`` its first elements and ``thumb`` a
    strided sample. Anything that needs the numbers (numpy, arithmetic, indexing, methods)
    raises :class:`NotFetched` until ``full`` is set (see :func:`kept.fetch`), then uses it.
    """

    __slots__ = ("dtype", "full", "head", "maximum", "mean", "minimum", "nans", "neginf",
                 "on_fetched", "posinf", "shape", "source", "squares", "thumb", "total",
                 "vid")  # fmt: skip

    def __init__(
        self,
        shape: tuple[int, ...],
        dtype: np.dtype,
        stats: Any,
        head: np.ndarray,
        thumb: np.ndarray,
        vid: int = -1,
        source: Any = None,
    ) -> None:
        """A summary; ``source`` fetches value ``vid`` (None: the value cannot be fetched)."""
        self.shape, self.dtype = tuple(shape), np.dtype(dtype)
        lo, hi, mean, total, squares, nans, pos, neg = (float(s) for s in stats)
        self.minimum, self.maximum, self.mean = lo, hi, mean
        self.total, self.squares = total, squares
        self.nans, self.posinf, self.neginf = int(nans), int(pos), int(neg)
        self.head, self.thumb, self.vid, self.source = head, thumb, vid, source
        self.full: np.ndarray | None = None
        self.on_fetched: Callable[[np.ndarray], None] | None = None

    # -- what reads without the numbers ----------------------------------------------------
    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return len(self.shape)

    @property
    def size(self) -> int:
        """Number of elements."""
        return math.prod(self.shape)

    @property
    def itemsize(self) -> int:
        """Bytes per element."""
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        """Bytes of the full value."""
        return self.size * self.dtype.itemsize

    @property
    def fetchable(self) -> bool:
        """Whether the full value can be asked for (the worker kept it)."""
        return self.full is not None or (self.source is not None and self.vid >= 0)

    @property
    def kinds(self) -> str:
        """Which non-finite values it holds: ``"nan, inf, -inf"``'s parts, or ``""``."""
        found = zip(("nan", "inf", "-inf"), (self.nans, self.posinf, self.neginf), strict=True)
        return ", ".join(name for name, count in found if count)

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d value")
        return self.shape[0]

    def text(self, number: Callable[[float], str] = lambda f: f"{f:.4g}") -> str:
        """``shape (4096, 1280) float32, min -1.2 max 3.4 mean 0.01`` (nan/inf counts after)."""
        shape = "(" + ", ".join(map(str, self.shape)) + ("," if len(self.shape) == 1 else "") + ")"
        out = (f"shape {shape} {self.dtype.name}, min {number(self.minimum)} "
               f"max {number(self.maximum)} mean {number(self.mean)}")  # fmt: skip
        counts = zip(("nan", "inf", "-inf"), (self.nans, self.posinf, self.neginf), strict=True)
        return out + "".join(f", {c:,} × {name}" for name, c in counts if c)

    def __repr__(self) -> str:
        return f"<summarised value: {self.text()}>"

    __str__ = __repr__

    # -- the numbers -----------------------------------------------------------------------
    def numbers(self) -> np.ndarray:
        """The full value; :class:`NotFetched` before it was fetched."""
        full = self.full
        if full is None:
            raise NotFetched(
                f"the value ({self.text()}) crossed from the worker summarised: fetch it "
                "(the Value tab: Fetch this tape's values) before computing with it"
            )
        return full

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.asarray(self.numbers(), dtype=dtype)

    def __getattr__(self, name: str) -> Any:
        if name in _DEFERRED_ATTRS:
            return getattr(self.numbers(), name)
        if name in _DEFERRED_CALLS:
            return getattr(self.numbers(), name) if self.full is not None else _deferred(self, name)
        raise AttributeError(name)

    __hash__ = object.__hash__


for _name in ("add", "radd", "sub", "rsub", "mul", "rmul", "truediv", "rtruediv", "floordiv",
              "rfloordiv", "mod", "rmod", "pow", "rpow", "matmul", "rmatmul", "and", "rand",
              "or", "ror", "xor", "rxor", "lshift", "rshift", "eq", "ne", "lt", "le", "gt",
              "ge", "neg", "pos", "abs", "invert", "getitem", "iter", "bool", "float", "int",
              "index", "contains", "divmod", "rdivmod"):  # fmt: skip
    setattr(Summarised, f"__{_name}__", _refuse(f"__{_name}__"))
