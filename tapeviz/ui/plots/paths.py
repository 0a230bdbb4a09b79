"""Paths for the studio's plots: decimated by distance travelled, clipped before Qt draws them.

A run that diverges reaches 1e31 and inf; Qt's raster engine cannot draw segments with such
coordinates (it drops or distorts them), so every segment is clipped to a box around the
view first (Liang–Barsky), keeping its direction exact where it crosses the view.
"""

from __future__ import annotations

import numpy as np

PATH_EPS = 1 / 500  # keep a path point once it moved this fraction of the view
MARGIN = 50  # the clip box reaches this many view spans beyond the view


def path_keep(x: np.ndarray, y: np.ndarray, scale: tuple[float, float]) -> np.ndarray:
    """Indices of a path worth drawing: a point every ``PATH_EPS`` of travel (view units)."""
    if len(x) < 3:
        return np.arange(len(x))
    with np.errstate(all="ignore"):
        seg = np.hypot(np.diff(x) / scale[0], np.diff(y) / scale[1])
    seg = np.where(np.isfinite(seg), np.minimum(seg, 10 * PATH_EPS), 10 * PATH_EPS)
    bucket = np.floor(np.concatenate([[0.0], np.cumsum(seg)]) / PATH_EPS)
    return np.concatenate([[0], np.flatnonzero(np.diff(bucket) > 0) + 1])


def clip_segments(
    x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray,
    box: tuple[float, float, float, float],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Segments clipped to ``box`` (xmin, xmax, ymin, ymax); ``ok`` marks the visible ones."""
    x0, y0, x1, y1 = (np.asarray(v, dtype=np.float64) for v in (x0, y0, x1, y1))
    dx, dy = x1 - x0, y1 - y0
    u0, u1 = np.zeros_like(x0), np.ones_like(x0)
    ok = np.isfinite(x0) & np.isfinite(y0) & np.isfinite(x1) & np.isfinite(y1)
    xmin, xmax, ymin, ymax = box
    with np.errstate(all="ignore"):
        for p, q in ((-dx, x0 - xmin), (dx, xmax - x0), (-dy, y0 - ymin), (dy, ymax - y0)):
            parallel = p == 0
            ok &= ~(parallel & (q < 0))
            r = np.where(parallel, 0.0, q / np.where(parallel, 1.0, p))
            u0 = np.where(~parallel & (p < 0), np.maximum(u0, r), u0)
            u1 = np.where(~parallel & (p > 0), np.minimum(u1, r), u1)
        ok &= u0 <= u1
        return x0 + u0 * dx, y0 + u0 * dy, x0 + u1 * dx, y0 + u1 * dy, ok


class PathSegments:
    """A run's path as clipped segments; :meth:`upto` gives the part played up to step k."""

    def __init__(
        self, x: np.ndarray, y: np.ndarray, x_range: tuple[float, float],
        y_range: tuple[float, float],
    ) -> None:  # fmt: skip
        self.x, self.y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
        sx = (x_range[1] - x_range[0]) or 1.0
        sy = (y_range[1] - y_range[0]) or 1.0
        self.box = (x_range[0] - MARGIN * sx, x_range[1] + MARGIN * sx,
                    y_range[0] - MARGIN * sy, y_range[1] + MARGIN * sy)  # fmt: skip
        self.keep = path_keep(self.x, self.y, (sx, sy))
        a, b = self.keep[:-1], self.keep[1:]
        cx0, cy0, cx1, cy1, ok = clip_segments(self.x[a], self.y[a], self.x[b], self.y[b],
                                               self.box)  # fmt: skip
        self.px = np.stack([cx0[ok], cx1[ok]], axis=1).ravel()
        self.py = np.stack([cy0[ok], cy1[ok]], axis=1).ravel()
        self.count = np.concatenate([[0], np.cumsum(ok)])  # visible among the first j segments

    def upto(self, k: int, t: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
        """End points, pairwise, of the path from step 0 to step k (and ``t`` of the next)."""
        j = int(np.searchsorted(self.keep, k, side="right")) - 1
        n = 2 * int(self.count[j])
        xs, ys = self.px[:n], self.py[:n]
        last = int(self.keep[j])
        ends_x, ends_y = [self.x[k]], [self.y[k]]
        if t > 0 and k + 1 < len(self.x):  # between two steps: part of the next segment
            ends_x.append(self.x[k] + t * (self.x[k + 1] - self.x[k]))
            ends_y.append(self.y[k] + t * (self.y[k + 1] - self.y[k]))
        starts_x = [self.x[last], *ends_x[:-1]]
        starts_y = [self.y[last], *ends_y[:-1]]
        if last == k:
            starts_x, starts_y, ends_x, ends_y = starts_x[1:], starts_y[1:], ends_x[1:], ends_y[1:]
        if ends_x:
            cx0, cy0, cx1, cy1, ok = clip_segments(starts_x, starts_y, ends_x, ends_y, self.box)
            xs = np.concatenate([xs, np.stack([cx0[ok], cx1[ok]], axis=1).ravel()])
            ys = np.concatenate([ys, np.stack([cy0[ok], cy1[ok]], axis=1).ravel()])
        return xs, ys


def between(values: np.ndarray, k: int, t: float) -> np.ndarray:
    """``values[k]`` moved ``t`` of the way to ``values[k + 1]`` (a row, or a number)."""
    a = np.asarray(values[k], dtype=np.float64)
    if t <= 0 or k + 1 >= len(values):
        return a
    return a + t * (np.asarray(values[k + 1], dtype=np.float64) - a)


def drawn_steps(
    x: np.ndarray, y: np.ndarray, steps: int, diverged: int | None,
    x_range: tuple[float, float], y_range: tuple[float, float],
) -> int:  # fmt: skip
    """The last step of a path worth drawing: all of it, unless the run diverged.

    A diverging run zig-zags ever wider before the divergence is detected; its path stops at
    the divergence step, or earlier at its last point before it first leaves the view (by
    half a span), so it does not paint long lines over the whole surface.
    """
    if diverged is None:
        return steps
    stop = min(steps, diverged)
    sx, sy = x_range[1] - x_range[0], y_range[1] - y_range[0]
    with np.errstate(all="ignore"):
        out = ~(
            (x >= x_range[0] - sx / 2) & (x <= x_range[1] + sx / 2)
            & (y >= y_range[0] - sy / 2) & (y <= y_range[1] + sy / 2)
        )  # fmt: skip
    out[0] = False
    left = np.flatnonzero(out[: stop + 1])
    return int(left[0]) - 1 if len(left) else stop
