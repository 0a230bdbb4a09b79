"""Every neuron's heat map in one opaque strip per column: resampled in numpy, drawn as copies.

Scaling 56 small images while painting cost the UI thread ~10 ms a frame; placing each grid
at its square's size in one array per column (nearest sample, through the colour table) costs
~2 ms, and each strip then draws as a plain copy. Inputs switched off are mixed with the
background. While training, the training thread makes the layers' strips for its frames
(:func:`layer_strips`, from an :class:`AtlasSpec`; a QImage may be made in any thread), and the
inputs' strip is made again only when the inputs change (:class:`NeuronAtlas`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage

from tapeviz.ui.network.heat import indices


def _resampled(grids: np.ndarray, height: int, width: int) -> np.ndarray:
    """(k, rows, cols) grids at height × width each, nearest sample."""
    rows, cols = grids.shape[-2:]
    iy = (np.arange(height) * rows // max(height, 1)).clip(0, rows - 1)
    ix = (np.arange(width) * cols // max(width, 1)).clip(0, cols - 1)
    return grids[:, iy][:, :, ix]


def _down(x: float) -> int:
    """The device pixel ``x`` falls in (a hair of float error is not a pixel)."""
    return math.floor(x + 1e-6)


def _up(x: float) -> int:
    """The first device pixel wholly past ``x``."""
    return math.ceil(x - 1e-6)


def neuron_atlas(
    ratio: float,
    columns: Sequence[tuple[Sequence[QRectF], np.ndarray | None, Sequence[bool]]],
    table: np.ndarray,
    background: str,
    dim: float,
) -> list[tuple[QRectF, QImage]]:
    """Per column, an opaque strip (its rectangle, its image) holding the column's heat maps.

    ``columns`` holds per column the squares (all of one size, top to bottom), the grids
    (k, res, res; None: blank) and whether each neuron is switched on (off: mixed with
    ``background``, ``dim`` of the colour kept). Between the squares the strip is
    ``background`` (no link passes there): an opaque image draws as a plain copy.
    """
    bg = QColor(background)
    back = np.array([bg.red(), bg.green(), bg.blue()], np.float64)
    fill = np.uint32(0xFF000000 | (bg.red() << 16) | (bg.green() << 8) | bg.blue())
    strips = []
    for squares, grids, on in columns:
        if not len(squares):
            continue
        # whole device pixels, covering each square to its edges (its outline is drawn over
        # them): an image at a fractional place is resampled (~100 µs a strip with smooth
        # transforms on), at a whole one it is a plain copy (~3 µs)
        x0, y0 = _down(squares[0].left() * ratio), _down(squares[0].top() * ratio)
        n = max(1, _up(squares[0].right() * ratio) - x0)
        rows = [(_down(r.top() * ratio) - y0, _up(r.bottom() * ratio) - y0) for r in squares]
        h = max(n, rows[-1][1])
        out = np.full((h, n), fill, np.uint32)
        if grids is not None and grids.ndim == 3 and len(grids) == len(squares):
            tall = max(b - a for a, b in rows)
            pixels = table[indices(_resampled(grids, tall, n))]  # (k, tall, n) ARGB
            for k, (a, b) in enumerate(rows):
                block = pixels[k, : b - a]
                out[a:b] = block if on[k] else _mixed(block, back, dim)
        image = QImage(out.data, n, h, 4 * n, QImage.Format.Format_RGB32).copy()
        image.setDevicePixelRatio(ratio)
        strips.append((QRectF(x0 / ratio, y0 / ratio, n / ratio, h / ratio), image))
    return strips


def _mixed(pixels: np.ndarray, back: np.ndarray, keep: float) -> np.ndarray:
    """``pixels`` (ARGB uint32) mixed with ``back``: ``keep`` of the colour stays."""
    rgb = np.stack([(pixels >> s) & 0xFF for s in (16, 8, 0)], axis=-1).astype(np.float64)
    mixed = np.round(rgb * keep + back * (1 - keep)).astype(np.uint32)
    return (0xFF000000 | (mixed[..., 0] << 16) | (mixed[..., 1] << 8) | mixed[..., 2]).astype(
        np.uint32
    )


Strips = list[tuple[QRectF, QImage]]


@dataclass(frozen=True, eq=False)
class AtlasSpec:
    """What the layers' strips need besides the grids: plain data, usable in any thread."""

    columns: tuple[tuple[QRectF, ...], ...]  # the squares of each column after the inputs
    ratio: float
    table: np.ndarray
    background: str


def layer_strips(spec: AtlasSpec, layers: Sequence[np.ndarray]) -> Strips:
    """The strips of the columns after the inputs for ``layers`` (inputs first; any thread)."""
    columns = []
    for c, squares in enumerate(spec.columns, start=1):
        fits = c < len(layers) and len(layers[c]) == len(squares)
        columns.append((squares, layers[c] if fits else None, [True] * len(squares)))
    return neuron_atlas(spec.ratio, columns, spec.table, spec.background, 1.0)


class NeuronAtlas:
    """A diagram's strips: the inputs' made when they change, the layers' for each new frame.

    The layers' come from the training thread's frame when it made them for the current
    :attr:`spec` (replaced, never changed, when the layout, theme or screen changes); otherwise
    (paused, an edit, a new layout) they are made here.
    """

    def __init__(self, dim: float) -> None:
        self.dim = dim  # how much of its colour an input switched off keeps
        self.spec: AtlasSpec | None = None
        self._key: tuple[Any, ...] = ()
        self._geometry: Any = None  # the layout the spec is for (kept: a new one may reuse its id)
        self._inputs_key: tuple[Any, ...] = ()
        self._inputs: Strips = []
        self._layers: Strips = []
        self._version = -1  # the version of the diagram's grids the layers' strips show

    def offer(self, spec: Any, strips: Any, version: int) -> None:
        """Strips the thread made for ``spec`` from the grids of ``version`` (kept if current)."""
        if strips is not None and spec is not None and spec is self.spec:
            self._layers, self._version = strips, version

    def get(self, d: Any) -> Strips:
        """Every strip of diagram ``d`` (made here if none fits)."""
        ratio, background = d.devicePixelRatioF(), d.background()
        key = (ratio, d.theme.name, background)
        if key != self._key or self._geometry is not d.geometry_ or self.spec is None:
            self._key, self._geometry, self._inputs_key, self._version = key, d.geometry_, (), -1
            columns = tuple(tuple(c) for c in d.geometry_.columns[1:])
            self.spec = AtlasSpec(columns, ratio, d.table, background)
        inputs_key = (self.spec, d.features, d.inputs_version)
        if inputs_key != self._inputs_key:
            self._inputs_key = inputs_key
            column = d.input_column()
            self._inputs = neuron_atlas(ratio, [column] if column else [], d.table, background,
                                        self.dim)  # fmt: skip
        if self._version != d.layers_version:
            self._layers, self._version = layer_strips(self.spec, d.layer_grids), d.layers_version
        return self._inputs + self._layers
