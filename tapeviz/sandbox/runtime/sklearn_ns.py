"""``import sklearn`` in a script: :mod:`tapeviz.sklearn` on the run's random state, sizes checked.

scikit-learn draws from numpy's global ``RandomState`` when ``random_state`` is None, so a
script's ``np.random.seed(1337)`` makes ``make_moons(noise=0.1)`` repeatable. Here the run's own
``np.random`` plays that part (:mod:`numpy_random`), and a script's ``np.random.RandomState(0)``
passes its generator. Every function that makes arrays checks their size first.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

import tapeviz.sklearn as _sk
from tapeviz.engine.namespace import Namespace
from tapeviz.sandbox.runtime import numpy_random
from tapeviz.sandbox.runtime.checks import budget

__all__ = ["SKLEARN"]


def _random_state(value: Any) -> Any:
    """The run's global generator for None/``np.random``; a script generator's own numpy one."""
    if value is None or value is numpy_random.RANDOM:
        return numpy_random.run_rng()
    if type(value) is Namespace and "_rng" in value:
        return value._rng
    return value


def _count(value: Any) -> int:
    """Samples asked for: an int, or the sum of a per-class list (``n_samples=[3, 3, 4]``)."""
    if isinstance(value, int):
        return max(value, 0)
    try:
        return sum(max(int(v), 0) for v in value)
    except (TypeError, ValueError):
        return 0


def _rows(x: Any) -> int:
    """Rows of an array-like (what a split or a shuffle permutes), 0 if it has none."""
    shape = getattr(x, "shape", None)
    try:
        return int(next(iter(shape))) if shape is not None else len(x)
    except (TypeError, IndexError, ValueError):
        return 0


def _blobs(a: Mapping[str, Any]) -> int:
    centers = a["centers"]
    shape = np.shape(centers) if not isinstance(centers, int) else ()
    k, width = (shape[0], shape[1]) if len(shape) == 2 else (0, a["n_features"])
    return _count(a["n_samples"]) * max(int(width), 1) + k * max(int(width), 1)


# Per function: the elements its result (or its biggest temporary) will hold.
_SIZES: dict[str, Callable[[Mapping[str, Any]], int]] = {
    "make_moons": lambda a: 2 * _count(a["n_samples"]),
    "make_circles": lambda a: 2 * _count(a["n_samples"]),
    "make_blobs": _blobs,
    "make_regression": lambda a: (_count(a["n_samples"]) + a["n_targets"]) * a["n_features"],
    "make_gaussian_quantiles": lambda a: _count(a["n_samples"]) * a["n_features"]
    + a["n_features"] ** 2,
    "make_classification": lambda a: _count(a["n_samples"]) * a["n_features"]
    + a["n_classes"] * a["n_clusters_per_class"] * (a["n_informative"] ** 2 + 100),
    "resample": lambda a: max(_count(a["n_samples"] or 0), *map(_rows, a["arrays"][:1]), 0),
    "shuffle": lambda a: max(_count(a["n_samples"] or 0), *map(_rows, a["arrays"][:1]), 0),
    "train_test_split": lambda a: max(0, *map(_rows, a["arrays"][:1])),
    # (its tracking and reservoir methods loop in Python: a draw counts as 50 elements)
    "sample_without_replacement": lambda a: _count(a["n_population"]) + 50 * _count(a["n_samples"]),
    "confusion_matrix": lambda a: len(a["labels"]) ** 2 if hasattr(a["labels"], "__len__") else 0,
}  # fmt: skip
_FLOPS: dict[str, Callable[[Mapping[str, Any]], int]] = {
    "make_gaussian_quantiles": lambda a: a["n_features"] ** 3,  # numpy factors the covariance
}


def _checked(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` with its arrays' sizes checked and ``random_state`` read as the run's."""
    signature = inspect.signature(fn)
    name = fn.__name__
    takes_state = "random_state" in signature.parameters

    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as exc:
            raise TypeError(f"{name}(): {exc}") from None
        bound.apply_defaults()
        a = bound.arguments
        what = f"sklearn {name}"
        try:
            size, flops = _SIZES.get(name), _FLOPS.get(name)
            if size is not None:
                budget().check_size(size(a), what)
            if flops is not None:
                budget().check_flops(flops(a), what)
        except (TypeError, ValueError, OverflowError):
            pass  # a malformed argument: the function itself says what is wrong with it
        if takes_state:
            a["random_state"] = _random_state(a["random_state"])
        return fn(*bound.args, **bound.kwargs)

    call.__name__ = name
    call.__qualname__ = name
    call.__doc__ = fn.__doc__
    call.__signature__ = signature  # type: ignore[attr-defined]
    return call


def _namespace(name: str, module: Any) -> Namespace:
    out: dict[str, Any] = {}
    for n in module.__all__:
        value = getattr(module, n)
        if inspect.isfunction(value):  # (classes, Bunch and the scalers, pass as they are)
            value = _checked(value)
        out[n] = value
    return Namespace(name, out)


SKLEARN = Namespace(
    "sklearn",
    {"__version__": _sk.__version__,
     **{n: _namespace(f"sklearn.{n}", getattr(_sk, n)) for n in _sk.__all__}},
)  # fmt: skip
