"""``keras.utils``, ``keras.random``, ``keras.ops`` and ``keras.config`` over the engine."""

from __future__ import annotations

import random as _pyrandom
from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz import engine as E
from tapeviz.engine import diagnostics
from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.guard import check_elements
from tapeviz.engine.namespace import Namespace
from tapeviz.engine.tensor import Tensor, TensorLike, constant
from tapeviz.tf import random_ops, run_state
from tapeviz.tf.keras_src import backend
from tapeviz.tf.keras_src.data_adapter import pack, unpack
from tapeviz.tf.keras_src.object_registration import register_keras_serializable
from tapeviz.tf.keras_src.progbar import Progbar
from tapeviz.tf.unavailable import KERAS_UTILS_FILES

__all__ = ["CONFIG", "OPS", "RANDOM", "UTILS", "seed_also", "set_random_seed", "to_categorical"]

# The numpy generators ``set_random_seed`` seeds: numpy's own, and any stand-in that registers
# (the sandbox's ``np.random``, which is what a script draws from). Filled at import time.
_NUMPY_SEEDERS: list[Callable[[int], None]] = [np.random.seed]


def seed_also(seeder: Callable[[int], None]) -> None:
    """Make ``set_random_seed(s)`` also call ``seeder(s % 2**32)``, as it seeds numpy."""
    if seeder not in _NUMPY_SEEDERS:
        _NUMPY_SEEDERS.append(seeder)


def set_random_seed(seed: int) -> None:
    """Seed Python's, numpy's and TensorFlow's random numbers (and Keras' initializers)."""
    if not isinstance(seed, int | np.integer):
        raise ValueError(
            f"Expected `seed` argument to be an integer. Received: seed={seed} (of type "
            f"{type(seed)})"
        )
    run_state.changing(run_state.PYTHON_RANDOM)  # a run gives both back as they were
    run_state.changing(run_state.NUMPY_RANDOM)
    _pyrandom.seed(int(seed))
    for seeder in _NUMPY_SEEDERS:
        seeder(int(seed) % 2**32)
    random_ops.set_seed(int(seed))


def to_categorical(x: Any, num_classes: int | None = None) -> np.ndarray:
    """One-hot rows (float32) of integer labels."""
    y = np.asarray(getattr(x, "_value", x), dtype=np.int64)
    if y.ndim > 1 and y.shape[-1] == 1:
        y = y[..., 0]
    n = int(num_classes) if num_classes is not None else int(y.max()) + 1
    check_elements(y.size * n, "to_categorical")
    return (y[..., None] == np.arange(n)).astype(np.float32)


def normalize(x: Any, axis: int = -1, order: int = 2) -> Any:
    """``x`` divided by its L-``order`` norm along ``axis``."""
    arr = np.asarray(getattr(x, "_value", x), dtype=np.float64)
    norm = np.linalg.norm(arr, ord=order, axis=axis, keepdims=True)
    norm[norm == 0] = 1
    return (arr / norm).astype(np.float32)


def plot_model(model: Any, to_file: str = "model.png", *args: Any, **kwargs: Any) -> None:
    """Draw nothing: tapeviz has no Graphviz (its Graph view shows the model); a warning says so."""
    diagnostics.warn(
        f"plot_model: tapeviz draws no {to_file!r} (no Graphviz): see the model in the Graph view, "
        "or print model.summary()"
    )


UTILS = Namespace(
    "tf.keras.utils",
    {
        "set_random_seed": set_random_seed, "to_categorical": to_categorical,
        "normalize": normalize, "Progbar": Progbar,
        "register_keras_serializable": register_keras_serializable, **KERAS_UTILS_FILES,
        "unpack_x_y_sample_weight": unpack, "pack_x_y_sample_weight": pack,
        "plot_model": plot_model,
    },
)  # fmt: skip


# -- keras.random ------------------------------------------------------------------------
class SeedGenerator:
    """A stateful seed: each draw gives new random numbers (Keras' ``SeedGenerator``)."""

    def __init__(self, seed: int | None = None, name: str | None = None, **_: Any) -> None:
        self._gen = random_ops.philox(seed if seed is not None else random_ops.keras_seed(), 7)

    def generator(self) -> np.random.Generator:
        """The numpy generator behind it."""
        return self._gen


def _gen(seed: Any) -> np.random.Generator:
    if isinstance(seed, SeedGenerator):
        return seed.generator()
    if seed is None:
        return random_ops.philox(random_ops.keras_seed(), 3)
    return random_ops.philox(int(seed), 3)  # an int seed: the same values every call


def _normal(
    shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = None, seed: Any = None
) -> Tensor:
    dt = E.as_dtype(dtype or backend.floatx())
    vals = _gen(seed).standard_normal(tuple(shape)) * stddev + mean
    return constant(vals.astype(dt.np))


def _uniform(
    shape: Any, minval: float = 0.0, maxval: float = 1.0, dtype: Any = None, seed: Any = None
) -> Tensor:
    dt = E.as_dtype(dtype or backend.floatx())
    return constant(_gen(seed).uniform(minval, maxval, tuple(shape)).astype(dt.np))


def _truncated(
    shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = None, seed: Any = None
) -> Tensor:
    dt = E.as_dtype(dtype or backend.floatx())
    vals = random_ops.truncated_values(_gen(seed), tuple(shape), E.float64) * stddev + mean
    return constant(vals.astype(dt.np))


def _dropout(inputs: Any, rate: float, noise_shape: Any = None, seed: Any = None) -> Tensor:
    x = inputs if isinstance(inputs, TensorLike) else E.convert_to_tensor(inputs)
    keep = (_gen(seed).random(tuple(noise_shape or x.shape)) >= rate).astype(x.dtype.np)
    return E.multiply(E.multiply(x, 1.0 / (1.0 - rate)), constant(keep))


RANDOM = Namespace(
    "tf.keras.random",
    {"normal": _normal, "uniform": _uniform, "truncated_normal": _truncated,
     "dropout": _dropout, "SeedGenerator": SeedGenerator,
     "shuffle": lambda x, axis=0, seed=None: constant(_gen(seed).permutation(
         np.asarray(getattr(x, "_value", x)), axis=axis))},
)  # fmt: skip


# -- keras.ops ---------------------------------------------------------------------------
def _concatenate(xs: Any, axis: int = 0) -> Tensor:
    return E.concat(list(xs), axis=axis)


def _arange(start: Any, stop: Any = None, step: Any = 1, dtype: Any = None) -> Tensor:
    return E.range(start, stop, step, dtype=dtype)


def _full(shape: Any, fill_value: Any, dtype: Any = None) -> Tensor:
    t = E.fill(shape, fill_value)
    return E.cast(t, dtype) if dtype is not None else t


def _shape(x: Any) -> tuple[int, ...]:
    return tuple(np.shape(getattr(x, "_value", x)))


def _convert_to_numpy(x: Any) -> np.ndarray:
    return np.asarray(getattr(x, "_value", x))


def _std(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    return E.reduce_std(x, axis=axis, keepdims=keepdims)


def _var(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    return E.reduce_variance(x, axis=axis, keepdims=keepdims)


OPS = Namespace(
    "tf.keras.ops",
    {
        "add": E.add, "subtract": E.subtract, "multiply": E.multiply, "divide": E.divide,
        "true_divide": E.divide, "negative": E.negative, "square": E.square, "sqrt": E.sqrt,
        "exp": E.exp, "log": E.log, "log1p": E.log1p, "abs": E.abs, "absolute": E.abs,
        "sign": E.sign, "sin": E.sin, "cos": E.cos, "tan": E.tan, "tanh": E.tanh,
        "sinh": E.sinh, "cosh": E.cosh, "arctan2": E.atan2, "erf": E.erf, "floor": E.floor,
        "ceil": E.ceil, "round": E.round, "power": E.pow, "sigmoid": E.sigmoid, "relu": E.relu,
        "relu6": E.relu6, "elu": E.elu, "selu": E.selu, "gelu": E.gelu, "silu": E.silu,
        "softplus": E.softplus, "softsign": E.softsign, "softmax": E.softmax,
        "log_softmax": E.log_softmax, "matmul": E.matmul, "dot": E.matmul, "einsum": E.einsum,
        "tensordot": E.tensordot, "sum": E.reduce_sum, "mean": E.reduce_mean,
        "max": E.reduce_max, "min": E.reduce_min, "prod": E.reduce_prod, "std": _std,
        "var": _var, "logsumexp": E.reduce_logsumexp, "argmax": E.argmax, "argmin": E.argmin,
        "maximum": E.maximum, "minimum": E.minimum, "clip": E.clip_by_value, "where": E.where,
        "reshape": E.reshape, "transpose": E.transpose, "expand_dims": E.expand_dims,
        "squeeze": E.squeeze, "concatenate": _concatenate, "stack": E.stack, "ones": E.ones,
        "zeros": E.zeros, "ones_like": E.ones_like, "zeros_like": E.zeros_like, "full": _full,
        "arange": _arange, "linspace": E.linspace, "cast": E.cast,
        "convert_to_tensor": E.convert_to_tensor, "convert_to_numpy": _convert_to_numpy,
        "shape": _shape, "norm": E.norm, "equal": E.equal, "not_equal": E.not_equal,
        "greater": E.greater, "greater_equal": E.greater_equal, "less": E.less,
        "less_equal": E.less_equal, "logical_and": E.logical_and, "logical_or": E.logical_or,
        "logical_not": E.logical_not, "cumsum": E.cumsum, "cumprod": E.cumprod, "take": E.gather,
        "one_hot": E.one_hot, "tile": E.tile, "pad": E.pad, "sort": E.sort,
        "argsort": E.argsort, "top_k": E.top_k, "stop_gradient": E.stop_gradient,
        "meshgrid": E.meshgrid, "eye": E.eye, "diag": E.diag, "trace": E.trace,
        "isnan": E.is_nan, "isfinite": E.is_finite, "isinf": E.is_inf,
    },
)  # fmt: skip


def _backend() -> str:
    return "tensorflow"


def _check_floatx(value: str) -> None:
    if value not in ("float16", "float32", "float64"):
        raise InvalidArgumentError(f"Unknown `floatx` value: {value}", "config")
    backend.set_floatx(value)


CONFIG = Namespace(
    "tf.keras.config",
    {"floatx": backend.floatx, "set_floatx": _check_floatx, "epsilon": backend.epsilon,
     "set_epsilon": backend.set_epsilon, "image_data_format": backend.image_data_format,
     "backend": _backend, "enable_unsafe_deserialization": lambda: None,
     "disable_interactive_logging": lambda: None, "enable_interactive_logging": lambda: None},
)  # fmt: skip
