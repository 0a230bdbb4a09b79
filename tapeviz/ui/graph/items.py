"""Scene items of the graph view: nodes (shape by kind) and edges with arrowheads.

Items are built from Qt's own path and text items and only restyled from Python when their
state changes, so a repaint never calls back into Python: fast, and no wrapper churn.
"""

from __future__ import annotations

import html
import itertools
import math
import threading
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QFont, QFontMetricsF, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsPolygonItem,
    QGraphicsSimpleTextItem,
)

from tapeviz.engine.primitives import PRIMITIVES
from tapeviz.engine.vjp_rules import RULE_TEXT
from tapeviz.models.graph.model import Node
from tapeviz.models.values import full, nonfinite, same_value, short
from tapeviz.ui.graph.nonfinite_text import describe
from tapeviz.ui.theme import Theme, font

PAD_X, PAD_Y = 14.0, 8.0
RESERVED_GRADIENT = "∂ = -0.0000"  # room kept for a gradient line, so nodes never grow


class _Fonts(threading.local):
    """Fonts and metrics per (role, scale), per thread (sizes are measured in a worker)."""

    def __init__(self) -> None:
        self.cache: dict[tuple[str, float], tuple[QFont, QFontMetricsF]] = {}

    def get(self, role: str, scale: float) -> tuple[QFont, QFontMetricsF]:
        key = (role, scale)
        hit = self.cache.get(key)
        if hit is None:
            f = font(13 * scale, bold=True) if role == "title" else font(10.5 * scale)
            hit = self.cache[key] = (f, QFontMetricsF(f))
        return hit


FONTS = _Fonts()


def node_lines(
    node: Node, gradient: Any = None, gradient_text: str | None = None, value_hidden: bool = False
) -> list[tuple[str, str]]:
    """(text, role) lines of a node: the title, ``= value`` and ``∂ = gradient``."""
    title = node.symbol
    if node.op and node.label not in (node.op, node.symbol):
        title = f"{node.label} = {node.symbol}"
    out = [(title, "title")]
    if value_hidden:
        out.append(("= ?", "value"))
    elif node.kind != "constant" or node.label != short(node.value):
        mark = " ⚠" if node.note is not None and node.note.origin else ""  # it made the nan/inf
        out.append((f"= {short(node.value)}{mark}", "value"))
    if gradient_text is not None:
        out.append((f"∂ = {gradient_text}", "gradient"))
    elif gradient is not None:
        out.append((f"∂ = {short(gradient)}", "gradient"))
    return out


def can_have_gradient(node: Node) -> bool:
    """Whether a backward pass may put a gradient on this node (its size reserves the room)."""
    return node.kind in ("variable", "watched", "target", "folded") or (
        node.kind == "op" and node.watched
    )


def measure(node: Node, scale: float = 1.0, gradient: Any = None) -> tuple[float, float]:
    """Width and height of a node's box (usable from a worker thread)."""
    lines = node_lines(node, gradient)
    if can_have_gradient(node) and not any(role == "gradient" for _, role in lines):
        lines.append((RESERVED_GRADIENT, "gradient"))
    width = height = 0.0
    for text, role in lines:
        fm = FONTS.get("title" if role == "title" else "value", scale)[1]
        width = max(width, fm.horizontalAdvance(text))
        height += fm.height()
    w, h = max(width + 2 * PAD_X, 64 * scale), height + 2 * PAD_Y
    if node.kind == "variable":
        w, h = w * 1.12, h * 1.08
    return w, h


def restyling(attr: str, doc: str) -> property:
    """A property whose setter redraws the item, only when the value changes."""

    def get(self: Any) -> Any:
        return getattr(self, attr)

    def set_(self: Any, value: Any) -> None:
        if value != getattr(self, attr):
            setattr(self, attr, value)
            self._restyle()

    return property(get, set_, doc=doc)


class NodeItem(QGraphicsPathItem):
    """One node: the op symbol or variable name, its value and (once known) its gradient."""

    def __init__(self, node: Node, theme: Theme, scale: float = 1.0, gradient: Any = None) -> None:
        super().__init__()
        self.node = node
        self.theme = theme
        self.scale_factor = scale
        self.gradient: Any = gradient
        self.gradient_text: str | None = None  # e.g. "?" while the class predicts
        self._state = ""  # "" | "current" | "done" | "pending"
        self.value_hidden = False  # the forward stepper has not computed it yet
        self._highlighted = False
        self.edges: list[EdgeItem] = []
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setAcceptHoverEvents(True)
        self.setZValue(1)
        self._texts: list[QGraphicsSimpleTextItem] = []
        self._inner = QGraphicsPathItem(self)  # the target's double border
        self._tick = QGraphicsPathItem(self)  # "done" mark of the backward stepper
        w, h = measure(node, scale, gradient)
        self._rect = QRectF(-w / 2, -h / 2, w, h)
        self.relayout()

    # -- text and geometry -----------------------------------------------------------------
    def lines(self) -> list[tuple[str, str]]:
        """(text, role) lines: the title, ``= value`` and ``∂ = gradient``."""
        return node_lines(self.node, self.gradient, self.gradient_text, self.value_hidden)

    def relayout(self) -> None:
        """Rebuild the node's text for its current content (the box grows only if it must)."""
        lines = self.lines()
        while len(self._texts) < len(lines):
            self._texts.append(QGraphicsSimpleTextItem(self))
        for extra in self._texts[len(lines) :]:
            extra.setVisible(False)
        metrics = [
            FONTS.get("title" if role == "title" else "value", self.scale_factor)
            for _, role in lines
        ]
        pairs = zip(lines, metrics, strict=True)
        widths = [fm.horizontalAdvance(text) for (text, _), (_, fm) in pairs]
        width = max(widths)
        height = sum(fm.height() for _, fm in metrics)
        if width + 2 * PAD_X > self._rect.width() or height + 2 * PAD_Y > self._rect.height():
            w = max(self._rect.width(), width + 2 * PAD_X)
            h = max(self._rect.height(), height + 2 * PAD_Y)
            self._rect = QRectF(-w / 2, -h / 2, w, h)
        y = -height / 2
        for item, (text, _), (f, fm), w in zip(self._texts, lines, metrics, widths, strict=False):
            item.setVisible(self._detail)
            if item.font() != f:  # setFont costs more than the comparison
                item.setFont(f)
            if item.text() != text:
                item.setText(text)
            item.setPos(-w / 2, y)
            y += fm.height()
        self.setPath(self._outline())
        self._restyle([role for _, role in lines])

    _detail = True

    def set_detail(self, shown: bool) -> None:
        """Show or hide the text (hidden when zoomed far out: faster, and unreadable anyway)."""
        if shown != self._detail:
            self._detail = shown
            for item, _ in zip(self._texts, self.lines(), strict=False):
                item.setVisible(shown)

    def move_to(self, point: QPointF) -> None:
        """Move the node and redraw its edges."""
        self.setPos(point)
        for e in self.edges:
            e.adjust()

    def hoverEnterEvent(self, event: Any) -> None:
        self.setToolTip(self.tooltip())  # built on demand: values can be big arrays
        super().hoverEnterEvent(event)

    def size(self) -> tuple[float, float]:
        """Width and height for the layout."""
        return self._rect.width(), self._rect.height()

    def _outline(self) -> QPainterPath:
        path = QPainterPath()
        r = self._rect
        if self.node.kind == "variable":
            path.addEllipse(r)
        elif self.node.kind in ("constant", "folded"):
            path.addRoundedRect(r, 4, 4)
        else:
            path.addRoundedRect(r, 12, 12)
        return path

    def set_node(self, node: Node, gradient: Any = None) -> None:
        """Show ``node``'s (new) value and ``gradient`` in place: a loop's next step."""
        self.node, self.gradient, self.gradient_text = node, gradient, None
        self.relayout()

    def set_value_hidden(self, hidden: bool) -> None:
        """Show ``= ?`` instead of the value (before the forward pass computes it)."""
        if hidden != self.value_hidden:
            self.value_hidden = hidden
            self.relayout()

    def set_gradient(self, value: Any, text: str | None = None) -> None:
        """Show a gradient (or a placeholder such as ``?``); None hides it."""
        if text == self.gradient_text and same_value(value, self.gradient):
            return
        self.gradient, self.gradient_text = value, text
        self.relayout()

    # -- state and style -------------------------------------------------------------------
    state = restyling(
        "_state", 'Stepper state: ``""``, ``"current"``, ``"done"`` or ``"pending"``.'
    )

    highlighted = restyling("_highlighted", "Whether the node is on the highlighted path.")

    _style: tuple[Any, ...] = ()  # what the current brushes and pens were made for

    def _restyle(self, roles: list[str] | None = None) -> None:
        t, kind, s = self.theme, self.node.kind, self.scale_factor
        roles = roles if roles is not None else [role for _, role in self.lines()]
        bad_value = nonfinite(self.node.value)
        bad_grad = self.gradient is not None and nonfinite(self.gradient)
        marked = self.isSelected() or self._highlighted
        key = (t.name, kind, s, self._state, marked, self._rect.getRect(), bad_value, bad_grad,
               len(self._texts), tuple(roles))  # fmt: skip
        if key == self._style:  # a loop's next step: new numbers, the same look
            return
        self._style = key
        fill = t.color(t.fills.get(kind, t.fills["op"]), 110 if self._state == "pending" else 255)
        self.setBrush(QBrush(fill))
        border, width = t.color(t.borders.get(kind, t.borders["op"])), 2.0 * s
        if self.isSelected() or self._highlighted or self._state == "current":
            border, width = t.color(t.highlight), 4.0 * s
        elif self.node.note is not None and self.node.note.origin:
            border, width = t.color(t.warning), 3.5 * s  # this op made a nan or ±inf
        pen = QPen(border, width)
        if kind == "watched":
            pen.setStyle(Qt.PenStyle.DashLine)
        self.setPen(pen)
        inner = QPainterPath()
        if kind == "target":
            inner.addRoundedRect(self._rect.adjusted(4, 4, -4, -4), 9, 9)
        self._inner.setPath(inner)
        self._inner.setPen(QPen(border, 1.5 * s))
        tick = QPainterPath()
        if self._state == "done":
            r = self._rect  # just above the top-right corner, clear of the title
            tick.moveTo(r.right() - 6 * s, r.top() - 8 * s)
            tick.lineTo(r.right(), r.top() - 2 * s)
            tick.lineTo(r.right() + 10 * s, r.top() - 15 * s)
        self._tick.setPath(tick)
        self._tick.setPen(QPen(t.color(t.gradient), 2.5 * s))
        colours = {
            "title": t.text,
            "value": t.warning if bad_value else t.muted,
            "gradient": t.warning if bad_grad else t.gradient,
        }
        for item, role in zip(self._texts, roles, strict=False):
            item.setBrush(QBrush(t.color(colours[role])))

    def restyle(self) -> None:
        """Redraw the border after the selection changed (the view calls it for changed items)."""
        self._restyle()

    # -- tooltip ---------------------------------------------------------------------------
    def tooltip(self) -> str:
        """Full value and gradient, shape, dtype, the op's formula and its rule in words."""
        n = self.node
        rows = [f"<b>{html.escape(n.label)}</b> &nbsp;<i>{n.kind}</i>"]
        shape = "scalar" if not n.shape else "×".join(map(str, n.shape))
        rows.append(f"{n.dtype}, {shape}")
        if n.op:
            prim = PRIMITIVES.get(n.op)
            if prim is not None:
                rows.append(f"op <b>{n.op}</b>: {html.escape(prim.formula)}")
                rules = RULE_TEXT.get(prim, ())
                if rules:
                    rows.append("backward: " + "; ".join(html.escape(r) for r in rules))
        elif n.formula:
            rows.append(html.escape(n.formula))
        rows.append(f"value:<pre>{html.escape(full(n.value))}</pre>")
        if n.note is not None:
            rows.append(f"<b>⚠ {html.escape(describe(n))}</b>")
        if self.gradient is not None and self.gradient_text is None:
            rows.append(f"gradient:<pre>{html.escape(full(self.gradient))}</pre>")
        if not n.watched:
            rows.append("<i>not watched: the tape gives it no gradient</i>")
        return "<br>".join(rows)


class EdgeItem(QGraphicsPathItem):
    """An arrow from a node's output to one input port of an op."""

    def __init__(
        self, source: NodeItem, target: NodeItem, port: int, ports: int, theme: Theme
    ) -> None:
        super().__init__()
        self.source, self.target = source, target
        self.port, self.ports = port, ports
        self.input_position = port  # which input of the op this edge feeds
        self.theme = theme
        self._highlighted = False
        self._glowing = False
        self.route: list[QPointF] = []  # bend points between the layers the edge crosses
        self.model_edge: Any = None  # the GraphModel edge drawn
        self.head = QGraphicsPolygonItem(self)
        self.text = QGraphicsSimpleTextItem(self)
        self.text.setFont(font(9.5 * source.scale_factor))
        self.text.setVisible(False)
        source.edges.append(self)
        target.edges.append(self)
        self.setZValue(0)
        self._restyle()
        self.adjust()

    highlighted = restyling("_highlighted", "Whether the edge is on the highlighted path.")
    glowing = restyling(
        "_glowing", "Whether the edge carries gradient in the current backward step."
    )

    def set_label(self, text: str | None) -> None:
        """Show a label at the middle of the edge (e.g. the local derivative); None hides it."""
        self.text.setVisible(bool(text))
        self.text.setText(text or "")
        self.adjust()

    def _restyle(self) -> None:
        t = self.theme
        color, width = t.color(t.edge), 1.6
        if self._glowing:
            color, width = t.color(t.gradient), 4.5
        elif self._highlighted:
            color, width = t.color(t.highlight), 3.5
        self.setPen(QPen(color, width * self.source.scale_factor))
        self.head.setPen(QPen(color, 1.0))
        self.head.setBrush(QBrush(color))
        self.text.setBrush(QBrush(t.color(t.gradient if self._glowing else t.muted)))
        self.setZValue(0.5 if self._glowing or self._highlighted else 0)

    def adjust(self) -> None:
        """Recompute the curve after either end moved."""
        src, dst = self.source, self.target
        s = src.mapToScene(QPointF(src._rect.right(), 0))
        step = min(14.0, dst._rect.height() / max(self.ports, 1))
        t = dst.mapToScene(QPointF(dst._rect.left(), (self.port - (self.ports - 1) / 2) * step))
        end = QPointF(t.x() - 9, t.y())
        path = QPainterPath(s)
        points = [s, *self.route, end]
        for a, b in itertools.pairwise(points):
            dx = max(20.0, (b.x() - a.x()) / 2)
            path.cubicTo(QPointF(a.x() + dx, a.y()), QPointF(b.x() - dx, b.y()), b)
        self.setPath(path)
        angle = math.atan2(t.y() - end.y(), t.x() - end.x())
        size = 11.0
        self.head.setPolygon(
            QPolygonF(
                [
                    t,
                    QPointF(
                        t.x() - size * math.cos(angle - 0.45), t.y() - size * math.sin(angle - 0.45)
                    ),
                    QPointF(
                        t.x() - size * math.cos(angle + 0.45), t.y() - size * math.sin(angle + 0.45)
                    ),
                ]
            )
        )
        if self.text.isVisible():
            mid = path.pointAtPercent(0.5)
            box = self.text.boundingRect()
            self.text.setPos(mid.x() - box.width() / 2, mid.y() - box.height() - 2)


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
