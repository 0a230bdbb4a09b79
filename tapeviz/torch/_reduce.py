"""torch's reductions (``sum``, ``mean``, ``max``, ``norm``, ``std``, ...) on the engine's ops."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from tapeviz import engine as E
from tapeviz.torch import _dtypes as D
from tapeviz.torch._ops import _float, _word, apply, as_tensor_arg, engine_now, engine_of
from tapeviz.torch._tensor import Tensor, _dim, wrap


def _axis(dim: Any, ndim: int) -> Any:
    if dim is None:
        return None
    if isinstance(dim, list | tuple):
        return tuple(_dim(int(d), ndim) for d in dim)
    return _dim(int(dim), ndim)


def sum(input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """Sum of the elements (over ``dim``); integers and bools sum as int64."""
    x = as_tensor_arg(input)
    want = D.as_torch(dtype) if dtype is not None else (
        x.dtype if x.dtype.is_floating_point else D.int64)  # fmt: skip
    name = "SumBackward0" if dim is None else "SumBackward1"
    return apply(name, E.reduce_sum, [x], engine_of(x, want), _axis(dim, x.ndim), keepdim)


def mean(input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """Mean of the elements (over ``dim``); needs a float dtype."""
    x = as_tensor_arg(input)
    want = D.as_torch(dtype) if dtype is not None else x.dtype
    if not want.is_floating_point:
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {_word(want)}"
        )
    name = "MeanBackward0" if dim is None else "MeanBackward1"
    return apply(name, E.reduce_mean, [x], engine_of(x, want), _axis(dim, x.ndim), keepdim)


def prod(input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """Product of the elements (over ``dim``)."""
    x = as_tensor_arg(input)
    want = D.as_torch(dtype) if dtype is not None else (
        x.dtype if x.dtype.is_floating_point else D.int64)  # fmt: skip
    name = "ProdBackward0" if dim is None else "ProdBackward1"
    return apply(name, E.reduce_prod, [x], engine_of(x, want), _axis(dim, x.ndim), keepdim)


class MinMax(NamedTuple):
    """What ``max(dim=...)`` returns: ``torch.return_types.max(values=..., indices=...)``."""

    values: Tensor
    indices: Tensor

    def __repr__(self) -> str:
        kind = getattr(self, "_kind", "max")
        return f"torch.return_types.{kind}(\nvalues={self.values!r},\nindices={self.indices!r})"


class _Max(MinMax):
    _kind = "max"


class _Min(MinMax):
    _kind = "min"


def _extreme(
    kind: str, efn: Callable[..., Any], arg: Callable[..., Any], pair: type
) -> Callable[..., Any]:
    def op(input: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
        x = as_tensor_arg(input)
        if isinstance(dim, Tensor):  # torch.max(a, b): the elementwise maximum
            from tapeviz.torch._ops import maximum, minimum

            return (maximum if kind == "max" else minimum)(x, dim)
        if dim is None:
            if x.numel() == 0:
                raise RuntimeError(
                    f"{kind}(): Expected reduction dim to be specified for input.numel() == 0. "
                    "Specify the reduction dim with the 'dim' argument."
                )
            return apply(f"{kind.capitalize()}Backward1", efn, [x], x._t)
        axis = _dim(int(dim), x.ndim)
        values = apply(f"{kind.capitalize()}Backward0", efn, [x], x._t, axis, keepdim)
        idx = np.asarray(arg(np.asarray(x._t._value), axis=axis)).astype(np.int64)
        if keepdim:
            idx = np.expand_dims(idx, axis)
        return pair(values, wrap(E.constant(idx)))

    op.__name__ = kind
    op.__doc__ = f"The {kind}imum (over ``dim``: values and indices)."
    return op


max = _extreme("max", E.reduce_max, np.argmax, _Max)
min = _extreme("min", E.reduce_min, np.argmin, _Min)


def amax(input: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    """The maximum over ``dim`` (every dimension if empty)."""
    x = as_tensor_arg(input)
    axis = None if dim in ((), []) else _axis(dim, x.ndim)
    return apply("AmaxBackward0", E.reduce_max, [x], x._t, axis, keepdim)


def amin(input: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    """The minimum over ``dim`` (every dimension if empty)."""
    x = as_tensor_arg(input)
    axis = None if dim in ((), []) else _axis(dim, x.ndim)
    return apply("AminBackward0", E.reduce_min, [x], x._t, axis, keepdim)


def _arg(fn: Callable[..., Any]) -> Callable[..., Tensor]:
    def op(input: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
        v = np.asarray(input._t._value)
        if dim is None:
            return wrap(E.constant(np.int64(fn(v))))
        axis = _dim(int(dim), v.ndim)
        out = np.asarray(fn(v, axis=axis)).astype(np.int64)
        return wrap(E.constant(np.expand_dims(out, axis) if keepdim else out))

    return op


argmax, argmin = _arg(np.argmax), _arg(np.argmin)


def var(
    input: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *,
    correction: Any = None,
) -> Tensor:  # fmt: skip
    """Variance with Bessel's correction by default (``correction=1``, as torch)."""
    if isinstance(dim, bool):  # var(x, False): the old ``unbiased`` positional argument
        dim, unbiased = None, dim
    c = 1 if correction is None and unbiased is None else (
        correction if correction is not None else int(bool(unbiased)))  # fmt: skip
    x = as_tensor_arg(input)
    want = _float(x.dtype)
    axis = _axis(dim, x.ndim)
    n = x.numel() if axis is None else int(np.prod([x.shape[a] for a in (
        axis if isinstance(axis, tuple) else (axis,))]))  # fmt: skip

    def fn(t: Any) -> Any:
        m = E.reduce_mean(t, axis, True)
        d = E.subtract(t, m)
        return E.divide(E.reduce_sum(E.multiply(d, d), axis, keepdim), t.dtype.scalar(n - c))

    return apply("VarBackward0", fn, [x], engine_of(x, want))


def std(
    input: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *,
    correction: Any = None,
) -> Tensor:  # fmt: skip
    """Standard deviation with Bessel's correction by default."""
    v = var(input, dim, unbiased, keepdim, correction=correction)
    return apply("StdBackward0", E.sqrt, [v], v._t)


def norm(input: Tensor, p: Any = "fro", dim: Any = None, keepdim: bool = False) -> Tensor:
    """The vector p-norm (``p=2`` by default, ``'fro'`` the same over all elements)."""
    x = as_tensor_arg(input)
    want = _float(x.dtype)
    axis = _axis(dim, x.ndim)
    order = 2 if p in ("fro", None) else p

    def fn(t: Any) -> Any:
        a = E.abs(t)
        if order == 2:
            return E.sqrt(E.reduce_sum(E.square(t), axis, keepdim))
        if order == 1:
            return E.reduce_sum(a, axis, keepdim)
        if order in (np.inf, float("inf")):
            return E.reduce_max(a, axis, keepdim)
        q = t.dtype.scalar(order)
        return E.pow(E.reduce_sum(E.pow(a, q), axis, keepdim), t.dtype.scalar(1.0 / order))

    return apply("LinalgVectorNormBackward0", fn, [x], engine_of(x, want))


def logsumexp(input: Tensor, dim: Any, keepdim: bool = False) -> Tensor:
    """``log(sum(exp(input)))`` over ``dim``, computed stably."""
    x = as_tensor_arg(input)
    return apply("LogsumexpBackward0", E.reduce_logsumexp, [x],
                 engine_of(x, _float(x.dtype)), _axis(dim, x.ndim), keepdim)  # fmt: skip


def cumsum(input: Tensor, dim: int, *, dtype: Any = None) -> Tensor:
    """Running sum along ``dim``."""
    x = as_tensor_arg(input)
    want = D.as_torch(dtype) if dtype is not None else (
        x.dtype if x.dtype.is_floating_point else D.int64)  # fmt: skip
    return apply("CumsumBackward0", E.cumsum, [x], engine_of(x, want), _dim(dim, x.ndim))


def all(input: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    """Whether every element is nonzero (over ``dim``)."""
    return wrap(E.reduce_all(engine_now(input, D.bool_), _axis(dim, input.ndim), keepdim))


def any(input: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    """Whether some element is nonzero (over ``dim``)."""
    return wrap(E.reduce_any(engine_now(input, D.bool_), _axis(dim, input.ndim), keepdim))


def allclose(input: Tensor, other: Tensor, rtol: float = 1e-5, atol: float = 1e-8,
             equal_nan: bool = False) -> bool:  # fmt: skip
    """Whether all elements are close (numpy's rule, torch's defaults)."""
    return bool(np.allclose(np.asarray(input._t._value), np.asarray(as_tensor_arg(other)._t._value),
                            rtol, atol, equal_nan))  # fmt: skip


def equal(input: Tensor, other: Tensor) -> bool:
    """Whether both have the same shape and elements."""
    a, b = np.asarray(input._t._value), np.asarray(other._t._value)
    return a.shape == b.shape and bool(np.array_equal(a, b))


def isclose(input: Tensor, other: Any, rtol: float = 1e-5, atol: float = 1e-8,
            equal_nan: bool = False) -> Tensor:  # fmt: skip
    """Elementwise closeness."""
    b = as_tensor_arg(other)
    b = np.asarray(b._t._value) if isinstance(b, Tensor) else b
    return wrap(E.constant(np.isclose(np.asarray(input._t._value), b, rtol, atol, equal_nan)))


def count_nonzero(input: Tensor, dim: Any = None) -> Tensor:
    """How many elements are nonzero."""
    v = np.asarray(input._t._value)
    return wrap(E.constant(np.asarray(np.count_nonzero(v, axis=dim), np.int64)))


class _TopK(MinMax):
    _kind = "topk"


def topk(input: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> MinMax:
    """The ``k`` largest (or smallest) entries along ``dim`` and their indices."""
    x = as_tensor_arg(input)
    v = np.asarray(x._t._value)
    if v.ndim == 0:
        v = v.reshape(1)
    axis = _dim(int(dim), v.ndim)
    k = int(k)
    if not 0 <= k <= v.shape[axis]:
        raise RuntimeError("selected index k out of range")
    key = -v if largest else v
    if v.dtype.kind == "b":
        key = ~v if largest else v
    order = np.take(np.argsort(key, axis=axis, kind="stable"), np.arange(k), axis=axis)
    grids = list(np.indices(order.shape, sparse=True))
    grids[axis] = order
    source = x._t if x._t._value.ndim else E.reshape(x._t, (1,))
    values = apply("TopkBackward0", E.getitem, [x], source, tuple(grids))
    return _TopK(values, wrap(E.constant(order.astype(np.int64))))


class _Sort(MinMax):
    _kind = "sort"


def sort(input: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> MinMax:
    """The entries sorted along ``dim`` and where each came from (values carry the gradient)."""
    x = as_tensor_arg(input)
    v = np.asarray(x._t._value)
    if v.ndim == 0:
        return _Sort(x, wrap(E.constant(np.zeros((), np.int64))))
    axis = _dim(int(dim), v.ndim)
    key = v if not descending else (~v if v.dtype.kind == "b" else -v)
    order = np.argsort(key, axis=axis, kind="stable")
    grids = list(np.indices(order.shape, sparse=True))
    grids[axis] = order
    values = apply("SortBackward0", E.getitem, [x], x._t, tuple(grids))
    return _Sort(values, wrap(E.constant(order.astype(np.int64))))


def argsort(input: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> Tensor:
    """The indices that sort ``input`` along ``dim``."""
    return sort(input, dim, descending, stable).indices


def unique(
    input: Tensor,
    sorted: bool = True,
    return_inverse: bool = False,
    return_counts: bool = False,
    dim: int | None = None,
) -> Any:
    """The distinct values (sorted, as torch gives them on the CPU), with inverse and counts."""
    v = np.asarray(as_tensor_arg(input)._t._value)
    axis = None if dim is None else _dim(int(dim), v.ndim)
    got = np.unique(v, return_inverse=True, return_counts=True, axis=axis)
    out = [wrap(E.constant(got[0]))]
    if return_inverse:
        out.append(
            wrap(E.constant(got[1].reshape(v.shape if axis is None else -1).astype(np.int64)))
        )
    if return_counts:
        out.append(wrap(E.constant(got[2].astype(np.int64))))
    return out[0] if len(out) == 1 else tuple(out)


def bincount(input: Tensor, weights: Any = None, minlength: int = 0) -> Tensor:
    """How often each non-negative integer occurs in a 1-D int tensor (or the summed weights)."""
    v = np.asarray(as_tensor_arg(input)._t._value)
    if v.ndim != 1 or v.dtype.kind not in "iub":
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if v.size and v.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    w = None if weights is None else np.asarray(as_tensor_arg(weights)._t._value)
    from tapeviz.engine.guard import check_elements

    size = int(v.max()) + 1 if v.size else 0  # (this module's max is torch.max)
    check_elements(size if size > int(minlength) else int(minlength), "torch.bincount")
    counts = np.bincount(v, w, int(minlength))
    return wrap(E.constant(counts if w is not None else counts.astype(np.int64)))
