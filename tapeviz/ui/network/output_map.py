"""The output over the input plane with the data on it: Playground's large decision boundary.

The output neuron's grid is drawn as a heat map filling the largest square that fits (drawn
once as a small QImage, scaled smoothly); training points are filled discs, test points hollow
rings, both in their label's colour with a thin contrasting edge so they stand out on the
fill. "Discretize" shows the sign only. A title (the optimizer in a race) and a note (a
diverged run) can sit on top.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QImage, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from tapeviz.ui.network.heat import colour_table, heat_image, indices
from tapeviz.ui.theme import LIGHT, Theme


class OutputMap(QWidget):
    """A square heat map of the output with the training (filled) and test (hollow) points."""

    def __init__(self, parent: QWidget | None = None, minimum: int = 120) -> None:
        super().__init__(parent)
        self.setObjectName("networkOutputMap")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.minimum = minimum
        self.stale = False  # changed since last painted (an update is pending)
        self.theme, self.scale = LIGHT, 1.0
        self.table = colour_table(LIGHT)
        self.grid: np.ndarray | None = None
        self.image = QImage()
        self.data: Any = None
        self.show_test = False
        self.discretize = False
        self.title = ""
        self.title_colour = ""
        self.note = ""
        self._cache: tuple[Any, QImage] = (None, QImage())  # the points, drawn once per size

    def sizeHint(self) -> QSize:
        """A square."""
        side = round(self.minimum * 2 * max(1.0, self.scale))
        return QSize(side, side)

    def minimumSizeHint(self) -> QSize:
        """Small enough for six side by side."""
        return QSize(self.minimum, self.minimum)

    def restyle(self, theme: Theme, scale: float) -> None:
        """Theme colours and the presenter scale (points and lines grow)."""
        self.theme, self.scale = theme, float(scale)
        self.table = colour_table(theme)
        self._make_image()

    def set_data(self, data: Any) -> None:
        """The data set (its points and plane)."""
        self.data = data
        self._changed()

    def set_output(self, grid: np.ndarray | None) -> None:
        """The output neuron over the plane (res × res, row 0 at the top); None: blank."""
        self.grid = grid
        self._make_image()

    def set_options(self, show_test: bool, discretize: bool) -> None:
        """Show the test points too; show only the sign of the output."""
        self.show_test, self.discretize = show_test, discretize
        self._make_image()

    def set_title(self, title: str, colour: str = "", note: str = "") -> None:
        """A title (and its colour) above the map and a note over it (a diverged run)."""
        self.title, self.title_colour, self.note = title, colour, note
        self._changed()

    def _make_image(self) -> None:
        g = self.grid
        if g is None or not np.isfinite(g).any():
            self.image = QImage()
        else:
            self.image = heat_image(g, self.table, self.discretize)
        self._changed()

    def _changed(self) -> None:
        self.stale = True  # (until painted: the panel's frame repaint may already have)
        self.update()

    def plot_rect(self) -> QRectF:
        """The square the map fills."""
        m = self.fontMetrics()
        top = m.height() + 4 if self.title else 2
        r = self.devicePixelRatioF()
        # whole device pixels: the points' image at a fractional place would be resampled
        side = math.floor(max(10, min(self.width() - 4, self.height() - top - 2)) * r) / r
        left = round((self.width() - side) / 2 * r) / r
        return QRectF(left, round(top * r) / r, side, side)

    def paintEvent(self, event: QPaintEvent) -> None:
        """Qt override: the map, the points, the frame, the title and the note."""
        self.stale = False
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        rect = self.plot_rect()
        theme = self.theme
        if self.image.isNull():
            p.fillRect(rect, QColor(theme.background))
        else:
            p.drawImage(rect, self.image)
        p.drawImage(rect.topLeft(), self._points(rect))
        p.setPen(QPen(QColor(theme.edge), 1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(rect)
        if self.title:
            p.setPen(QColor(self.title_colour or theme.text))
            f = p.font()
            f.setBold(True)
            p.setFont(f)
            title = QFontMetrics(f).elidedText(self.title, Qt.TextElideMode.ElideRight,
                                               self.width() - 4)  # fmt: skip
            p.drawText(QRectF(0, 0, self.width(), self.fontMetrics().height() + 4),
                       Qt.AlignmentFlag.AlignCenter, title)  # fmt: skip
        if self.note:
            p.setPen(QColor(theme.warning))
            box = rect.adjusted(6, 6, -6, -6)
            back = QColor(theme.background)
            back.setAlpha(215)
            flags = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap
            bounds = p.boundingRect(box, flags, self.note)
            p.fillRect(bounds.adjusted(-4, -2, 4, 2), back)
            p.drawText(box, flags, self.note)
        p.end()

    def _points(self, rect: QRectF) -> QImage:
        """The points on a transparent image (they stay while the map changes)."""
        ratio = self.devicePixelRatioF()
        key = (rect.size().toTuple(), self.show_test, self.theme.name, self.scale, ratio)
        cached = self._cache[0]
        if cached is not None and cached[0] is self.data and cached[1] == key:
            return self._cache[1]
        image = QImage(round(rect.width() * ratio), round(rect.height() * ratio),
                       QImage.Format.Format_ARGB32_Premultiplied)  # fmt: skip
        image.setDevicePixelRatio(ratio)
        image.fill(Qt.GlobalColor.transparent)
        p = QPainter(image)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        self._draw_points(p, QRectF(0, 0, rect.width(), rect.height()))
        p.end()
        self._cache = ((self.data, key), image)
        return image

    def _draw_points(self, p: QPainter, rect: QRectF) -> None:
        data = self.data
        if data is None:
            return
        (x0, x1), (y0, y1) = data.x_range, data.y_range
        r = max(2.0, min(4.0 * self.scale, rect.width() / 70))
        edge = QColor("#202020" if self.theme.name == "light" else "#F0F0F0")
        edge_w = max(0.8, 0.6 * self.scale)
        sets = [(data.train_x, data.train_y, True)]
        if self.show_test:
            sets.append((data.test_x, data.test_y, False))
        for xy, labels, filled in sets:
            if len(xy) == 0:
                continue
            px = rect.left() + (xy[:, 0] - x0) / (x1 - x0) * rect.width()
            py = rect.top() + (y1 - xy[:, 1]) / (y1 - y0) * rect.height()
            rows = indices(labels)
            for x, y, row in zip(px.tolist(), py.tolist(), rows.tolist(), strict=True):
                if not (math.isfinite(x) and math.isfinite(y)) or not rect.contains(x, y):
                    continue
                colour = QColor.fromRgba(int(self.table[row]))
                centre = QPointF(x, y)
                if filled:
                    p.setPen(QPen(edge, edge_w))
                    p.setBrush(colour)
                    p.drawEllipse(centre, r, r)
                else:  # a ring in the label's colour between two thin edges
                    p.setBrush(Qt.BrushStyle.NoBrush)
                    p.setPen(QPen(edge, r * 0.9 + 2 * edge_w))
                    p.drawEllipse(centre, r, r)
                    p.setPen(QPen(colour, r * 0.9))
                    p.drawEllipse(centre, r, r)
