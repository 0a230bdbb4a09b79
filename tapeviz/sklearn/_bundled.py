"""The small data sets scikit-learn ships (its own files, BSD-3: ``data/COPYING-scikit-learn``).

``load_iris``, ``load_digits``, ``load_wine``, ``load_breast_cancer`` and ``load_diabetes`` read
the same files scikit-learn 1.9 reads and return the same arrays (fresh copies every call) in the
same :class:`~tapeviz.sklearn.utils.Bunch`; nothing is downloaded.
"""

from __future__ import annotations

import csv
import functools
import gzip
import io
import math
from importlib import resources
from typing import Any

import numpy as np

from tapeviz.sklearn.utils import Bunch

__all__ = ["load_breast_cancer", "load_diabetes", "load_digits", "load_iris", "load_wine"]


def _file(name: str) -> Any:
    return resources.files("tapeviz.sklearn") / "data" / name


@functools.cache
def _csv(name: str) -> tuple[np.ndarray, np.ndarray, tuple[str, ...], str]:
    """scikit-learn's CSV layout: a header ``n, features, names…``, rows of features + target."""
    raw = _file(name).read_bytes()
    text = gzip.decompress(raw).decode() if name.endswith(".gz") else raw.decode()
    rows = csv.reader(io.StringIO(text))
    head = next(rows)
    n, k = int(head[0]), int(head[1])
    data, target = np.empty((n, k)), np.empty((n,), dtype=int)
    for i, row in enumerate(rows):
        data[i] = np.asarray(row[:-1], dtype=np.float64)
        target[i] = int(row[-1])
    stem = name.split(".")[0]
    descr = _file(f"{stem}.rst").read_text()
    return data, target, tuple(head[2:]), descr


@functools.cache
def _loadtxt(name: str) -> np.ndarray:
    return np.loadtxt(
        io.StringIO(gzip.decompress(_file(name).read_bytes()).decode()),
        delimiter="," if name.startswith("digits") else None,
    )


def _frame(as_frame: bool) -> None:
    if as_frame:
        raise ValueError(
            "as_frame=True needs pandas, which is not available in tapeviz: "
            "leave as_frame out to get numpy arrays"
        )


def _bundled(name: str, features: list[str], return_X_y: bool, as_frame: bool, **more: Any) -> Any:
    _frame(as_frame)
    data, target, names, descr = _csv(name)
    data, target = data.copy(), target.copy()
    if return_X_y:
        return data, target
    return Bunch(
        data=data,
        target=target,
        frame=None,
        target_names=np.array(names),
        DESCR=descr,
        feature_names=features,
        **more,
    )


def load_iris(*, return_X_y: bool = False, as_frame: bool = False) -> Any:
    """Fisher's iris: 150 flowers, 4 measurements (cm), 3 species."""
    features = ["sepal length (cm)", "sepal width (cm)", "petal length (cm)", "petal width (cm)"]
    return _bundled(
        "iris.csv",
        features,
        return_X_y,
        as_frame,
        filename="iris.csv",
        data_module="sklearn.datasets.data",
    )


def load_wine(*, return_X_y: bool = False, as_frame: bool = False) -> Any:
    """178 wines, 13 chemical measurements, 3 cultivars."""
    features = (
        "alcohol malic_acid ash alcalinity_of_ash magnesium total_phenols flavanoids "
        "nonflavanoid_phenols proanthocyanins color_intensity hue "
        "od280/od315_of_diluted_wines proline"
    ).split()
    return _bundled("wine_data.csv.gz", features, return_X_y, as_frame)


def load_breast_cancer(*, return_X_y: bool = False, as_frame: bool = False) -> Any:
    """569 tumours, 30 features of their cell nuclei, malignant (0) or benign (1)."""
    kinds = (
        "radius texture perimeter area smoothness compactness concavity "
        "concave_points symmetry fractal_dimension"
    ).split()
    features = np.array(
        [
            f"{part} {k.replace('_', ' ')}"
            if part == "mean"
            else f"{k.replace('_', ' ')} error"
            if part == "error"
            else f"worst {k.replace('_', ' ')}"
            for part in ("mean", "error", "worst")
            for k in kinds
        ]
    )
    return _bundled(
        "breast_cancer.csv.gz",
        features,
        return_X_y,
        as_frame,  # type: ignore[arg-type]
        filename="breast_cancer.csv",
        data_module="sklearn.datasets.data",
    )


def load_digits(*, n_class: int = 10, return_X_y: bool = False, as_frame: bool = False) -> Any:
    """1,797 handwritten digits as 8×8 images (values 0–16): a small MNIST with no download."""
    _frame(as_frame)
    raw = _loadtxt("digits.csv.gz")
    target = raw[:, -1].astype(int)
    flat = raw[:, :-1].copy()
    images = flat.reshape(-1, 8, 8).copy()
    if n_class < 10:
        keep = target < n_class
        flat, target, images = flat[keep], target[keep], images[keep]
    if return_X_y:
        return flat, target
    features = [f"pixel_{r}_{c}" for r in range(8) for c in range(8)]
    return Bunch(
        data=flat,
        target=target,
        frame=None,
        feature_names=features,
        target_names=np.arange(10),
        images=images,
        DESCR=_file("digits.rst").read_text(),
    )


def load_diabetes(*, return_X_y: bool = False, as_frame: bool = False, scaled: bool = True) -> Any:
    """442 patients, 10 baseline measurements, disease progression a year later (regression)."""
    _frame(as_frame)
    data = _loadtxt("diabetes_data_raw.csv.gz").copy()
    target = _loadtxt("diabetes_target.csv.gz").copy()
    if scaled:  # scikit-learn's scale(): the deviation of the raw columns
        std = data.std(axis=0)
        data -= data.mean(axis=0)
        data /= np.where(std == 0, 1.0, std)
        data /= math.sqrt(data.shape[0])
    if return_X_y:
        return data, target
    return Bunch(
        data=data,
        target=target,
        frame=None,
        DESCR=_file("diabetes.rst").read_text(),
        feature_names=["age", "sex", "bmi", "bp", "s1", "s2", "s3", "s4", "s5", "s6"],
        data_filename="diabetes_data_raw.csv.gz",
        target_filename="diabetes_target.csv.gz",
        data_module="sklearn.datasets.data",
    )
