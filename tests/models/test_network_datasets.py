"""Playground's data sets (``playground/src/dataset.ts``), micrograd's moons, the user's points."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tapeviz.models.network.config import CLASSIFY, DATASETS, REGRESS, DataConfig
from tapeviz.models.network.datasets import Dataset, make_dataset
from tapeviz.models.network.features import feature_columns

GENERATED = CLASSIFY + REGRESS


def everything(d: Dataset) -> tuple[np.ndarray, np.ndarray]:
    return np.concatenate([d.train_x, d.test_x]), np.concatenate([d.train_y, d.test_y])


@pytest.mark.parametrize("name", GENERATED)
def test_shapes_labels_split(name: str) -> None:
    d = make_dataset(DataConfig(name, points=301, train_ratio=0.3, noise=0.2))
    assert d.train_x.shape == (90, 2) and d.test_x.shape == (211, 2)  # round(301 · 0.3) = 90
    assert d.train_y.shape == (90,) and d.test_y.shape == (211,)
    assert d.train_x.dtype == np.float64 and not d.train_x.flags.writeable
    x, y = everything(d)
    assert np.isfinite(x).all() and np.isfinite(y).all()
    if name in CLASSIFY:
        assert d.problem == "classification"
        assert sorted(np.unique(y)) == [-1.0, 1.0]
    else:
        assert d.problem == "regression"
        assert len(np.unique(y)) > 100
    if name != "moons":
        assert d.x_range == d.y_range == (-6.0, 6.0)


@pytest.mark.parametrize("name", GENERATED)
def test_deterministic_from_the_seed(name: str) -> None:
    a = make_dataset(DataConfig(name, seed=7, noise=0.1))
    b = make_dataset(DataConfig(name, seed=7, noise=0.1))
    c = make_dataset(DataConfig(name, seed=8, noise=0.1))
    assert np.array_equal(a.train_x, b.train_x) and np.array_equal(a.test_y, b.test_y)
    assert not np.array_equal(a.train_x, c.train_x)


def test_points_are_shuffled_before_the_split() -> None:
    # Playground generates the positive half first; shuffled, both classes reach both sets.
    d = make_dataset(DataConfig("circle", train_ratio=0.5))
    assert 0.3 < np.mean(d.train_y > 0) < 0.7 and 0.3 < np.mean(d.test_y > 0) < 0.7


def test_circle_without_noise_follows_the_radius_rule() -> None:
    x, y = everything(make_dataset(DataConfig("circle", noise=0.0, points=600)))
    r = np.hypot(x[:, 0], x[:, 1])
    assert np.array_equal(y, np.where(r < 2.5, 1.0, -1.0))
    assert np.sum(y > 0) == 300  # half inside radius 2.5, half in the ring 3.5 … 5
    assert r[y > 0].max() <= 2.5 and r[y < 0].min() >= 3.5 and r.max() <= 5.0


def test_circle_noise_flips_labels_not_points() -> None:
    x, y = everything(make_dataset(DataConfig("circle", noise=0.5, points=1000)))
    r = np.hypot(x[:, 0], x[:, 1])
    assert r.max() <= 5.0 and not np.any((r > 2.5) & (r < 3.5))  # the points stay in place
    wrong = np.mean(y != np.where(r < 2.5, 1.0, -1.0))
    assert 0.05 < wrong < 0.5


def test_xor_padding_and_label() -> None:
    x, y = everything(make_dataset(DataConfig("xor", noise=0.0)))
    assert np.abs(x).min() >= 0.3 and np.abs(x).max() <= 5.3
    assert np.array_equal(y, np.where(x[:, 0] * x[:, 1] >= 0, 1.0, -1.0))


@pytest.mark.parametrize(("noise", "variance"), [(0.0, 0.5), (0.25, 2.25), (0.5, 4.0)])
def test_two_gaussians_variance_scale(noise: float, variance: float) -> None:
    x, y = everything(make_dataset(DataConfig("gauss", noise=noise, points=2000)))
    for label, centre in ((1.0, 2.0), (-1.0, -2.0)):
        pts = x[y == label]
        assert len(pts) == 1000
        assert np.allclose(pts.mean(axis=0), centre, atol=0.25)
        assert np.allclose(pts.var(axis=0), variance, rtol=0.15)


def test_spiral_without_noise() -> None:
    x, y = everything(make_dataset(DataConfig("spiral", noise=0.0, points=500)))
    for label, delta in ((1.0, 0.0), (-1.0, math.pi)):
        pts = x[y == label]
        r = np.hypot(pts[:, 0], pts[:, 1])
        order = np.argsort(r)
        i = np.arange(250)
        assert np.allclose(r[order], i / 250 * 5)
        t = 1.75 * i / 250 * 2 * math.pi + delta
        assert np.allclose(
            pts[order][1:], np.column_stack([np.sin(t), np.cos(t)])[1:] * r[order][1:, None]
        )


def test_plane_label_without_noise() -> None:
    x, y = everything(make_dataset(DataConfig("plane", noise=0.0)))
    assert np.allclose(y, (x[:, 0] + x[:, 1]) / 10)


def _multigauss_label(px: float, py: float) -> float:
    # Playground's getLabel, point by point.
    label = 0.0
    for cx, cy, sign in (
        (-4, 2.5, 1),
        (0, 2.5, -1),
        (4, 2.5, 1),
        (-4, -2.5, -1),
        (0, -2.5, 1),
        (4, -2.5, -1),
    ):
        d = math.hypot(px - cx, py - cy)
        new = sign * min(1.0, max(0.0, 1 - d / 2))
        if abs(new) > abs(label):
            label = new
    return label


def test_multigauss_label_without_noise() -> None:
    x, y = everything(make_dataset(DataConfig("multigauss", noise=0.0, points=400)))
    assert np.allclose(y, [_multigauss_label(a, b) for a, b in x])
    assert np.abs(y).max() <= 1.0


def test_moons_is_scikit_learns_make_moons() -> None:
    x, y = everything(make_dataset(DataConfig("moons", noise=0.0, points=101)))
    outer, inner = x[y == -1], x[y == 1]
    assert len(outer) == 50 and len(inner) == 51
    assert np.allclose(np.hypot(outer[:, 0], outer[:, 1]), 1) and outer[:, 1].min() >= -1e-12
    assert np.allclose(np.hypot(inner[:, 0] - 1, inner[:, 1] - 0.5), 1)
    assert inner[:, 1].max() <= 0.5 + 1e-12
    noisy, _ = everything(make_dataset(DataConfig("moons", noise=0.1, points=101)))
    assert np.std(noisy - x) > 0.05  # same shuffle from the same seed, points moved


def test_moons_range_is_the_data_square_with_margin() -> None:
    d = make_dataset(DataConfig("moons", noise=0.1, points=100))
    x, _ = everything(d)
    (x0, x1), (y0, y1) = d.x_range, d.y_range
    assert x1 - x0 == pytest.approx(y1 - y0)
    side = max(np.ptp(x[:, 0]), np.ptp(x[:, 1]))
    assert x1 - x0 == pytest.approx(1.2 * side)
    assert x0 < x[:, 0].min() and x[:, 0].max() < x1 and y0 < x[:, 1].min() and x[:, 1].max() < y1


def test_custom_points() -> None:
    rows = tuple((float(i), float(-i), 1.0 if i % 2 else -1.0) for i in range(10))
    d = make_dataset(DataConfig("custom", custom=rows, train_ratio=0.8))
    assert d.problem == "classification" and len(d.train_y) == 8
    x, y = everything(d)
    got = sorted(zip(x[:, 0], x[:, 1], y, strict=True))
    assert got == sorted(rows)
    reg = make_dataset(DataConfig("custom", custom=tuple((r[0], r[1], r[0] / 10) for r in rows)))
    assert reg.problem == "regression"


def test_every_dataset_name_is_generated() -> None:
    assert set(DATASETS) == set(GENERATED) | {"custom"}


def test_feature_columns_order_and_values() -> None:
    x = np.array([[0.5, -2.0], [3.0, 1.0]])
    cols = feature_columns(x, ("sinx2", "x1", "x1x2", "x2sq"))  # asked in any order
    expected = np.column_stack([x[:, 0], x[:, 1] ** 2, x[:, 0] * x[:, 1], np.sin(x[:, 1])])
    assert np.array_equal(cols, expected)  # Playground's order: x1, x2², x1x2, sin x2
    all7 = feature_columns(
        x.astype(np.float32), ("x1", "x2", "x1sq", "x2sq", "x1x2", "sinx1", "sinx2")
    )
    assert all7.shape == (2, 7) and all7.dtype == np.float32
    with pytest.raises(ValueError, match="shape"):
        feature_columns(np.zeros((3, 3)), ("x1",))
