"""The studio's exports: the animation (GIF, MP4), the plots (PNG, SVG), the histories (CSV).

Animations are rendered frame by frame on the UI thread (rendering needs it) from a zero-delay
timer, so the window keeps repainting and Cancel works; frames go straight to imageio's
writer (imageio-ffmpeg for MP4). GIF frames share one undithered palette (Pillow, which
imageio brings), which keeps files small. SVG uses QSvgGenerator and each plot's ``scene().render``
(pyqtgraph's own SVG exporter is broken on Qt ≥ 6.11).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QObject, QPoint, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QFileDialog, QGraphicsItem, QWidget

from tapeviz.models.descent.runs import Race, write_csv
from tapeviz.ui.studio.optimizer_panel import translate
from tapeviz.ui.theme import Theme

FILTERS = {
    "gif": "GIF (*.gif)",
    "mp4": "MP4 (*.mp4)",
    "png": "PNG (*.png)",
    "svg": "SVG (*.svg)",
    "csv": "CSV (*.csv)",
}
FPS = {"gif": 20, "mp4": 30}
MAX_FRAMES = {"gif": 120, "mp4": 300}
NO_CACHE = QGraphicsItem.CacheMode.NoCache
GIF_WIDTH = 720  # px: GIF frames are scaled down to keep files small


class Studio(Protocol):
    """What an export needs of the studio: the race and its cursor, the plots, the status line.

    :class:`~tapeviz.ui.studio.studio.OptimizationStudio` is one; this module never imports it.
    It is a QObject: an animation's exporter is its child.
    """

    race: Race | None
    k: int
    plot_area: QWidget
    theme: Theme
    busyChanged: Any  # Signal(bool): an animation keeps the studio busy while it renders

    def pause(self) -> None:
        """Stop the playback."""

    def show_step(self, k: int) -> None:
        """Draw step ``k`` (no tape signal)."""

    def set_step(self, k: int) -> None:
        """Move the cursor to step ``k``."""

    def show_status(self, text: str) -> None:
        """Show ``text`` in the studio's status line."""


def export(studio: Studio, kind: str, path: str | Path | None = None, **options: Any) -> Any:
    """Ask for a file name if none is given, then export; returns the path or the exporter.

    Animations take ``frames`` (how many) and ``width`` (pixels) options.
    """
    if kind not in FILTERS:
        raise ValueError(f"unknown export {kind!r}: choose one of {', '.join(FILTERS)}")
    if studio.race is None:
        studio.show_status(
            translate(
                "OptimizationStudio", "Nothing to export yet: the runs are still being computed."
            )
        )
        return None
    if path is None:
        chosen, _ = QFileDialog.getSaveFileName(
            studio, translate("OptimizationStudio", "Export"), f"descent.{kind}", FILTERS[kind]
        )
        if not chosen:
            return None
        path = chosen
    path = Path(path)
    if kind == "csv":
        write_csv(studio.race, path)
    elif kind == "png":
        if not render_image(studio.plot_area, 2.0).save(str(path), "PNG"):
            raise OSError(f"cannot write {path}")
    elif kind == "svg":
        render_svg(studio.plot_area, path, studio.theme.background)
    else:
        exporter = AnimationExport(studio, path, kind, **options)
        exporter.start()
        return exporter
    studio.show_status(translate("OptimizationStudio", "Exported {name}.").format(name=path.name))
    return path


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


def render_svg(widget: QWidget, path: Path, background: str) -> Path:
    """Every visible plot of ``widget`` as vectors, placed as on screen."""
    gen = QSvgGenerator()
    gen.setFileName(str(path))
    gen.setSize(widget.size())
    gen.setViewBox(QRectF(0, 0, widget.width(), widget.height()))
    gen.setTitle("tapeviz optimization studio")
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


def svg_painter(gen: QSvgGenerator, path: Path) -> QPainter:
    """A painter on ``gen``; OSError if the file cannot be written (Qt would only warn)."""
    painter = QPainter()
    if not painter.begin(gen):
        raise OSError(f"cannot write {path}")
    return painter


def frame_steps(length: int, frames: int) -> list[int]:
    """Evenly spread steps from 0 to ``length`` (both ends included, no repeats)."""
    return sorted({round(v) for v in np.linspace(0, length, min(frames, length + 1))})


def image_array(image: QImage, even: bool) -> np.ndarray:
    """An RGB uint8 array of a QImage (cropped to even sizes for video)."""
    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    w, h = rgb.width(), rgb.height()
    arr = np.frombuffer(rgb.constBits(), np.uint8).reshape(h, rgb.bytesPerLine())[:, : 3 * w]
    arr = arr.reshape(h, w, 3)
    if even:
        arr = arr[: h - h % 2, : w - w % 2]
    return arr.copy()


class AnimationExport(QObject):
    """Plays the race into a GIF or MP4, one frame per timer tick."""

    progress = Signal(float)
    finished = Signal(str)  # the path
    failed = Signal(str)

    def __init__(
        self,
        studio: Studio,
        path: Path,
        kind: str,
        frames: int | None = None,
        width: int | None = None,
    ) -> None:
        super().__init__(studio)
        import imageio.v2 as imageio

        assert studio.race is not None
        if not path.parent.is_dir() or path.is_dir():  # imageio would fail only at the end
            raise OSError(f"cannot write {path}")
        self.studio, self.path, self.kind = studio, path, kind
        self.width = width or (GIF_WIDTH if kind == "gif" else None)
        self.steps = frame_steps(studio.race.length, frames or MAX_FRAMES[kind])
        self.index = 0
        self.restore = studio.k
        self.cancelled = False
        fps = FPS[kind]
        if kind == "gif":
            self.writer = imageio.get_writer(path, mode="I", duration=1000 / fps, loop=0)
        else:
            self.writer = imageio.get_writer(
                path, fps=fps, codec="libx264", quality=7, macro_block_size=2
            )
        self.palette: Any = None
        if kind == "gif":  # one palette for all frames, from the last (fullest) one
            from PIL import Image  # Pillow comes with imageio

            last = Image.fromarray(self.frame(self.steps[-1]))
            self.palette = last.quantize(colors=128, dither=Image.Dither.NONE)
        self.timer = QTimer(self)
        self.timer.setInterval(0)
        self.timer.timeout.connect(self._on_timer_timeout)

    def start(self) -> None:
        """Begin; the studio pauses and reports progress."""
        self.studio.pause()
        self.studio.busyChanged.emit(True)
        self.timer.start()

    def cancel(self) -> None:
        """Stop and close the file (what was written stays)."""
        self.cancelled = True

    def _on_timer_timeout(self) -> None:
        if self.cancelled or self.index >= len(self.steps):
            self._finish()
            return
        try:
            self.writer.append_data(self.frame(self.steps[self.index]))
        except Exception as exc:  # an encoder failure must not leave the studio busy
            self._fail(exc)
            return
        self.index += 1
        fraction = self.index / len(self.steps)
        self.progress.emit(fraction)
        self.studio.show_status(
            translate("OptimizationStudio", "Exporting {name}… {percent} %").format(
                name=self.path.name, percent=round(100 * fraction)
            )
        )

    def frame(self, k: int) -> np.ndarray:
        """Step k of the plots as an RGB array."""
        self.studio.show_step(k)
        image = render_image(self.studio.plot_area)
        if self.width is not None and image.width() > self.width:
            image = image.scaledToWidth(self.width, Qt.TransformationMode.SmoothTransformation)
        frame = image_array(image, even=self.kind == "mp4")
        if self.kind == "gif" and getattr(self, "palette", None) is not None:
            # Every frame on the same palette, undithered: unchanged pixels stay identical,
            # so the GIF stores mostly what moved (a few hundred kB instead of megabytes).
            from PIL import Image

            shared = Image.fromarray(frame).quantize(palette=self.palette, dither=Image.Dither.NONE)
            frame = np.asarray(shared.convert("RGB"))
        return frame

    def _fail(self, exc: BaseException) -> None:
        """Stop, close what can be closed, and report (the studio is never left busy)."""
        self.timer.stop()
        with contextlib.suppress(Exception):
            self.writer.close()
        with contextlib.suppress(Exception):  # else its __del__ tries (and fails) once more
            self.writer.closed = True
        self.studio.set_step(self.restore)
        self.studio.busyChanged.emit(False)
        self.failed.emit(str(exc))
        self.studio.show_status(
            translate("OptimizationStudio", "Export failed: {error}").format(error=exc)
        )

    def _finish(self) -> None:
        self.timer.stop()
        try:
            self.writer.close()  # a GIF is written only now: this is where a bad path fails
        except Exception as exc:
            self._fail(exc)
            return
        self.studio.set_step(self.restore)
        self.studio.busyChanged.emit(False)
        self.studio.show_status(
            translate("OptimizationStudio", "Exported {name}.").format(name=self.path.name)
        )
        self.finished.emit(str(self.path))
