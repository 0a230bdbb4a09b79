"""What the studio draws behind the trajectories: a curve, a surface or a 2-D slice (no Qt).

One trainable scalar: the loss curve f(x). Two: the surface over both. More: a slice through
two chosen parameter elements, the others held at given values (the selected run's current
step). Ranges cover every run's path up to its divergence step unless the settings fix them.
Computed in a worker: sampling and contour lines take a few tens of milliseconds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tapeviz.models.descent.problem import Loss
from tapeviz.models.descent.runs import History, Race
from tapeviz.models.descent.surface import Grid, Sampler, auto_range


@dataclass(frozen=True)
class Backdrop:
    """The curve or surface behind the runs, in the coordinates of elements ``ex``/``ey``."""

    kind: str  # "curve" (one element) or "surface"
    ex: int
    ey: int  # -1 for a curve
    x_range: tuple[float, float]
    y_range: tuple[float, float]  # for a curve: the loss range shown
    grid: Grid | None = None
    contours: list[tuple[float, np.ndarray, np.ndarray]] = field(default_factory=list)
    curve: tuple[np.ndarray, np.ndarray] | None = None
    sliced: bool = False  # a slice: the other elements are held at ``at``
    at: tuple[Any, ...] = ()


def _path(h: History, e: int) -> np.ndarray:
    stop = h.divergence.step if h.divergence is not None else h.steps
    return h.params[: stop + 1, e].astype(np.float64)


def elements(race: Race, pair: Sequence[str] | None) -> tuple[int, int]:
    """Element indices of ``pair`` (names), else the first two."""
    names = race.runs[0].names
    if pair is not None and all(p in names for p in pair):
        return names.index(pair[0]), names.index(pair[1])
    return 0, min(1, len(names) - 1)


def make_backdrop(
    race: Race,
    x_range: tuple[float, float] | None = None,
    y_range: tuple[float, float] | None = None,
    pair: Sequence[str] | None = None,
    at: Sequence[Any] | None = None,
    n: int = 200,
    sample: Callable[..., Backdrop] | None = None,
) -> Backdrop:
    """Sample the loss for the studio's left plot (curve, surface or slice).

    ``sample`` stands in for :func:`sample_backdrop` (same arguments), e.g. to reuse samplings.
    """
    sample = sample or sample_backdrop
    loss = race.loss_fn or race.problem.compile()
    names = race.runs[0].names
    if len(names) == 1:
        xr = x_range or auto_range([_path(h, 0) for h in race.runs])
        b = sample(loss, race.problem.start(), "curve", 0, -1, xr, (0.0, 1.0), (), n)
        assert b.curve is not None
        shown = [h.loss[: (h.divergence.step if h.divergence else h.steps) + 1] for h in race.runs]
        yr = y_range or auto_range(
            [b.curve[1], *[np.asarray(s, dtype=np.float64) for s in shown]], 0.05
        )
        return Backdrop("curve", 0, -1, xr, yr, curve=b.curve)
    ex, ey = elements(race, pair)
    xr = x_range or auto_range([_path(h, ex) for h in race.runs])
    yr = y_range or auto_range([_path(h, ey) for h in race.runs])
    where = tuple(at) if at is not None else tuple(race.problem.start())
    return sample(loss, race.problem.start(), "surface", ex, ey, xr, yr, where, n)


def sample_backdrop(
    loss: Loss,
    start: Sequence[Any],
    kind: str,
    ex: int,
    ey: int,
    x_range: tuple[float, float],
    y_range: tuple[float, float],
    at: Sequence[Any],
    n: int = 200,
) -> Backdrop:
    """Sample ``loss`` over fixed ranges: the curve of element ``ex`` or the surface of two."""
    sampler = Sampler.for_loss(loss, start)
    if kind == "curve":
        xs, fs = sampler.curve(ex, x_range, n=2 * n)
        return Backdrop("curve", ex, -1, x_range, y_range, curve=(xs, fs))
    where = tuple(at) if at else tuple(start)
    grid = sampler.grid(ex, ey, x_range, y_range, n=n, at=where)
    sliced = sum(int(np.size(v)) for v in start) > 2
    return Backdrop("surface", ex, ey, x_range, y_range, grid, grid.contours(), None, sliced, where)
