"""Scene items of the graph view's edges: arrows into an op's input ports, and nested tapes' frames.

Like the nodes (:mod:`tapeviz.ui.graph.items`), they are Qt's own path and text items,
restyled from Python only when their state changes.
"""

from __future__ import annotations

import math
from typing import Any, Protocol

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QFontMetricsF, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsPolygonItem, QGraphicsSimpleTextItem

from tapeviz.ui.graph.item_styles import EdgeStyle, edge_style, restyling
from tapeviz.ui.graph.tiles import fit_tile
from tapeviz.ui.theme import Theme, font


class End(Protocol):
    """What an edge uses of the nodes it joins (``items.NodeItem``, which imports this module)."""

    node: Any
    edges: list[Any]
    scale_factor: float
    _rect: QRectF

    def x(self) -> float: ...

    def y(self) -> float: ...


HEAD = tuple((11.0 * math.cos(a), 11.0 * math.sin(a)) for a in (-0.45, 0.45))  # arrowhead


class EdgeItem(QGraphicsPathItem):
    """An arrow from a node's output to one input port of an op."""

    def __init__(
        self,
        source: End,
        target: End,
        port: int,
        ports: int,
        theme: Theme,
        route: list[QPointF] | None = None,
    ) -> None:
        super().__init__()
        self.source, self.target = source, target
        self.port, self.ports = port, ports
        self.input_position = port  # which input of the op this edge feeds
        self.theme = theme
        self._highlighted = False
        self._glowing = False
        self.route: list[QPointF] = route or []  # bend points between the layers it crosses
        self.model_edge: Any = None  # the GraphModel edge drawn
        self.head = QGraphicsPolygonItem(self)
        self._text: QGraphicsSimpleTextItem | None = None  # the label, made when first shown
        source.edges.append(self)
        target.edges.append(self)
        self.setZValue(0)
        self._restyle()
        self.adjust()

    def reroute(self, port: int, ports: int, route: list[QPointF]) -> bool:
        """Take the port and bend points of a new layout; True if they changed."""
        if (port, ports, route) == (self.port, self.ports, self.route):
            return False
        self.port, self.ports, self.route = port, ports, route
        return True

    def detach(self) -> None:
        """Leave the edge lists of both ends (the edge is no longer drawn)."""
        for end in (self.source, self.target):
            if self in end.edges:
                end.edges.remove(self)

    highlighted = restyling("_highlighted", "Whether the edge is on the highlighted path.")
    glowing = restyling(
        "_glowing", "Whether the edge carries gradient in the current backward step."
    )

    @property
    def text(self) -> QGraphicsSimpleTextItem:
        """The label's text item (hidden until :meth:`set_label` gives it a text)."""
        if self._text is None:
            self._text = QGraphicsSimpleTextItem(self)
            self._text.setFont(font(9.5 * self.source.scale_factor))
            self._text.setVisible(False)
            self._text.setBrush(self._style()[3])
        return self._text

    def set_label(self, text: str | None) -> bool:
        """Show a label at the middle of the edge (e.g. the local derivative); None hides it.

        Whether the edge was drawn again (not for no label on an edge that never had one).
        """
        if not text and self._text is None:
            return False
        self.text.setVisible(bool(text))
        self.text.setText(text or "")
        self.adjust()
        return True

    def _style(self) -> EdgeStyle:
        return edge_style(self.theme, self.source.scale_factor, self._glowing, self._highlighted)

    def _restyle(self) -> None:
        pen, head_pen, head_brush, label = self._style()
        self.setPen(pen)
        self.head.setPen(head_pen)
        self.head.setBrush(head_brush)
        if self._text is not None:
            self._text.setBrush(label)
        self.setZValue(0.5 if self._glowing or self._highlighted else 0)

    def adjust(self) -> None:
        """Recompute the curve after either end moved."""
        src, dst = self.source, self.target  # (both at the scene's origin or in tiles there)
        step = min(14.0, dst._rect.height() / max(self.ports, 1))
        x, y = dst.x() + dst._rect.left(), dst.y() + (self.port - (self.ports - 1) / 2) * step
        ax, ay = src.x() + src._rect.right(), src.y()
        path = QPainterPath(QPointF(ax, ay))
        for b in [*self.route, QPointF(x - 9, y)]:  # plain numbers: a hub's 1,000 edges move
            bx, by = b.x(), b.y()
            dx = max(20.0, (bx - ax) / 2)
            path.cubicTo(ax + dx, ay, bx - dx, by, bx, by)
            ax, ay = bx, by
        self.setPath(path)
        (hx, hy), (kx, ky) = HEAD  # the edge always ends heading right, into the port
        self.head.setPolygon(
            QPolygonF([QPointF(x, y), QPointF(x - hx, y - hy), QPointF(x - kx, y - ky)])
        )
        if self._text is not None and self._text.isVisible():
            mid = path.pointAtPercent(0.5)
            box = self.text.boundingRect()
            self.text.setPos(mid.x() - box.width() / 2, mid.y() - box.height() - 2)
        fit_tile(self)


class GroupItem(QGraphicsPathItem):
    """A dashed frame around the ops a nested tape recorded, with the tape's name."""

    def __init__(self, rect: QRectF, name: str, theme: Theme, scale: float = 1.0) -> None:
        super().__init__()
        path = QPainterPath()
        path.addRoundedRect(rect, 14, 14)
        self.setPath(path)
        pen = QPen(theme.color(theme.muted), 1.5 * scale)
        pen.setStyle(Qt.PenStyle.DashLine)
        self.setPen(pen)
        self.setBrush(QBrush(theme.color(theme.muted, 22)))
        self.setZValue(-1)
        self.label = QGraphicsSimpleTextItem(f"tape “{name}”", self)
        self.label.setFont(font(10 * scale, bold=True))
        self.label.setBrush(QBrush(theme.color(theme.muted)))
        self.label.setPos(rect.left() + 12 * scale, rect.top() + 4 * scale)
        self.name = name

    @staticmethod
    def label_height(scale: float) -> float:
        """The height of a frame's label at ``scale`` (the layout keeps room for it)."""
        return float(QFontMetricsF(font(10 * scale, bold=True)).height())
