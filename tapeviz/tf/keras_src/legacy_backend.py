"""The Keras 2 functions ``tf.keras.backend`` still has under Keras 3 (``keras.src.legacy``).

``K.random_normal(shape)`` (the variational autoencoder's sampling layer), ``K.int_shape``,
``K.square``, ``K.mean``, ... : each is the TensorFlow op Keras' legacy backend calls.
"""

from __future__ import annotations

from typing import Any

from tapeviz import engine as E
from tapeviz.tf import random_ops
from tapeviz.tf.keras_src import backend

__all__ = ["LEGACY"]


def _float(dtype: Any) -> Any:
    return dtype or backend.floatx()


def random_normal(
    shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = None, seed: Any = None
) -> E.Tensor:
    """Normal samples (``tf.random.normal``), floatx by default."""
    return random_ops.normal(shape, mean=mean, stddev=stddev, dtype=_float(dtype), seed=seed)


def random_uniform(
    shape: Any, minval: float = 0.0, maxval: float = 1.0, dtype: Any = None, seed: Any = None
) -> E.Tensor:
    """Uniform samples in ``[minval, maxval)`` (``tf.random.uniform``)."""
    return random_ops.uniform(shape, minval=minval, maxval=maxval, dtype=_float(dtype), seed=seed)


def truncated_normal(
    shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = None, seed: Any = None
) -> E.Tensor:
    """Normal samples within two standard deviations (``tf.random.truncated_normal``)."""
    dt = _float(dtype)
    return random_ops.truncated_normal(shape, mean=mean, stddev=stddev, dtype=dt, seed=seed)


def random_bernoulli(shape: Any, p: float = 0.0, dtype: Any = None, seed: Any = None) -> E.Tensor:
    """1 with probability ``p``, else 0."""
    dt = _float(dtype)
    return E.cast(E.less_equal(random_ops.uniform(shape, dtype=dt, seed=seed), p), dt)


def int_shape(x: Any) -> tuple[Any, ...]:
    """The static shape as a tuple of ints."""
    return tuple(x.shape)


def _bool_to_float(x: Any) -> Any:
    t = x if isinstance(x, E.Tensor | E.Variable) else E.convert_to_tensor(x)
    return E.cast(t, backend.floatx()) if t.dtype.is_bool else t


def mean(x: Any, axis: Any = None, keepdims: bool = False) -> E.Tensor:
    """``tf.reduce_mean`` (bools counted as floats)."""
    return E.reduce_mean(_bool_to_float(x), axis=axis, keepdims=keepdims)


def sum(x: Any, axis: Any = None, keepdims: bool = False) -> E.Tensor:
    """``tf.reduce_sum``."""
    return E.reduce_sum(x, axis=axis, keepdims=keepdims)


def clip(x: Any, min_value: Any, max_value: Any) -> E.Tensor:
    """``tf.clip_by_value`` (an upper bound below the lower one is raised to it)."""
    numbers = (int, float)
    if isinstance(min_value, numbers) and isinstance(max_value, numbers) and max_value < min_value:
        max_value = min_value
    low = -float("inf") if min_value is None else min_value
    high = float("inf") if max_value is None else max_value
    return E.clip_by_value(x, low, high)


LEGACY: dict[str, Any] = {
    "random_normal": random_normal, "random_uniform": random_uniform,
    "truncated_normal": truncated_normal, "random_bernoulli": random_bernoulli,
    "int_shape": int_shape, "shape": E.shape, "mean": mean, "sum": sum, "clip": clip,
    "square": E.square, "sqrt": E.sqrt, "exp": E.exp, "log": E.log, "abs": E.abs,
    "maximum": E.maximum, "minimum": E.minimum, "cast": E.cast, "dot": E.matmul,
    "ones_like": E.ones_like, "zeros_like": E.zeros_like, "sigmoid": E.sigmoid, "tanh": E.tanh,
}  # fmt: skip
