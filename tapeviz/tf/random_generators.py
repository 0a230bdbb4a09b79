"""``tf.random``'s stateless ops (pure functions of ``seed=[a, b]``) and ``tf.random.Generator``.

A Generator carries its own Philox stream (``Generator.from_seed(1234)`` gives the same numbers
every run); the stateless ops make a fresh stream from their seed at every call.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.engine import dtypes
from tapeviz.engine.array_ops import _new_shape
from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.tensor import Tensor, constant
from tapeviz.tf.random_ops import (
    _SEEDS,
    _categorical,
    _float_dtype,
    _normal,
    _scaled,
    _shape,
    _uniform,
    philox,
    truncated_values,
)

__all__ = [
    "Generator",
    "get_global_generator",
    "set_global_generator",
    "stateless_categorical",
    "stateless_normal",
    "stateless_truncated_normal",
    "stateless_uniform",
]


# -- stateless ops: pure functions of seed=[a, b] --------------------------------------------
def _stateless(seed: Any, what: str) -> np.random.Generator:
    s = np.asarray(getattr(seed, "_value", seed))
    if s.shape != (2,) or s.dtype.kind not in "iu":
        raise InvalidArgumentError(
            f"{what}: seed must be a shape [2] integer tensor, got {s.tolist()!r}", what
        )
    return philox(int(s[0]), int(s[1]))


def stateless_normal(
    shape: Any,
    seed: Any,
    mean: Any = 0.0,
    stddev: Any = 1.0,
    dtype: Any = dtypes.float32,
    name: str | None = None,
    alg: Any = "auto_select",
) -> Tensor:
    """Normal samples that depend only on ``seed`` (same seed, same values)."""
    dt = _float_dtype(dtype, "stateless_normal")
    rnd = _normal(_stateless(seed, "stateless_normal"), _shape(shape, "stateless_normal"), dt)
    return _scaled(rnd, stddev, mean, dt)


def stateless_truncated_normal(
    shape: Any,
    seed: Any,
    mean: Any = 0.0,
    stddev: Any = 1.0,
    dtype: Any = dtypes.float32,
    name: str | None = None,
    alg: Any = "auto_select",
) -> Tensor:
    """Truncated normal samples that depend only on ``seed``."""
    dt = _float_dtype(dtype, "stateless_truncated_normal")
    gen = _stateless(seed, "stateless_truncated_normal")
    rnd = truncated_values(gen, _shape(shape, "stateless_truncated_normal"), dt)
    return _scaled(rnd, stddev, mean, dt)


def stateless_uniform(
    shape: Any,
    seed: Any,
    minval: Any = 0,
    maxval: Any = None,
    dtype: Any = dtypes.float32,
    name: str | None = None,
    alg: Any = "auto_select",
) -> Tensor:
    """Uniform samples that depend only on ``seed``."""
    dt = dtypes.as_dtype(dtype)
    gen = _stateless(seed, "stateless_uniform")
    return _uniform(
        gen, _shape(shape, "stateless_uniform"), minval, maxval, dt, "stateless_uniform"
    )


def stateless_categorical(
    logits: Any, num_samples: int, seed: Any, dtype: Any = dtypes.int64, name: str | None = None
) -> Tensor:
    """Categorical samples that depend only on ``seed``."""
    return _categorical(_stateless(seed, "stateless_categorical"), logits, num_samples, dtype)


# -- tf.random.Generator -------------------------------------------------------------------
class Generator:
    """A random-number generator with its own state (``Generator.from_seed(1234)``)."""

    def __init__(self, copy_from: Generator | None = None, state: Any = None, alg: Any = None):
        if copy_from is not None:
            bits = type(copy_from._gen.bit_generator)()
            bits.state = copy_from._gen.bit_generator.state
            self._gen = np.random.Generator(bits)
        elif state is not None:
            s = np.asarray(getattr(state, "_value", state)).reshape(-1).tolist()
            self._gen = philox(int(s[0]), int(s[1]) if len(s) > 1 else 0)
        else:  # Philox, as TensorFlow's, keyed from the operating system's entropy
            self._gen = np.random.Generator(np.random.Philox())
        self.algorithm = 1  # RNG_ALG_PHILOX

    @classmethod
    def from_seed(cls, seed: int, alg: Any = None) -> Generator:
        """A generator whose stream is fixed by ``seed``."""
        g = cls.__new__(cls)
        g._gen, g.algorithm = philox(int(seed), 0), 1
        return g

    @classmethod
    def from_non_deterministic_state(cls, alg: Any = None) -> Generator:
        """A generator seeded from the operating system (different every run)."""
        return cls()

    def reset_from_seed(self, seed: int) -> None:
        """Restart the stream as if created ``from_seed(seed)``."""
        self._gen = philox(int(seed), 0)

    def normal(
        self,
        shape: Any,
        mean: Any = 0.0,
        stddev: Any = 1.0,
        dtype: Any = dtypes.float32,
        name: str | None = None,
    ) -> Tensor:
        """Normal samples from this generator's stream."""
        dt = _float_dtype(dtype, "Generator.normal")
        return _scaled(_normal(self._gen, _shape(shape, "Generator.normal"), dt), stddev, mean, dt)

    def truncated_normal(
        self,
        shape: Any,
        mean: Any = 0.0,
        stddev: Any = 1.0,
        dtype: Any = dtypes.float32,
        name: str | None = None,
    ) -> Tensor:
        """Truncated normal samples from this generator's stream."""
        dt = _float_dtype(dtype, "Generator.truncated_normal")
        rnd = truncated_values(self._gen, _shape(shape, "Generator.truncated_normal"), dt)
        return _scaled(rnd, stddev, mean, dt)

    def uniform(
        self,
        shape: Any,
        minval: Any = 0,
        maxval: Any = None,
        dtype: Any = dtypes.float32,
        name: str | None = None,
    ) -> Tensor:
        """Uniform samples from this generator's stream."""
        dt = dtypes.as_dtype(dtype)
        return _uniform(
            self._gen, _shape(shape, "Generator.uniform"), minval, maxval, dt, "Generator.uniform"
        )

    def make_seeds(self, count: int = 1) -> Tensor:
        """``count`` seed pairs for stateless ops, as a ``[2, count]`` int64 tensor."""
        _new_shape((2, int(count)), "Generator.make_seeds")
        return constant(self._gen.integers(0, 2**63 - 1, (2, int(count)), dtype=np.int64))

    def split(self, count: int = 1) -> list[Generator]:
        """``count`` new independent generators drawn from this one."""
        _new_shape((int(count), 2), "Generator.split")
        seeds = self._gen.integers(0, 2**63 - 1, (int(count), 2), dtype=np.int64)
        out = []
        for a, b in seeds.tolist():
            g = Generator.__new__(Generator)
            g._gen, g.algorithm = philox(a, b), 1
            out.append(g)
        return out

    def __repr__(self) -> str:
        return "<tf.random.Generator (Philox)>"


def get_global_generator() -> Generator:
    """The generator ``tf.random.get_global_generator()`` returns (made on first use)."""
    s = _SEEDS
    if s.global_generator is None:
        seed = s.global_seed
        s.global_generator = Generator() if seed is None else Generator.from_seed(seed)
    return s.global_generator


def set_global_generator(generator: Generator) -> None:
    """Replace the global generator."""
    _SEEDS.global_generator = generator
