"""Scene items of the graph view: nodes (shape by kind); the edges' are in ``edge_items``.

Items are built from Qt's own path and text items and only restyled from Python when their
state changes, so a repaint never calls back into Python: fast, and no wrapper churn.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPainterPath
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsSimpleTextItem,
)

from tapeviz.engine.primitives import PRIMITIVES
from tapeviz.engine.vjp_rules import RULE_TEXT
from tapeviz.models.graph.model import Node
from tapeviz.models.minus import minus_signs
from tapeviz.models.values import full, nonfinite, same_value, short
from tapeviz.ui.graph.edge_items import HEAD, EdgeItem, GroupItem
from tapeviz.ui.graph.item_styles import FONTS, node_style, restyling
from tapeviz.ui.graph.nonfinite_text import describe
from tapeviz.ui.graph.tiles import fit_tile
from tapeviz.ui.theme import Theme

__all__ = [
    "HEAD", "PAD_X", "PAD_Y", "RESERVED_GRADIENT", "EdgeItem", "GroupItem", "NodeItem",
    "can_have_gradient", "measure", "node_lines",
]  # fmt: skip

PAD_X, PAD_Y = 14.0, 8.0
RESERVED_GRADIENT = "∂ = −0.0000"  # room kept for a gradient line, so nodes never grow


def node_lines(
    node: Node, gradient: Any = None, gradient_text: str | None = None, value_hidden: bool = False
) -> list[tuple[str, str]]:
    """(text, role) lines of a node: the title, ``= value`` and ``∂ = gradient``.

    Numbers read with the chain rule's minus sign (−1, never -1).
    """
    title = minus_signs(node.symbol) if node.kind == "constant" else node.symbol
    if node.op and node.label not in (node.op, node.symbol):
        title = f"{node.label} = {node.symbol}"
    out = [(title, "title")]
    if node.kind == "layer":  # a folded layer: in → out shapes, its parameters, its ops
        out.extend((line, "value") for line in node.formula.split("\n") if line)
    if value_hidden:
        out.append(("= ?", "value"))
    elif node.kind != "constant" or node.label != short(node.value):
        mark = " ⚠" if node.note is not None and node.note.origin else ""  # it made the nan/inf
        out.append((f"= {minus_signs(short(node.value))}{mark}", "value"))
    if gradient_text is not None:
        out.append((f"∂ = {minus_signs(gradient_text)}", "gradient"))
    elif gradient is not None:
        out.append((f"∂ = {minus_signs(short(gradient))}", "gradient"))
    return out


def can_have_gradient(node: Node) -> bool:
    """Whether a backward pass may put a gradient on this node (its size reserves the room)."""
    return node.kind in ("variable", "watched", "target", "folded", "layer") or (
        node.kind == "op" and node.watched
    )


def measure(node: Node, scale: float = 1.0, gradient: Any = None) -> tuple[float, float]:
    """Width and height of a node's box (usable from a worker thread)."""
    lines = node_lines(node, gradient)
    if lines[-1][1] != "gradient" and can_have_gradient(node):  # (a gradient line is last)
        lines.append((RESERVED_GRADIENT, "gradient"))
    return _box_of(lines, scale, node.kind == "variable")


def _box_of(lines: list[tuple[str, str]], scale: float, variable: bool) -> tuple[float, float]:
    """The box of ``lines`` (each line's width is cached by its text: big graphs repeat)."""
    fonts = FONTS
    width = height = 0.0
    for text, role in lines:
        face = "title" if role == "title" else "value"
        w = fonts.width(face, scale, text)
        if w > width:
            width = w
        height += fonts.height(face, scale)
    w, h = max(width + 2 * PAD_X, 64 * scale), height + 2 * PAD_Y
    if variable:
        w, h = w * 1.12, h * 1.08
    return w, h


class NodeItem(QGraphicsPathItem):
    """One node: the op symbol or variable name, its value and (once known) its gradient."""

    def __init__(
        self,
        node: Node,
        theme: Theme,
        scale: float = 1.0,
        gradient: Any = None,
        size: tuple[float, float] | None = None,
        lazy_text: bool = False,
    ) -> None:
        """``size`` is the box the layout measured (measured again when not given).

        With ``lazy_text`` the text items are made only by :meth:`show_text` (a big graph
        gives text to the nodes that come into view).
        """
        super().__init__()
        self.text_pending = lazy_text
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
        self._inner: QGraphicsPathItem | None = None  # the target's double border (made if used)
        self._tick: QGraphicsPathItem | None = None  # the stepper's "done" mark (made if used)
        self._roles: list[str] = []
        self._shown: list[tuple[str, str]] = []  # the lines the text items (or box) were made for
        self._bad = (False, False)  # the value, the gradient: nan or ±inf
        w, h = size if size is not None else measure(node, scale, gradient)
        self._rect = QRectF(-w / 2, -h / 2, w, h)
        if lazy_text and size is not None:  # the layout measured these lines: the box fits
            self._set_outline()
            self._bad = (nonfinite(node.value), gradient is not None and nonfinite(gradient))
            self._restyle([])
        else:
            self.relayout()

    # -- text and geometry -----------------------------------------------------------------
    def lines(self) -> list[tuple[str, str]]:
        """(text, role) lines: the title, ``= value`` and ``∂ = gradient``."""
        return node_lines(self.node, self.gradient, self.gradient_text, self.value_hidden)

    def relayout(self) -> None:
        """Rebuild the node's text for its current content (the box grows only if it must)."""
        lines = self.lines()
        s = self.scale_factor
        if self.text_pending:  # the box and the look now; the text once the node is in view
            self._relayout_box(lines)
            return
        while len(self._texts) < len(lines):
            self._texts.append(QGraphicsSimpleTextItem(self))
        for extra in self._texts[len(lines) :]:
            extra.setVisible(False)
        faces = ["title" if role == "title" else "value" for _, role in lines]
        widths = [FONTS.width(face, s, text) for (text, _), face in zip(lines, faces, strict=True)]
        heights = [FONTS.height(face, s) for face in faces]
        width, height = max(widths), sum(heights)
        rect = self._rect
        grown = width + 2 * PAD_X > rect.width() or height + 2 * PAD_Y > rect.height()
        if grown:
            w = max(rect.width(), width + 2 * PAD_X)
            h = max(rect.height(), height + 2 * PAD_Y)
            self._rect = QRectF(-w / 2, -h / 2, w, h)
        y = -height / 2
        for item, (text, _), face, w, lh in zip(self._texts, lines, faces, widths, heights,
                                                strict=False):  # fmt: skip
            if item.isVisible() != self._detail:
                item.setVisible(self._detail)
            f = FONTS.get(face, s)[0]
            if item.font() != f:  # setFont costs more than the comparison
                item.setFont(f)
            if item.text() != text:
                item.setText(text)
            item.setPos(-w / 2, y)
            y += lh
        if grown or self.path().isEmpty():
            self._set_outline()
        self._settle(lines)

    def _relayout_box(self, lines: list[tuple[str, str]]) -> None:
        """The box (grown if the lines need it) and the look, without text items."""
        s = self.scale_factor
        faces = ["title" if role == "title" else "value" for _, role in lines]
        width = max(FONTS.width(f, s, text) for (text, _), f in zip(lines, faces, strict=True))
        height = sum(FONTS.height(f, s) for f in faces)
        rect = self._rect
        if width + 2 * PAD_X > rect.width() or height + 2 * PAD_Y > rect.height():
            w = max(rect.width(), width + 2 * PAD_X)
            h = max(rect.height(), height + 2 * PAD_Y)
            self._rect = QRectF(-w / 2, -h / 2, w, h)
            self._set_outline()
        elif self.path().isEmpty():
            self._set_outline()
        self._settle(lines)

    def _settle(self, lines: list[tuple[str, str]]) -> None:
        """After a layout of ``lines``: remember them, mark nan/inf, and restyle."""
        grad = self.gradient
        self._bad = (nonfinite(self.node.value), grad is not None and nonfinite(grad))
        self._roles = [role for _, role in lines]
        self._shown = lines
        self._restyle(self._roles)

    def show_text(self) -> None:
        """Make the text items of a node built with ``lazy_text`` (it came into view)."""
        if self.text_pending:
            self.text_pending = False
            self.relayout()

    _detail = True

    def set_detail(self, shown: bool) -> None:
        """Show or hide the text (hidden when zoomed far out: faster, and unreadable anyway)."""
        if shown != self._detail:
            self._detail = shown
            for item, _ in zip(self._texts, self._roles, strict=False):
                item.setVisible(shown)

    def move_to(self, point: QPointF) -> None:
        """Move the node and redraw its edges."""
        self.setPos(point)
        fit_tile(self)
        for e in self.edges:
            e.adjust()

    def hoverEnterEvent(self, event: Any) -> None:
        self.setToolTip(self.tooltip())  # built on demand: values can be big arrays
        super().hoverEnterEvent(event)

    def box(self) -> QRectF:
        """The node's box in the scene (its parent, a tile or none, is at the origin)."""
        return self._rect.translated(self.pos())

    def size(self) -> tuple[float, float]:
        """Width and height for the layout."""
        return self._rect.width(), self._rect.height()

    def _set_outline(self) -> None:
        """Draw the box for its current size and kind (a tile holding the node grows too)."""
        self.setPath(self._outline())
        fit_tile(self)

    def _outline(self) -> QPainterPath:
        path = QPainterPath()
        r = self._rect
        if self.node.kind == "variable":
            path.addEllipse(r)
        elif self.node.kind in ("constant", "folded", "layer"):
            path.addRoundedRect(r, 4, 4)
        else:
            path.addRoundedRect(r, 12, 12)
        return path

    def set_node(self, node: Node, gradient: Any = None) -> None:
        """Show ``node``'s (new) value and ``gradient`` in place: a loop's next step."""
        kind = self.node.kind
        self.node, self.gradient, self.gradient_text = node, gradient, None
        if node.kind != kind:
            self._set_outline()
        self.relayout()

    def reuse(self, node: Node, gradient: Any, size: tuple[float, float] | None) -> None:
        """Draw ``node`` (the same id after a re-run) here, in a box of the layout's ``size``.

        The text is laid out again only if it reads differently; the stepper's marks go (the
        stepper puts its own on once the graph is laid out).
        """
        kind = self.node.kind
        self.node, self.gradient, self.gradient_text = node, gradient, None
        self.value_hidden = False
        self.state = ""
        changed = node.kind != kind
        if size is not None and self.size() != size:
            w, h = size
            self._rect = QRectF(-w / 2, -h / 2, w, h)
            changed = True
        if changed:
            self._set_outline()
        if changed or self.lines() != self._shown:
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
        roles = roles if roles is not None else self._roles
        bad_value, bad_grad = self._bad
        marked = self.isSelected() or self._highlighted or self._state == "current"
        origin = self.node.note is not None and self.node.note.origin
        look = (kind, s, self._state, marked, origin, bad_value, bad_grad)
        key = (id(t), look, self._rect.getRect(), len(self._texts), tuple(roles))
        if key == self._style:  # a loop's next step: new numbers, the same look
            return
        self._style = key
        brush, pen, inner_pen, tick_pen, text_brushes = node_style(t, look)
        self.setBrush(brush)
        self.setPen(pen)
        if kind == "target" or self._inner is not None:
            inner = QPainterPath()
            if kind == "target":
                inner.addRoundedRect(self._rect.adjusted(4, 4, -4, -4), 9, 9)
            self._child("_inner").setPath(inner)
            self._child("_inner").setPen(inner_pen)
        if self._state == "done" or self._tick is not None:
            tick = QPainterPath()
            if self._state == "done":
                r = self._rect  # just above the top-right corner, clear of the title
                tick.moveTo(r.right() - 6 * s, r.top() - 8 * s)
                tick.lineTo(r.right(), r.top() - 2 * s)
                tick.lineTo(r.right() + 10 * s, r.top() - 15 * s)
            self._child("_tick").setPath(tick)
            self._child("_tick").setPen(tick_pen)
            fit_tile(self)  # it stands out of the box (drawn at the corner of a grown one)
        for item, role in zip(self._texts, roles, strict=False):
            item.setBrush(text_brushes[role])

    def _child(self, attr: str) -> QGraphicsPathItem:
        """The inner border or the tick, made the first time it is drawn."""
        item = getattr(self, attr)
        if item is None:
            item = QGraphicsPathItem(self)
            setattr(self, attr, item)
        return item

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
            rows.append(html.escape(n.formula).replace("\n", "<br>"))
        if n.kind == "layer":
            rows.append(f"parameters: {html.escape(', '.join(n.params) or 'none')}")
            rows.append("<i>double-click: show its ops</i>")
        rows.append(f"value:<pre>{html.escape(full(n.value))}</pre>")
        if n.note is not None:
            rows.append(f"<b>⚠ {html.escape(describe(n))}</b>")
        if self.gradient is not None and self.gradient_text is None:
            rows.append(f"gradient:<pre>{html.escape(full(self.gradient))}</pre>")
        if not n.watched:
            rows.append("<i>not watched: the tape gives it no gradient</i>")
        return "<br>".join(rows)
