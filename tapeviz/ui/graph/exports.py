"""Writing the graph view's scene to files: PNG at any scale, SVG."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF, QSize
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsScene

from tapeviz.ui.theme import Theme


def write_png(scene: QGraphicsScene, theme: Theme, path: str | Path, scale: float = 2.0) -> Path:
    """Render the whole scene to a PNG at ``scale`` × its natural size."""
    rect = scene.itemsBoundingRect().adjusted(-20, -20, 20, 20)
    size = QSize(max(1, int(rect.width() * scale)), max(1, int(rect.height() * scale)))
    image = QImage(size, QImage.Format.Format_ARGB32)
    image.fill(QColor(theme.background))
    painter = QPainter(image)
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    scene.render(painter, QRectF(0, 0, size.width(), size.height()), rect)
    painter.end()
    out = Path(path)
    if not image.save(str(out), "PNG"):
        raise OSError(f"cannot write {out}")
    return out


def write_svg(scene: QGraphicsScene, theme: Theme, path: str | Path) -> Path:
    """Write the scene as SVG (QSvgGenerator; pyqtgraph's exporter is broken on Qt 6.11)."""
    rect = scene.itemsBoundingRect().adjusted(-20, -20, 20, 20)
    out = Path(path)
    gen = QSvgGenerator()
    gen.setFileName(str(out))
    gen.setSize(QSize(int(rect.width()), int(rect.height())))
    gen.setViewBox(QRectF(0, 0, rect.width(), rect.height()))
    gen.setTitle("tapeviz graph")
    painter = QPainter()
    if not painter.begin(gen):
        raise OSError(f"cannot write {out}")
    painter.fillRect(QRectF(0, 0, rect.width(), rect.height()), QColor(theme.background))
    scene.render(painter, QRectF(0, 0, rect.width(), rect.height()), rect)
    painter.end()
    return out
