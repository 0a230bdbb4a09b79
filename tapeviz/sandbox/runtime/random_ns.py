"""``import random`` in a script: Python's random functions on a generator of the run's own.

Each run starts unseeded (from the OS's entropy), ``random.seed(s)`` makes it repeatable, and
nothing a script does reaches the process's own ``random`` module or the next run.
"""

from __future__ import annotations

import random as _random
import threading
from collections.abc import Sequence
from typing import Any

from tapeviz.engine.namespace import Namespace
from tapeviz.sandbox.runtime.checks import budget, counted
from tapeviz.tf import run_state


class _Run(threading.local):
    def __init__(self) -> None:
        self.rng: _random.Random | None = None


_RUN = _Run()
run_state.register_attributes(__name__, _RUN, lambda: {"rng": None})


def _rng() -> _random.Random:
    if _RUN.rng is None:
        _RUN.rng = _random.Random()
    return _RUN.rng


def seed(a: Any = None) -> None:
    """Seed the run's generator (the same seed gives the same numbers)."""
    if a is not None and not isinstance(a, int | float | str | bytes):
        raise TypeError("The only supported seed types are: None, int, float, str, bytes")
    _rng().seed(a)


def random() -> float:
    """A float in [0, 1)."""
    return _rng().random()


def uniform(a: float, b: float) -> float:
    """A float between ``a`` and ``b``."""
    return _rng().uniform(a, b)


def randint(a: int, b: int) -> int:
    """An integer in [a, b]."""
    return _rng().randint(a, b)


def randrange(start: int, stop: int | None = None, step: int = 1) -> int:
    """An integer from ``range(start, stop, step)``."""
    return _rng().randrange(start, stop, step)


def gauss(mu: float = 0.0, sigma: float = 1.0) -> float:
    """A normal sample."""
    return _rng().gauss(mu, sigma)


normalvariate = gauss


def choice(seq: Sequence[Any]) -> Any:
    """One element of a non-empty sequence."""
    return _rng().choice(seq)


def shuffle(x: list[Any]) -> None:
    """Shuffle a list in place."""
    budget().check_size(len(x), "random.shuffle")
    _rng().shuffle(x)


def sample(population: Sequence[Any], k: int, *, counts: Any = None) -> list[Any]:
    """``k`` distinct elements."""
    budget().check_size(int(k), "random.sample")
    return _rng().sample(counted(population, "random.sample"), k, counts=counts)


def choices(population: Sequence[Any], weights: Any = None, *, cum_weights: Any = None,
            k: int = 1) -> list[Any]:  # fmt: skip
    """``k`` elements drawn with replacement."""
    budget().check_size(int(k), "random.choices")
    return _rng().choices(population, weights, cum_weights=cum_weights, k=k)


RANDOM = Namespace(
    "random",
    {"seed": seed, "random": random, "uniform": uniform, "randint": randint,
     "randrange": randrange, "gauss": gauss, "normalvariate": normalvariate, "choice": choice,
     "shuffle": shuffle, "sample": sample, "choices": choices},
)  # fmt: skip
