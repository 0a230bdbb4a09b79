"""Loss surfaces: vectorised grids equal the loss point by point, ranges, contour levels."""

from __future__ import annotations

import time

import numpy as np
import pytest

from tapeviz.models.descent.problem import Problem
from tapeviz.models.descent.replay import Replay
from tapeviz.models.descent.surface import Sampler, auto_range, contour_levels
from tapeviz.sandbox import VariableSpec as V

ROSENBROCK = Problem(
    "(1 - x)**2 + 100*(y - x**2)**2", [V("x", -1.2, dtype="float64"), V("y", 1.0, dtype="float64")]
)


def sampler(problem: Problem) -> Sampler:
    return Sampler(Replay(problem.compile().trace(problem.start())))


def test_rosenbrock_grid_is_exact_and_fast() -> None:
    s = sampler(ROSENBROCK)
    s.grid(0, 1, (-2, 2), (-1, 3), n=20)  # warm up numpy
    t0 = time.perf_counter()
    grid = s.grid(0, 1, (-2.0, 2.0), (-1.0, 3.0), n=200)
    took = time.perf_counter() - t0
    gx, gy = np.meshgrid(grid.xs, grid.ys)
    assert grid.z.shape == (200, 200)
    assert np.array_equal(grid.z, (1 - gx) ** 2 + 100 * (gy - gx**2) ** 2)
    assert took < 0.2
    assert grid.log  # a valley: log-spaced levels
    assert np.all(
        np.diff(np.log(grid.levels - grid.z.min()))
        == pytest.approx(
            np.log(grid.levels[1] - grid.z.min()) - np.log(grid.levels[0] - grid.z.min())
        )
    )
    image = grid.image()
    assert np.isfinite(image).all() and image.argmin() == grid.z.argmin()  # log10 of height


def test_data_losses_carry_the_grid_axis_through_reductions() -> None:
    problem = Problem(
        "sum(square(a*X + b - y)) / 5 + mean(abs(a*X))",
        [
            V("a", 0.0),
            V("b", 0.0),
            V("X", [1.0, 2.0, 3.0], "constant"),
            V("y", [2.0, 4.0, 5.0], "constant"),
        ],
    )
    s = sampler(problem)
    assert s.vectorised
    grid = s.grid(0, 1, (-1, 3), (-2, 2), n=30)
    loss = problem.compile()
    for i, j in [(0, 0), (7, 21), (29, 29)]:
        want = loss.result_at([np.float32(grid.xs[j]), np.float32(grid.ys[i])]).value.numpy()
        assert grid.z[i, j] == pytest.approx(float(want), rel=1e-6)


def test_unsupported_ops_fall_back_to_points_one_by_one() -> None:
    problem = Problem("sum(transpose(w) * w) + w[0]", [V("w", [1.0, 2.0])])
    s = sampler(problem)
    assert not s.vectorised
    grid = s.grid(0, 1, (-1, 1), (-1, 1), n=200)
    assert grid.z.shape == (80, 80)  # coarser when evaluated point by point
    assert grid.z[0, 0] == pytest.approx(2 - 1)


def test_slice_through_two_of_three_parameters() -> None:
    problem = Problem("x**2 + 2*y**2 + 3*z**2", [V("x", 1.0), V("y", 1.0), V("z", 1.0)])
    s = sampler(problem)
    at = [np.float32(0.5), np.float32(0.0), np.float32(2.0)]
    grid = s.grid(0, 2, (-1, 1), (-1, 1), n=5, at=at)
    assert grid.z[0, 0] == pytest.approx(1 + 0 + 3)  # x = -1, z = -1, y from `at`
    _, fx = s.curve(1, (0, 1), n=3, at=at)
    assert fx.tolist() == pytest.approx([0.25 + 12, 0.25 + 0.5 + 12, 0.25 + 2 + 12])


def test_auto_range_and_linear_levels() -> None:
    lo, hi = auto_range([np.array([0.0, 1.0, np.nan]), np.array([-1.0, np.inf])])
    assert (lo, hi) == pytest.approx((-1.3, 1.3))
    assert auto_range([np.array([2.0, 2.0])]) == (1.0, 3.0)
    assert auto_range([]) == (-1.0, 1.0)
    bowl = np.add.outer(np.linspace(-1, 1, 50) ** 2, np.linspace(-1, 1, 50) ** 2)
    levels, log = contour_levels(bowl, n=8)
    assert not log and len(levels) == 8 and levels[0] > bowl.min() and levels[-1] < bowl.max()
