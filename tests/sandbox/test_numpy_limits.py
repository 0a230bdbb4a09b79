"""Notebook numpy within the run's limits: results or work over them are refused, at once.

Each script would make more elements (or multiply-adds) than the limits allow; the run must
stop with the sandbox's usual size or work message before numpy starts, never run on.
"""

from __future__ import annotations

import time

import pytest

from tapeviz.sandbox import Limits, run

SMALL = Limits(max_elements=10_000, max_flops=100_000)
TOO_BIG = {
    "np.r_[0:10**6]": "np.r_[...]",
    "np.r_[-1:1:100000j]": "np.r_[...]",
    "np.c_[np.ones(6000), np.ones(6000)]": "np.c_[...]",
    "np.mgrid[0:200, 0:200]": "np.mgrid[...]",
    "np.mgrid[-1:1:1000j, -1:1:1000j]": "np.mgrid[...]",
    "np.ogrid[0:20000]": "np.ogrid[...]",
    "np.bincount([10**9])": "np.bincount",
    "np.bincount([1], minlength=10**6)": "np.bincount",
    "np.histogram(np.ones(3), bins=10**6)": "np.histogram's bins",
    "np.histogram(np.r_[np.linspace(0, 1e-6, 500), 1e6], bins='fd')": "bins='fd'",
    "np.histogram2d(np.ones(3), np.ones(3), bins=200)": "np.histogram2d's bins",
    "np.vander(np.ones(100), 1000)": "np.vander",
    "np.polyfit(np.ones(100), np.ones(100), 200)": "np.polyfit",
    "np.polyval(np.ones(1000), np.ones(1000))": "np.polyval",
    "np.poly1d(np.ones(1000))(np.ones(1000))": "np.poly1d(x)",
    "np.poly1d(np.ones(20)) ** 1000": "the polynomial power",
    "np.diag(np.ones(1000))": "np.diag",
    "np.pad(np.ones(3), 10**6)": "np.pad",
    "np.split(np.ones(3), 10**6)": "pieces",
    "np.percentile(np.ones((100, 100)), np.linspace(0, 100, 1000), axis=1)": "np.percentile",
    "np.einsum('i,j->ij', np.ones(1000), np.ones(1000))": "np.einsum",
    "np.einsum('ij,jk->ik', np.ones((50, 50)), np.ones((50, 50)))": "np.einsum",
    "np.kron(np.ones(200), np.ones(200))": "np.kron",
    "np.convolve(np.ones(1000), np.ones(1000))": "np.convolve",
    "np.cov(np.ones((1000, 3)))": "np.cov",
    "np.linalg.inv(np.eye(50))": "np.linalg.inv",
    "np.linalg.svd(np.ones((5000, 2)))": "np.linalg.svd",
    "np.linalg.matrix_power(np.eye(40), 10**9)": "np.linalg.matrix_power",
    "np.roots(np.ones(100))": "np.roots",
    "np.indices((100, 100))": "np.indices",
    "np.tri(1000)": "np.tri",
    "np.take(np.ones((3, 3)), np.zeros(5000, dtype=np.int64), axis=1)": "np.take",
    "np.logspace(0, 1, 10**6)": "np.logspace",
    "np.add.outer(np.ones(1000), np.ones(1000))": "np.add.outer",
    "np.random.multivariate_normal([0, 0], np.eye(2), 10**4)": "np.random.multivariate_normal",
    "np.random.default_rng(0).multivariate_normal(np.zeros(100), np.eye(100))": "np.random",
    "np.random.binomial(1, 0.5, size=(1000, 1000))": "np.random.binomial",
    "np.float32(1.0) * np.ones(10**6)": "np.ones",
}


@pytest.mark.parametrize("expr", list(TOO_BIG))
def test_numpy_over_the_limits_is_refused_at_once(expr: str) -> None:
    started = time.perf_counter()
    err = run(f"x = {expr}\n", limits=SMALL).error
    assert time.perf_counter() - started < 2.0
    assert err is not None, expr
    assert err.kind == "limit" and TOO_BIG[expr] in err.message, err.message


def test_the_default_limits_refuse_a_notebook_grid_too_fine() -> None:
    err = run("xx, yy = np.mgrid[-1:1:5000j, -1:1:5000j]\n").error
    assert err is not None and "50,000,000 elements" in err.message


def test_diff_past_the_length_is_empty_without_looping() -> None:
    started = time.perf_counter()
    r = run("x = np.diff(np.ones(3), n=10**15)\nprint(x.shape)\n")
    assert r.error is None, r.error
    assert r.output == "(0,)\n" and time.perf_counter() - started < 2.0


def test_print_options_cannot_print_past_the_output_limit() -> None:
    started = time.perf_counter()
    err = run(
        "np.set_printoptions(threshold=np.inf)\nprint(np.zeros(10**6))\n",
        limits=Limits(max_output=100_000),
    ).error
    assert err is not None and err.kind == "limit" and time.perf_counter() - started < 2.0


def test_print_options_refuse_formatters_and_huge_widths() -> None:
    err = run("np.set_printoptions(formatter={'float': str})\n").error
    assert err is not None and "formatter" in err.message
    err = run("np.set_printoptions(precision=10**6)\n").error
    assert err is not None and "precision" in err.message
