"""Every neuron's heat map in one opaque strip per column: resampled in numpy, drawn as copies.

Scaling 56 small images while painting cost the UI thread ~10 ms a frame; placing each grid
at its square's size in one array per column (nearest sample, through the colour table) costs
~1 ms, and each strip then draws as a plain copy. Inputs switched off are mixed with the
background.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage

from tapeviz.ui.network.heat import indices


def _resampled(grids: np.ndarray, n: int) -> np.ndarray:
    """(k, rows, cols) grids at n × n each, nearest sample."""
    rows, cols = grids.shape[-2:]
    iy = (np.arange(n) * rows // max(n, 1)).clip(0, rows - 1)
    ix = (np.arange(n) * cols // max(n, 1)).clip(0, cols - 1)
    return grids[:, iy][:, :, ix]


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
        top, left = squares[0].top(), squares[0].left()
        n = max(1, round(squares[0].width() * ratio))
        h = max(n, round((squares[-1].bottom() - top) * ratio))
        out = np.full((h, n), fill, np.uint32)
        if grids is not None and grids.ndim == 3 and len(grids) == len(squares):
            pixels = table[indices(_resampled(grids, n))]  # (k, n, n) ARGB
            for k, rect in enumerate(squares):
                y0 = min(max(round((rect.top() - top) * ratio), 0), h - 1)
                block = pixels[k, : h - y0]
                out[y0 : y0 + len(block)] = block if on[k] else _mixed(block, back, dim)
        image = QImage(out.data, n, h, 4 * n, QImage.Format.Format_RGB32).copy()
        image.setDevicePixelRatio(ratio)
        strips.append((QRectF(left, top, n / ratio, h / ratio), image))
    return strips


def _mixed(pixels: np.ndarray, back: np.ndarray, keep: float) -> np.ndarray:
    """``pixels`` (ARGB uint32) mixed with ``back``: ``keep`` of the colour stays."""
    rgb = np.stack([(pixels >> s) & 0xFF for s in (16, 8, 0)], axis=-1).astype(np.float64)
    mixed = np.round(rgb * keep + back * (1 - keep)).astype(np.uint32)
    return (0xFF000000 | (mixed[..., 0] << 16) | (mixed[..., 1] << 8) | mixed[..., 2]).astype(
        np.uint32
    )
