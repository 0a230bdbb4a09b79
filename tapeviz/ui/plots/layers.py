"""Animation frames in two layers: plots' still parts rendered once, their moving parts per frame.

A frame of a race moves a few items (paths, markers, the cursor) over plots whose axes, surface,
contours and faint histories stay put. Each plot names its moving items (``moving_items()``)
and bumps its ``revision`` whenever anything else of it changes (a new race, a theme).
The area is rendered once with those hidden; each frame then renders only the moving items,
and any still item stacked above them where they can paint, onto a copy of that background,
with a whole render's transforms, render hints and stacking order, so the pixels are the same
(tests compare them). Hiding is by opacity 0, not visibility (a legend's sample mirrors its
item's visibility), and lasts only while one frame renders, or the frames of one timer tick
(``held``): the window never paints it. An area
with a widget the layers cannot vouch for (one that paints itself, a plot without
``moving_items`` and ``revision``) is rendered whole instead.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Container, Iterator
from typing import Any

import pyqtgraph as pg
import shiboken6
from PySide6.QtCore import QPoint, QRectF, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import (
    QGraphicsItem,
    QSplitter,
    QSplitterHandle,
    QStackedWidget,
    QWidget,
)

CLIPS = QGraphicsItem.GraphicsItemFlag.ItemClipsChildrenToShape
OWN_OPACITY = QGraphicsItem.GraphicsItemFlag.ItemDoesntPropagateOpacityToChildren
CONTAINERS = (QSplitter, QSplitterHandle, QStackedWidget)  # Qt's own, painting no data


def subtree(item: QGraphicsItem) -> list[QGraphicsItem]:
    """``item`` and all its descendants."""
    out = [item]
    for child in item.childItems():
        out.extend(subtree(child))
    return out


def ancestors(item: QGraphicsItem) -> list[QGraphicsItem]:
    """``item``'s parent, its parent's parent, … up to a top-level item."""
    out = []
    parent = item.parentItem()
    while parent is not None:
        out.append(parent)
        parent = parent.parentItem()
    return out


def above(item: QGraphicsItem) -> list[QGraphicsItem]:
    """Every item a whole render paints after ``item``'s branch: later siblings, level by level."""
    out: list[QGraphicsItem] = []
    for level in [item, *ancestors(item)]:
        parent = level.parentItem()
        if parent is not None:
            siblings = parent.childItems()  # in stacking order
        else:
            scene = level.scene()
            everything = scene.items(Qt.SortOrder.AscendingOrder)
            siblings = [i for i in everything if i.parentItem() is None]
        out.extend(siblings[siblings.index(level) + 1 :])
    return out


def clip_rect(item: QGraphicsItem) -> QRectF | None:
    """The scene rectangle ``item`` can paint in: its nearest clipping ancestor's (None: any)."""
    for parent in ancestors(item):
        if parent.flags() & CLIPS:
            return parent.sceneBoundingRect()
    return None


def extent(item: QGraphicsItem) -> QRectF:
    """Where ``item`` and its children paint, in the scene."""
    return item.sceneBoundingRect().united(item.mapRectToScene(item.childrenBoundingRect()))


def vouched(area: QWidget) -> list[pg.PlotWidget] | None:
    """The area's visible plots if each names its moving items and nothing else paints data."""
    plots = []
    for widget in [area, *area.findChildren(QWidget)]:
        if widget is not area and not widget.isVisibleTo(area):
            continue
        if isinstance(widget, pg.PlotWidget):
            moving = callable(getattr(widget, "moving_items", None))
            if not moving or not isinstance(getattr(widget, "revision", None), int):
                return None
            plots.append(widget)
        elif in_plot(widget, area):
            continue  # a plot's viewport or scroll bars
        elif not isinstance(widget, CONTAINERS) and painted(widget):
            return None
    return plots


def in_plot(widget: QWidget, area: QWidget) -> bool:
    """Whether ``widget`` is part of a plot inside ``area``."""
    parent = widget.parentWidget()
    while parent is not None and parent is not area:
        if isinstance(parent, pg.PlotWidget):
            return True
        parent = parent.parentWidget()
    return False


def painted(widget: QWidget) -> bool:
    """Whether ``widget`` paints something of its own (a plain container does not)."""
    return type(widget).paintEvent is not QWidget.paintEvent


def topmost(item: QGraphicsItem, keep: Container[int]) -> bool:
    """Whether hiding ``item`` is needed: no parent outside ``keep`` hides it along with itself."""
    parent = item.parentItem()
    return parent is None or id(parent) in keep or bool(parent.flags() & OWN_OPACITY)


class Hidden:
    """Items at opacity 0 while the ``with`` block runs, then back at their own opacity."""

    def __init__(self, items: list[QGraphicsItem]) -> None:
        self.items = items
        self.opacity: list[float] = []

    def __enter__(self) -> Hidden:
        self.opacity = [item.opacity() for item in self.items]
        for item in self.items:
            item.setOpacity(0.0)
        return self

    def __exit__(self, *exc: object) -> None:
        for item, opacity in zip(self.items, self.opacity, strict=True):
            if shiboken6.isValid(item):  # (one deleted meanwhile: nothing to restore)
                item.setOpacity(opacity)


class Layers:
    """Renders the area like ``render(area)`` does, repainting only the plots' moving items."""

    def __init__(self, area: QWidget, render: Callable[[QWidget], QImage]) -> None:
        self.area, self.whole = area, render
        self.key: tuple[Any, ...] | None = None
        self.background = QImage()
        self.plots: list[pg.PlotWidget] = []
        self.still: list[QGraphicsItem] = []  # hidden while the moving layer renders
        self.holds = 0  # inside held(): the still items stay hidden from frame to frame
        self.hidden: Hidden | None = None  # the still items hidden for the hold

    @classmethod
    def of(cls, area: QWidget, render: Callable[[QWidget], QImage]) -> Layers | None:
        """Layers for ``area``, or None if it must be rendered whole."""
        return cls(area, render) if vouched(area) is not None else None

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """Frames rendered in the block hide the still items once, not each (a timer tick's).

        The window does not paint in between (no events are handled), so nothing shows it.
        """
        self.holds += 1
        try:
            yield
        finally:
            self.holds -= 1
            if not self.holds:
                self._show_still()

    def _show_still(self) -> None:
        if self.hidden is not None:
            hidden, self.hidden = self.hidden, None
            hidden.__exit__()

    def render(self, into: QImage | None = None) -> QImage:
        """The area now: the background, then each plot's moving layer on top.

        ``into`` is an image to paint over (reused, no allocation) if it has the background's
        size and format; otherwise a new one is made. An area that stopped being one the layers
        can vouch for (a label shown in it since) is rendered whole.
        """
        if not self._refresh():
            return self.whole(self.area)
        if into is None or into.size() != self.background.size():
            image = QImage(self.background)  # painting detaches it: the background stays
            painter = QPainter(image)
        else:
            image = into
            painter = QPainter(image)
            painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
            painter.drawImage(0, 0, self.background)
            painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
        try:
            if self.hidden is None:  # (within a hold, hidden since its first frame)
                self.hidden = Hidden(self.still).__enter__()
            for plot in self.plots:
                self._paint(painter, plot)
        finally:
            painter.end()
            if not self.holds:
                self._show_still()
        return image

    def _paint(self, painter: QPainter, plot: pg.PlotWidget) -> None:
        """The plot's scene as its view paints it, where it sits in the area."""
        viewport = plot.viewport()
        corner = viewport.mapTo(self.area, QPoint(0, 0))
        target = QRectF(corner.x(), corner.y(), viewport.width(), viewport.height())
        inverse, _ = plot.viewportTransform().inverted()
        source = inverse.mapRect(QRectF(viewport.rect()))
        painter.setRenderHints(painter.renderHints(), False)
        painter.setRenderHints(plot.renderHints())  # the view's, as it paints
        plot.scene().render(painter, target, source, Qt.AspectRatioMode.IgnoreAspectRatio)

    def _refresh(self) -> bool:
        """Split the items and render the background again if the plots or their items changed.

        Whether the area can be rendered in layers now.
        """
        plots = vouched(self.area)
        if plots is None:
            self._show_still()
            self.key = None
            return False
        moving = [list(plot.moving_items()) for plot in plots]
        key = (self.area.size().toTuple(), *((id(p), p.revision) for p in plots),
               *(id(i) for items in moving for i in items))  # fmt: skip
        if key == self.key:
            return True
        self._show_still()  # the background is rendered with them
        self.key, self.plots = key, plots
        layer: list[QGraphicsItem] = []  # what each frame paints
        self.still = []
        for plot, items in zip(plots, moving, strict=True):
            ours = list(items)
            for item in items:
                where = clip_rect(item)
                for other in above(item):
                    if other in ours or not other.isVisible():
                        continue
                    if where is None or extent(other).intersects(where):
                        ours.append(other)
            keep = {id(j) for item in ours for j in [*subtree(item), *ancestors(item)]}
            self.still.extend(
                i for i in plot.scene().items() if id(i) not in keep and topmost(i, keep)
            )
            layer.extend(ours)
        with Hidden(layer):
            self.background = self.whole(self.area)
        return True
