"""``sklearn.model_selection.train_test_split``, drawing its rows as scikit-learn 1.9 does."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapeviz.sklearn._validation import (
    check_consistent_length,
    check_random_state,
    num_samples,
    safe_indexing,
)

__all__ = ["train_test_split"]


def _kind(size: Any) -> str:
    return "" if size is None else np.asarray(size).dtype.kind


def _sizes(n: int, test_size: Any, train_size: Any) -> tuple[int, int]:
    """The train and test counts (scikit-learn's ``_validate_shuffle_split``, default 0.25)."""
    if test_size is None and train_size is None:
        test_size = 0.25
    for name, size in (("test_size", test_size), ("train_size", train_size)):
        kind = _kind(size)
        if (kind == "i" and not 0 < size < n) or (kind == "f" and not 0 < size < 1):
            raise ValueError(
                f"{name}={size} should be either positive and smaller than the "
                f"number of samples {n} or a float in the (0, 1) range"
            )
        if size is not None and kind not in "if":
            raise ValueError(f"Invalid value for {name}: {size}")
    if _kind(train_size) == "f" and _kind(test_size) == "f" and train_size + test_size > 1:
        raise ValueError(
            f"The sum of test_size and train_size = {train_size + test_size}, should be in the "
            "(0, 1) range. Reduce test_size and/or train_size."
        )
    n_test = math.ceil(test_size * n) if _kind(test_size) == "f" else test_size
    n_train = math.floor(train_size * n) if _kind(train_size) == "f" else train_size
    if train_size is None:
        n_train = n - n_test
    elif test_size is None:
        n_test = n - n_train
    if n_train + n_test > n:
        raise ValueError(
            f"The sum of train_size and test_size = {int(n_train + n_test)}, should be smaller "
            f"than the number of samples {n}. Reduce test_size and/or train_size."
        )
    if int(n_train) == 0:
        raise ValueError(
            f"With n_samples={n}, test_size={test_size} and train_size={train_size}, the "
            "resulting train set will be empty. Adjust any of the aforementioned parameters."
        )
    return int(n_train), int(n_test)


def _approximate_mode(counts: np.ndarray, draws: int, rng: np.random.RandomState) -> np.ndarray:
    """Per class, how many of ``draws`` it gets: the proportional floor, ties broken at random."""
    continuous = counts / counts.sum() * draws
    floored = np.floor(continuous)
    need = int(draws - floored.sum())
    if need > 0:
        remainder = continuous - floored
        for value in np.sort(np.unique(remainder))[::-1]:
            (inds,) = np.where(remainder == value)
            now = min(len(inds), need)
            floored[rng.choice(inds, size=now, replace=False)] += 1
            need -= now
            if need == 0:
                break
    return floored.astype(int)


def _stratified(
    y: Any, n_train: int, n_test: int, rng: np.random.RandomState
) -> tuple[np.ndarray, np.ndarray]:
    labels = np.asarray(y)
    if labels.ndim == 2:
        labels = np.array([" ".join(row.astype("str")) for row in labels])
    classes, y_indices, counts = np.unique(labels, return_inverse=True, return_counts=True)
    if np.min(counts) < 2:
        raise ValueError(
            "The least populated classes in y have only 1 member, which is too few. The minimum "
            "number of groups for any class cannot be less than 2. Classes with too few members "
            f"are: {classes[counts < 2].tolist()}"
        )
    for name, n in (("train_size", n_train), ("test_size", n_test)):
        if n < len(classes):
            raise ValueError(
                f"The {name} = {n} should be greater or equal to the number of "
                f"classes = {len(classes)}"
            )
    per_class = np.split(np.argsort(y_indices, kind="stable"), np.cumsum(counts)[:-1])
    n_i = _approximate_mode(counts, n_train, rng)
    t_i = _approximate_mode(counts - n_i, n_test, rng)
    train: list[int] = []
    test: list[int] = []
    for i in range(len(classes)):
        rows = per_class[i].take(rng.permutation(counts[i]), mode="clip")
        train.extend(rows[: n_i[i]])
        test.extend(rows[n_i[i] : n_i[i] + t_i[i]])
    return rng.permutation(train), rng.permutation(test)


def train_test_split(
    *arrays: Any,
    test_size: Any = None,
    train_size: Any = None,
    random_state: Any = None,
    shuffle: bool = True,
    stratify: Any = None,
) -> list[Any]:
    """Split arrays into random train and test rows: ``[a_train, a_test, b_train, b_test, …]``."""
    if not arrays:
        raise ValueError("At least one array required as input")
    check_consistent_length(*arrays)
    n = num_samples(arrays[0])
    n_train, n_test = _sizes(n, test_size, train_size)
    if not shuffle:
        if stratify is not None:
            raise ValueError("Stratified train/test split is not implemented for shuffle=False")
        train, test = np.arange(n_train), np.arange(n_train, n_train + n_test)
    elif stratify is not None:
        train, test = _stratified(stratify, n_train, n_test, check_random_state(random_state))
    else:
        permutation = check_random_state(random_state).permutation(n)
        test, train = permutation[:n_test], permutation[n_test : n_test + n_train]
    return [part for a in arrays for part in (safe_indexing(a, train), safe_indexing(a, test))]
