"""``np.random`` in a script: numpy's legacy functions and generators, every ``size`` checked.

The functions draw from a generator of the run's own: each run starts unseeded (as a fresh
process), ``np.random.seed(s)`` or Keras' ``set_random_seed(s)`` makes it repeatable, and
nothing a script draws touches the process's own ``np.random``. ``np.random.default_rng`` and
``np.random.RandomState`` give the script generators of its own, with the same checks.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine.guard import shape_size
from tapeviz.engine.namespace import Namespace
from tapeviz.sandbox.runtime.checks import budget
from tapeviz.sandbox.runtime.methods import Checked, no_check
from tapeviz.sandbox.runtime.numpy_core import as_array, check_result, dims
from tapeviz.tf import run_state
from tapeviz.tf.keras_src.utils import seed_also


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


def run_rng() -> np.random.RandomState:
    """The run's ``np.random`` generator (what scikit-learn's ``random_state=None`` draws from)."""
    return _rng()


def _seed(seed: Any = None) -> None:
    """``np.random.seed(seed)``: make the run's draws repeatable."""
    _RANDOM.rng = np.random.RandomState(seed)


seed_also(_seed)


# Where each random function takes its ``size`` when it is given positionally (numpy's
# signatures; a Generator's are the same for these names).
_SIZE_POSITION = {
    "random": 0, "random_sample": 0, "standard_normal": 0, "standard_exponential": 0,
    "choice": 1, "exponential": 1, "poisson": 1, "geometric": 1, "standard_t": 1,
    "chisquare": 1, "normal": 2, "uniform": 2, "randint": 2, "integers": 2, "binomial": 2,
    "beta": 2, "gamma": 2, "laplace": 2, "lognormal": 2, "logistic": 2, "gumbel": 2,
    "multivariate_normal": 2,
}  # fmt: skip


def _size_of(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    if name in ("rand", "randn"):
        return args
    if name == "permutation":
        return args[0] if args and isinstance(args[0], int | np.integer) else None
    pos = _SIZE_POSITION.get(name)
    return args[pos] if pos is not None and len(args) > pos else kwargs.get("size")


def _sized(name: str, source: Callable[[], Any] | None = None) -> Callable[..., Any]:
    """``np.random.<name>`` (or a generator's method) with its ``size`` checked first."""
    get = source or _rng
    what = f"np.random.{name}"

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        size = _size_of(name, args, kwargs)
        count = 1 if size is None else shape_size(dims(size))
        if name == "multivariate_normal":
            mean = as_array(args[0] if args else kwargs.get("mean"))
            d = int(np.size(mean))
            budget().check_flops(d**3, what)  # numpy factors the covariance (an SVD)
            count *= d
        if size is not None or name == "multivariate_normal":
            budget().check_size(count, what)
        if name == "choice" and args and isinstance(args[0], int | np.integer):
            budget().check_size(int(args[0]), "np.random.choice's population")
        return check_result(getattr(get(), name)(*args, **kwargs))

    wrapped.__name__ = name
    wrapped.__doc__ = f"``{what}`` with its size checked."
    return wrapped


_DISTRIBUTIONS = ("normal", "uniform", "standard_normal", "exponential", "poisson", "binomial",
                  "beta", "gamma", "laplace", "lognormal", "logistic", "geometric", "standard_t",
                  "chisquare", "gumbel", "standard_exponential", "multivariate_normal",
                  "choice", "permutation", "shuffle", "random")  # fmt: skip
_GENERATOR = ("integers", *_DISTRIBUTIONS)
_RANDOM_STATE = ("rand", "randn", "randint", "random_sample", *_DISTRIBUTIONS)


def _own(kind: str, rng: Any, names: tuple[str, ...]) -> Namespace:
    """A generator of the script's own (``np.random.default_rng(0)``): sized methods only.

    ``_rng`` (private: no script reads it) is numpy's generator, for library code that takes
    one (scikit-learn's ``random_state=np.random.RandomState(0)``).
    """
    methods = {n: Checked(_sized(n, lambda: rng), no_check) for n in names}
    return Namespace(f"numpy.random.{kind}", {**methods, "_rng": rng})


def _default_rng(seed: Any = None) -> Namespace:
    """``np.random.default_rng(seed)``: numpy's Generator, its sizes checked."""
    return _own("Generator", np.random.default_rng(seed), _GENERATOR)


def _random_state(seed: Any = None) -> Namespace:
    """``np.random.RandomState(seed)``: numpy's legacy generator, its sizes checked."""
    return _own("RandomState", np.random.RandomState(seed), _RANDOM_STATE)


RANDOM = Namespace(
    "numpy.random",
    {"seed": _seed, "default_rng": _default_rng, "RandomState": _random_state,
     **{n: _sized(n) for n in _RANDOM_STATE}},
)  # fmt: skip
