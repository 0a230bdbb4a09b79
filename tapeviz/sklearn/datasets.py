"""``sklearn.datasets``: the generators courses draw toy data with, and the small bundled sets.

Each generator follows scikit-learn 1.9's algorithm draw for draw, so a seeded call gives the
numbers scikit-learn gives (``make_moons(200, noise=0.2, random_state=42)`` is the same 200
points). The bundled sets (iris, digits, wine, breast cancer, diabetes) are scikit-learn's own
files (BSD-3, ``data/COPYING-scikit-learn``): nothing is downloaded.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np

from tapeviz.sklearn._bundled import (
    load_breast_cancer,
    load_diabetes,
    load_digits,
    load_iris,
    load_wine,
)
from tapeviz.sklearn._validation import check_random_state
from tapeviz.sklearn.utils import sample_without_replacement
from tapeviz.sklearn.utils import shuffle as _shuffle

__all__ = [
    "load_breast_cancer",
    "load_diabetes",
    "load_digits",
    "load_iris",
    "load_wine",
    "make_blobs",
    "make_circles",
    "make_classification",
    "make_gaussian_quantiles",
    "make_moons",
    "make_regression",
]


def _two(n_samples: Any) -> tuple[int, int]:
    if isinstance(n_samples, numbers.Integral):
        return int(n_samples) // 2, int(n_samples) - int(n_samples) // 2
    if not isinstance(n_samples, Iterable) or isinstance(n_samples, str):
        raise ValueError(
            "The 'n_samples' parameter must be an int in the range [1, inf) or an array-like. "
            f"Got {n_samples!r} instead."
        )
    parts = tuple(n_samples)
    if len(parts) != 2:
        raise ValueError("`n_samples` can be either an int or a two-element tuple.")
    return int(parts[0]), int(parts[1])


def _two_classes(
    x: np.ndarray, n_out: int, n_in: int, shuffle_: bool, noise: Any, rng: np.random.RandomState
) -> tuple[np.ndarray, np.ndarray]:
    y = np.hstack([np.zeros(n_out, dtype=np.intp), np.ones(n_in, dtype=np.intp)])
    if shuffle_:
        x, y = _shuffle(x, y, random_state=rng)
    if noise is not None:
        x += rng.normal(scale=noise, size=x.shape)
    return x, y


def make_moons(
    n_samples: Any = 100,
    *,
    shuffle: bool = True,
    noise: float | None = None,
    random_state: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Two interleaving half circles: points (n, 2) and labels 0 (outer) / 1 (inner)."""
    n_out, n_in = _two(n_samples)
    rng = check_random_state(random_state)
    t_out, t_in = np.linspace(0, np.pi, n_out), np.linspace(0, np.pi, n_in)
    x = np.vstack(
        [
            np.append(np.cos(t_out), 1 - np.cos(t_in)),
            np.append(np.sin(t_out), 1 - np.sin(t_in) - 0.5),
        ]
    ).T
    return _two_classes(x, n_out, n_in, shuffle, noise, rng)


def make_circles(
    n_samples: Any = 100,
    *,
    shuffle: bool = True,
    noise: float | None = None,
    random_state: Any = None,
    factor: float = 0.8,
) -> tuple[np.ndarray, np.ndarray]:
    """A large circle (label 0) around a small one (label 1, radius ``factor``)."""
    if not 0 <= factor < 1:
        raise ValueError(
            f"The 'factor' parameter of make_circles must be a float in the range "
            f"[0.0, 1.0). Got {factor} instead."
        )
    n_out, n_in = _two(n_samples)
    rng = check_random_state(random_state)
    t_out = np.linspace(0, 2 * np.pi, n_out, endpoint=False)
    t_in = np.linspace(0, 2 * np.pi, n_in, endpoint=False)
    x = np.vstack(
        [
            np.append(np.cos(t_out), np.cos(t_in) * factor),
            np.append(np.sin(t_out), np.sin(t_in) * factor),
        ]
    ).T
    return _two_classes(x, n_out, n_in, shuffle, noise, rng)


def make_blobs(
    n_samples: Any = 100,
    n_features: int = 2,
    *,
    centers: Any = None,
    cluster_std: Any = 1.0,
    center_box: tuple[float, float] = (-10.0, 10.0),
    shuffle: bool = True,
    random_state: Any = None,
    return_centers: bool = False,
) -> tuple[np.ndarray, ...]:
    """Gaussian blobs around random (or given) centres: points and the blob of each."""
    rng = check_random_state(random_state)
    if isinstance(n_samples, numbers.Integral):
        if centers is None:
            centers = 3
        if isinstance(centers, numbers.Integral):
            n_centers = int(centers)
            centers = rng.uniform(center_box[0], center_box[1], size=(n_centers, n_features))
        else:
            centers = np.asarray(centers)
            n_centers, n_features = centers.shape
        counts = [int(n_samples) // n_centers] * n_centers
        for i in range(int(n_samples) % n_centers):
            counts[i] += 1
    else:
        counts = [int(n) for n in n_samples]
        n_centers = len(counts)
        if centers is None:
            centers = rng.uniform(center_box[0], center_box[1], size=(n_centers, n_features))
        if not isinstance(centers, Iterable):
            raise ValueError(f"Parameter `centers` must be array-like. Got {centers!r} instead")
        if len(centers) != n_centers:
            raise ValueError(
                "Length of `n_samples` not consistent with number of centers. Got "
                f"n_samples = {n_samples} and centers = {centers}"
            )
        centers = np.asarray(centers)
        n_features = centers.shape[1]
    if hasattr(cluster_std, "__len__") and len(cluster_std) != n_centers:
        raise ValueError(
            "Length of `clusters_std` not consistent with number of centers. Got "
            f"centers = {centers} and cluster_std = {cluster_std}"
        )
    if isinstance(cluster_std, numbers.Real):
        cluster_std = np.full(len(centers), cluster_std)
    total = sum(counts)
    x = np.empty((total, n_features), dtype=np.float64)
    y = np.empty((total,), dtype=int)
    start = 0
    for i, (n, std) in enumerate(zip(counts, cluster_std, strict=False)):
        x[start : start + n] = rng.normal(loc=centers[i], scale=std, size=(n, n_features))
        y[start : start + n] = i
        start += n
    if shuffle:
        x, y = _shuffle(x, y, random_state=rng)
    return (x, y, centers) if return_centers else (x, y)


def make_regression(
    n_samples: int = 100,
    n_features: int = 100,
    *,
    n_informative: int = 10,
    n_targets: int = 1,
    bias: float = 0.0,
    effective_rank: Any = None,
    tail_strength: float = 0.5,
    noise: float = 0.0,
    shuffle: bool = True,
    coef: bool = False,
    random_state: Any = None,
) -> tuple[np.ndarray, ...]:
    """A random linear regression problem: X (n, features), y and (``coef=True``) the weights."""
    if effective_rank is not None:
        raise ValueError("make_regression's effective_rank is not available in tapeviz")
    n_informative = min(n_features, n_informative)
    rng = check_random_state(random_state)
    x = rng.standard_normal(size=(n_samples, n_features))
    truth = np.zeros((n_features, n_targets))
    truth[:n_informative, :] = 100 * rng.uniform(size=(n_informative, n_targets))
    y = np.dot(x, truth) + bias
    if noise > 0.0:
        y += rng.normal(scale=noise, size=y.shape)
    if shuffle:
        x, y = _shuffle(x, y, random_state=rng)
        indices = np.arange(n_features)
        rng.shuffle(indices)
        x[:, :] = x[:, indices]
        truth = truth[indices]
    y = np.squeeze(y)
    return (x, y, np.squeeze(truth)) if coef else (x, y)


def make_gaussian_quantiles(
    *,
    mean: Any = None,
    cov: float = 1.0,
    n_samples: int = 100,
    n_features: int = 2,
    n_classes: int = 3,
    shuffle: bool = True,
    random_state: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    """A Gaussian cloud cut into ``n_classes`` shells of equal count by distance from the mean."""
    if n_samples < n_classes:
        raise ValueError("n_samples must be at least n_classes")
    rng = check_random_state(random_state)
    mean = np.zeros(n_features) if mean is None else np.array(mean)
    x = rng.multivariate_normal(mean, cov * np.identity(n_features), (n_samples,))
    x = x[np.argsort(np.sum((x - mean[np.newaxis, :]) ** 2, axis=1)), :]
    step = n_samples // n_classes
    y = np.hstack(
        [
            np.repeat(np.arange(n_classes), step),
            np.repeat(n_classes - 1, n_samples - step * n_classes),
        ]
    )
    if shuffle:
        x, y = _shuffle(x, y, random_state=rng)
    return x, y


def _hypercube(samples: int, dimensions: int, rng: np.random.RandomState) -> np.ndarray:
    if dimensions > 30:
        return np.hstack(
            [rng.randint(2, size=(samples, dimensions - 30)), _hypercube(samples, 30, rng)]
        )
    out = sample_without_replacement(2**dimensions, samples, random_state=rng)
    out = out.astype(dtype=">u4", copy=False)
    return np.unpackbits(out.view(">u1")).reshape((-1, 32))[:, -dimensions:]


def make_classification(
    n_samples: int = 100,
    n_features: int = 20,
    *,
    n_informative: int = 2,
    n_redundant: int = 2,
    n_repeated: int = 0,
    n_classes: int = 2,
    n_clusters_per_class: int = 2,
    weights: Any = None,
    flip_y: float = 0.01,
    class_sep: float = 1.0,
    hypercube: bool = True,
    shift: Any = 0.0,
    scale: Any = 1.0,
    shuffle: bool = True,
    random_state: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Clusters of points on a hypercube's vertices, one or more per class (scikit-learn's)."""
    rng = check_random_state(random_state)
    if n_informative + n_redundant + n_repeated > n_features:
        raise ValueError(
            "Number of informative, redundant and repeated features must sum to "
            "less than the number of total features"
        )
    if n_informative < np.log2(n_classes * n_clusters_per_class):
        raise ValueError(
            f"n_classes({n_classes}) * n_clusters_per_class({n_clusters_per_class}) must be "
            f"smaller or equal 2**n_informative({n_informative})={2**n_informative}"
        )
    if weights is None:
        w = [1.0 / n_classes] * n_classes
    elif len(weights) == n_classes - 1:
        w = [*list(weights), 1.0 - sum(weights)]
    elif len(weights) == n_classes:
        w = list(weights)
    else:
        raise ValueError("Weights specified but incompatible with number of classes.")
    n_random = n_features - n_informative - n_redundant - n_repeated
    n_clusters = n_classes * n_clusters_per_class
    per_cluster = [
        int(n_samples * w[k % n_classes] / n_clusters_per_class) for k in range(n_clusters)
    ]
    for i in range(n_samples - sum(per_cluster)):
        per_cluster[i % n_clusters] += 1
    x = np.zeros((n_samples, n_features))
    y = np.zeros(n_samples, dtype=int)
    centroids = _hypercube(n_clusters, n_informative, rng).astype(float, copy=False)
    centroids *= 2 * class_sep
    centroids -= class_sep
    if not hypercube:
        centroids *= rng.uniform(size=(n_clusters, 1))
        centroids *= rng.uniform(size=(1, n_informative))
    x[:, :n_informative] = rng.standard_normal(size=(n_samples, n_informative))
    stop = 0
    for k, centroid in enumerate(centroids):
        start, stop = stop, stop + per_cluster[k]
        y[start:stop] = k % n_classes
        block = x[start:stop, :n_informative]
        a = 2 * rng.uniform(size=(n_informative, n_informative)) - 1
        block[...] = np.dot(block, a)
        block += centroid
    if n_redundant > 0:
        b = 2 * rng.uniform(size=(n_informative, n_redundant)) - 1
        x[:, n_informative : n_informative + n_redundant] = np.dot(x[:, :n_informative], b)
    n = n_informative + n_redundant
    if n_repeated > 0:
        indices = ((n - 1) * rng.uniform(size=n_repeated) + 0.5).astype(np.intp)
        x[:, n : n + n_repeated] = x[:, indices]
    if n_random > 0:
        x[:, -n_random:] = rng.standard_normal(size=(n_samples, n_random))
    if flip_y >= 0.0:
        flip = rng.uniform(size=n_samples) < flip_y
        y[flip] = rng.randint(n_classes, size=flip.sum())
    if shift is None:
        shift = (2 * rng.uniform(size=n_features) - 1) * class_sep
    x += shift
    if scale is None:
        scale = 1 + 100 * rng.uniform(size=n_features)
    x *= scale
    if shuffle:
        x, y = _shuffle(x, y, random_state=rng)
        indices = np.arange(n_features)
        rng.shuffle(indices)
        x[:, :] = x[:, indices]
    return x, y
