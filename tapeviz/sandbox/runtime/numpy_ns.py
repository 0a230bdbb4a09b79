"""The restricted numpy a script gets from ``import numpy as np``: maths and array creation.

No I/O (save, load, fromfile, memmap), no memory access (ctypes, views, buffers, ``np.ndarray``
construction), no object or string arrays; every function checks the size of what it will make
(:mod:`numpy_core` holds the shared checks; :mod:`numpy_random`, :mod:`numpy_linalg`,
:mod:`numpy_index`, :mod:`numpy_extra`, :mod:`numpy_poly` and :mod:`numpy_settings` the rest
of the namespace). Numpy functions of tensors work as TensorFlow and PyTorch allow them.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine.guard import shape_size
from tapeviz.engine.namespace import Namespace
from tapeviz.sandbox.runtime.checks import budget
from tapeviz.sandbox.runtime.guards import check_matmul
from tapeviz.sandbox.runtime.numpy_core import (
    as_array,
    check_dtype,
    check_result,
    checked,
    creating,
    dims,
    joining,
    option,
)
from tapeviz.sandbox.runtime.numpy_extra import EXTRA
from tapeviz.sandbox.runtime.numpy_index import INDEX_TRICKS
from tapeviz.sandbox.runtime.numpy_linalg import LINALG
from tapeviz.sandbox.runtime.numpy_poly import poly1d
from tapeviz.sandbox.runtime.numpy_random import RANDOM
from tapeviz.sandbox.runtime.numpy_settings import SETTINGS
from tapeviz.sandbox.runtime.numpy_testing import TESTING
from tapeviz.sandbox.runtime.policy import ATTRS, checked_type, marker


def _array(obj: Any, dtype: Any = None, copy: bool = True, ndmin: int = 0) -> np.ndarray:
    check_dtype(dtype)
    out = np.array(as_array(obj, dtype), dtype=dtype, copy=copy, ndmin=min(int(ndmin), 32))
    check_dtype(out.dtype)
    return out


def _asarray(obj: Any, dtype: Any = None) -> np.ndarray:
    """``np.asarray``: an array of ``obj`` (itself when it is one of that dtype)."""
    return _array(obj, dtype=dtype, copy=None)  # type: ignore[arg-type]


def _arange(*args: Any, dtype: Any = None, **kwargs: Any) -> np.ndarray:
    check_dtype(dtype)
    given = dict(zip(("start", "stop", "step"), args, strict=False)) if len(args) > 1 else {}
    if len(args) == 1:
        given = {"stop": args[0]} if "stop" not in kwargs else {"start": args[0]}
    given.update(kwargs)
    start, stop, step = given.get("start", 0), given.get("stop"), given.get("step", 1)
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ValueError("np.arange: step must not be 0")
    budget().check_size(max(0, math.ceil((stop - start) / step)), "np.arange")
    return np.arange(*args, dtype=dtype, **kwargs)


def _linspace(start: Any, stop: Any, num: int = 50, **kwargs: Any) -> Any:
    budget().check_size(operator.index(num), "np.linspace")
    return check_result(np.linspace(as_array(start), as_array(stop), num, **kwargs))


def _eye(n: int, m: int | None = None, **kwargs: Any) -> np.ndarray:
    check_dtype(kwargs.get("dtype"))
    budget().check_size(operator.index(n) * operator.index(m if m is not None else n), "np.eye")
    return np.eye(n, m, **kwargs)


def _product(fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapped(a: Any, b: Any, *args: Any, **kwargs: Any) -> Any:
        a, b = np.asarray(as_array(a)), np.asarray(as_array(b))
        check_dtype(a.dtype)
        check_dtype(b.dtype)
        if fn is np.outer:
            budget().check_size(a.size * b.size, "np.outer")
        else:
            check_matmul(a, b)
        return fn(a, b, *args, **kwargs)

    wrapped.__name__ = fn.__name__
    return wrapped


def _tile(a: Any, reps: Any) -> np.ndarray:
    a = as_array(a)
    budget().check_size(int(np.size(a)) * shape_size(dims(reps)), "np.tile")
    return np.tile(a, reps)


def _repeat(a: Any, repeats: Any, axis: Any = None) -> np.ndarray:
    a = as_array(a)
    budget().check_size(int(np.size(a)) * int(np.max(as_array(repeats))), "np.repeat")
    return np.repeat(a, repeats, axis=axis)


def _meshgrid(*xs: Any, **kwargs: Any) -> list[np.ndarray]:
    xs = tuple(as_array(x) for x in xs)
    budget().check_size(shape_size([np.size(x) for x in xs]) * len(xs), "np.meshgrid")
    return np.meshgrid(*xs, **kwargs)


class Ufunc:
    """A numpy ufunc for a script: called as the function, with checked methods."""

    def __init__(self, fn: np.ufunc) -> None:
        self._fn = fn
        self._call = checked(fn)
        self.__name__ = fn.__name__
        self.nin, self.nout = fn.nin, fn.nout

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._call(*args, **kwargs)

    def reduce(self, array: Any, axis: Any = 0, *args: Any, **kwargs: Any) -> Any:
        """``np.<ufunc>.reduce``: apply it along an axis (``np.add.reduce`` is a sum)."""
        check_dtype(kwargs.get("dtype"))
        opts = {k: option(v) for k, v in kwargs.items()}
        return check_result(self._fn.reduce(as_array(array), option(axis), *args, **opts))

    def accumulate(self, array: Any, axis: int = 0, **kwargs: Any) -> Any:
        """``np.<ufunc>.accumulate``: running results (``np.maximum.accumulate``)."""
        check_dtype(kwargs.get("dtype"))
        opts = {k: option(v) for k, v in kwargs.items()}
        return check_result(self._fn.accumulate(as_array(array), int(axis), **opts))

    def outer(self, a: Any, b: Any, **kwargs: Any) -> Any:
        """``np.<ufunc>.outer``: every pair of values (the size is checked first)."""
        x, y = np.asarray(as_array(a)), np.asarray(as_array(b))
        budget().check_size(x.size * y.size, f"np.{self.__name__}.outer")
        opts = {k: option(v) for k, v in kwargs.items()}
        return check_result(self._fn.outer(x, y, **opts))

    def __repr__(self) -> str:
        return f"<ufunc '{self.__name__}'>"


ATTRS[Ufunc] = frozenset({"reduce", "accumulate", "outer", "nin", "nout"})
ATTRS[np.finfo] = frozenset(
    "eps epsneg max min tiny smallest_normal resolution bits precision dtype".split()
)
ATTRS[np.iinfo] = frozenset({"max", "min", "bits", "dtype", "kind"})

_UFUNCS = (
    "sin cos tan arcsin arccos arctan arctan2 sinh cosh tanh arcsinh arccosh arctanh exp "
    "exp2 expm1 log log1p log2 log10 sqrt cbrt square abs absolute sign floor ceil trunc "
    "rint maximum minimum fmax fmin power add subtract multiply divide true_divide "
    "floor_divide mod remainder hypot isnan isinf isfinite negative reciprocal greater "
    "less equal not_equal greater_equal less_equal logical_and logical_or logical_not "
    "logical_xor where clip isclose allclose array_equal"
).split()
# Functions whose first argument is the data and the rest are options (axis, decimals, ...).
_SHAPES = (
    "sum mean max min argmax argmin prod std var cumsum cumprod median amax amin nansum "
    "nanmean reshape transpose expand_dims squeeze ravel sort argsort unique nonzero flip "
    "trace shape size ndim count_nonzero average round around"
).split()
_TYPES = ("float16 float32 float64 int8 int16 int32 int64 uint8 uint16 uint32 uint64 intp "
          "bool_ bool int_ double single half").split()  # fmt: skip


def _scalar_type(real: type) -> type:
    """``np.float32`` and the other scalar types: isinstance, ``dtype=``, and checked calls.

    ``np.float32(x)`` of a list, a range or a tensor makes an array: it is sized first.
    """

    def make(*args: Any, **kwargs: Any) -> Any:
        if args and not isinstance(args[0], str | bytes | int | float):
            args = (as_array(args[0]), *args[1:])
        return check_result(real(*args, **kwargs))

    return checked_type(real, make, shown=f"numpy.{real.__name__}", dtype=np.dtype(real))


# The stand-in of each numpy scalar type (``np.bool_`` is ``np.bool``: one stand-in for both).
SCALAR_TYPES: dict[type, type] = {
    real: _scalar_type(real) for real in dict.fromkeys(getattr(np, n) for n in _TYPES)
}


def _maths(name: str, data_args: int | None) -> Any:
    fn = getattr(np, name)
    return Ufunc(fn) if isinstance(fn, np.ufunc) else checked(fn, data_args)


NUMPY = Namespace(
    "numpy",
    {
        **{n: _maths(n, None) for n in _UFUNCS},
        **{n: _maths(n, 1) for n in _SHAPES},
        **EXTRA,
        **INDEX_TRICKS,
        **SETTINGS,
        "array": _array,
        "asarray": _asarray,
        "asanyarray": _asarray,
        "zeros": creating(np.zeros),
        "ones": creating(np.ones),
        "full": creating(np.full),
        "zeros_like": creating(np.zeros_like, None),
        "ones_like": creating(np.ones_like, None),
        "full_like": creating(np.full_like, None),
        "arange": _arange,
        "linspace": _linspace,
        "eye": _eye,
        "identity": lambda n, dtype=None: _eye(n, dtype=dtype),
        "meshgrid": _meshgrid,
        "tile": _tile,
        "repeat": _repeat,
        **{n: joining(getattr(np, n)) for n in (
            "concatenate", "stack", "vstack", "hstack", "dstack", "column_stack")},
        "dot": _product(np.dot),
        "matmul": _product(np.matmul),
        "outer": _product(np.outer),
        "vdot": _product(np.vdot),
        "random": RANDOM,
        "linalg": LINALG,
        "testing": TESTING,
        "poly1d": poly1d,
        "pi": np.pi,
        "e": np.e,
        "inf": np.inf,
        "nan": np.nan,
        "euler_gamma": np.euler_gamma,
        "newaxis": None,
        **{n: SCALAR_TYPES[getattr(np, n)] for n in _TYPES},
        "ndarray": marker(np.ndarray, shown="numpy.ndarray"),  # for isinstance() only
        "__version__": np.__version__,
    },
)  # fmt: skip
