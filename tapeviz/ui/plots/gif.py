"""A GIF writer on one fixed palette: each frame is Qt's nearest-colour mapping, not a quantisation.

The palette is chosen once (Pillow's median cut of a representative frame, 128 colours). Each
frame's pixels are then mapped to it by ``QImage.convertToFormat(Format_Indexed8, palette)``:
every pixel goes to its nearest palette entry, undithered, in C++. Only the pixels that changed
since the last frame are mapped; the others keep their index, so unchanged pixels stay
identical from frame to frame and Pillow stores mostly what moved. Pillow writes the file.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtGui import QImage

COLORS = 128


def palette_of(frame: np.ndarray, colors: int = COLORS) -> np.ndarray:
    """A (colors, 3) uint8 palette for an RGB frame (median cut, undithered)."""
    from PIL import Image  # Pillow comes with imageio

    image = Image.fromarray(np.ascontiguousarray(frame)).quantize(
        colors=colors, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    flat = np.asarray(image.getpalette() or [0, 0, 0], dtype=np.uint8)
    used = max(int(np.asarray(image).max()) + 1, 1)
    return flat[: 3 * used].reshape(-1, 3)


def as_image(frame: QImage | np.ndarray) -> QImage:
    """A QImage of a frame: a QImage itself, or an (h, w, 3) uint8 RGB array (copied)."""
    if isinstance(frame, QImage):
        return frame
    rgb = np.ascontiguousarray(frame, dtype=np.uint8)
    h, w = rgb.shape[:2]
    return QImage(rgb.data, w, h, 3 * w, QImage.Format.Format_RGB888).copy()


def color_table(palette: np.ndarray) -> list[int]:
    """Qt's colour table (0xffRRGGBB) of a (n, 3) uint8 palette."""
    return [0xFF000000 | int(r) << 16 | int(g) << 8 | int(b) for r, g, b in palette]


def rgb32(frame: QImage | np.ndarray) -> np.ndarray:
    """The (h, w) uint32 0xffRRGGBB pixels of a frame (a copy)."""
    image = as_image(frame)
    if image.format() != QImage.Format.Format_RGB32:
        image = image.convertToFormat(QImage.Format.Format_RGB32)
    w, h = image.width(), image.height()
    rows = np.frombuffer(image.constBits(), np.uint32).reshape(h, image.bytesPerLine() // 4)
    return rows[:, :w].copy()


def nearest(pixels: np.ndarray, table: list[int]) -> np.ndarray:
    """The index of each uint32 0xffRRGGBB pixel's nearest ``table`` colour, in its shape."""
    flat = np.ascontiguousarray(pixels, dtype=np.uint32).reshape(1, -1)
    image = QImage(flat.data, flat.shape[1], 1, 4 * flat.shape[1], QImage.Format.Format_RGB32)
    indexed = image.convertToFormat(QImage.Format.Format_Indexed8, table)
    row = np.frombuffer(indexed.constBits(), np.uint8)[: flat.shape[1]]
    return row.reshape(pixels.shape).copy()


def indices(frame: QImage | np.ndarray, palette: np.ndarray) -> np.ndarray:
    """The (h, w) uint8 index of every pixel's nearest ``palette`` entry (no dithering)."""
    return nearest(rgb32(frame), color_table(palette))


class GifWriter:
    """``append_data(frame)`` frame by frame, ``close()`` writes the file (looping, ``fps``).

    A frame's pixels that equal the last frame's keep their index; only the others are
    mapped (a frame of the race changes a few percent of its pixels).
    """

    def __init__(self, path: Path, fps: float, palette: np.ndarray) -> None:
        self.path, self.duration = Path(path), 1000 / fps
        self.palette = palette
        self.table = color_table(palette)
        self.frames: list[np.ndarray] = []
        self.last: np.ndarray | None = None  # the last frame's pixels
        self.closed = False

    def append_data(self, frame: QImage | np.ndarray) -> None:
        """Add a frame (a QImage, or RGB uint8 h × w × 3): mapped to the palette now."""
        pixels = rgb32(frame)
        if self.last is None or self.last.shape != pixels.shape:
            index = nearest(pixels, self.table)
        else:
            changed = pixels != self.last
            index = self.frames[-1].copy()
            if changed.any():
                index[changed] = nearest(pixels[changed], self.table)
        self.last = pixels
        self.frames.append(index)

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
