"""How the diagram paints: links under neurons, each neuron's heat map, the biases, the labels.

A link is a cubic curve in its weight's sign colour, wider for a larger |w|; inputs switched
off are dimmed; a bias is the small square at a neuron's lower left. Stroking ~400 wide
antialiased curves costs 10-25 ms, so the links are an image (:class:`LinkLayer`): while
training, the training thread draws it (:func:`render_links` on a QImage, which any thread may
paint; a few times a second, while the heat maps change every frame); the UI thread draws it
only for a new layout or theme, or new weights while paused. The hovered link is drawn on top
of the image. The neurons' heat maps are one image too (:mod:`~tapeviz.ui.network.atlas`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPainterPath, QPen

from tapeviz.models.network.config import FEATURE_LABELS, FEATURES
from tapeviz.ui.network.heat import indices, value_colour

MAX_WIDTH = 9.0  # px of the widest link at presenter scale 1
DIMMED = 0.28  # how much of its colour an input switched off keeps


def link_width(w: float, scale: float) -> float:
    """A link's pen width for weight ``w`` (0.6 px at 0, growing with |w|, capped)."""
    return scale * min(0.6 + 1.6 * abs(w), MAX_WIDTH) if math.isfinite(w) else scale


def link_path(link: Any) -> QPainterPath:
    """The curve of one link."""
    c1, c2 = link.controls()
    path = QPainterPath(link.source)
    path.cubicTo(c1, c2, link.target)
    return path


@dataclass(frozen=True, eq=False)
class LinkSpec:
    """What drawing the links needs besides the weights: plain data, usable in any thread."""

    links: tuple[Any, ...]  # geometry Links
    size: tuple[int, int]
    ratio: float
    scale: float
    colours: tuple[QColor, QColor, QColor]  # negative, positive, unknown (nan)
    background: QColor  # the image is opaque (it draws as a plain copy)


PAUSE_S = 0.001  # the longest the links are stroked between two offers of the GIL


def offer_gil() -> None:
    """Let another thread that waits for the GIL run now (``sleep(0)`` releases it)."""
    time.sleep(0)


def render_links(spec: LinkSpec, weights: Any, pause: Callable[[], None] | None = None) -> QImage:
    """The links of ``spec`` for ``weights`` as an image (any thread may call it).

    One path per link, thin ones first (one path of many curves strokes several times slower).
    An 8×6 network's ~400 links take 16-60 ms (wide strokes cost more), the GIL held through
    each stroke: the caller pauses (``pause``, by default :func:`offer_gil`; the training
    thread also waits there while the window draws) once :data:`PAUSE_S` has passed since the
    last pause, or the UI thread waited up to 28 ms for it (every 24 links: up to 9 ms).
    """
    w_px = max(1, round(spec.size[0] * spec.ratio))
    h_px = max(1, round(spec.size[1] * spec.ratio))
    image = QImage(w_px, h_px, QImage.Format.Format_RGB32)
    image.setDevicePixelRatio(spec.ratio)
    image.fill(spec.background)
    p = QPainter(image)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    drawn = []
    for link in spec.links:
        w = weight_of(weights, link.layer, link.i, link.j)
        sign = 0 if not math.isfinite(w) else (1 if w >= 0 else -1)
        drawn.append((link_width(w, spec.scale), sign, link))
    pens: dict[tuple[int, float], QPen] = {}
    paused = time.perf_counter()
    for width, sign, link in sorted(drawn, key=lambda item: item[0]):
        if time.perf_counter() - paused >= PAUSE_S:
            (pause or offer_gil)()  # Qt's strokes keep the GIL: let the UI thread in
            paused = time.perf_counter()
        pen = pens.get((sign, width))
        if pen is None:
            colour = QColor(spec.colours[{-1: 0, 1: 1, 0: 2}[sign]])
            colour.setAlpha(200)
            pen = QPen(colour, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
            pens[sign, width] = pen
        p.setPen(pen)
        p.drawPath(link_path(link))
    p.end()
    return image


def weight_of(weights: Any, layer: int, i: int, j: int) -> float:
    """Weight ``[i, j]`` of layer ``layer`` (``i == -1``: bias j); nan if there is none."""
    if weights is None or layer >= len(weights):
        return float("nan")
    w, b = weights[layer]
    try:
        return float(b[j] if i < 0 else w[i, j])
    except IndexError:
        return float("nan")


class LinkLayer:
    """The diagram's links as an image: from the training thread's frame, or drawn here.

    While training, the thread draws the links into the frames it posts (a few a second) for
    the current :class:`LinkSpec`; the UI thread draws them itself only for a new layout, theme
    or size, or new weights while paused (an edit, a step).
    """

    def __init__(self) -> None:
        self.image = QImage()
        self.key: tuple[Any, ...] = ()
        self.geometry: Any = None  # the layout drawn (kept: a new one may reuse an old id)
        self.weights: Any = None  # the weights the image shows
        self.spec: LinkSpec | None = None

    def offer(self, spec: Any, image: Any, weights: Any) -> None:
        """An image the thread drew for ``spec`` and ``weights`` (kept if the spec is current)."""
        if image is not None and spec is not None and spec is self.spec:
            self.image, self.weights = image, weights

    def get(self, d: Any) -> QImage:
        """The links of diagram ``d`` for its weights (drawn here if none fits)."""
        ratio = d.devicePixelRatioF()
        key = (d.width(), d.height(), ratio, d.theme.name, d.scale, d.background())
        if key != self.key or self.geometry is not d.geometry_ or self.spec is None:
            self.key, self.geometry = key, d.geometry_
            neg, pos = value_colour(d.table, -1.0), value_colour(d.table, 1.0)
            self.spec = LinkSpec(tuple(d.geometry_.links), (d.width(), d.height()), ratio,
                                 d.scale, (neg, pos, QColor(d.theme.muted)),
                                 QColor(d.background()))  # fmt: skip
            self.weights = None
        if self.weights is None or (self.weights is not d.weights and not d.training):
            self.image, self.weights = render_links(self.spec, d.weights), d.weights
        return self.image


def paint_diagram(d: Any, p: QPainter) -> None:
    """Paint the NetworkDiagram ``d`` with ``p``."""
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    geo, s, theme = d.geometry_, d.scale, d.theme
    muted = QColor(theme.muted)
    p.drawImage(QPointF(0, 0), d.links.get(d))
    if d.hover and d.hover[0] == "link" and d.hover[1] < len(geo.links):
        link = geo.links[d.hover[1]]
        w = d.weight(link.layer, link.i, link.j)
        sign = 0 if not math.isfinite(w) else (1 if w >= 0 else -1)
        path, width = link_path(link), link_width(w, s)
        p.setPen(QPen(QColor(theme.text), width + 3 * s))
        p.drawPath(path)
        p.setPen(_link_pen(d, sign, width, muted, 255))
        p.drawPath(path)
    for rect, image in d.atlas():
        p.drawImage(rect.topLeft(), image)
    edge = QColor(theme.edge)
    p.setBrush(Qt.BrushStyle.NoBrush)
    inputs = geo.columns[0] if geo.columns else []
    on = [rect for r, rect in enumerate(inputs) if FEATURES[r] in d.features]
    off = [rect for r, rect in enumerate(inputs) if FEATURES[r] not in d.features]
    p.setPen(QPen(edge, 2.0 * s))
    p.drawRects(on)
    p.setPen(QPen(edge, 1.0 * s))
    p.drawRects(off + [rect for rects in geo.columns[1:] for rect in rects])
    for r, rect in enumerate(inputs):
        _feature_label(d, p, rect, FEATURES[r], FEATURES[r] in d.features)
    _paint_biases(d, p, edge, muted)


def _paint_biases(d: Any, p: QPainter, edge: QColor, muted: QColor) -> None:
    """Each bias a square in its value's colour, the hovered one with a bold outline."""
    biases = d.geometry_.biases
    if not biases:
        return
    values = np.array([d.weight(layer, -1, j) for layer, j, _ in biases], np.float64)
    colours = d.table[indices(values)].tolist()  # (one lookup for all: ~50 a frame)
    finite = np.isfinite(values).tolist()
    hovered = d.hover[1] if d.hover and d.hover[0] == "bias" else -1
    p.setPen(QPen(edge, d.scale))
    for k, (_, _, rect) in enumerate(biases):
        if k != hovered:
            p.setBrush(QColor.fromRgba(colours[k]) if finite[k] else muted)
            p.drawRect(rect)
    if 0 <= hovered < len(biases):
        p.setPen(QPen(QColor(d.theme.text), 2 * d.scale))
        p.setBrush(QColor.fromRgba(colours[hovered]) if finite[hovered] else muted)
        p.drawRect(biases[hovered][2])


def _link_pen(d: Any, sign: int, width: float, muted: QColor, alpha: int) -> QPen:
    colour = value_colour(d.table, float(sign)) if sign else QColor(muted)
    colour.setAlpha(alpha)
    return QPen(colour, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)


def _feature_label(d: Any, p: QPainter, rect: QRectF, name: str, on: bool) -> None:
    text = FEATURE_LABELS[name]
    m = d.fontMetrics()
    p.setPen(QColor(d.theme.text if on else d.theme.muted))
    x = rect.left() - m.horizontalAdvance(text) - 6
    p.drawText(QPointF(x, rect.center().y() + m.ascent() / 2 - 1), text)
