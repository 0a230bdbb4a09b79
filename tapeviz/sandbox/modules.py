"""What ``import`` gives a script: TensorFlow (tapeviz.tf), tapeviz, a restricted numpy, math."""

from __future__ import annotations

import contextlib
import math as _math
import threading
import types
from collections.abc import Callable
from typing import Any

import numpy as np

import tapeviz.tf as _tf
from tapeviz import engine as _engine
from tapeviz.engine.guard import shape_size
from tapeviz.engine.namespace import Namespace
from tapeviz.sandbox.errors import refused
from tapeviz.sandbox.policy import allow_callables, budget


def _public(module: Any, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    out = {}
    for name, value in vars(module).items():
        if name.startswith("_") or name in skip or isinstance(value, types.ModuleType):
            continue
        if type(value).__name__ == "_Feature":  # from __future__ import annotations
            continue
        out[name] = value
    return out


TF = Namespace("tensorflow", _public(_tf))
_TV_SKIP = (
    "gradcheck",
    "backward_steps",
    "BackwardPass",
    "BackwardStep",
    "Contribution",
    "OpRecord",
    "GradientCall",
    "FunctionTrace",
    "tf_print",
)
TV = Namespace(
    "tapeviz",
    {**_public(_engine, _TV_SKIP), "optimizers": _tf.optimizers, "print": _engine.tf_print},
)


# -- restricted numpy --------------------------------------------------------------------------
def _check_dtype(dtype: Any) -> None:
    if dtype is not None and np.dtype(dtype).kind not in "biuf":
        raise refused(f"numpy arrays of dtype {np.dtype(dtype)} are not available")


def _size_of_shape(shape: Any) -> int:
    dims = (shape,) if isinstance(shape, int | np.integer) else tuple(shape)
    return shape_size(dims)


def _creating(fn: Callable[..., Any], shape_arg: int | None = 0) -> Callable[..., Any]:
    """Wrap a numpy creation function: check its dtype and the size of its result first."""

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        _check_dtype(kwargs.get("dtype"))
        if shape_arg is not None and len(args) > shape_arg:
            budget().check_size(_size_of_shape(args[shape_arg]), f"np.{fn.__name__}")
        elif "shape" in kwargs:
            budget().check_size(_size_of_shape(kwargs["shape"]), f"np.{fn.__name__}")
        out = fn(*args, **kwargs)
        if isinstance(out, np.ndarray):
            _check_dtype(out.dtype)
        return out

    wrapped.__name__ = fn.__name__
    return wrapped


def _array(obj: Any, dtype: Any = None, copy: bool = True, ndmin: int = 0) -> np.ndarray:
    _check_dtype(dtype)
    if isinstance(obj, range):
        budget().check_size(len(obj), "np.array")
    out = np.array(obj, dtype=dtype, copy=copy, ndmin=min(int(ndmin), 32))
    _check_dtype(out.dtype)
    return out


def _asarray(obj: Any, dtype: Any = None) -> np.ndarray:
    return _array(obj, dtype=dtype, copy=False)


def _arange(*args: Any, dtype: Any = None) -> np.ndarray:
    _check_dtype(dtype)
    start, stop, step = (0, args[0], 1) if len(args) == 1 else (*args, 1)[:3]
    if step == 0:
        raise ValueError("np.arange: step must not be 0")
    budget().check_size(max(0, _math.ceil((stop - start) / step)), "np.arange")
    return np.arange(*args, dtype=dtype)


def _linspace(start: Any, stop: Any, num: int = 50, **kwargs: Any) -> np.ndarray:
    budget().check_size(int(num), "np.linspace")
    return np.linspace(start, stop, num, **kwargs)


def _eye(n: int, m: int | None = None, **kwargs: Any) -> np.ndarray:
    budget().check_size(int(n) * int(m if m is not None else n), "np.eye")
    return np.eye(n, m, **kwargs)


def _broadcasting(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap an elementwise function: refuse operands that would broadcast to a huge result."""

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        shapes = [np.shape(a) for a in args if isinstance(a, np.ndarray | list | tuple)]
        if len(shapes) > 1:
            with contextlib.suppress(ValueError):  # numpy reports a mismatch itself
                budget().check_size(shape_size(np.broadcast_shapes(*shapes)), f"np.{fn.__name__}")
        return fn(*args, **kwargs)

    wrapped.__name__ = getattr(fn, "__name__", "ufunc")
    return wrapped


def _joining(fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapped(arrays: Any, *args: Any, **kwargs: Any) -> Any:
        budget().check_size(sum(int(np.size(a)) for a in arrays), f"np.{fn.__name__}")
        return fn(arrays, *args, **kwargs)

    wrapped.__name__ = fn.__name__
    return wrapped


def _products(fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapped(a: Any, b: Any, *args: Any, **kwargs: Any) -> Any:
        sa, sb = np.shape(a), np.shape(b)
        if fn is np.outer:
            count = shape_size(sa) * shape_size(sb)
        else:
            count = shape_size(sa[:-1]) * (sb[-1] if len(sb) > 1 else 1)
        budget().check_size(count, f"np.{fn.__name__}")
        return fn(a, b, *args, **kwargs)

    wrapped.__name__ = fn.__name__
    return wrapped


def _tile(a: Any, reps: Any) -> np.ndarray:
    factor = _size_of_shape(reps)
    budget().check_size(int(np.size(a)) * factor, "np.tile")
    return np.tile(a, reps)


def _repeat(a: Any, repeats: Any, axis: Any = None) -> np.ndarray:
    budget().check_size(int(np.size(a)) * int(np.max(repeats)), "np.repeat")
    return np.repeat(a, repeats, axis=axis)


def _meshgrid(*xs: Any, **kwargs: Any) -> list[np.ndarray]:
    budget().check_size(shape_size([np.size(x) for x in xs]) * len(xs), "np.meshgrid")
    return np.meshgrid(*xs, **kwargs)


_UFUNCS = (
    "sin cos tan arcsin arccos arctan arctan2 sinh cosh tanh arcsinh arccosh arctanh exp "
    "exp2 expm1 log log1p log2 log10 sqrt cbrt square abs absolute sign floor ceil trunc "
    "rint maximum minimum fmax fmin power add subtract multiply divide true_divide "
    "floor_divide mod remainder hypot isnan isinf isfinite negative reciprocal greater "
    "less equal not_equal greater_equal less_equal logical_and logical_or logical_not "
    "where clip round around isclose allclose array_equal"
).split()
_SHAPES = (
    "sum mean max min argmax argmin prod std var cumsum cumprod median amax amin nansum "
    "nanmean reshape transpose expand_dims squeeze ravel sort argsort unique nonzero flip "
    "trace shape size ndim zeros_like ones_like full_like count_nonzero average"
).split()

_rng_local = threading.local()


def _rng() -> np.random.RandomState:
    rng = getattr(_rng_local, "rng", None)
    if rng is None:
        rng = _rng_local.rng = np.random.RandomState()
    return rng


def _seed(seed: int | None = None) -> None:
    _rng_local.rng = np.random.RandomState(seed)


# Where each random function takes its ``size`` when it is given positionally.
_SIZE_POSITION = {
    "normal": 2,
    "uniform": 2,
    "randint": 2,
    "random": 0,
    "choice": 1,
    "standard_normal": 0,
}


def _sized(name: str) -> Callable[..., Any]:
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if name in ("rand", "randn"):
            size: Any = args
        elif name == "permutation":
            size = args[0] if args and isinstance(args[0], int) else None
        else:
            pos = _SIZE_POSITION.get(name)
            size = args[pos] if pos is not None and len(args) > pos else kwargs.get("size")
        if size is not None:
            budget().check_size(_size_of_shape(size), f"np.random.{name}")
        return getattr(_rng(), name)(*args, **kwargs)

    wrapped.__name__ = name
    return wrapped


RANDOM = Namespace(
    "numpy.random",
    {
        "seed": _seed,
        **{
            n: _sized(n)
            for n in (
                "rand",
                "randn",
                "normal",
                "uniform",
                "randint",
                "random",
                "choice",
                "permutation",
                "standard_normal",
                "shuffle",
            )
        },
    },
)

NUMPY = Namespace(
    "numpy",
    {
        **{n: _broadcasting(getattr(np, n)) for n in _UFUNCS},
        **{n: getattr(np, n) for n in _SHAPES},
        "array": _array,
        "asarray": _asarray,
        "zeros": _creating(np.zeros),
        "ones": _creating(np.ones),
        "full": _creating(np.full),
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
        "dot": _products(np.dot),
        "matmul": _products(np.matmul),
        "outer": _products(np.outer),
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
        "ndarray": np.ndarray,  # for isinstance(); not callable (policy.NOT_CALLABLE)
    },
)


def _bounded(fn: Callable[..., Any], limit: int = 10_000) -> Callable[..., Any]:
    def wrapped(*args: Any) -> Any:
        if any(isinstance(a, int) and a > limit for a in args):
            raise refused(f"math.{fn.__name__} of a number above {limit:,} is not available")
        return fn(*args)

    wrapped.__name__ = fn.__name__
    return wrapped


_MATH = (
    "sin cos tan asin acos atan atan2 sinh cosh tanh asinh acosh atanh exp expm1 log log2 "
    "log10 log1p sqrt fabs floor ceil trunc pi e tau inf nan isnan isinf isfinite isclose "
    "hypot degrees radians copysign fsum gcd erf erfc gamma lgamma fmod modf"
).split()
MATH = Namespace(
    "math",
    {
        **{n: getattr(_math, n) for n in _MATH},
        **{n: _bounded(getattr(_math, n)) for n in ("factorial", "comb", "perm")},
    },
)

MODULES: dict[str, Namespace] = {
    "tensorflow": TF,
    "tapeviz.tf": TF,
    "tapeviz": TV,
    "numpy": NUMPY,
    "math": MATH,
}
ALLOWED_IMPORTS = "tensorflow, numpy, math and tapeviz"


def resolve(dotted: str) -> Any:
    """The namespace an import names (``tensorflow.keras.optimizers``), or a refusal."""
    for root in sorted(MODULES, key=len, reverse=True):
        if dotted == root or dotted.startswith(root + "."):
            obj: Any = MODULES[root]
            for part in dotted[len(root) + 1 :].split(".") if dotted != root else ():
                if type(obj) is not Namespace or part not in obj:
                    raise ModuleNotFoundError(f"no module named '{dotted}'")
                obj = getattr(obj, part)
            if type(obj) is not Namespace:
                raise ModuleNotFoundError(f"'{dotted}' is not a module")
            return obj
    raise refused(
        f"import of '{dotted}' is not allowed", f"tapeviz scripts can import {ALLOWED_IMPORTS}"
    )


def _walk(ns: Namespace) -> list[Any]:
    out = []
    for name in ns:
        value = getattr(ns, name)
        out.append(value)
        if type(value) is Namespace:
            out.extend(_walk(value))
    return out


for _ns in MODULES.values():
    allow_callables(_walk(_ns))
