"""``keras.initializers``: how layers fill new weights (GlorotUniform kernels, zero biases).

An initializer with an int ``seed`` gives the same values at every call, as in Keras 3; one
without draws a new seed each call (fixed by ``tf.random.set_seed`` or
``keras.utils.set_random_seed``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapeviz.engine import dtypes
from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.tensor import TensorLike, freeze
from tapeviz.tf import random_ops

__all__ = ["INITIALIZERS", "Initializer", "get"]


def _fans(shape: tuple[int, ...]) -> tuple[float, float]:
    """Keras' ``compute_fans``: (fan_in, fan_out) of a weight shape."""
    if len(shape) < 1:
        return 1.0, 1.0
    if len(shape) == 1:
        return float(shape[0]), float(shape[0])
    if len(shape) == 2:
        return float(shape[0]), float(shape[1])
    receptive = float(np.prod(shape[:-2]))
    return shape[-2] * receptive, shape[-1] * receptive


class Initializer:
    """Base class: ``initializer(shape, dtype)`` returns the initial value."""

    def __call__(self, shape: Any, dtype: Any = None) -> Any:
        raise NotImplementedError

    def get_config(self) -> dict[str, Any]:
        """The constructor arguments."""
        return {k: v for k, v in vars(self).items() if not k.startswith("_")}

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


def _dtype(dtype: Any) -> dtypes.DType:
    return dtypes.as_dtype(dtype or "float32")


class _Random(Initializer):
    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def _gen(self) -> np.random.Generator:
        seed = self.seed if self.seed is not None else random_ops.keras_seed()
        return random_ops.philox(int(seed), 0)


class Zeros(Initializer):
    """All zeros."""

    def __call__(self, shape: Any, dtype: Any = None) -> Any:
        return freeze(np.zeros(tuple(shape), dtype=_dtype(dtype).np))


class Ones(Initializer):
    """All ones."""

    def __call__(self, shape: Any, dtype: Any = None) -> Any:
        return freeze(np.ones(tuple(shape), dtype=_dtype(dtype).np))


class Constant(Initializer):
    """Every element ``value`` (or ``value`` broadcast, for an array)."""

    def __init__(self, value: Any = 0.0) -> None:
        self.value = value

    def __call__(self, shape: Any, dtype: Any = None) -> Any:
        v = self.value._value if isinstance(self.value, TensorLike) else self.value
        return freeze(
            np.array(np.broadcast_to(np.asarray(v, dtype=_dtype(dtype).np), tuple(shape)))
        )


class Identity(Initializer):
    """The identity matrix times ``gain`` (2-D shapes)."""

    def __init__(self, gain: float = 1.0) -> None:
        self.gain = gain

    def __call__(self, shape: Any, dtype: Any = None) -> Any:
        if len(shape) != 2:
            raise InvalidArgumentError(
                f"Identity matrix initializer can only be used for 2D matrices. Received: "
                f"shape={tuple(shape)} of rank {len(shape)}.",
                "initializers",
            )
        return freeze(self.gain * np.eye(*shape, dtype=_dtype(dtype).np))


class RandomNormal(_Random):
    """Normal samples ``N(mean, stddev²)``."""

    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed: int | None = None) -> None:
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape: Any, dtype: Any = None) -> Any:
        dt = _dtype(dtype)
        rnd = self._gen().standard_normal(tuple(shape)) * self.stddev + self.mean
        return freeze(rnd.astype(dt.np))


class RandomUniform(_Random):
    """Uniform samples in ``[minval, maxval)``."""

    def __init__(self, minval: float = -0.05, maxval: float = 0.05, seed: int | None = None):
        super().__init__(seed)
        self.minval, self.maxval = minval, maxval

    def __call__(self, shape: Any, dtype: Any = None) -> Any:
        dt = _dtype(dtype)
        rnd = self._gen().uniform(self.minval, self.maxval, tuple(shape))
        return freeze(rnd.astype(dt.np))


class TruncatedNormal(_Random):
    """Normal samples redrawn beyond two standard deviations."""

    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed: int | None = None) -> None:
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape: Any, dtype: Any = None) -> Any:
        dt = _dtype(dtype)
        out = random_ops.truncated_values(self._gen(), tuple(shape), dtypes.float64)
        return freeze((out * self.stddev + self.mean).astype(dt.np))


class VarianceScaling(_Random):
    """Keras' VarianceScaling: the Glorot, He and LeCun initializers are instances of it."""

    def __init__(
        self,
        scale: float = 1.0,
        mode: str = "fan_in",
        distribution: str = "truncated_normal",
        seed: int | None = None,
    ) -> None:
        super().__init__(seed)
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise InvalidArgumentError(f"Invalid `mode` argument: {mode}", "initializers")
        if distribution not in ("truncated_normal", "untruncated_normal", "uniform", "normal"):
            raise InvalidArgumentError(
                f"Invalid `distribution` argument: {distribution}", "initializers"
            )
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def __call__(self, shape: Any, dtype: Any = None) -> Any:
        dt = _dtype(dtype)
        shape = tuple(int(d) for d in shape)
        fan_in, fan_out = _fans(shape)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}[self.mode]
        scale = self.scale / max(1.0, n)
        gen = self._gen()
        if self.distribution == "uniform":
            limit = math.sqrt(3.0 * scale)
            out = gen.uniform(-limit, limit, shape)
        elif self.distribution == "truncated_normal":
            stddev = math.sqrt(scale) / 0.87962566103423978  # std of N(0, 1) truncated at ±2
            out = random_ops.truncated_values(gen, shape, dtypes.float64) * stddev
        else:
            out = gen.standard_normal(shape) * math.sqrt(scale)
        return freeze(out.astype(dt.np))


def _variance(name: str, scale: float, mode: str, distribution: str) -> type:
    def init(self: VarianceScaling, seed: int | None = None) -> None:
        VarianceScaling.__init__(self, scale, mode, distribution, seed)

    doc = f"VarianceScaling(scale={scale}, mode={mode!r}, distribution={distribution!r})."
    return type(name, (VarianceScaling,), {"__init__": init, "__doc__": doc})


GlorotUniform = _variance("GlorotUniform", 1.0, "fan_avg", "uniform")
GlorotNormal = _variance("GlorotNormal", 1.0, "fan_avg", "truncated_normal")
HeUniform = _variance("HeUniform", 2.0, "fan_in", "uniform")
HeNormal = _variance("HeNormal", 2.0, "fan_in", "truncated_normal")
LecunUniform = _variance("LecunUniform", 1.0, "fan_in", "uniform")
LecunNormal = _variance("LecunNormal", 1.0, "fan_in", "truncated_normal")


class Orthogonal(_Random):
    """An orthogonal matrix (rows or columns orthonormal), times ``gain`` (Keras' recurrent)."""

    def __init__(self, gain: float = 1.0, seed: int | None = None) -> None:
        super().__init__(seed)
        self.gain = gain

    def __call__(self, shape: Any, dtype: Any = None) -> Any:
        dt = _dtype(dtype)
        rows, cols = int(np.prod(tuple(shape)[:-1])), int(tuple(shape)[-1])
        a = self._gen().standard_normal((max(rows, cols), min(rows, cols)))
        q, r = np.linalg.qr(a)
        q = q * np.sign(np.diag(r))
        q = q.T if rows < cols else q
        return freeze((self.gain * q.reshape(tuple(shape))).astype(dt.np))


INITIALIZERS: dict[str, Any] = {
    "zeros": Zeros, "ones": Ones, "constant": Constant, "identity": Identity,
    "random_normal": RandomNormal, "random_uniform": RandomUniform,
    "truncated_normal": TruncatedNormal, "variance_scaling": VarianceScaling,
    "glorot_uniform": GlorotUniform, "glorot_normal": GlorotNormal, "he_uniform": HeUniform,
    "he_normal": HeNormal, "lecun_uniform": LecunUniform, "lecun_normal": LecunNormal,
    "uniform": RandomUniform, "normal": RandomNormal, "orthogonal": Orthogonal,
}  # fmt: skip


def get(identifier: Any) -> Any:
    """An initializer from a name (``"glorot_uniform"``), a class, an instance or a function."""
    if identifier is None:
        return None
    if isinstance(identifier, str):
        key = identifier if identifier in INITIALIZERS else identifier.lower()
        for name, cls in INITIALIZERS.items():
            if key in (name, cls.__name__.lower()):
                return cls()
        raise InvalidArgumentError(
            f"Could not interpret initializer identifier: {identifier}", "initializers"
        )
    if isinstance(identifier, type):
        return identifier()
    if callable(identifier):
        return identifier
    raise InvalidArgumentError(
        f"Could not interpret initializer identifier: {identifier}", "initializers"
    )
