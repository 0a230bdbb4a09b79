"""A GIF writer on one fixed palette: each frame is Qt's nearest-colour mapping, not a quantisation.

The palette is chosen once (Pillow's median cut of a representative frame, 128 colours). Each
frame's pixels are then mapped to it by ``QImage.convertToFormat(Format_Indexed8, palette)``:
every pixel goes to its nearest palette entry, undithered, in C++. Only the pixels that changed
since the last frame are mapped; the others keep their index, so unchanged pixels stay
identical from frame to frame, and each frame stores only the box of what moved (Pillow's LZW
encodes it).
"""

from __future__ import annotations

import struct
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


def rgb32(frame: QImage | np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """The (h, w) uint32 0xffRRGGBB pixels of a frame: a copy, into ``out`` if it fits."""
    image = as_image(frame)
    if image.format() != QImage.Format.Format_RGB32:
        image = image.convertToFormat(QImage.Format.Format_RGB32)
    w, h = image.width(), image.height()
    rows = np.frombuffer(image.constBits(), np.uint32).reshape(h, image.bytesPerLine() // 4)
    if out is not None and out.shape == (h, w):
        np.copyto(out, rows[:, :w])  # a reused buffer: no new pages to fault in
        return out
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


def header(width: int, height: int, palette: np.ndarray, entries: int) -> bytes:
    """A looping GIF89a header: the screen and a global table of ``entries`` (a power of 2)."""
    table = np.zeros((entries, 3), np.uint8)
    table[: len(palette)] = palette
    bits = entries.bit_length() - 2  # 2 ** (bits + 1) entries
    screen = struct.pack("<6sHHBBB", b"GIF89a", width, height, 0xF0 | bits, 0, 0)
    loop = b"!\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", 0) + b"\x00"
    return screen + table.tobytes() + loop


def fitted(pixels: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """``pixels`` cropped or padded with white to ``shape`` (a GIF's frames share one size)."""
    if pixels.shape == shape:
        return pixels
    out = np.full(shape, 0xFFFFFFFF, np.uint32)
    h, w = min(shape[0], pixels.shape[0]), min(shape[1], pixels.shape[1])
    out[:h, :w] = pixels[:h, :w]
    return out


class GifWriter:
    """``append_data(frame)`` frame by frame, ``close()`` writes the file (looping, ``fps``).

    A frame's pixels that equal the last frame's keep their index; only the others are
    mapped (a frame of the race changes a few percent of its pixels). Each frame is encoded
    at once as the box of what changed, its unchanged pixels transparent over the last frame
    (what Pillow's ``optimize`` does, without comparing whole frames again at the end).
    """

    def __init__(self, path: Path, fps: float, palette: np.ndarray) -> None:
        if not 0 < len(palette) < 256:  # one index is left for "transparent"
            raise ValueError(f"a GIF palette of {len(palette)} colours (1 to 255)")
        self.path, self.duration = Path(path), 1000 / fps
        self.palette = palette
        self.table = color_table(palette)
        self.clear = len(palette)  # the transparent index: one past the palette's colours
        self.entries = max(2, 1 << self.clear.bit_length())  # a power of 2 above it
        self.chunks: list[bytes] = []  # the encoded frames, written at close()
        self.last: np.ndarray | None = None  # the last frame's pixels
        self.index: np.ndarray | None = None  # and their palette indices
        self.spare: tuple[np.ndarray | None, np.ndarray | None] = (None, None)  # reused for both
        self.frames = 0
        self.closed = False

    def append_data(self, frame: QImage | np.ndarray) -> None:
        """Add a frame (a QImage, or RGB uint8 h × w × 3): mapped to the palette and encoded."""
        spare_pixels, spare_index = self.spare
        pixels = rgb32(frame, spare_pixels)
        if self.last is None or self.index is None:
            index = nearest(pixels, self.table)
            h, w = index.shape
            self.chunks.append(header(w, h, self.palette, self.entries))
            self._encode(index, (0, 0), None)
            self.last, self.index = pixels, index
            self.spare = (np.empty_like(pixels), np.empty_like(index))
            self.frames += 1
            return
        pixels = fitted(pixels, self.last.shape)  # the area was resized mid-export
        where = np.flatnonzero(pixels != self.last)  # ascending: row by row
        index = self.index
        if not where.size:  # nothing moved: one transparent pixel keeps the frame's time
            self._encode(np.full((1, 1), self.clear, np.uint8), (0, 0), self.clear)
        else:
            index = spare_index if spare_index is not None else np.empty_like(self.index)
            np.copyto(index, self.index)
            index.reshape(-1)[where] = nearest(pixels.reshape(-1)[where], self.table)
            width = pixels.shape[1]
            top, bottom = int(where[0]) // width, int(where[-1]) // width + 1
            cols = where % width
            left, right = int(cols.min()), int(cols.max()) + 1
            part = index[top:bottom, left:right].copy()
            part[part == self.index[top:bottom, left:right]] = self.clear
            self._encode(part, (left, top), self.clear)
        # The frame before last is free now: its buffers take the next frame.
        self.spare = (self.last, self.index if index is not self.index else spare_index)
        self.last, self.index = pixels, index
        self.frames += 1

    def _encode(self, index: np.ndarray, offset: tuple[int, int], clear: int | None) -> None:
        """One frame's image block (Pillow's LZW), left in place for the next (disposal 1)."""
        from PIL import GifImagePlugin, Image  # Pillow comes with imageio

        image = Image.fromarray(np.ascontiguousarray(index), mode="P")
        params: dict[str, int | float] = {"duration": self.duration, "disposal": 1}
        if clear is not None:
            params["transparency"] = clear
        self.chunks.extend(GifImagePlugin.getdata(image, offset, **params))

    def close(self) -> None:
        """Write the file (OSError if it cannot be written); nothing happens a second time."""
        if self.closed:
            return
        self.closed = True
        if not self.chunks:
            return
        chunks, self.chunks = self.chunks, []
        with open(self.path, "wb") as f:
            f.writelines(chunks)
            f.write(b";")
