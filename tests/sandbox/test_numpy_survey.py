"""Every numpy name a 2-D classification or regression notebook uses runs in a script (issue 33).

Each case is a script expression and the same computation done by numpy itself on the same
data: the script's ``out`` must equal numpy's result (values, shape and dtype).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from tapeviz.sandbox import run

PRELUDE = """\
import numpy as np
x = np.array([0.5, -1.2, 2.0, 0.3, -0.7, 1.1])
X = np.array([[0.5, -1.2], [2.0, 0.3], [-0.7, 1.1], [0.9, 0.4]])
y = np.array([0, 1, 1, 0, 2, 1])
A = np.array([[4.0, 1.0], [1.0, 3.0]])
"""
x = np.array([0.5, -1.2, 2.0, 0.3, -0.7, 1.1])
X = np.array([[0.5, -1.2], [2.0, 0.3], [-0.7, 1.1], [0.9, 0.4]])
y = np.array([0, 1, 1, 0, 2, 1])
A = np.array([[4.0, 1.0], [1.0, 3.0]])

CASES: dict[str, Callable[[], Any]] = {
    "np.where(x > 0, 1, -1)": lambda: np.where(x > 0, 1, -1),
    "np.where(x > 0)[0]": lambda: np.where(x > 0)[0],
    "np.argmax(X, axis=1)": lambda: np.argmax(X, axis=1),
    "np.argsort(x)[::-1]": lambda: np.argsort(x)[::-1],
    "np.unique(y, return_counts=True)": lambda: np.unique(y, return_counts=True),
    "np.bincount(y)": lambda: np.bincount(y),
    "np.bincount(y, minlength=5)": lambda: np.bincount(y, minlength=5),
    "np.bincount(y, weights=x)": lambda: np.bincount(y, weights=x),
    "np.clip(X, -0.5, 0.5)": lambda: np.clip(X, -0.5, 0.5),
    "np.hstack([X, X])": lambda: np.hstack([X, X]),
    "np.vstack((X, X))": lambda: np.vstack((X, X)),
    "np.column_stack([x, x ** 2])": lambda: np.column_stack([x, x**2]),
    "np.dstack([X, X])": lambda: np.dstack([X, X]),
    "np.sign(x)": lambda: np.sign(x),
    "np.sqrt(np.abs(x))": lambda: np.sqrt(np.abs(x)),
    "np.pi * 2": lambda: np.pi * 2,
    "np.arctan2(X[:, 1], X[:, 0])": lambda: np.arctan2(X[:, 1], X[:, 0]),
    "np.hypot(X[:, 0], X[:, 1])": lambda: np.hypot(X[:, 0], X[:, 1]),
    "np.mean(X, axis=0)": lambda: np.mean(X, axis=0),
    "np.std(X, axis=0, keepdims=True)": lambda: np.std(X, axis=0, keepdims=True),
    "np.std(x, ddof=1)": lambda: np.std(x, ddof=1),
    "np.round(x, 1)": lambda: np.round(x, 1),
    "np.allclose(x, x + 1e-10)": lambda: np.allclose(x, x + 1e-10),
    "np.isclose(x, 0.5)": lambda: np.isclose(x, 0.5),
    "np.eye(3)": lambda: np.eye(3),
    "np.eye(3)[y]": lambda: np.eye(3)[y],
    "np.outer(x, x)": lambda: np.outer(x, x),
    "np.linalg.norm(X, axis=1)": lambda: np.linalg.norm(X, axis=1),
    "np.linalg.norm(A)": lambda: np.linalg.norm(A),
    "np.linalg.norm(A, 2)": lambda: np.linalg.norm(A, 2),
    "np.linalg.inv(A)": lambda: np.linalg.inv(A),
    "np.linalg.solve(A, np.array([1.0, 2.0]))": lambda: np.linalg.solve(A, np.array([1.0, 2.0])),
    "np.linalg.eig(A)[0]": lambda: np.linalg.eig(A)[0],
    "np.linalg.eigh(A)": lambda: np.linalg.eigh(A),
    "np.linalg.det(A)": lambda: np.linalg.det(A),
    "np.linalg.pinv(X)": lambda: np.linalg.pinv(X),
    "np.linalg.lstsq(X, x[:4], rcond=None)[0]": lambda: np.linalg.lstsq(X, x[:4], rcond=None)[0],
    "np.linalg.svd(X, full_matrices=False)[1]": lambda: np.linalg.svd(X, full_matrices=False)[1],
    "np.linalg.qr(X)[1]": lambda: np.linalg.qr(X)[1],
    "np.linalg.cholesky(A)": lambda: np.linalg.cholesky(A),
    "np.linalg.matrix_rank(X)": lambda: np.linalg.matrix_rank(X),
    "np.linalg.matrix_power(A, 3)": lambda: np.linalg.matrix_power(A, 3),
    "np.sort(x)": lambda: np.sort(x),
    "np.cumsum(x)": lambda: np.cumsum(x),
    "np.diff(x)": lambda: np.diff(x),
    "np.diff(x, n=2)": lambda: np.diff(x, n=2),
    "np.diff(x, n=100)": lambda: np.diff(x, n=100),
    "np.percentile(x, [25, 50, 75])": lambda: np.percentile(x, [25, 50, 75]),
    "np.quantile(X, 0.5, axis=0)": lambda: np.quantile(X, 0.5, axis=0),
    "np.median(x)": lambda: np.median(x),
    "np.logical_and(x > 0, x < 1)": lambda: np.logical_and(x > 0, x < 1),
    "np.logical_or(x > 1, x < -1)": lambda: np.logical_or(x > 1, x < -1),
    "np.logical_not(x > 0)": lambda: np.logical_not(x > 0),
    "x[:, np.newaxis]": lambda: x[:, np.newaxis],
    "np.float32(1.5)": lambda: np.float32(1.5),
    "X.astype(np.float32)": lambda: X.astype(np.float32),
    "np.array(X, dtype=np.float32)": lambda: np.array(X, dtype=np.float32),
    "np.zeros_like(X)": lambda: np.zeros_like(X),
    "np.full((2, 3), 7.0)": lambda: np.full((2, 3), 7.0),
    "np.tile(x, (2, 1))": lambda: np.tile(x, (2, 1)),
    "np.repeat(y, 2)": lambda: np.repeat(y, 2),
    "np.maximum(x, 0)": lambda: np.maximum(x, 0),
    "np.minimum(x, 0)": lambda: np.minimum(x, 0),
    "np.log1p(np.abs(x))": lambda: np.log1p(np.abs(x)),
    "np.expm1(x)": lambda: np.expm1(x),
    "np.tanh(x)": lambda: np.tanh(x),
    "1 / (1 + np.exp(-x))": lambda: 1 / (1 + np.exp(-x)),
    "np.histogram(x, bins=4)": lambda: np.histogram(x, bins=4),
    "np.histogram(x, bins=3, range=(-2, 2), density=True)": lambda: np.histogram(
        x, bins=3, range=(-2, 2), density=True
    ),
    "np.histogram(x, bins='auto')": lambda: np.histogram(x, bins="auto"),
    "np.polyfit(x, 3 * x - 1, 1)": lambda: np.polyfit(x, 3 * x - 1, 1),
    "np.polyval([3.0, -1.0], x)": lambda: np.polyval([3.0, -1.0], x),
    "np.vander(x, 3)": lambda: np.vander(x, 3),
    "np.poly1d(np.polyfit(x, x ** 2, 2))(x)": lambda: np.poly1d(np.polyfit(x, x**2, 2))(x),
    "np.poly1d([1.0, -3.0, 2.0]).roots": lambda: np.poly1d([1.0, -3.0, 2.0]).roots,
    "np.poly1d([1.0, 2.0, 3.0]).deriv().coeffs": lambda: np.poly1d([1.0, 2.0, 3.0]).deriv().coeffs,
    "(np.poly1d([1.0, 1.0]) * np.poly1d([1.0, -1.0])).coeffs": lambda: (
        (np.poly1d([1.0, 1.0]) * np.poly1d([1.0, -1.0])).coeffs
    ),
    "np.linspace(0, 1, 11)": lambda: np.linspace(0, 1, 11),
    "np.linspace(0, 1, 5, endpoint=False)": lambda: np.linspace(0, 1, 5, endpoint=False),
    "np.logspace(-3, 0, 4)": lambda: np.logspace(-3, 0, 4),
    "np.arange(0, 1, 0.25)": lambda: np.arange(0, 1, 0.25),
    "np.arange(10, step=3)": lambda: np.arange(10, step=3),
    "np.meshgrid(np.arange(3), np.arange(2))": lambda: np.meshgrid(np.arange(3), np.arange(2)),
    "np.meshgrid(np.arange(3), np.arange(2), indexing='ij')": lambda: np.meshgrid(
        np.arange(3), np.arange(2), indexing="ij"
    ),
    "np.stack([X, X], axis=-1)": lambda: np.stack([X, X], axis=-1),
    "np.concatenate([X, X], axis=1)": lambda: np.concatenate([X, X], axis=1),
    "np.split(np.arange(6), 3)": lambda: np.split(np.arange(6), 3),
    "np.array_split(np.arange(7), 3)": lambda: np.array_split(np.arange(7), 3),
    "np.nan_to_num(np.array([np.nan, np.inf, 1.0]))": lambda: np.nan_to_num(
        np.array([np.nan, np.inf, 1.0])
    ),
    "np.all(x > -2)": lambda: np.all(x > -2),
    "np.any(x > 2)": lambda: np.any(x > 2),
    "np.ptp(x)": lambda: np.ptp(x),
    "np.diag(np.array([1.0, 2.0]))": lambda: np.diag(np.array([1.0, 2.0])),
    "np.diag(A)": lambda: np.diag(A),
    "np.cross([1.0, 0, 0], [0, 1.0, 0])": lambda: np.cross([1.0, 0, 0], [0, 1.0, 0]),
    "np.atleast_2d(x)": lambda: np.atleast_2d(x),
    "np.roll(x, 2)": lambda: np.roll(x, 2),
    "np.triu(A)": lambda: np.triu(A),
    "np.isin(y, [0, 2])": lambda: np.isin(y, [0, 2]),
    "np.searchsorted(np.sort(x), 0.4)": lambda: np.searchsorted(np.sort(x), 0.4),
    "np.searchsorted([1, 2, 3], 2, side='right')": lambda: np.searchsorted(
        [1, 2, 3], 2, side="right"
    ),
    "np.digitize(x, [-1.0, 0.0, 1.0])": lambda: np.digitize(x, [-1.0, 0.0, 1.0]),
    "np.copy(X)": lambda: np.copy(X),
    "np.finfo(np.float32).eps": lambda: np.finfo(np.float32).eps,
    "np.iinfo(np.int32).max": lambda: np.iinfo(np.int32).max,
    "np.degrees(np.pi)": lambda: np.degrees(np.pi),
    "np.deg2rad(180.0)": lambda: np.deg2rad(180.0),
    "np.einsum('ij,ij->i', X, X)": lambda: np.einsum("ij,ij->i", X, X),
    "np.einsum('ij,jk', X, A)": lambda: np.einsum("ij,jk", X, A),
    "np.cov(X.T)": lambda: np.cov(X.T),
    "np.cov(X, rowvar=False)": lambda: np.cov(X, rowvar=False),
    "np.corrcoef(X[:, 0], X[:, 1])": lambda: np.corrcoef(X[:, 0], X[:, 1]),
    "np.argwhere(x > 0.4)": lambda: np.argwhere(x > 0.4),
    "np.nonzero(x > 0.4)": lambda: np.nonzero(x > 0.4),
    "np.interp(0.5, [0, 1], [0, 10])": lambda: np.interp(0.5, [0, 1], [0, 10]),
    "np.gradient(x)": lambda: np.gradient(x),
    "np.trapezoid(x)": lambda: np.trapezoid(x),
    "np.convolve(x, np.ones(3) / 3, mode='valid')": lambda: np.convolve(
        x, np.ones(3) / 3, mode="valid"
    ),
    "np.pad(x, 1)": lambda: np.pad(x, 1),
    "np.pad(X, ((1, 0), (0, 2)), mode='edge')": lambda: np.pad(X, ((1, 0), (0, 2)), mode="edge"),
    "np.take(x, [0, 2])": lambda: np.take(x, [0, 2]),
    "np.take_along_axis(X, np.argsort(X, axis=1), axis=1)": lambda: np.take_along_axis(
        X, np.argsort(X, axis=1), axis=1
    ),
    "np.add.reduce(x)": lambda: np.add.reduce(x),
    "np.maximum.accumulate(x)": lambda: np.maximum.accumulate(x),
    "np.subtract.outer(x[:3], x[:2])": lambda: np.subtract.outer(x[:3], x[:2]),
    "np.count_nonzero(y)": lambda: np.count_nonzero(y),
    "np.average(x, weights=np.abs(x))": lambda: np.average(x, weights=np.abs(x)),
    "np.var(x)": lambda: np.var(x),
    "np.sum(X ** 2, axis=1)": lambda: np.sum(X**2, axis=1),
    "np.abs(X).max()": lambda: np.abs(X).max(),
    "np.matmul(X.T, X)": lambda: np.matmul(X.T, X),
    "np.dot(X, np.ones(2))": lambda: np.dot(X, np.ones(2)),
    "np.reshape(X, (-1,))": lambda: np.reshape(X, (-1,)),
    "np.flip(x)": lambda: np.flip(x),
    "np.isnan(x).any()": lambda: np.isnan(x).any(),
    "np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))": lambda: np.sqrt(
        ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    ),
    "np.mgrid[-1:1:3j, 0:2]": lambda: np.mgrid[-1:1:3j, 0:2],
    "np.ix_([0, 1], [1])": lambda: np.ix_([0, 1], [1]),
    "np.isscalar(3.0)": lambda: np.isscalar(3.0),
    "np.kron(np.eye(2), A)": lambda: np.kron(np.eye(2), A),
    "np.indices((2, 3))": lambda: np.indices((2, 3)),
    "np.setdiff1d(y, [1])": lambda: np.setdiff1d(y, [1]),
}


def _same(got: Any, want: Any) -> None:
    if isinstance(want, tuple | list) and not isinstance(want, np.ndarray):
        assert isinstance(got, tuple | list) and len(got) == len(want), got
        for g, w in zip(got, want, strict=True):
            _same(g, w)
        return
    got_arr, want_arr = np.asarray(got), np.asarray(want)
    assert got_arr.shape == want_arr.shape and got_arr.dtype == want_arr.dtype, (got, want)
    np.testing.assert_allclose(got_arr, want_arr, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("expr", list(CASES))
def test_a_notebook_numpy_name_gives_numpys_result(expr: str) -> None:
    r = run(PRELUDE + f"out = {expr}\n")
    assert r.error is None, r.error
    _same(r.namespace["out"], CASES[expr]())


RANDOM_CASES: dict[str, Callable[[np.random.RandomState], Any]] = {
    "np.random.randn(5, 2)": lambda rs: rs.randn(5, 2),
    "np.random.rand(3)": lambda rs: rs.rand(3),
    "np.random.normal(0, 1, (3, 2))": lambda rs: rs.normal(0, 1, (3, 2)),
    "np.random.uniform(-1, 1, size=4)": lambda rs: rs.uniform(-1, 1, size=4),
    "np.random.choice(5, 3, replace=False)": lambda rs: rs.choice(5, 3, replace=False),
    "np.random.choice([1, 2, 3], size=4, p=[0.2, 0.3, 0.5])": lambda rs: rs.choice(
        [1, 2, 3], size=4, p=[0.2, 0.3, 0.5]
    ),
    "np.random.permutation(6)": lambda rs: rs.permutation(6),
    "np.random.randint(0, 3, size=6)": lambda rs: rs.randint(0, 3, size=6),
    "np.random.random((2, 2))": lambda rs: rs.random((2, 2)),
    "np.random.random_sample(3)": lambda rs: rs.random_sample(3),
    "np.random.binomial(1, 0.5, 4)": lambda rs: rs.binomial(1, 0.5, 4),
    "np.random.poisson(3, 4)": lambda rs: rs.poisson(3, 4),
    "np.random.exponential(2.0, size=3)": lambda rs: rs.exponential(2.0, size=3),
    "np.random.multivariate_normal([0, 0], [[1, 0.5], [0.5, 1]], 5)": lambda rs: (
        rs.multivariate_normal([0, 0], [[1, 0.5], [0.5, 1]], 5)
    ),
}


@pytest.mark.parametrize("expr", list(RANDOM_CASES))
def test_seeded_np_random_gives_numpys_numbers(expr: str) -> None:
    r = run(f"np.random.seed(7)\nout = {expr}\n")
    assert r.error is None, r.error
    _same(r.namespace["out"], RANDOM_CASES[expr](np.random.RandomState(7)))


def test_shuffle_shuffles_in_place_as_numpy() -> None:
    r = run("np.random.seed(3)\nout = np.arange(8)\nnp.random.shuffle(out)\n")
    assert r.error is None, r.error
    want = np.arange(8)
    np.random.RandomState(3).shuffle(want)
    _same(r.namespace["out"], want)


def test_a_generator_has_the_notebook_methods() -> None:
    r = run(
        "rng = np.random.default_rng(5)\n"
        "out = (rng.standard_normal((2, 2)), rng.multivariate_normal([0, 0], np.eye(2), 3),"
        " rng.exponential(1.0, 2))\n"
    )
    assert r.error is None, r.error
    g = np.random.default_rng(5)
    want = (g.standard_normal((2, 2)), g.multivariate_normal([0, 0], np.eye(2), 3),
            g.exponential(1.0, 2))  # fmt: skip
    _same(r.namespace["out"], want)


def test_printoptions_change_how_arrays_print_for_the_run_only() -> None:
    src = (
        "np.set_printoptions(precision=3, suppress=True)\nprint(np.array([1.23456789, 1e-9]))\n"
        "with np.printoptions(precision=1):\n    print(np.array([2.25]))\n"
    )
    r = run(src)
    assert r.error is None, r.error
    with np.printoptions(precision=3, suppress=True):
        first = str(np.array([1.23456789, 1e-9]))
    with np.printoptions(precision=1):
        second = str(np.array([2.25]))
    assert r.output == f"{first}\n{second}\n"
    assert run("print(np.array([1.23456789]))\n").output == f"{np.array([1.23456789])}\n"


def test_errstate_is_a_with_block() -> None:
    r = run(
        "try:\n    with np.errstate(divide='raise'):\n        np.log(np.zeros(1))\n"
        "except Exception as e:\n    print(type(e).__name__, e)\nprint(np.log(np.zeros(1)))\n"
    )
    assert r.error is None, r.error
    assert r.output == "FloatingPointError divide by zero encountered in log\n[-inf]\n"
