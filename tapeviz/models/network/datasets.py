"""TensorFlow Playground's data sets, generated with numpy from a seed (no Qt).

The generators port ``playground/src/dataset.ts`` (Apache 2.0, Google 2016) formula for formula:

- ``circle``: half the points at radius U(0, 2.5), half at U(3.5, 5), at angle U(0, 2π); the label
  is +1 when the point *plus noise* (U(−5, 5)·noise per coordinate) lies within radius 2.5, so
  noise flips labels near the rim while the points stay where they are;
- ``xor``: x₁, x₂ ~ U(−5, 5), each pushed 0.3 away from its axis (padding), label +1 when
  (x₁ + n₁)(x₂ + n₂) ≥ 0 with n ~ U(−5, 5)·noise;
- ``gauss``: two Gaussians at (2, 2) (+1) and (−2, −2) (−1), variance 0.5 + 7·noise (Playground's
  scale maps noise 0 … 0.5 to variance 0.5 … 4);
- ``spiral``: two arms, point i of n = points/2 at radius 5i/n and angle 1.75·2π·i/n (+ π for the
  −1 arm), each coordinate moved by U(−1, 1)·noise;
- ``plane`` (regression): label (x₁ + n₁ + x₂ + n₂)/10 with n ~ U(−6, 6)·noise (it reaches ±1.2
  in the corners, as in Playground, which does not clamp it);
- ``multigauss`` (regression): six signed bumps at (±4 or 0, ±2.5); the label is the bump value
  of largest magnitude, each bump 1 − d/2 clamped to [0, 1], d the distance of the noisy point;
- ``moons``: scikit-learn's ``make_moons`` (outer half circle −1, inner half circle +1, as
  micrograd's demo relabels them), Gaussian noise of standard deviation ``noise``;
- ``custom``: the user's own rows (x₁, x₂, label).

Points come from ``np.random.default_rng(seed)`` (vectorised, so the draws are not Playground's
JavaScript sequence), are shuffled as Playground shuffles, and the first ``round(points ·
train_ratio)`` are the training set (Playground floors a whole percentage; the two agree for
its slider's values). Halves of an odd count take the extra point in the first half (Playground
would make one point more than asked). The plane the view shows is Playground's [−6, 6]² for
its data sets; for ``moons`` and ``custom`` it is the data's bounding square, 10 % of its side
added on each side.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from tapeviz.models.network.config import DataConfig

PLANE = (-6.0, 6.0)  # Playground's input plane, both axes
Generated = tuple[np.ndarray, np.ndarray]  # (points (n, 2), labels (n,)), both float64


@dataclass(frozen=True)
class Dataset:
    """Training and test points, the plane they are shown on, and the problem they pose."""

    train_x: np.ndarray  # (n, 2) float64 raw (x1, x2)
    train_y: np.ndarray  # (n,) float64: ±1 for classification, real for regression
    test_x: np.ndarray
    test_y: np.ndarray
    x_range: tuple[float, float]
    y_range: tuple[float, float]
    problem: str  # "classification" | "regression"

    @property
    def points(self) -> int:
        """Training and test points together."""
        return len(self.train_y) + len(self.test_y)


def _halves(n: int) -> tuple[int, int]:
    return (n + 1) // 2, n // 2


def _polar(r: np.ndarray, angle: np.ndarray) -> np.ndarray:
    return np.column_stack([r * np.sin(angle), r * np.cos(angle)])


def _circle(rng: np.random.Generator, n: int, noise: float) -> Generated:
    radius = 5.0
    inner, outer = _halves(n)
    r = np.concatenate(
        [rng.uniform(0.0, radius * 0.5, inner), rng.uniform(radius * 0.7, radius, outer)]
    )
    xy = _polar(r, rng.uniform(0.0, 2 * math.pi, n))
    shifted = xy + rng.uniform(-radius, radius, (n, 2)) * noise
    label = np.where(np.hypot(shifted[:, 0], shifted[:, 1]) < radius * 0.5, 1.0, -1.0)
    return xy, label


def _xor(rng: np.random.Generator, n: int, noise: float) -> Generated:
    padding = 0.3
    xy = rng.uniform(-5.0, 5.0, (n, 2))
    xy += np.where(xy > 0, padding, -padding)
    shifted = xy + rng.uniform(-5.0, 5.0, (n, 2)) * noise
    label = np.where(shifted[:, 0] * shifted[:, 1] >= 0, 1.0, -1.0)
    return xy, label


def _gauss(rng: np.random.Generator, n: int, noise: float) -> Generated:
    variance = 0.5 + (4.0 - 0.5) * noise / 0.5  # d3.scale.linear().domain([0, .5]).range([.5, 4])
    pos, neg = _halves(n)
    sd = math.sqrt(variance)
    xy = np.concatenate([rng.normal(2.0, sd, (pos, 2)), rng.normal(-2.0, sd, (neg, 2))])
    return xy, np.concatenate([np.ones(pos), -np.ones(neg)])


def _spiral(rng: np.random.Generator, n: int, noise: float) -> Generated:
    half = n / 2
    parts, labels = [], []
    for count, delta, label in zip(_halves(n), (0.0, math.pi), (1.0, -1.0), strict=True):
        i = np.arange(count, dtype=np.float64)
        r = i / half * 5
        t = 1.75 * i / half * 2 * math.pi + delta
        parts.append(_polar(r, t) + rng.uniform(-1.0, 1.0, (count, 2)) * noise)
        labels.append(np.full(count, label))
    return np.concatenate(parts), np.concatenate(labels)


def _plane(rng: np.random.Generator, n: int, noise: float) -> Generated:
    radius = 6.0
    xy = rng.uniform(-radius, radius, (n, 2))
    shifted = xy + rng.uniform(-radius, radius, (n, 2)) * noise
    return xy, (shifted[:, 0] + shifted[:, 1]) / 10  # domain [-10, 10] -> range [-1, 1]


_BUMPS = np.array(
    [[-4, 2.5, 1], [0, 2.5, -1], [4, 2.5, 1], [-4, -2.5, -1], [0, -2.5, 1], [4, -2.5, -1]],
    dtype=np.float64,
)


def _multigauss(rng: np.random.Generator, n: int, noise: float) -> Generated:
    radius = 6.0
    xy = rng.uniform(-radius, radius, (n, 2))
    shifted = xy + rng.uniform(-radius, radius, (n, 2)) * noise
    d = np.hypot(shifted[:, None, 0] - _BUMPS[:, 0], shifted[:, None, 1] - _BUMPS[:, 1])
    values = _BUMPS[:, 2] * np.clip(1 - d / 2, 0.0, 1.0)  # domain [0, 2] -> [1, 0], clamped
    # The bump of largest magnitude, the first one on ties (Playground's strict ">").
    pick = np.argmax(np.abs(values), axis=1)
    return xy, values[np.arange(n), pick]


def _moons(rng: np.random.Generator, n: int, noise: float) -> Generated:
    n_out = n // 2  # scikit-learn's make_moons: the outer moon gets the smaller half
    n_in = n - n_out
    t_out, t_in = np.linspace(0, math.pi, n_out), np.linspace(0, math.pi, n_in)
    xy = np.concatenate(
        [
            np.column_stack([np.cos(t_out), np.sin(t_out)]),
            np.column_stack([1 - np.cos(t_in), 1 - np.sin(t_in) - 0.5]),
        ]
    )
    if noise:
        xy = xy + rng.normal(0.0, noise, xy.shape)
    return xy, np.concatenate([-np.ones(n_out), np.ones(n_in)])


GENERATORS: dict[str, Callable[[np.random.Generator, int, float], Generated]] = {
    "circle": _circle,
    "xor": _xor,
    "gauss": _gauss,
    "spiral": _spiral,
    "moons": _moons,
    "plane": _plane,
    "multigauss": _multigauss,
}


def _bounds(xy: np.ndarray) -> tuple[tuple[float, float], tuple[float, float]]:
    """The points' bounding square, 10 % of its side added on each side."""
    lo, hi = xy.min(axis=0), xy.max(axis=0)
    side = float(max(hi - lo))
    side = side if side > 0 else 1.0
    half = side / 2 + 0.1 * side
    mid = (lo + hi) / 2
    xr = (float(mid[0] - half), float(mid[0] + half))
    yr = (float(mid[1] - half), float(mid[1] + half))
    return xr, yr


def _frozen(a: np.ndarray) -> np.ndarray:
    out = np.ascontiguousarray(a, dtype=np.float64)
    out.setflags(write=False)
    return out


def plane(data: Dataset, res: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``res × res`` grid over ``data``'s plane as (x₁, x₂) meshes, row 0 at the top."""
    (x0, x1), (y0, y1) = data.x_range, data.y_range
    return np.meshgrid(np.linspace(x0, x1, res), np.linspace(y1, y0, res))


def every_other(maps: Sequence[np.ndarray]) -> tuple[np.ndarray, ...]:
    """Maps (k, 2r − 1, 2r − 1) over :func:`plane`'s grid at its every other point: (k, r, r).

    ``linspace(lo, hi, 2r − 1)[::2]`` is ``linspace(lo, hi, r)`` (to rounding), so one forward
    over the output's grid gives every neuron's smaller map too.
    """
    return tuple(np.ascontiguousarray(m[:, ::2, ::2]) for m in maps)


def make_dataset(cfg: DataConfig) -> Dataset:
    """Generate ``cfg``'s points (deterministic from ``cfg.seed``), shuffle, split."""
    rng = np.random.default_rng(cfg.seed)
    if cfg.dataset == "custom":
        rows = np.asarray(cfg.custom, dtype=np.float64).reshape(-1, 3)
        xy, label = rows[:, :2], rows[:, 2]
    else:
        xy, label = GENERATORS[cfg.dataset](rng, cfg.points, cfg.noise)
    order = rng.permutation(len(label))
    xy, label = xy[order], label[order]
    n_train = min(len(label), max(1, round(len(label) * cfg.train_ratio)))
    if cfg.dataset in ("moons", "custom"):
        x_range, y_range = _bounds(xy)
    else:
        x_range = y_range = PLANE
    return Dataset(
        train_x=_frozen(xy[:n_train]),
        train_y=_frozen(label[:n_train]),
        test_x=_frozen(xy[n_train:]),
        test_y=_frozen(label[n_train:]),
        x_range=x_range,
        y_range=y_range,
        problem=cfg.problem,
    )
