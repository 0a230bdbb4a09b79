"""Where the diagram draws things: neuron squares per column, links as curves, what is hit.

Column 0 holds every input feature (the ones switched off too, dimmed, as Playground shows
them), then one column per hidden layer, then the output neuron. A link joins a neuron's right
edge to the next column's neuron's left edge with a cubic curve; the curves are sampled so a
pointer can be matched to the nearest one in one numpy pass.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import QPointF, QRectF

GAP = 0.35  # space between neurons, in neuron sizes
SAMPLES = 16  # points per link for hit tests


@dataclass(frozen=True)
class Link:
    """A weight: layer ``layer``'s kernel ``[i, j]`` from ``source`` to ``target``."""

    layer: int
    i: int
    j: int
    source: QPointF
    target: QPointF

    def controls(self) -> tuple[QPointF, QPointF]:
        """The curve's two control points (half way across, level with each end)."""
        mid = (self.source.x() + self.target.x()) / 2
        return QPointF(mid, self.source.y()), QPointF(mid, self.target.y())


@dataclass
class Geometry:
    """The diagram's positions for one widget size and one network shape."""

    size: float = 0.0  # a neuron's side
    columns: list[list[QRectF]] = field(default_factory=list)  # column 0: every feature
    links: list[Link] = field(default_factory=list)
    biases: list[tuple[int, int, QRectF]] = field(default_factory=list)  # (layer, j, square)
    samples: np.ndarray = field(default_factory=lambda: np.zeros((0, SAMPLES, 2)))

    def link_at(self, x: float, y: float, tolerance: float) -> int | None:
        """The index of the link nearest (x, y) if within ``tolerance`` pixels."""
        if not len(self.links):
            return None
        d = np.hypot(self.samples[:, :, 0] - x, self.samples[:, :, 1] - y)
        # the distance to each segment between samples, not just to the samples
        a, b = self.samples[:, :-1, :], self.samples[:, 1:, :]
        ab = b - a
        t = np.clip(
            ((x - a[..., 0]) * ab[..., 0] + (y - a[..., 1]) * ab[..., 1])
            / np.maximum((ab**2).sum(-1), 1e-9),
            0,
            1,
        )
        px, py = a[..., 0] + t * ab[..., 0], a[..., 1] + t * ab[..., 1]
        seg = np.hypot(px - x, py - y).min(axis=1)
        best = int(np.argmin(np.minimum(seg, d.min(axis=1))))
        return best if seg[best] <= tolerance else None

    def frame_box(self, outline: float, link: float) -> QRectF:
        """What a new frame changes: the layers' squares and biases, and the links' curves.

        The squares and biases grow by ``outline``, the curves by ``link`` (half the widest
        stroke); the inputs' squares stay as they are. Empty without layers.
        """
        boxes = [(r.left(), r.top(), r.right(), r.bottom())
                 for r in [r for col in self.columns[1:] for r in col]
                 + [r for _, _, r in self.biases]]  # fmt: skip
        if not boxes:
            return QRectF()
        lo = np.min(boxes, axis=0)[:2] - outline
        hi = np.max(boxes, axis=0)[2:] + outline
        if len(self.samples):
            points = self.samples.reshape(-1, 2)
            lo = np.minimum(lo, points.min(0) - link)
            hi = np.maximum(hi, points.max(0) + link)
        return QRectF(float(lo[0]), float(lo[1]), float(hi[0] - lo[0]), float(hi[1] - lo[1]))

    def neuron_at(self, x: float, y: float) -> tuple[int, int] | None:
        """(column, row) of the neuron square under (x, y)."""
        for c, rects in enumerate(self.columns):
            for r, rect in enumerate(rects):
                if rect.contains(x, y):
                    return c, r
        return None

    def bias_at(self, x: float, y: float) -> int | None:
        """The index into ``biases`` of the bias square under (x, y)."""
        for k, (_, _, rect) in enumerate(self.biases):
            if rect.adjusted(-2, -2, 2, 2).contains(x, y):
                return k
        return None


def layout(
    area: QRectF,
    n_features: int,
    active: list[int],
    hidden: tuple[int, ...],
    largest: float,
) -> Geometry:
    """Positions inside ``area`` for ``n_features`` inputs (rows ``active`` switched on).

    Neurons are squares of at most ``largest`` pixels, as large as the tallest column and the
    width allow; every column starts at the top of ``area``.
    """
    counts = [n_features, *hidden, 1]
    tallest = max(counts)
    n_cols = len(counts)
    by_height = area.height() / (tallest + (tallest - 1) * GAP)
    by_width = area.width() / (n_cols * 2.2)
    s = max(8.0, min(largest, by_height, by_width))
    step = s * (1 + GAP)
    span = max(area.width() - s, 1.0)
    xs = [area.left() + (span * c / (n_cols - 1) if n_cols > 1 else 0) for c in range(n_cols)]
    geo = Geometry(size=s)
    for c, n in enumerate(counts):
        geo.columns.append([QRectF(xs[c], area.top() + r * step, s, s) for r in range(n)])
    sources = [geo.columns[0][r] for r in active]
    for layer in range(n_cols - 1):
        targets = geo.columns[layer + 1]
        for j, t in enumerate(targets):
            for i, src in enumerate(sources):
                geo.links.append(Link(layer, i, j, QPointF(src.right(), src.center().y()),
                                      QPointF(t.left(), t.center().y())))  # fmt: skip
            b = s * 0.28
            geo.biases.append((layer, j, QRectF(t.left() - b * 0.5, t.bottom() - b * 0.5, b, b)))
        sources = targets
    geo.samples = _samples(geo.links)
    return geo


def _samples(links: list[Link]) -> np.ndarray:
    if not links:
        return np.zeros((0, SAMPLES, 2))
    t = np.linspace(0.0, 1.0, SAMPLES)[None, :, None]
    pts = []
    for link in links:
        c1, c2 = link.controls()
        pts.append([[link.source.x(), link.source.y()], [c1.x(), c1.y()], [c2.x(), c2.y()],
                    [link.target.x(), link.target.y()]])  # fmt: skip
    p = np.asarray(pts, dtype=np.float64)[:, :, None, :]  # (links, 4, 1, 2)
    u = 1 - t
    return u**3 * p[:, 0] + 3 * u**2 * t * p[:, 1] + 3 * u * t**2 * p[:, 2] + t**3 * p[:, 3]
