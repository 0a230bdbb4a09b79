"""``tf.random``: TensorFlow's seed semantics over numpy's Philox generator.

- ``tf.random.set_seed(s)`` makes every later random op deterministic: an op without its own
  seed draws an op seed from a generator seeded with ``s``, so a program gives the same
  sequence each run, and setting the seed again restarts it.
- An op with ``seed=k`` uses the stream of ``(global seed, k)`` (TensorFlow's default global
  seed 87654321 when none was set); calling it again continues that stream, as TensorFlow's
  kernels do, until ``set_seed`` resets them.
- Without any seed the values differ on every run. ``stateless_*`` ops are pure functions of
  their ``seed=[a, b]``; ``Generator`` objects carry their own state.

The bits are numpy's, not TensorFlow's: shapes, dtypes and the seed rules are TensorFlow's.
Gradients flow to ``mean``/``stddev``/``minval``/``maxval`` tensors, as in TensorFlow.
"""

from __future__ import annotations

import random as _pyrandom
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from tapeviz.engine import dtypes
from tapeviz.engine.array_ops import _new_shape
from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.ops import add, multiply, subtract
from tapeviz.engine.tensor import Tensor, TensorLike, constant, convert_to_tensor

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2**31 - 1

__all__ = [
    "Generator",
    "categorical",
    "dropout",
    "gamma",
    "get_global_generator",
    "normal",
    "poisson",
    "set_global_generator",
    "set_seed",
    "shuffle",
    "stateless_categorical",
    "stateless_normal",
    "stateless_truncated_normal",
    "stateless_uniform",
    "truncated_normal",
    "uniform",
]


class _Seeds(threading.local):
    def __init__(self) -> None:
        self.global_seed: int | None = None
        self.op_seeds: _pyrandom.Random | None = None  # draws op seeds once set_seed was called
        self.kernels: dict[tuple[Any, ...], np.random.Generator] = {}
        self.keras: _pyrandom.Random = _pyrandom.Random()  # Keras' seeds for initializers
        self.global_generator: Generator | None = None


_SEEDS = _Seeds()


def _philox(a: int, b: int) -> np.random.Generator:
    key = np.array([a & (2**64 - 1), b & (2**64 - 1)], dtype=np.uint64)
    return np.random.Generator(np.random.Philox(key=key))


def set_seed(seed: int | None) -> None:
    """Set the global random seed (None: back to non-deterministic)."""
    if seed is not None and not isinstance(seed, int | np.integer):
        raise InvalidArgumentError(f"set_seed: the seed must be an integer, got {seed!r}", "seed")
    s = _SEEDS
    s.global_seed = None if seed is None else int(seed)
    s.op_seeds = None if seed is None else _pyrandom.Random(int(seed))
    s.kernels.clear()
    s.keras = _pyrandom.Random(None if seed is None else int(seed) + 1)


def get_seed(op_seed: int | None) -> tuple[int | None, int | None]:
    """The (global, op) seed pair of a random op, TensorFlow's rule."""
    s = _SEEDS
    if s.global_seed is not None:
        if op_seed is None:
            assert s.op_seeds is not None
            op_seed = s.op_seeds.randint(0, _MAXINT32)
        seeds: tuple[int | None, int | None] = (s.global_seed, int(op_seed))
    elif op_seed is not None:
        seeds = (DEFAULT_GRAPH_SEED, int(op_seed))
    else:
        return None, None
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


def _kernel(op: str, dtype: Any, seed: int | None) -> np.random.Generator:
    a, b = get_seed(seed)
    if a is None or b is None:
        return np.random.default_rng()
    key = (op, getattr(dtype, "name", dtype), a, b)
    gen = _SEEDS.kernels.get(key)
    if gen is None:
        gen = _SEEDS.kernels[key] = _philox(a, b)
    return gen


def keras_seed() -> int:
    """A seed for a Keras initializer without one (fixed by ``set_seed``)."""
    return _SEEDS.keras.randint(1, 10**9)


def _shape(shape: Any, what: str) -> tuple[int, ...]:
    if isinstance(shape, TensorLike):
        shape = np.asarray(shape._value).tolist()
    if isinstance(shape, int | np.integer):
        shape = [shape]
    dims = tuple(int(d) for d in shape)
    if any(d < 0 for d in dims):
        raise InvalidArgumentError(f"{what}: negative dimension in shape {list(dims)}", what)
    _new_shape(dims, what)
    return dims


def _float_dtype(dtype: Any, what: str) -> dtypes.DType:
    dt = dtypes.as_dtype(dtype)
    if not dt.is_floating:
        raise InvalidArgumentError(
            f"Invalid dtype {dt!r} for {what}: expected a float dtype (tf.float16, tf.float32 or "
            "tf.float64)",
            what,
        )
    return dt


def _scaled(rnd: np.ndarray, scale: Any, shift: Any, dt: dtypes.DType) -> Tensor:
    """``rnd · scale + shift``: recorded ops when the parameters are tensors (gradients flow)."""
    if isinstance(scale, TensorLike) or isinstance(shift, TensorLike):
        return add(multiply(constant(rnd), scale), shift)
    out = rnd * np.asarray(scale, dtype=dt.np) + np.asarray(shift, dtype=dt.np)
    return constant(np.asarray(out, dtype=dt.np))


def _normal(gen: np.random.Generator, shape: tuple[int, ...], dt: dtypes.DType) -> np.ndarray:
    work = np.float64 if dt is dtypes.float64 else np.float32
    return gen.standard_normal(shape, dtype=work).astype(dt.np)


def _truncated(gen: np.random.Generator, shape: tuple[int, ...], dt: dtypes.DType) -> np.ndarray:
    out = _normal(gen, shape, dt).reshape(-1)
    bad = np.abs(out) > 2
    while bad.any():  # resample outside two standard deviations
        out[bad] = _normal(gen, (int(bad.sum()),), dt)
        bad = np.abs(out) > 2
    return out.reshape(shape)


def _uniform(
    gen: np.random.Generator,
    shape: tuple[int, ...],
    minval: Any,
    maxval: Any,
    dt: dtypes.DType,
    what: str,
) -> Tensor:
    if dt.is_integer:
        if maxval is None:
            raise InvalidArgumentError(f"Must specify maxval for integer dtype {dt!r}", what)
        lo, hi = (
            int(np.asarray(getattr(minval, "_value", minval))),
            int(np.asarray(getattr(maxval, "_value", maxval))),
        )
        if lo >= hi:
            raise InvalidArgumentError(f"Need minval < maxval: {lo} >= {hi}", what)
        return constant(gen.integers(lo, hi, shape).astype(dt.np))
    if not dt.is_floating:
        raise InvalidArgumentError(f"Invalid dtype {dt!r} for {what}", what)
    work = np.float64 if dt is dtypes.float64 else np.float32
    rnd = gen.random(shape, dtype=work).astype(dt.np)
    hi = 1 if maxval is None else maxval
    if isinstance(hi, TensorLike) or isinstance(minval, TensorLike):
        return add(multiply(constant(rnd), subtract(hi, minval)), minval)
    span = np.asarray(hi, dtype=dt.np) - np.asarray(minval, dtype=dt.np)
    return constant(np.asarray(rnd * span + np.asarray(minval, dtype=dt.np), dtype=dt.np))


def normal(
    shape: Any,
    mean: Any = 0.0,
    stddev: Any = 1.0,
    dtype: Any = dtypes.float32,
    seed: int | None = None,
    name: str | None = None,
) -> Tensor:
    """Samples from a normal distribution ``N(mean, stddev²)``."""
    dt = _float_dtype(dtype, "random.normal")
    rnd = _normal(_kernel("normal", dt, seed), _shape(shape, "random.normal"), dt)
    return _scaled(rnd, stddev, mean, dt)


def truncated_normal(
    shape: Any,
    mean: Any = 0.0,
    stddev: Any = 1.0,
    dtype: Any = dtypes.float32,
    seed: int | None = None,
    name: str | None = None,
) -> Tensor:
    """Normal samples redrawn when more than two standard deviations from the mean."""
    dt = _float_dtype(dtype, "random.truncated_normal")
    gen = _kernel("truncated_normal", dt, seed)
    return _scaled(_truncated(gen, _shape(shape, "random.truncated_normal"), dt), stddev, mean, dt)


def uniform(
    shape: Any,
    minval: Any = 0,
    maxval: Any = None,
    dtype: Any = dtypes.float32,
    seed: int | None = None,
    name: str | None = None,
) -> Tensor:
    """Uniform samples in ``[minval, maxval)`` (``maxval`` 1 for floats; required for ints)."""
    dt = dtypes.as_dtype(dtype)
    gen = _kernel("uniform", dt, seed)
    return _uniform(gen, _shape(shape, "random.uniform"), minval, maxval, dt, "random.uniform")


def categorical(
    logits: Any,
    num_samples: int,
    dtype: Any = None,
    seed: int | None = None,
    name: str | None = None,
) -> Tensor:
    """``num_samples`` class indices per row of unnormalised log-probabilities (int64)."""
    return _categorical(_kernel("categorical", "int64", seed), logits, num_samples, dtype)


def _categorical(gen: np.random.Generator, logits: Any, num_samples: int, dtype: Any) -> Tensor:
    lg = np.asarray(convert_to_tensor(logits)._value, dtype=np.float64)
    if lg.ndim != 2:
        raise InvalidArgumentError(
            f"logits should be a matrix, got shape {list(lg.shape)}", "random.categorical"
        )
    n = int(num_samples)
    _new_shape((lg.shape[0], n), "random.categorical")
    p = np.exp(lg - lg.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    out = (
        np.stack([gen.choice(lg.shape[1], size=n, p=row) for row in p])
        if lg.shape[0]
        else (np.zeros((0, n), dtype=np.int64))
    )
    return constant(out.astype(dtypes.as_dtype(dtype or dtypes.int64).np))


def shuffle(value: Any, seed: int | None = None, name: str | None = None) -> Tensor:
    """``value`` with its first dimension randomly permuted."""
    t = value if isinstance(value, TensorLike) else convert_to_tensor(value)
    arr = np.asarray(t._value)
    if arr.ndim == 0:
        raise InvalidArgumentError("shuffle needs a tensor of rank ≥ 1", "random.shuffle")
    perm = _kernel("shuffle", t.dtype, seed).permutation(arr.shape[0])
    return constant(arr[perm])


def gamma(
    shape: Any,
    alpha: Any,
    beta: Any = None,
    dtype: Any = dtypes.float32,
    seed: int | None = None,
    name: str | None = None,
) -> Tensor:
    """Gamma samples, shape ``shape + alpha.shape`` (``beta`` is the rate)."""
    dt = _float_dtype(dtype, "random.gamma")
    a = np.asarray(getattr(alpha, "_value", alpha), dtype=np.float64)
    b = 1.0 if beta is None else np.asarray(getattr(beta, "_value", beta), dtype=np.float64)
    full = _shape(shape, "random.gamma") + a.shape
    draws = _kernel("gamma", dt, seed).gamma(np.broadcast_to(a, full), size=full)
    return constant((draws / b).astype(dt.np))


def poisson(
    shape: Any,
    lam: Any,
    dtype: Any = dtypes.float32,
    seed: int | None = None,
    name: str | None = None,
) -> Tensor:
    """Poisson samples, shape ``shape + lam.shape``."""
    lam_v = np.asarray(getattr(lam, "_value", lam), dtype=np.float64)
    full = _shape(shape, "random.poisson") + lam_v.shape
    draws = _kernel("poisson", dtype, seed).poisson(np.broadcast_to(lam_v, full), size=full)
    return constant(draws.astype(dtypes.as_dtype(dtype).np))


# -- stateless ops: pure functions of seed=[a, b] --------------------------------------------
def _stateless(seed: Any, what: str) -> np.random.Generator:
    s = np.asarray(getattr(seed, "_value", seed))
    if s.shape != (2,) or s.dtype.kind not in "iu":
        raise InvalidArgumentError(
            f"{what}: seed must be a shape [2] integer tensor, got {s.tolist()!r}", what
        )
    return _philox(int(s[0]), int(s[1]))


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
    rnd = _truncated(gen, _shape(shape, "stateless_truncated_normal"), dt)
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
            self._gen = np.random.Generator(np.random.Philox())
            self._gen.bit_generator.state = copy_from._gen.bit_generator.state
        elif state is not None:
            s = np.asarray(getattr(state, "_value", state)).reshape(-1).tolist()
            self._gen = _philox(int(s[0]), int(s[1]) if len(s) > 1 else 0)
        else:
            self._gen = np.random.default_rng()
        self.algorithm = 1  # RNG_ALG_PHILOX

    @classmethod
    def from_seed(cls, seed: int, alg: Any = None) -> Generator:
        """A generator whose stream is fixed by ``seed``."""
        g = cls.__new__(cls)
        g._gen, g.algorithm = _philox(int(seed), 0), 1
        return g

    @classmethod
    def from_non_deterministic_state(cls, alg: Any = None) -> Generator:
        """A generator seeded from the operating system (different every run)."""
        return cls()

    def reset_from_seed(self, seed: int) -> None:
        """Restart the stream as if created ``from_seed(seed)``."""
        self._gen = _philox(int(seed), 0)

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
        rnd = _truncated(self._gen, _shape(shape, "Generator.truncated_normal"), dt)
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
            g._gen, g.algorithm = _philox(a, b), 1
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


def dropout(
    x: Any,
    rate: Any,
    noise_shape: Sequence[int] | None = None,
    seed: int | None = None,
    name: str | None = None,
) -> Tensor:
    """Zero each element with probability ``rate``; scale the rest by ``1 / (1 − rate)``."""
    t = x if isinstance(x, TensorLike) else convert_to_tensor(x)
    r = float(np.asarray(getattr(rate, "_value", rate)))
    if not 0 <= r < 1:
        raise InvalidArgumentError(
            f"rate must be a scalar tensor or a float in the range [0, 1), got {r:g}", "dropout"
        )
    if not t.dtype.is_floating:
        raise InvalidArgumentError(
            f"x has to be a floating point tensor since it's going to be scaled. Got a "
            f"{t.dtype.name} tensor instead.",
            "dropout",
        )
    shape = tuple(t.shape) if noise_shape is None else _shape(noise_shape, "dropout")
    gen = _kernel("dropout", t.dtype, seed)
    keep = gen.random(shape) >= r
    return multiply(multiply(t, 1.0 / (1.0 - r)), constant(keep.astype(t.dtype.np)))
