"""The restricted numpy a script gets from ``import numpy as np``: maths and array creation.

No I/O (save, load, fromfile, memmap), no memory access (ctypes, views, buffers, ``np.ndarray``
construction), no object or string arrays; every function checks the size of what it will make.
"""

from __future__ import annotations

import contextlib
import math
import operator
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine.guard import shape_size
from tapeviz.engine.namespace import Namespace
from tapeviz.engine.tensor import TensorLike
from tapeviz.sandbox.errors import refused
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.runtime.checks import budget, nested_size
from tapeviz.sandbox.runtime.guards import check_matmul
from tapeviz.sandbox.runtime.methods import Checked, no_check
from tapeviz.sandbox.runtime.policy import marker
from tapeviz.tf import run_state
from tapeviz.tf.keras_src.utils import seed_also


def check_dtype(dtype: Any) -> None:
    """Only bool, integer and float arrays."""
    if dtype is not None and np.dtype(dtype).kind not in "biuf":
        raise refused(say("numpy_dtype_array", dtype=np.dtype(dtype)))


def _dims(shape: Any) -> tuple[int, ...]:
    if isinstance(shape, int | np.integer):
        return (operator.index(shape),)
    return tuple(operator.index(d) for d in shape)


def _nested_size(obj: Any) -> int:
    """Elements np.array(obj) would have, from the first element at each nesting level."""
    return nested_size(obj, "np.array")


def as_array(obj: Any, dtype: Any = None) -> Any:
    """An operand for numpy: numbers, numeric arrays and tensors pass; the rest is converted.

    Lists, tuples and anything else become a numeric array; strings, objects and huge ints are
    refused.
    """
    if isinstance(obj, np.ndarray | np.generic):
        check_dtype(obj.dtype)
        return obj
    _no_text(obj)
    if isinstance(obj, TensorLike | bool | float):
        return obj
    if isinstance(obj, int):
        if obj.bit_length() > 63:
            raise refused(say("big_integer", value=f"{obj:.3g}"))
        return obj
    if isinstance(obj, list | tuple | range):
        budget().check_size(_nested_size(obj), "the array")
        first = obj
        while isinstance(first, list | tuple) and first:
            first = first[0]
        _no_text(first)
    arr = np.asarray(obj, dtype=dtype)
    check_dtype(arr.dtype)
    return arr


def _no_text(obj: Any) -> None:
    """Refuse text as array data before numpy makes a (possibly huge) array of it."""
    if isinstance(obj, str | bytes):
        kind = "U" if isinstance(obj, str) else "S"
        raise refused(say("numpy_dtype_array", dtype=np.dtype(f"{kind}{max(len(obj), 1)}")))


def check_result(out: Any) -> Any:
    """Refuse a numpy result of a non-numeric dtype (also inside tuples and lists of arrays)."""
    if isinstance(out, np.ndarray | np.generic):
        check_dtype(out.dtype)
    elif isinstance(out, tuple | list):
        for item in out:
            if isinstance(item, np.ndarray | np.generic):
                check_dtype(item.dtype)
    return out


def _option(value: Any) -> Any:
    """A non-data argument (axis, shape, decimals): ints, floats, strings, None, int tuples."""
    if isinstance(value, list | tuple):
        if not all(isinstance(v, int | np.integer) for v in value):
            raise refused(say("numpy_option"))
        return value
    if value is None or isinstance(value, int | float | str | np.integer | np.floating):
        return value
    return as_array(value)


def _array(obj: Any, dtype: Any = None, copy: bool = True, ndmin: int = 0) -> np.ndarray:
    check_dtype(dtype)
    out = np.array(as_array(obj, dtype), dtype=dtype, copy=copy, ndmin=min(int(ndmin), 32))
    check_dtype(out.dtype)
    return out


def _function(fn: Callable[..., Any], data_args: int | None = None) -> Callable[..., Any]:
    """Wrap a numpy function: checked operands and options, numeric results, no huge broadcasts.

    The first ``data_args`` positional arguments (default: all) are data; the rest options.
    """

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        check_dtype(kwargs.get("dtype"))
        n = len(args) if data_args is None else data_args
        args = tuple(as_array(a) if i < n else _option(a) for i, a in enumerate(args))
        kwargs = {k: _option(v) if k != "out" else as_array(v) for k, v in kwargs.items()}
        shapes = [np.shape(a) for a in args[:n] if isinstance(a, np.ndarray)]
        if len(shapes) > 1:
            with contextlib.suppress(ValueError):  # numpy reports a mismatch itself
                budget().check_size(shape_size(np.broadcast_shapes(*shapes)), f"np.{fn.__name__}")
        return check_result(fn(*args, **kwargs))

    wrapped.__name__ = getattr(fn, "__name__", "function")
    return wrapped


def _creating(fn: Callable[..., Any], shape_arg: int | None = 0) -> Callable[..., Any]:
    """Wrap a creation function: check its dtype and the size of its result first."""

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        check_dtype(kwargs.get("dtype"))
        if shape_arg is not None and len(args) > shape_arg:
            budget().check_size(shape_size(_dims(args[shape_arg])), f"np.{fn.__name__}")
        if kwargs.get("shape") is not None:
            budget().check_size(shape_size(_dims(kwargs["shape"])), f"np.{fn.__name__}")
        if shape_arg is None and args:
            args = (as_array(args[0]), *args[1:])
        if fn is np.full or fn is np.full_like:
            _no_text(args[1] if len(args) > 1 else kwargs.get("fill_value"))
        out = fn(*args, **kwargs)
        if isinstance(out, np.ndarray):
            check_dtype(out.dtype)
        return out

    wrapped.__name__ = fn.__name__
    return wrapped


def _arange(*args: Any, dtype: Any = None) -> np.ndarray:
    check_dtype(dtype)
    start, stop, step = (0, args[0], 1) if len(args) == 1 else (*args, 1)[:3]
    if step == 0:
        raise ValueError("np.arange: step must not be 0")
    budget().check_size(max(0, math.ceil((stop - start) / step)), "np.arange")
    return np.arange(*args, dtype=dtype)


def _linspace(start: Any, stop: Any, num: int = 50, **kwargs: Any) -> np.ndarray:
    budget().check_size(operator.index(num), "np.linspace")
    return np.linspace(start, stop, num, **kwargs)


def _eye(n: int, m: int | None = None, **kwargs: Any) -> np.ndarray:
    check_dtype(kwargs.get("dtype"))
    budget().check_size(operator.index(n) * operator.index(m if m is not None else n), "np.eye")
    return np.eye(n, m, **kwargs)


def _joining(fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapped(arrays: Any, *args: Any, **kwargs: Any) -> Any:
        arrays = [as_array(a) for a in arrays]
        budget().check_size(sum(int(np.size(a)) for a in arrays), f"np.{fn.__name__}")
        return fn(arrays, *args, **kwargs)

    wrapped.__name__ = fn.__name__
    return wrapped


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
    budget().check_size(int(np.size(a)) * shape_size(_dims(reps)), "np.tile")
    return np.tile(a, reps)


def _repeat(a: Any, repeats: Any, axis: Any = None) -> np.ndarray:
    a = as_array(a)
    budget().check_size(int(np.size(a)) * int(np.max(repeats)), "np.repeat")
    return np.repeat(a, repeats, axis=axis)


def _meshgrid(*xs: Any, **kwargs: Any) -> list[np.ndarray]:
    xs = tuple(as_array(x) for x in xs)
    budget().check_size(shape_size([np.size(x) for x in xs]) * len(xs), "np.meshgrid")
    return np.meshgrid(*xs, **kwargs)


_UFUNCS = (
    "sin cos tan arcsin arccos arctan arctan2 sinh cosh tanh arcsinh arccosh arctanh exp "
    "exp2 expm1 log log1p log2 log10 sqrt cbrt square abs absolute sign floor ceil trunc "
    "rint maximum minimum fmax fmin power add subtract multiply divide true_divide "
    "floor_divide mod remainder hypot isnan isinf isfinite negative reciprocal greater "
    "less equal not_equal greater_equal less_equal logical_and logical_or logical_not "
    "where clip isclose allclose array_equal"
).split()
# Functions whose first argument is the data and the rest are options (axis, decimals, ...).
_SHAPES = (
    "sum mean max min argmax argmin prod std var cumsum cumprod median amax amin nansum "
    "nanmean reshape transpose expand_dims squeeze ravel sort argsort unique nonzero flip "
    "trace shape size ndim count_nonzero average round around"
).split()


class _Random(threading.local):
    """``np.random``'s state on this thread: None until a run draws or seeds (then made)."""

    rng: np.random.RandomState | None = None


_RANDOM = _Random()
# Every run starts unseeded (run_state), and keras.utils.set_random_seed seeds it, as in Keras.
run_state.register_attributes(__name__, _RANDOM, lambda: {"rng": None})


def _rng() -> np.random.RandomState:
    rng = _RANDOM.rng
    if rng is None:
        rng = _RANDOM.rng = np.random.RandomState()
    return rng


def _seed(seed: int | None = None) -> None:
    _RANDOM.rng = np.random.RandomState(seed)


seed_also(_seed)


# Where each random function takes its ``size`` when it is given positionally.
_SIZE_POSITION = {"normal": 2, "uniform": 2, "randint": 2, "random": 0, "choice": 1,
                  "standard_normal": 0, "integers": 2, "random_sample": 0, "exponential": 1,
                  "poisson": 1, "binomial": 2}  # fmt: skip


def _sized(name: str, source: Callable[[], Any] | None = None) -> Callable[..., Any]:
    """``np.random.<name>`` (or a generator's method) with its ``size`` checked first."""
    get = source or _rng

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if name in ("rand", "randn"):
            size: Any = args
        elif name == "permutation":
            size = args[0] if args and isinstance(args[0], int) else None
        else:
            pos = _SIZE_POSITION.get(name)
            size = args[pos] if pos is not None and len(args) > pos else kwargs.get("size")
        if size is not None:
            budget().check_size(shape_size(_dims(size)), f"np.random.{name}")
        if name == "choice" and args and isinstance(args[0], int):
            budget().check_size(args[0], "np.random.choice's population")
        return getattr(get(), name)(*args, **kwargs)

    wrapped.__name__ = name
    return wrapped


_GENERATOR = ("normal", "uniform", "integers", "random", "choice", "permutation", "shuffle",
              "standard_normal", "exponential", "poisson", "binomial")  # fmt: skip
_RANDOM_STATE = ("rand", "randn", "normal", "uniform", "randint", "random", "random_sample",
                 "choice", "permutation", "shuffle", "standard_normal")  # fmt: skip


def _own(kind: str, rng: Any, names: tuple[str, ...]) -> Namespace:
    """A generator of the script's own (``np.random.default_rng(0)``): sized methods only."""
    return Namespace(
        f"numpy.random.{kind}", {n: Checked(_sized(n, lambda: rng), no_check) for n in names}
    )


def _default_rng(seed: Any = None) -> Namespace:
    """``np.random.default_rng(seed)``: numpy's Generator, its sizes checked."""
    return _own("Generator", np.random.default_rng(seed), _GENERATOR)


def _random_state(seed: Any = None) -> Namespace:
    """``np.random.RandomState(seed)``: numpy's legacy generator, its sizes checked."""
    return _own("RandomState", np.random.RandomState(seed), _RANDOM_STATE)


RANDOM = Namespace(
    "numpy.random",
    {"seed": _seed, "default_rng": _default_rng, "RandomState": _random_state,
     **{n: _sized(n) for n in (
        "rand", "randn", "normal", "uniform", "randint", "random", "choice", "permutation",
        "standard_normal", "shuffle")}},
)  # fmt: skip

NUMPY = Namespace(
    "numpy",
    {
        **{n: _function(getattr(np, n)) for n in _UFUNCS},
        **{n: _function(getattr(np, n), 1) for n in _SHAPES},
        "array": _array,
        "asarray": lambda obj, dtype=None: _array(obj, dtype=dtype, copy=False),
        "zeros": _creating(np.zeros),
        "ones": _creating(np.ones),
        "full": _creating(np.full),
        "zeros_like": _creating(np.zeros_like, None),
        "ones_like": _creating(np.ones_like, None),
        "full_like": _creating(np.full_like, None),
        "arange": _arange,
        "linspace": _linspace,
        "eye": _eye,
        "identity": lambda n, dtype=None: _eye(n, dtype=dtype),
        "meshgrid": _meshgrid,
        "tile": _tile,
        "repeat": _repeat,
        "concatenate": _joining(np.concatenate),
        "stack": _joining(np.stack),
        "vstack": _joining(np.vstack),
        "hstack": _joining(np.hstack),
        "dot": _product(np.dot),
        "matmul": _product(np.matmul),
        "outer": _product(np.outer),
        "random": RANDOM,
        "pi": np.pi,
        "e": np.e,
        "inf": np.inf,
        "nan": np.nan,
        "newaxis": None,
        "float16": np.float16,
        "float32": np.float32,
        "float64": np.float64,
        "int32": np.int32,
        "int64": np.int64,
        "bool_": np.bool_,
        "ndarray": marker(np.ndarray),  # for isinstance() only
        "__version__": np.__version__,
    },
)
