"""TensorFlow's own initializers: ``tf.random_normal_initializer`` and its friends.

``tf.random_normal_initializer(0., 0.02)`` is a class (``RandomNormal``) whose instances are
called as ``init(shape, dtype=tf.float32)`` and return a Tensor; Keras layers take them as
``kernel_initializer``. With an int ``seed`` an initializer gives the same values each call;
without one each call draws anew (fixed by ``tf.random.set_seed``), as in TensorFlow.
"""

from __future__ import annotations

from typing import Any

from tapeviz.engine import dtypes
from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.tensor import Tensor, constant
from tapeviz.tf.keras_src import initializers as _keras

__all__ = [
    "Constant",
    "Ones",
    "RandomNormal",
    "RandomUniform",
    "TruncatedNormal",
    "Zeros",
]


class Initializer:
    """Base class: ``init(shape, dtype=tf.float32)`` returns a Tensor."""

    _keras_class: type = _keras.Initializer
    _floats_only = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._keras = self._keras_class(*args, **kwargs)

    def __call__(self, shape: Any, dtype: Any = dtypes.float32, **kwargs: Any) -> Tensor:
        dt = dtypes.as_dtype(dtype)
        if self._floats_only and not dt.is_floating:
            raise InvalidArgumentError(f"Expected float dtype, got {dt!r}.", type(self).__name__)
        dims = tuple(int(d) for d in getattr(shape, "as_list", lambda: shape)())
        return constant(self._keras(dims, dtype=dt))

    def get_config(self) -> dict[str, Any]:
        """The constructor arguments."""
        return self._keras.get_config()

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Initializer:
        """An initializer from ``get_config()``'s output."""
        return cls(**config)


class Zeros(Initializer):
    """All zeros (any dtype): ``tf.zeros_initializer``."""

    _keras_class = _keras.Zeros
    _floats_only = False


class Ones(Initializer):
    """All ones (any dtype): ``tf.ones_initializer``."""

    _keras_class = _keras.Ones
    _floats_only = False


class Constant(Initializer):
    """Every element ``value`` (or ``value`` broadcast): ``tf.constant_initializer``."""

    _keras_class = _keras.Constant
    _floats_only = False

    def __init__(self, value: Any = 0) -> None:
        super().__init__(value)


class RandomNormal(Initializer):
    """Normal samples ``N(mean, stddev²)``: ``tf.random_normal_initializer``."""

    _keras_class = _keras.RandomNormal

    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed: int | None = None) -> None:
        super().__init__(mean=mean, stddev=stddev, seed=seed)


class RandomUniform(Initializer):
    """Uniform samples in ``[minval, maxval)``: ``tf.random_uniform_initializer``."""

    _keras_class = _keras.RandomUniform

    def __init__(
        self, minval: float = -0.05, maxval: float = 0.05, seed: int | None = None
    ) -> None:
        super().__init__(minval=minval, maxval=maxval, seed=seed)


class TruncatedNormal(Initializer):
    """Normal samples within two standard deviations: ``tf.initializers.TruncatedNormal``."""

    _keras_class = _keras.TruncatedNormal

    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed: int | None = None) -> None:
        super().__init__(mean=mean, stddev=stddev, seed=seed)
