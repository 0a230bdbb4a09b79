"""The fit's arithmetic: zoom limits, the target's end shown first, no node cut at the edge."""

from __future__ import annotations

import pytest

from tapeviz.ui.graph.fitting import FIT_MAX, FIT_MIN, fit_view


def test_a_small_graph_is_enlarged_but_only_so_far() -> None:
    z, x, y = fit_view((0, 0, 200, 100), (900, 400), (150, 50), FIT_MIN, FIT_MAX)
    assert z == FIT_MAX and (x, y) == (100, 50)


def test_a_graph_that_fits_between_the_limits_is_fitted_whole() -> None:
    z, _, _ = fit_view((0, 0, 1100, 300), (900, 400), (1000, 150), FIT_MIN, FIT_MAX)
    assert z == FIT_MIN  # too wide: never shrunk below its natural size
    z, x, y = fit_view((0, 0, 700, 300), (900, 400), (650, 150), FIT_MIN, FIT_MAX)
    assert z == pytest.approx(900 / 700) and (x, y) == (350, 150)


def test_a_large_graph_keeps_its_natural_size_and_shows_the_target_end() -> None:
    boxes = [(50.0, 100.0, 100.0, 60.0), (1450.0, 300.0, 100.0, 60.0)]  # x, y, w, h
    z, x, y = fit_view((0, 0, 1500, 600), (900, 400), (1450, 300), FIT_MIN, FIT_MAX, boxes)
    assert z == FIT_MIN
    assert x + 450 == 1500  # the right end in view
    assert y - 200 <= 270 and y + 200 >= 330  # the target's row in view


def test_the_view_never_starts_halfway_through_a_node() -> None:
    # the right end would start the view at x = 600, through a node spanning 560..660
    boxes = [(610.0, 100.0, 100.0, 60.0), (1450.0, 100.0, 100.0, 60.0)]
    z, x, _ = fit_view((0, 0, 1500, 200), (900, 400), (1450, 100), FIT_MIN, FIT_MAX, boxes, 16)
    start = x - 450 / z
    assert not any(bx - bw / 2 < start < bx + bw / 2 for bx, _, bw, _ in boxes)
    assert start + 900 >= 1500  # and the target's end is still in view


def test_the_overview_shrinks_as_far_as_it_must() -> None:
    z, _, _ = fit_view((0, 0, 9000, 400), (900, 400), (8900, 200), 0.05, FIT_MAX)
    assert z == pytest.approx(0.1)
