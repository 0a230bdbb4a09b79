"""Exporting plots: a widget as PNG or SVG, and a played-back cursor as a GIF or MP4 animation.

Shared by everything that plays steps back (the optimization studio, a script's timeline): the
player is anything with a cursor (:class:`Player`), the frames are renderings of one widget.
Animations are rendered frame by frame on the UI thread (rendering needs it) from a zero-delay
timer, so the window keeps repainting and Cancel works. Each frame goes to its writer:
:mod:`tapeviz.ui.plots.gif` maps it onto one undithered palette and encodes what changed
(small files; Pillow's LZW), :mod:`tapeviz.ui.plots.video` pipes its pixels to ffmpeg from
a thread, overlapping the next render. SVG uses QSvgGenerator and each plot's
``scene().render`` (pyqtgraph's own SVG exporter is broken on Qt ≥ 6.11).
"""

from __future__ import annotations

import contextlib
import time
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QObject, QPoint, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsItem, QWidget

from tapeviz.ui.plots.gif import GifWriter, palette_of
from tapeviz.ui.plots.layers import Layers
from tapeviz.ui.plots.title import export_titles
from tapeviz.ui.plots.video import VideoWriter

FILTERS = {
    "gif": "GIF (*.gif)",
    "mp4": "MP4 (*.mp4)",
    "png": "PNG (*.png)",
    "svg": "SVG (*.svg)",
    "csv": "CSV (*.csv)",
}
FPS = {"gif": 20, "mp4": 30}
MAX_SECONDS = {"gif": 4, "mp4": 4}  # the animation's default length: the race, sampled
MAX_FRAMES = {kind: FPS[kind] * seconds for kind, seconds in MAX_SECONDS.items()}  # 80, 120
TICK_S = 0.03  # frames rendered per timer tick for about this long (one screen repaint)
NO_CACHE = QGraphicsItem.CacheMode.NoCache
DEPTH = 3  # frames waiting for the encoder's thread at most
GIF_WIDTH = 720  # px: GIF frames are scaled down to keep files small
translate = QCoreApplication.translate  # the studio's sentences, shared


class Player(Protocol):
    """What an animation needs of the view it films: a cursor to move and a status line.

    It is a QObject: the exporter is its child.
    """

    k: int
    busyChanged: Any  # Signal(bool): the player counts as busy while an animation renders

    def pause(self) -> None:
        """Stop the playback."""

    def show_step(self, k: int) -> None:
        """Draw step ``k`` (a frame: nothing else follows the cursor)."""

    def set_step(self, k: int) -> None:
        """Move the cursor to step ``k`` (and tell whoever follows it)."""

    def show_status(self, text: str) -> None:
        """Show ``text`` in the player's status line."""


@contextlib.contextmanager
def uncached(widget: QWidget) -> Iterator[None]:
    """Draw every plot item afresh (cached items would be pasted as screen-sized bitmaps)."""
    cached = [
        item
        for plot in widget.findChildren(pg.PlotWidget)
        for item in plot.scene().items()
        if item.cacheMode() != NO_CACHE
    ]
    for item in cached:
        item.setCacheMode(NO_CACHE)
    try:
        yield
    finally:
        for item in cached:
            item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)


def render_image(widget: QWidget, scale: float = 1.0) -> QImage:
    """The widget (and its children) rendered into an image, ``scale`` × its size."""
    size = widget.size()
    image = QImage(
        QSize(round(size.width() * scale), round(size.height() * scale)), QImage.Format.Format_RGB32
    )
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    painter.scale(scale, scale)
    with uncached(widget) if scale != 1 else contextlib.nullcontext():
        QWidget.render(widget, painter, QPoint(0, 0))  # QWidget's, also for graphics views
    painter.end()
    return image


def svg_painter(gen: QSvgGenerator, path: Path) -> QPainter:
    """A painter on ``gen``; OSError if the file cannot be written (Qt would only warn)."""
    painter = QPainter()
    if not painter.begin(gen):
        raise OSError(f"cannot write {path}")
    return painter


def render_svg(widget: QWidget, path: Path, background: str, title: str = "tapeviz") -> Path:
    """Every visible plot of ``widget`` as vectors, placed as on screen."""
    gen = QSvgGenerator()
    gen.setFileName(str(path))
    gen.setSize(widget.size())
    gen.setViewBox(QRectF(0, 0, widget.width(), widget.height()))
    gen.setTitle(title)
    painter = svg_painter(gen, path)
    painter.fillRect(QRectF(0, 0, widget.width(), widget.height()), QColor(background))
    with uncached(widget):
        for plot in widget.findChildren(pg.PlotWidget):
            if not plot.isVisible():
                continue
            corner = plot.mapTo(widget, QPoint(0, 0))
            target = QRectF(corner.x(), corner.y(), plot.width(), plot.height())
            source = plot.mapToScene(plot.viewport().rect()).boundingRect()
            plot.scene().render(painter, target, source)
    painter.end()
    return path


def write_still(kind: str, widget: QWidget, path: Path, background: str, title: str) -> Path:
    """``kind`` ``"png"`` (2× the widget's size) or ``"svg"`` of ``widget`` at ``path``."""
    if kind not in ("png", "svg"):
        raise ValueError(f"not a still image: {kind!r}")
    restore = export_titles(widget)  # "Loss surface", not "… (click to start)"
    try:
        if kind == "svg":
            return render_svg(widget, path, background, title)
        if not render_image(widget, 2.0).save(str(path), "PNG"):
            raise OSError(f"cannot write {path}")
        return path
    finally:
        restore()


def frame_steps(length: int, frames: int) -> list[int]:
    """Evenly spread steps from 0 to ``length`` (both ends included, no repeats)."""
    return sorted({round(v) for v in np.linspace(0, length, min(frames, length + 1))})


def pixels(image: QImage) -> np.ndarray:
    """An (h, w) uint32 array of 0xAARRGGBB pixels of a QImage (a copy)."""
    rgb = image.convertToFormat(QImage.Format.Format_RGB32)
    w, h = rgb.width(), rgb.height()
    arr = np.frombuffer(rgb.constBits(), np.uint32).reshape(h, rgb.bytesPerLine() // 4)
    return arr[:, :w].copy()


def scaled(image: QImage, width: int | None, into: QImage | None = None) -> QImage:
    """``image`` scaled down to ``width`` pixels, filtered (as it is if None or narrower).

    Drawn with bilinear filtering, as a view draws a scaled picture: a frame in under a
    millisecond, where ``QImage.scaled``'s area average took 2–4 ms (for the ~0.7 of a GIF
    frame the two differ by 1 level on average, and look alike). Below half size, where
    bilinear filtering skips pixels (thin lines would flicker), the area average. ``into`` is
    an image to paint over (reused, no allocation) if it has the scaled size.
    """
    if width is None or image.width() <= width:
        return image
    if image.width() > 2 * width:  # bilinear drops thin lines below half size: average areas
        return image.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation)
    height = max(1, round(image.height() * width / image.width()))
    out = into
    if out is None or out.size() != QSize(width, height):
        out = QImage(width, height, QImage.Format.Format_RGB32)
    painter = QPainter(out)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
    painter.drawImage(QRectF(0, 0, width, height), image, QRectF(image.rect()))
    painter.end()
    return out


class Encoder:
    """The writer's ``append_data`` in a thread, so encoding overlaps the next frame's render.

    Frames keep their order; at most ``depth`` wait. An encoder error surfaces at the next
    :meth:`put` or at :meth:`drain`. With ``thread=False`` each frame is written at once: for
    writers whose work is Qt's (PySide keeps the GIL through it, so a thread only adds waits).
    """

    def __init__(self, writer: Any, depth: int = DEPTH, thread: bool = True) -> None:
        self.writer, self.depth = writer, depth
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="tapeviz-encoder") if thread else None
        self.pending: deque[Future[None]] = deque()

    def put(self, frame: Any) -> None:
        """Queue one frame (blocks while ``depth`` frames wait)."""
        if self.pool is None:
            self.writer.append_data(frame)
            return
        while self.pending and (self.pending[0].done() or len(self.pending) >= self.depth):
            self.pending.popleft().result()  # raises the encoder's error
        self.pending.append(self.pool.submit(self.writer.append_data, frame))

    def drain(self) -> None:
        """Wait for every queued frame; the first error is raised."""
        if self.pool is None:
            return
        try:
            while self.pending:
                self.pending.popleft().result()
        finally:
            for f in self.pending:
                f.cancel()
            self.pending.clear()
            self.pool.shutdown(wait=True)


class AnimationExport(QObject):
    """Plays a player's steps 0 … ``length`` into a GIF or MP4, one frame per timer tick."""

    progress = Signal(float)
    finished = Signal(str)  # the path
    failed = Signal(str)

    def __init__(
        self,
        player: Player,
        area: QWidget,
        length: int,
        path: Path,
        kind: str,
        frames: int | None = None,
        width: int | None = None,
    ) -> None:
        super().__init__(player)  # type: ignore[arg-type]
        if not path.parent.is_dir() or path.is_dir():  # the writers would fail only at the end
            raise OSError(f"cannot write {path}")
        self.player, self.area, self.path, self.kind = player, area, path, kind
        self.width = width or (GIF_WIDTH if kind == "gif" else None)
        self.steps = frame_steps(length, frames or MAX_FRAMES[kind])
        self.index = 0
        self.restore = player.k
        self.cancelled = False
        self.restore_titles = export_titles(area)  # the frames' titles: no "(click to start)"
        try:
            self._prepare(area, path, kind)
        except BaseException:
            self.restore_titles()
            raise

    def _prepare(self, area: QWidget, path: Path, kind: str) -> None:
        self.layers = Layers.of(area, render_image)  # None: whole renders
        # The frames, painted in turn: at full size, and scaled to the export's width.
        self.buffers = [QImage() for _ in range(DEPTH + 1)]
        self.small = [QImage() for _ in range(DEPTH + 1)]
        self.rendered = 0
        fps = FPS[kind]
        self.writer: Any
        if kind == "gif":  # one palette for all frames, from the last (fullest) one
            last = pixels(self.frame(self.steps[-1]))
            rgb = np.stack([(last >> 16) & 255, (last >> 8) & 255, last & 255], axis=-1)
            self.writer = GifWriter(path, fps, palette_of(rgb.astype(np.uint8)))
        else:
            self.writer = VideoWriter(path, fps)
        # A GIF frame's palette mapping is Qt's (it keeps the GIL); an MP4's goes down a pipe.
        self.encoder = Encoder(self.writer, thread=kind == "mp4")
        self.tick_s = TICK_S  # longer where no window shows (the command line's export)
        self.timer = QTimer(self)
        self.timer.setInterval(0)
        self.timer.timeout.connect(self._on_timer_timeout)

    def start(self) -> None:
        """Begin; the player pauses and reports progress."""
        self.player.pause()
        self.player.busyChanged.emit(True)
        self.timer.start()

    def cancel(self) -> None:
        """Stop and close the file (what was written stays)."""
        self.cancelled = True

    def _on_timer_timeout(self) -> None:
        """Render frames for about ``tick_s``, then let the window repaint (and Cancel work).

        The frames of one tick share one hiding of the plots' still items (``Layers.held``).
        """
        until = time.perf_counter() + self.tick_s
        failure: Exception | None = None
        with self.layers.held() if self.layers is not None else contextlib.nullcontext():
            while True:
                if self.cancelled or self.index >= len(self.steps):
                    break
                try:
                    self.encoder.put(self.frame(self.steps[self.index]))
                except Exception as exc:  # an encoder failure must not leave the player busy
                    failure = exc
                    break
                self.index += 1
                if time.perf_counter() >= until:
                    break
        if failure is not None:  # (out of the hold: the window may paint again)
            self._fail(failure)
            return
        if self.cancelled or self.index >= len(self.steps):
            self._finish()
            return
        fraction = self.index / len(self.steps)
        self.progress.emit(fraction)
        self.player.show_status(
            translate("OptimizationStudio", "Exporting {name}… {percent} %").format(
                name=self.path.name, percent=round(100 * fraction)
            )
        )

    def frame(self, k: int) -> QImage:
        """Step k of the area at the export's width, for the writer.

        A GIF's frames all go on one palette, undithered (:mod:`tapeviz.ui.plots.gif`):
        unchanged pixels stay identical, so the file stores mostly what moved.
        """
        self.player.show_step(k)
        # A frame handed to the encoder is painted over only after DEPTH later frames were
        # queued: by then it was written (the encoder holds at most DEPTH).
        slot = self.rendered % len(self.buffers)
        self.rendered += 1
        if self.layers is None:
            image = render_image(self.area)
        else:
            image = self.buffers[slot] = self.layers.render(self.buffers[slot])
        small = scaled(image, self.width, self.small[slot])
        if small is not image:
            self.small[slot] = small
        return small

    def _fail(self, exc: BaseException) -> None:
        """Stop, close what can be closed, and report (the player is never left busy)."""
        self.timer.stop()
        self.restore_titles()
        with contextlib.suppress(Exception):
            self.encoder.drain()
        with contextlib.suppress(Exception):
            self.writer.close()
        with contextlib.suppress(Exception):  # else its __del__ tries (and fails) once more
            self.writer.closed = True
        self.player.set_step(self.restore)
        self.player.busyChanged.emit(False)
        self.failed.emit(str(exc))
        self.player.show_status(
            translate("OptimizationStudio", "Export failed: {error}").format(error=exc)
        )

    def _finish(self) -> None:
        self.timer.stop()
        self.restore_titles()
        try:
            self.encoder.drain()  # the frames still being encoded
            self.writer.close()  # a GIF is written only now: this is where a bad path fails
        except Exception as exc:
            self._fail(exc)
            return
        self.player.set_step(self.restore)
        self.player.busyChanged.emit(False)
        self.player.show_status(
            translate("OptimizationStudio", "Exported {name}.").format(name=self.path.name)
        )
        self.finished.emit(str(self.path))
