"""More of numpy for a script: statistics, histograms, polynomials, splitting, padding, einsum.

What a classification or regression notebook reaches for beyond the basic maths. Every
function whose result or work can grow past its inputs (``bincount`` of a big label,
``histogram`` with many bins, ``polyfit`` of a high degree, ``pad``, ``einsum``) measures that
first, against the run's limits.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine.guard import shape_size
from tapeviz.sandbox.runtime.checks import budget
from tapeviz.sandbox.runtime.numpy_core import (
    as_array,
    check_result,
    check_size,
    checked,
    dims,
    option,
)


def _arr(a: Any) -> np.ndarray:
    return np.asarray(as_array(a))


def _axis_len(a: np.ndarray, axis: Any) -> int:
    if axis is None:
        return int(a.size)
    axes = (axis,) if isinstance(axis, int | np.integer) else tuple(axis)
    return math.prod(a.shape[int(x)] for x in axes) if a.ndim else 1


def bincount(x: Any, weights: Any = None, minlength: int = 0) -> np.ndarray:
    """``np.bincount``: its length (the largest value + 1) is checked first."""
    arr = _arr(x)
    top = int(arr.max()) + 1 if arr.size and arr.dtype.kind in "iub" else 0
    check_size(max(top, int(minlength)), "np.bincount")
    w = None if weights is None else as_array(weights)
    return check_result(np.bincount(arr, w, int(minlength)))


def diff(a: Any, n: int = 1, axis: int = -1, **kwargs: Any) -> np.ndarray:
    """``np.diff``: more differences than values give the same empty result, made at once."""
    arr = _arr(a)
    kwargs = {k: as_array(v) for k, v in kwargs.items()}
    # numpy loops n times; past the axis' length every n gives the same empty result.
    n = min(int(n), arr.size + sum(int(np.size(v)) for v in kwargs.values()) + 1)
    return check_result(np.diff(arr, n, int(axis), **kwargs))


def _quantiles(fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapped(a: Any, q: Any, axis: Any = None, *args: Any, **kwargs: Any) -> Any:
        arr, qs = _arr(a), _arr(q)
        axis = option(axis)
        keep = arr.size // max(_axis_len(arr, axis), 1) if arr.size else 1
        check_size(qs.size * keep, f"np.{fn.__name__}")
        kwargs = {k: option(v) for k, v in kwargs.items()}
        return check_result(fn(arr, qs, axis, *[option(x) for x in args], **kwargs))

    wrapped.__name__ = fn.__name__
    return wrapped


def _bins_count(a: np.ndarray, bins: Any, range_: Any) -> None:
    """Refuse more bins than the run allows (also for numpy's estimators: ``bins='auto'``)."""
    if isinstance(bins, str):
        data = a[np.isfinite(a)] if a.dtype.kind == "f" else a
        if range_ is not None:
            lo, hi = range_
            data = data[(data >= lo) & (data <= hi)]
        if data.size == 0:
            return
        try:
            from numpy.lib import _histograms_impl as impl  # numpy's own bin-width estimators

            select = impl._hist_bin_selectors[bins]
        except (ImportError, AttributeError):
            raise TypeError("np.histogram's bins must be a number or the bin edges") from None
        except KeyError:
            return  # numpy names the estimators it has
        width = select(data, range_)
        span = float((range_[1] - range_[0]) if range_ is not None else np.ptp(data))
        if width:
            check_size(math.ceil(span / width), f"np.histogram's bins='{bins}'")
    elif isinstance(bins, int | np.integer):
        check_size(int(bins), "np.histogram's bins")


def histogram(a: Any, bins: Any = 10, range: Any = None, **kwargs: Any) -> Any:
    """``np.histogram``: the number of bins is checked first."""
    arr = _arr(a)
    bins = bins if isinstance(bins, str | int | np.integer) else as_array(bins)
    _bins_count(arr, bins, range)
    kwargs = {k: as_array(v) if k == "weights" else option(v) for k, v in kwargs.items()}
    return check_result(np.histogram(arr, bins, range, **kwargs))


def histogram2d(x: Any, y: Any, bins: Any = 10, **kwargs: Any) -> Any:
    """``np.histogram2d``: the grid of bins is checked first."""
    xs, ys = _arr(x), _arr(y)
    if isinstance(bins, int | np.integer):
        check_size(int(bins) ** 2, "np.histogram2d's bins")
    elif isinstance(bins, list | tuple) and all(isinstance(b, int | np.integer) for b in bins):
        check_size(math.prod(int(b) for b in bins), "np.histogram2d's bins")
    elif isinstance(bins, list | tuple):
        bins = [as_array(b) for b in bins]
    else:
        bins = as_array(bins)
    kwargs = {k: as_array(v) if k == "weights" else option(v) for k, v in kwargs.items()}
    return check_result(np.histogram2d(xs, ys, bins, **kwargs))


def polyfit(x: Any, y: Any, deg: int, *args: Any, **kwargs: Any) -> Any:
    """``np.polyfit``: the Vandermonde matrix and its least squares are checked first."""
    xs, ys = _arr(x), _arr(y)
    terms = int(deg) + 1
    check_size(xs.size * terms, "np.polyfit's Vandermonde matrix")
    budget().check_flops(xs.size * terms * terms, "np.polyfit")
    args = tuple(option(a) for a in args)
    kwargs = {k: as_array(v) if k == "w" else option(v) for k, v in kwargs.items()}
    return check_result(np.polyfit(xs, ys, deg, *args, **kwargs))


def polyval(p: Any, x: Any) -> Any:
    """``np.polyval``: one multiply-add per coefficient and value (Horner's rule)."""
    ps, xs = _arr(p), _arr(x)
    budget().check_flops(ps.size * max(xs.size, 1), "np.polyval")
    return check_result(np.polyval(ps, xs))


def vander(x: Any, N: int | None = None, increasing: bool = False) -> np.ndarray:
    """``np.vander``: ``len(x) * N`` values, checked first."""
    xs = _arr(x)
    check_size(xs.size * (len(xs) if N is None else int(N)), "np.vander")
    return check_result(np.vander(xs, N, bool(increasing)))


def roots(p: Any) -> np.ndarray:
    """``np.roots``: the eigenvalues of an ``n x n`` companion matrix (``n**3`` work)."""
    ps = _arr(p)
    check_size(ps.size**2, "np.roots' companion matrix")
    budget().check_flops(ps.size**3, "np.roots")
    return check_result(np.roots(ps))


def _pieces(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``np.split`` and friends: a number of pieces is checked (each is an array)."""

    def wrapped(ary: Any, indices_or_sections: Any, *args: Any, **kwargs: Any) -> Any:
        arr = _arr(ary)
        sections = indices_or_sections
        if isinstance(sections, int | np.integer):
            check_size(int(sections), f"np.{fn.__name__}'s pieces")
        else:
            sections = as_array(sections)
            check_size(int(np.size(sections)) + 1, f"np.{fn.__name__}'s pieces")
        return check_result(fn(arr, sections, *[option(a) for a in args], **kwargs))

    wrapped.__name__ = fn.__name__
    return wrapped


def pad(array: Any, pad_width: Any, mode: str = "constant", **kwargs: Any) -> np.ndarray:
    """``np.pad``: the padded shape is checked first (no function as ``mode``)."""
    arr = _arr(array)
    widths = np.broadcast_to(np.asarray(as_array(pad_width), dtype=np.int64), (arr.ndim, 2))
    check_size(shape_size(tuple(s + int(w.sum()) for s, w in zip(arr.shape, widths, strict=True))),
               "np.pad")  # fmt: skip
    if not isinstance(mode, str):
        raise TypeError("np.pad's mode must be a string in tapeviz")
    kwargs = {k: as_array(v) for k, v in kwargs.items()}
    return check_result(np.pad(arr, pad_width, mode, **kwargs))


def take(a: Any, indices: Any, axis: Any = None, **kwargs: Any) -> Any:
    """``np.take``: the result's size is checked first."""
    arr, idx = _arr(a), _arr(indices)
    rest = arr.size // max(_axis_len(arr, axis), 1) if axis is not None and arr.size else 1
    check_size(idx.size * rest, "np.take")
    return check_result(
        np.take(arr, idx, option(axis), **{k: option(v) for k, v in kwargs.items()})
    )


def diag(v: Any, k: int = 0) -> np.ndarray:
    """``np.diag``: a vector's square matrix is sized first."""
    arr = _arr(v)
    if arr.ndim == 1:
        check_size((arr.size + abs(int(k))) ** 2, "np.diag")
    return check_result(np.diag(arr, int(k)))


def _square(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``np.tri``, ``np.indices``-like makers of ``N x M`` arrays."""

    def wrapped(N: int, M: int | None = None, *args: Any, **kwargs: Any) -> Any:
        check_size(int(N) * int(N if M is None else M), f"np.{fn.__name__}")
        return check_result(fn(N, M, *args, **kwargs))

    wrapped.__name__ = fn.__name__
    return wrapped


def indices(dimensions: Any, dtype: Any = int, sparse: bool = False) -> Any:
    """``np.indices``: one grid per dimension, sized first."""
    shape = dims(dimensions)
    check_size(shape_size(shape) * (1 if sparse else len(shape)), "np.indices")
    return check_result(np.indices(shape, dtype, bool(sparse)))


def kron(a: Any, b: Any) -> np.ndarray:
    """``np.kron``: ``a.size * b.size`` values, checked first."""
    x, y = _arr(a), _arr(b)
    check_size(x.size * y.size, "np.kron")
    return check_result(np.kron(x, y))


def _sliding(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``np.convolve`` and ``np.correlate``: one multiply-add per pair of values."""

    def wrapped(a: Any, v: Any, mode: str = "valid" if fn is np.correlate else "full") -> Any:
        x, y = _arr(a), _arr(v)
        budget().check_flops(x.size * y.size, f"np.{fn.__name__}")
        return check_result(fn(x, y, option(mode)))

    wrapped.__name__ = fn.__name__
    return wrapped


def _covariance(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``np.cov`` and ``np.corrcoef``: a ``variables x variables`` result, checked first."""

    def wrapped(m: Any, y: Any = None, rowvar: bool = True, **kwargs: Any) -> Any:
        x = np.atleast_2d(_arr(m))
        ys = None if y is None else _arr(y)
        if not rowvar and x.shape[0] != 1:  # (numpy's own rule)
            x = x.T
        variables, observations = x.shape
        if ys is not None:
            extra = np.atleast_2d(ys)
            variables += extra.shape[1 if not rowvar and extra.shape[0] != 1 else 0]
        check_size(variables**2, f"np.{fn.__name__}")
        budget().check_flops(variables**2 * observations, f"np.{fn.__name__}")
        kwargs = {k: option(v) for k, v in kwargs.items()}
        return check_result(fn(_arr(m), ys, bool(rowvar), **kwargs))

    wrapped.__name__ = fn.__name__
    return wrapped


_EINSUM_TERM = re.compile(r"[A-Za-z]*")


def einsum(subscripts: Any, *operands: Any, **kwargs: Any) -> Any:
    """``np.einsum`` with explicit letters: its result size and its work are checked first."""
    if not isinstance(subscripts, str) or "." in subscripts:
        raise TypeError("np.einsum in tapeviz takes subscripts as letters, without '...'")
    arrays = [_arr(op) for op in operands]
    spec = subscripts.replace(" ", "")
    inputs, _, output = spec.partition("->")
    terms = inputs.split(",")
    kwargs = {k: as_array(v) if k == "out" else option(v) for k, v in kwargs.items()}
    if len(terms) != len(arrays) or not all(_EINSUM_TERM.fullmatch(t) for t in terms):
        return check_result(np.einsum(spec, *arrays, **kwargs))  # numpy explains the mistake
    sizes: dict[str, int] = {}
    for term, arr in zip(terms, arrays, strict=True):
        for letter, n in zip(term, arr.shape, strict=False):
            sizes[letter] = max(sizes.get(letter, 1), int(n))
    if "->" not in spec:
        output = "".join(sorted(c for c in sizes if inputs.count(c) == 1))
    check_size(math.prod(sizes.get(c, 1) for c in output), "np.einsum")
    budget().check_flops(math.prod(sizes.values()), "np.einsum")
    return check_result(np.einsum(spec, *arrays, **kwargs))


def finfo(dtype: Any) -> Any:
    """``np.finfo``: machine limits of a float type (``np.finfo(np.float32).eps``)."""
    return np.finfo(dtype if not isinstance(dtype, list | tuple) else as_array(dtype))


def iinfo(dtype: Any) -> Any:
    """``np.iinfo``: machine limits of an integer type."""
    return np.iinfo(dtype if not isinstance(dtype, list | tuple) else as_array(dtype))


def isscalar(element: Any) -> bool:
    """``np.isscalar``."""
    return bool(np.isscalar(element))


def _spaced(fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapped(start: Any, stop: Any, num: int = 50, *args: Any, **kwargs: Any) -> Any:
        check_size(int(num), f"np.{fn.__name__}")
        return check_result(fn(as_array(start), as_array(stop), num, *args, **kwargs))

    wrapped.__name__ = fn.__name__
    return wrapped


# Functions whose every positional argument is data (their results are no bigger than their
# broadcast inputs), and those whose first argument alone is.
_ELEMENTWISE = (
    "degrees radians deg2rad rad2deg heaviside fix sinc logaddexp logaddexp2 signbit copysign "
    "fabs fmod positive float_power nan_to_num isneginf isposinf cross "
    "interp setdiff1d union1d intersect1d ix_ take_along_axis trapezoid gradient select"
).split()
_FIRST_IS_DATA = (
    "all any ptp nanmax nanmin nanstd nanvar nanmedian nanargmax nanargmin nancumsum nanprod "
    "flatnonzero argwhere atleast_1d atleast_2d atleast_3d copy fliplr flipud rot90 swapaxes "
    "moveaxis diagonal tril triu roll partition argpartition trim_zeros cumulative_sum"
).split()

EXTRA: dict[str, Any] = {
    **{n: checked(getattr(np, n)) for n in _ELEMENTWISE if hasattr(np, n)},
    **{n: checked(getattr(np, n), 1) for n in _FIRST_IS_DATA if hasattr(np, n)},
    **{n: checked(getattr(np, n), 2) for n in ("isin", "searchsorted", "digitize")},
    "bincount": bincount,
    "diff": diff,
    "percentile": _quantiles(np.percentile),
    "quantile": _quantiles(np.quantile),
    "nanpercentile": _quantiles(np.nanpercentile),
    "nanquantile": _quantiles(np.nanquantile),
    "histogram": histogram,
    "histogram2d": histogram2d,
    "polyfit": polyfit,
    "polyval": polyval,
    "vander": vander,
    "roots": roots,
    **{n: _pieces(getattr(np, n)) for n in ("split", "array_split", "hsplit", "vsplit", "dsplit")},
    "pad": pad,
    "take": take,
    "diag": diag,
    "diagflat": lambda v, k=0: diag(np.ravel(_arr(v)), k),
    "tri": _square(np.tri),
    "indices": indices,
    "kron": kron,
    "convolve": _sliding(np.convolve),
    "correlate": _sliding(np.correlate),
    "cov": _covariance(np.cov),
    "corrcoef": _covariance(np.corrcoef),
    "einsum": einsum,
    "finfo": finfo,
    "iinfo": iinfo,
    "isscalar": isscalar,
    "logspace": _spaced(np.logspace),
    "geomspace": _spaced(np.geomspace),
}
