"""``tf.random``: TensorFlow's seed semantics over numpy's Philox generator.

- ``tf.random.set_seed(s)`` makes every later random op deterministic: an op without its own
  seed draws an op seed from a generator seeded with ``s``, so a program gives the same
  sequence each run, and setting the seed again restarts it.
- An op with ``seed=k`` uses the stream of ``(global seed, k)`` (TensorFlow's default global
  seed 87654321 when none was set); calling it again continues that stream, as TensorFlow's
  kernels do, until ``set_seed`` resets them.
- Without any seed the values differ on every run. ``stateless_*`` ops and ``Generator``
  objects are in :mod:`tapeviz.tf.random_generators`.

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
from tapeviz.tf import run_state

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2**31 - 1

__all__ = [
    "categorical",
    "dropout",
    "gamma",
    "normal",
    "poisson",
    "set_seed",
    "shuffle",
    "truncated_normal",
    "uniform",
]


def _defaults() -> dict[str, Any]:
    """No seed set: what a fresh program has (None: made from the OS's entropy on first use)."""
    return {
        "global_seed": None,
        "op_seeds": None,  # a random.Random drawing op seeds once set_seed was called
        "kernels": {},  # (op, dtype, global seed, op seed) -> the stream of a seeded op
        "keras": None,  # a random.Random drawing seeds for Keras' initializers and layers
        "global_generator": None,  # random_generators.Generator, made on first use
    }


class _Seeds(threading.local):
    global_seed: int | None
    op_seeds: _pyrandom.Random | None
    kernels: dict[tuple[Any, ...], np.random.Generator]
    keras: _pyrandom.Random | None
    global_generator: Any

    def __init__(self) -> None:
        vars(self).update(_defaults())


_SEEDS = _Seeds()
run_state.register_attributes(__name__, _SEEDS, _defaults)


def philox(a: int, b: int) -> np.random.Generator:
    """A numpy generator on the Philox stream of the key ``(a, b)``."""
    key = np.array([a & (2**64 - 1), b & (2**64 - 1)], dtype=np.uint64)
    return np.random.Generator(np.random.Philox(key=key))


def set_seed(seed: int | None) -> None:
    """Set the global random seed (None: back to non-deterministic)."""
    if seed is not None and not isinstance(seed, int | np.integer):
        raise InvalidArgumentError(f"set_seed: the seed must be an integer, got {seed!r}", "seed")
    s = _SEEDS
    s.global_seed = None if seed is None else int(seed)
    s.op_seeds = None if seed is None else _pyrandom.Random(int(seed))
    s.kernels = {}
    s.keras = None if seed is None else _pyrandom.Random(int(seed) + 1)


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
        gen = _SEEDS.kernels[key] = philox(a, b)
    return gen


def keras_seed() -> int:
    """A seed for a Keras initializer without one (fixed by ``set_seed``)."""
    s = _SEEDS
    if s.keras is None:
        s.keras = _pyrandom.Random()
    return s.keras.randint(1, 10**9)


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


def truncated_values(
    gen: np.random.Generator, shape: tuple[int, ...], dt: dtypes.DType
) -> np.ndarray:
    """Standard normal samples redrawn beyond ±2 (TensorFlow's truncated normal)."""
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
    return _scaled(
        truncated_values(gen, _shape(shape, "random.truncated_normal"), dt), stddev, mean, dt
    )


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
