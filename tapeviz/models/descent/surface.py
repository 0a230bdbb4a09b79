"""Loss surfaces and curves: the loss on a grid of parameter values, for plots (no Qt).

The loss is traced once; its forward ops (the engine's ``IMPL``, no tape) then run on whole
arrays: the grid's points form a leading axis, so a 200×200 grid is one pass of ~10 numpy
calls. Elementwise ops, reductions and matrix products know how to carry that axis; any other
op makes the sampler evaluate the points one by one on a coarser grid.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tapeviz.engine import primitives as P
from tapeviz.models.descent.problem import Loss, ProblemError
from tapeviz.models.descent.replay import ELEMENTWISE, Replay, ReplayError

REDUCTIONS = frozenset({P.reduce_sum_p, P.reduce_mean_p, P.reduce_max_p, P.reduce_min_p})
LOOP_POINTS = 6_400  # at most this many points when evaluated one by one (80×80)


class _Unsupported(Exception):
    pass


@dataclass(frozen=True)
class Grid:
    """The loss on a grid: ``z[i, j]`` at (``xs[j]``, ``ys[i]``), with contour levels."""

    xs: np.ndarray
    ys: np.ndarray
    z: np.ndarray
    levels: np.ndarray
    log: bool  # valley-shaped: levels log-spaced above the minimum

    def contours(self) -> list[tuple[float, np.ndarray, np.ndarray]]:
        """(level, x, y) per level: segment end points, pairwise (see contour_segments)."""
        return [(float(v), *contour_segments(self.xs, self.ys, self.z, v)) for v in self.levels]

    def image(self) -> np.ndarray:
        """What a heat map shows: log10 of the height above the minimum for valleys."""
        finite = np.isfinite(self.z)
        if not finite.any():
            return np.zeros_like(self.z, dtype=np.float64)
        z = np.where(finite, self.z, np.max(self.z[finite])).astype(np.float64)
        if not self.log:
            return z
        lo, hi = float(z.min()), float(z.max())
        return np.log10(z - lo + max(hi - lo, 1e-300) * 1e-6)

    def bands(self) -> np.ndarray:
        """Which band between contour levels each point lies in (0 … len(levels)).

        Drawn as a filled contour map, whose flat areas also keep exported GIFs small.
        """
        z = np.where(np.isfinite(self.z), self.z, np.inf)
        return np.searchsorted(self.levels, z).astype(np.float64)


def contour_levels(z: np.ndarray, n: int = 14) -> tuple[np.ndarray, bool]:
    """``n`` contour levels; log-spaced above the minimum when the surface is a valley.

    A valley: the median height above the minimum is under a tenth of the range, so equally
    spaced levels would all crowd the walls and leave the floor (where the runs go) empty.
    """
    finite = z[np.isfinite(z)].astype(np.float64)
    if finite.size == 0:
        return np.zeros(0), False
    lo, hi = float(finite.min()), float(finite.max())
    if not hi > lo:
        return np.array([lo]), False
    median = float(np.median(finite))
    if (hi - lo) > 10 * (median - lo):
        return lo + np.geomspace((hi - lo) * 1e-5, hi - lo, n), True
    return np.linspace(lo, hi, n + 2)[1:-1], False


def auto_range(values: Sequence[np.ndarray], pad: float = 0.15) -> tuple[float, float]:
    """A range covering every finite value given, padded on both sides (never empty)."""
    finite = [np.asarray(v, dtype=np.float64) for v in values]
    flat = np.concatenate([v[np.isfinite(v)] for v in finite]) if finite else np.zeros(0)
    if flat.size == 0:
        return -1.0, 1.0
    lo, hi = float(flat.min()), float(flat.max())
    span = hi - lo
    if span < 1e-9 * max(abs(lo), abs(hi), 1.0):
        half = max(abs(lo) * 0.5, 1.0)
        return lo - half, hi + half
    return lo - pad * span, hi + pad * span


class Sampler:
    """Evaluate a traced loss at many points; parameters vary by flat element index."""

    loop_points = LOOP_POINTS

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        self._set_values(list(replay.trace.params))
        try:  # two points of the first element: does every op carry the points' axis?
            self._points({0: np.zeros(2)}, self.values, vectorised=True)
            self.vectorised = True
        except (_Unsupported, ValueError, TypeError, IndexError):
            self.vectorised = False

    @staticmethod
    def for_loss(loss: Loss, start: Sequence[Any]) -> Sampler:
        """A sampler of the trace when the loss replays, else one that re-runs it per point."""
        if loss.replay_refusal is None:
            try:
                return Sampler(Replay(loss.trace(start)))
            except ReplayError:
                pass
        return EagerSampler(loss, start)

    def _set_values(self, values: list[Any]) -> None:
        self.values = values
        self.shapes = [np.shape(v) for v in self.values]
        self.offsets = np.cumsum([0] + [int(np.prod(s, dtype=np.int64)) for s in self.shapes])

    def _locate(self, element: int) -> tuple[int, tuple[Any, ...]]:
        p = int(np.searchsorted(self.offsets, element, side="right") - 1)
        shape = self.shapes[p]
        return p, tuple(np.unravel_index(element - int(self.offsets[p]), shape)) if shape else ()

    def evaluate(self, axes: dict[int, np.ndarray], at: Sequence[Any] | None = None) -> np.ndarray:
        """The loss at G points: flat element index -> its (G,) values in ``axes``.

        The other elements stay at ``at`` (default: the traced start).
        """
        base = list(at) if at is not None else self.values
        return self._points(axes, base, self.vectorised)

    def _points(
        self, axes: dict[int, np.ndarray], base: Sequence[Any], vectorised: bool
    ) -> np.ndarray:
        g = len(next(iter(axes.values())))
        params: list[Any] = list(base)
        batched = [False] * len(params)
        for element, vals in axes.items():
            p, idx = self._locate(element)
            if not batched[p]:
                arr = np.asarray(base[p])
                params[p] = np.broadcast_to(arr, (g, *self.shapes[p])).astype(arr.dtype)
                batched[p] = True
            params[p][(slice(None), *idx)] = vals
        with np.errstate(all="ignore"):
            if vectorised:
                return self._vectorised(params, batched, g)
            out = np.empty(g)
            for i in range(g):
                point = [v[i] if b else v for v, b in zip(params, batched, strict=True)]
                out[i] = self._value(point)
            return out

    def _value(self, point: list[Any]) -> float:
        return float(np.asarray(self.replay.value(point)))

    def _vectorised(self, params: list[Any], batched: list[bool], g: int) -> np.ndarray:
        rp = self.replay
        vals = rp.slots(params)
        is_b = [False] * rp.size
        rank = [0] * rp.size
        for p, b in enumerate(batched):
            is_b[p], rank[p] = b, len(self.shapes[p])
        for op in rp.forward:
            a = op.args
            if not any(is_b[s] for s in a):
                vals[op.out] = op.fn(*[vals[s] for s in a], **op.params)
                continue
            r = max(rank[s] if is_b[s] else np.ndim(vals[s]) for s in a)
            args = [_expand(vals[s], rank[s], r) if is_b[s] else vals[s] for s in a]
            kw = dict(op.params)
            if op.prim in ELEMENTWISE:
                out_rank = r
            elif op.prim in REDUCTIONS:
                axis, keep = kw.get("axis"), kw.get("keepdims", False)
                axes = tuple(range(r)) if axis is None else _axes(axis, r)
                kw["axis"] = tuple(x + 1 for x in axes)
                out_rank = r if keep else r - len(axes)
            elif op.prim is P.matmul_p and all(rank[s] == 2 or not is_b[s] for s in a):
                out_rank = 2
            else:
                raise _Unsupported(op.prim.name)
            vals[op.out] = op.fn(*args, **kw)
            is_b[op.out], rank[op.out] = True, out_rank
        out = np.asarray(vals[rp.loss_slot], dtype=np.float64)
        if not is_b[rp.loss_slot]:
            return np.full(g, out)
        return out.reshape(g, -1)[:, 0]

    def grid(
        self,
        ex: int,
        ey: int,
        x_range: tuple[float, float],
        y_range: tuple[float, float],
        n: int = 200,
        at: Sequence[Any] | None = None,
    ) -> Grid:
        """The loss over elements ``ex`` (x) and ``ey`` (y) on an n×n grid.

        The grid is coarser when the points must be evaluated one by one.
        """
        if not self.vectorised:
            n = min(n, int(np.sqrt(self.loop_points)))
        xs, ys = np.linspace(*x_range, n), np.linspace(*y_range, n)
        gx, gy = np.meshgrid(xs, ys)
        z = self.evaluate({ex: gx.ravel(), ey: gy.ravel()}, at).reshape(gx.shape)
        levels, log = contour_levels(z)
        return Grid(xs, ys, z, levels, log)

    def curve(
        self, e: int, x_range: tuple[float, float], n: int = 400, at: Sequence[Any] | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The loss along element ``e`` (the others at ``at``): (xs, f(xs))."""
        xs = np.linspace(*x_range, n)
        return xs, self.evaluate({e: xs}, at)


class EagerSampler(Sampler):
    """For losses that cannot be replayed (control flow): a fresh evaluation per point."""

    loop_points = 32 * 32

    def __init__(self, loss: Loss, start: Sequence[Any]) -> None:
        self.loss = loss
        self._set_values(list(start))
        self.vectorised = False

    def _value(self, point: list[Any]) -> float:
        try:
            value, _, _ = self.loss.gradient(self.loss.variables(point))
        except ProblemError:
            return float("nan")
        return float(np.asarray(value._value))


# Marching squares: corner bits b0 (x0,y0), b1 (x1,y0), b2 (x1,y1), b3 (x0,y1) set where the
# value is above the level; edges 0 bottom, 1 right, 2 top, 3 left; saddles split one way.
_SEGMENTS = {
    1: ((3, 0),),
    2: ((0, 1),),
    3: ((3, 1),),
    4: ((1, 2),),
    5: ((3, 0), (1, 2)),
    6: ((0, 2),),
    7: ((3, 2),),
    8: ((2, 3),),
    9: ((0, 2),),
    10: ((0, 1), (2, 3)),
    11: ((1, 2),),
    12: ((1, 3),),
    13: ((0, 1),),
    14: ((3, 0),),
}


def contour_segments(
    xs: np.ndarray, ys: np.ndarray, z: np.ndarray, level: float
) -> tuple[np.ndarray, np.ndarray]:
    """The contour line of ``z`` at ``level`` as segment end points (x, y), pairwise."""
    v00, v01, v11, v10 = z[:-1, :-1], z[:-1, 1:], z[1:, 1:], z[1:, :-1]
    finite = np.isfinite(v00) & np.isfinite(v01) & np.isfinite(v11) & np.isfinite(v10)
    case = ((v00 > level) * 1 + (v01 > level) * 2 + (v11 > level) * 4 + (v10 > level) * 8) * finite
    x0, x1 = xs[None, :-1], xs[None, 1:]
    y0, y1 = ys[:-1, None], ys[1:, None]
    with np.errstate(all="ignore"):
        t = [
            (level - v00) / (v01 - v00),
            (level - v01) / (v11 - v01),
            (level - v10) / (v11 - v10),
            (level - v00) / (v10 - v00),
        ]
    shape = case.shape
    ex = [
        x0 + t[0] * (x1 - x0),
        np.broadcast_to(x1, shape),
        x0 + t[2] * (x1 - x0),
        np.broadcast_to(x0, shape),
    ]
    ey = [
        np.broadcast_to(y0, shape),
        y0 + t[1] * (y1 - y0),
        np.broadcast_to(y1, shape),
        y0 + t[3] * (y1 - y0),
    ]
    px, py = [], []
    for c, pairs in _SEGMENTS.items():
        mask = case == c
        if not mask.any():
            continue
        for a, b in pairs:
            px.append(np.stack([ex[a][mask], ex[b][mask]], axis=1))
            py.append(np.stack([ey[a][mask], ey[b][mask]], axis=1))
    if not px:
        return np.zeros(0), np.zeros(0)
    return np.concatenate(px).ravel(), np.concatenate(py).ravel()


def _expand(v: np.ndarray, have: int, want: int) -> np.ndarray:
    """(G, *s) with len(s) = ``have`` as (G, 1, …, *s) with ``want`` dims after G."""
    return v if have == want else v.reshape((v.shape[0],) + (1,) * (want - have) + v.shape[1:])


def _axes(axis: Any, rank: int) -> tuple[int, ...]:
    items = axis if isinstance(axis, tuple | list) else (axis,)
    return tuple(int(a) % rank for a in items)
