"""A GIF writer on one fixed palette: each frame is a table lookup, not a colour quantisation.

The palette is chosen once (Pillow's median cut of a representative frame, 128 colours); a
lookup table maps every colour, at 5 bits a channel, to its nearest palette entry, so a frame
costs a few milliseconds of numpy instead of a quantisation, and unchanged pixels stay
identical from frame to frame (Pillow then stores mostly what moved). Pillow writes the file.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

COLORS = 128
BITS = 5  # per channel in the lookup table


def palette_of(frame: np.ndarray, colors: int = COLORS) -> np.ndarray:
    """A (colors, 3) uint8 palette for an RGB frame (median cut, undithered)."""
    from PIL import Image  # Pillow comes with imageio

    image = Image.fromarray(np.ascontiguousarray(frame)).quantize(
        colors=colors, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    flat = np.asarray(image.getpalette() or [0, 0, 0], dtype=np.uint8)
    used = max(int(np.asarray(image).max()) + 1, 1)
    return flat[: 3 * used].reshape(-1, 3)


def lookup_table(palette: np.ndarray, bits: int = BITS) -> np.ndarray:
    """For every colour at ``bits`` a channel (r, g, b packed), the index of the nearest entry."""
    levels = 1 << bits
    centre = (np.arange(levels, dtype=np.int32) << (8 - bits)) + (1 << (7 - bits))
    pal = palette.astype(np.int32)
    table = np.empty(levels**3, dtype=np.uint8)
    grid_g, grid_b = np.meshgrid(centre, centre, indexing="ij")
    gb = np.stack([grid_g.ravel(), grid_b.ravel()], axis=1)  # (levels², 2)
    partial = ((gb[:, None, :] - pal[None, :, 1:]) ** 2).sum(axis=2)  # (levels², colors)
    for i, r in enumerate(centre):  # one red level at a time: small temporaries
        dist = partial + (r - pal[None, :, 0]) ** 2
        table[i * levels * levels : (i + 1) * levels * levels] = dist.argmin(axis=1)
    return table


def indices(frame: np.ndarray, table: np.ndarray, bits: int = BITS) -> np.ndarray:
    """The palette index of every pixel: an (h, w, 3) uint8 frame or (h, w) uint32 0xAARRGGBB."""
    if frame.ndim == 3:
        f = frame.astype(np.uint32)
        frame = (f[..., 0] << 16) | (f[..., 1] << 8) | f[..., 2]
    shift = 8 - bits
    mask = (1 << bits) - 1
    r = (frame >> (16 + shift - 2 * bits)) & (mask << (2 * bits))
    g = (frame >> (8 + shift - bits)) & (mask << bits)
    b = (frame >> shift) & mask
    return np.take(table, r | g | b)


class GifWriter:
    """``append_data(rgb)`` frame by frame, ``close()`` writes the file (looping, ``fps``)."""

    def __init__(self, path: Path, fps: float, palette: np.ndarray) -> None:
        self.path, self.duration = Path(path), 1000 / fps
        self.palette = palette
        self.table = lookup_table(palette)
        self.frames: list[np.ndarray] = []
        self.closed = False

    def append_data(self, frame: np.ndarray) -> None:
        """Add a frame (RGB uint8 h × w × 3, or h × w uint32 0xAARRGGBB): mapped now."""
        self.frames.append(indices(frame, self.table))

    def close(self) -> None:
        """Write the file (OSError if it cannot be written); nothing happens a second time."""
        if self.closed:
            return
        self.closed = True
        if not self.frames:
            return
        from PIL import Image

        flat = self.palette.ravel().tolist()
        images = []
        for f in self.frames:
            image = Image.fromarray(f, mode="P")
            image.putpalette(flat)
            images.append(image)
        self.frames = []
        images[0].save(
            self.path,
            format="GIF",
            save_all=True,
            append_images=images[1:],
            duration=self.duration,
            loop=0,
            optimize=True,  # unchanged pixels stored as transparent: a small file
        )
