"""The graph view's scene: the layout plan, the look, the pieces items are made from, the banner.

:func:`plan_layout` runs in a worker thread for big graphs; :mod:`tapeviz.ui.graph.builder`
turns its plan into items. When the model keeps its structure (a loop's next step),
:func:`update_items` puts the new values on the items instead, in place (:class:`ItemUpdate`
by slices for a big graph).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from PySide6.QtCore import QObject, QPointF, QRectF, QVariantAnimation, Signal
from PySide6.QtWidgets import QFrame, QGraphicsScene, QLabel, QPushButton, QVBoxLayout, QWidget

from tapeviz.models.graph import layout as layouts
from tapeviz.models.graph.model import FOLDED_OPS, GraphModel, Node
from tapeviz.ui.graph.items import EdgeItem, GroupItem, NodeItem, measure
from tapeviz.ui.graph.tiles import fit_tile
from tapeviz.ui.theme import Theme, font

BUILD_SLICE_S = 0.012  # seconds of item building per event-loop turn for a big scene
LAZY_TEXT = 300  # nodes: above this, a node's text items are made when it comes into view
ANIMATED_MAX = 300  # nodes: when more move, they jump to their places (a frame stays cheap)


@dataclass(frozen=True)
class Plan:
    """What a layout job hands back: the nodes it planned for, their sizes and places."""

    nodes: dict[str, Node]
    sizes: dict[str, tuple[float, float]]
    layout: layouts.Layout
    compact: bool = False  # laid out with the compact gaps
    ports: list[tuple[str, Any, int, int]] | None = None  # (target, edge, port, ports) in order
    extent: tuple[float, float, float, float] | None = None  # x, y, w, h: all nodes, frames' room


def plan_layout(
    nodes: dict[str, Node],
    gradients: dict[str, Any],
    edges: list[tuple[str, str]],
    previous: dict[str, tuple[float, float]],
    scale: float,
    engine: str,
    compact: bool = False,
    framed: Sequence[str] = (),
    sizes: dict[str, tuple[float, float]] | None = None,
    model_edges: Sequence[Any] | None = None,
) -> Plan:
    """Measure every node and lay the graph out (runs in a worker thread for big graphs).

    ``compact`` narrows the gaps of the layered layout (for a graph too big for its view);
    the ``framed`` nodes (inside a nested tape's frame) get room for the frame's label;
    ``sizes`` are the nodes' boxes when already measured (a compact re-layout of a plan);
    with the ``model_edges``, the plan also gives each edge its port (:func:`ports_of`).
    """
    if sizes is None:
        sizes = {nid: measure(n, scale, gradients.get(nid)) for nid, n in nodes.items()}
    room = dict(sizes)
    pad = frame_padding(scale)
    for nid in framed:
        if nid in room:
            w, h = room[nid]
            room[nid] = (w + 2 * FRAME_SIDE * scale, h + 2 * pad)
    ids = list(nodes)
    if engine == "layered":
        gaps = layouts.COMPACT_GAPS if compact else (layouts.H_GAP, layouts.V_GAP)
        lay = layouts.layered(ids, edges, room, previous or None, gaps=gaps)
    else:
        lay = layouts.ENGINES[engine](ids, edges, room)
    ports = ports_of(model_edges, lay) if model_edges is not None else None
    return Plan(nodes, sizes, lay, compact and engine == "layered", ports, extent_of(lay, room))


def extent_of(
    lay: layouts.Layout, sizes: dict[str, tuple[float, float]]
) -> tuple[float, float, float, float] | None:
    """The box (x, y, width, height) around every laid-out node's box (None without nodes)."""
    places = lay.positions
    if not places:
        return None
    ids = list(places)
    xy = np.array([places[nid] for nid in ids], dtype=float).reshape(-1, 2)
    wh = np.array([sizes.get(nid, (0.0, 0.0)) for nid in ids], dtype=float).reshape(-1, 2)
    low, high = (xy - wh / 2).min(axis=0), (xy + wh / 2).max(axis=0)
    return (float(low[0]), float(low[1]), float(high[0] - low[0]), float(high[1] - low[1]))


def planned_extent(plan: Plan) -> QRectF:
    """The box of every planned node (what the finished scene will hold; found with the plan)."""
    return QRectF(*plan.extent) if plan.extent is not None else QRectF()


def ports_of(edges: Sequence[Any], lay: layouts.Layout) -> list[tuple[str, Any, int, int]]:
    """Each model edge with its target, its port there and the target's port count."""
    into: dict[str, list[Any]] = {}
    for e in edges:
        into.setdefault(e.target, []).append(e)
    out: list[tuple[str, Any, int, int]] = []
    for target, ins in into.items():
        sort_ports(ins, lay)
        out.extend((target, e, k, len(ins)) for k, e in enumerate(ins))
    return out


def plan_ports(plan: Plan, model: GraphModel) -> list[tuple[str, Any, int, int]]:
    """The model's edges with their ports: found with the layout (in its thread), else now."""
    if plan.ports is not None and len(plan.ports) == len(model.edges):
        return plan.ports
    return ports_of(model.edges, plan.layout)


FRAME_SIDE = 16.0  # room between a framed node and its frame's side (at scale 1)


def frame_padding(scale: float) -> float:
    """Room above a framed node for its frame's label (and as much below)."""
    return GroupItem.label_height(scale) + 10 * scale


def frames_of(model: GraphModel) -> dict[int, list[str]]:
    """Tape index -> the nodes of the shown graph that nested tape also recorded (framed)."""
    ops = len([n for n in model.nodes.values() if n.op])
    out: dict[int, list[str]] = {}
    for j in range(len(model.entries)):
        if j == model.current:
            continue
        members = [nid for nid, n in model.nodes.items() if j in n.tapes]
        if members and len(members) != ops:  # a frame around everything tells nothing
            out[j] = members
    return out


def update_items(
    items: dict[str, NodeItem], edges: list[EdgeItem], model: GraphModel, edge_labels: bool
) -> None:
    """New values, gradients and edge labels on the same items (same nodes, same places)."""
    ItemUpdate(items, edges, model, edge_labels).step(float("inf"))


class ItemUpdate:
    """:func:`update_items` in parts: the nodes in ``first`` order, then the rest, then edges.

    ``step(seconds)`` does about that much and says whether work remains: a big graph's
    re-run is put on its items by slices, those in view first (and their edges right after
    them). ``after(item)`` follows each node's new values (the stepper's marks, which a new
    node resets); ``edge_labels`` may change between steps (the view's setting).
    """

    def __init__(
        self, items: dict[str, NodeItem], edges: list[EdgeItem], model: GraphModel,
        edge_labels: bool, first: Sequence[str] = (),
        after: Callable[[NodeItem], None] | None = None,
    ) -> None:  # fmt: skip
        self.items, self.edges, self.model, self.edge_labels = items, edges, model, edge_labels
        self.after = after
        self.first = [nid for nid in first if nid in items]
        self.todo = self.first[::-1]  # popped from the end
        self.rest = True  # the other nodes are still to be listed (after ``first``)
        self.grown: set[int] = set()  # the edges of nodes whose box grew (boxes never shrink)
        self.by_ends: dict[tuple[str, str, int], Any] | None = None  # made when first used
        self.paused = False  # the step that updated ``first`` ended there
        self.edge_at = 0

    def step(self, seconds: float) -> bool:
        """Update items for about ``seconds``; True while work remains.

        The nodes of ``first`` end a step of their own: their edges and the list of the rest
        come in the next one.
        """
        end, n = time.perf_counter() + seconds, 0
        grads, nodes, items, after = self.model.gradients, self.model.nodes, self.items, self.after
        while self.todo or self.rest:
            if not self.todo:
                if self.first and seconds != float("inf") and not self.paused:
                    self.paused = True
                    return True  # the rest (and the list of the new edges) from the next step on
                self.rest, seen = False, set(self.first)
                for nid in self.first:  # the edges in view, before the nodes out of it
                    for edge in items[nid].edges:
                        self._edge(edge)
                self.todo = [nid for nid in items if nid not in seen][::-1]
                continue
            n += 1
            if n % 25 == 0 and time.perf_counter() > end:
                return True
            nid = self.todo.pop()
            item = items[nid]
            size = item.size()
            item.set_node(nodes[nid], grads.get(nid))
            if after is not None:
                after(item)
            if item.size() != size:
                self.grown.update(map(id, item.edges))
        while self.edge_at < len(self.edges):
            n += 1
            if n % 25 == 0 and time.perf_counter() > end:
                return True
            self._edge(self.edges[self.edge_at])
            self.edge_at += 1
        return False

    def _edge(self, edge: EdgeItem) -> None:
        if self.by_ends is None:
            self.by_ends = {(e.source, e.target, e.position): e for e in self.model.edges}
        old = edge.model_edge
        if old is not None:
            edge.model_edge = self.by_ends.get((old.source, old.target, old.position), old)
        if self.edge_labels:
            edge.set_label(self.model.edge_label(edge.model_edge))  # (it adjusts the edge)
        elif id(edge) in self.grown:
            edge.adjust()


@dataclass(frozen=True)
class Look:
    """How the items are drawn: colours, the presenter scale, edge labels, nested tapes framed."""

    theme: Theme
    scale: float
    edge_labels: bool
    groups: bool


@dataclass(frozen=True)
class Built:
    """A finished scene: its items, the layout, and where the nodes stood before."""

    scene: QGraphicsScene
    items: dict[str, NodeItem]
    edges: list[EdgeItem]
    groups: list[GroupItem]  # the frames of nested tapes
    layout: layouts.Layout
    old: dict[str, QPointF]
    look: Look | None = None  # what the items were drawn for
    extent: QRectF | None = None  # every planned node's box, frames' room included (the fit's)
    partial: bool = False  # only part of it is built yet (the rest follows by slices)
    tiles: Any = None  # a big scene's Tiles (they must be referenced while the scene lives)


class TooLargeBanner(QFrame):
    """Shown instead of a graph too large to draw: says so and offers the folded view."""

    fold = Signal()

    def __init__(self, view: QWidget) -> None:
        super().__init__(view)
        self.setObjectName("graphTooLarge")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        box = QVBoxLayout(self)
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.label.setFont(font(12))
        self.button = QPushButton(self.tr("Show folded view"), self)
        self.button.setObjectName("showFoldedButton")
        self.button.clicked.connect(self.fold)
        box.addWidget(self.label)
        box.addWidget(self.button)
        self.hide()

    def show_for(self, ops: int) -> None:
        """Show the banner for a tape of ``ops`` ops (hide it when ``ops`` is 0)."""
        if not ops:
            self.hide()
            return
        self.label.setText(
            self.tr(
                "This tape recorded {n} ops: too many to draw in full. The folded view shows "
                "the first and last {k} ops and one summary node for the middle."
            ).format(n=f"{ops:,}", k=FOLDED_OPS // 2)
        )
        self.setGeometry(20, 20, min(520, max(320, self.parentWidget().width() - 40)), 140)
        self.show()
        self.raise_()


def sort_ports(edges: list[Any], lay: layouts.Layout) -> None:
    """Ports top to bottom in the order of their sources: inputs never cross at the node."""
    edges.sort(key=lambda e: (lay.positions[e.source][1], e.position))


def route_of(lay: layouts.Layout, source: str, target: str) -> list[QPointF]:
    """The bend points the layout gave an edge."""
    return [QPointF(*p) for p in lay.routes.get((source, target), ())]


def make_edge(
    items: dict[str, NodeItem],
    target: str,
    e: Any,
    port: int,
    ports: int,
    label: str | None,
    lay: layouts.Layout,
    look: Look,
) -> EdgeItem:
    """The item of model edge ``e`` into ``target``'s input ``port`` of ``ports``.

    ``label``: the edge's label (``GraphModel.edge_label``) when the look shows them.
    """
    route = route_of(lay, e.source, target)  # (drawn with its bends from the start)
    edge = EdgeItem(items[e.source], items[target], port, ports, look.theme, route)
    edge.input_position = e.position
    edge.model_edge = e
    if look.edge_labels:
        edge.set_label(label)
    return edge


def named_frames(model: GraphModel) -> list[tuple[str, list[str]]]:
    """The frames of :func:`frames_of`, each as its nested tape's name and its nodes."""
    return [(model.entries[j].name, members) for j, members in frames_of(model).items()]


def frame_groups(
    scene: QGraphicsScene,
    items: dict[str, NodeItem],
    named: list[tuple[str, list[str]]],
    lay: layouts.Layout,
    look: Look,
) -> list[GroupItem]:
    """Frame the ops that an inner (nested) tape also recorded (``named_frames``), with its name."""
    frames = []
    side, top = FRAME_SIDE * look.scale, frame_padding(look.scale)
    for name, members in named:
        rect = QRectF()
        for nid in members:
            x, y = lay.positions[nid]
            w, h = items[nid].size()
            rect = rect.united(QRectF(x - w / 2, y - h / 2, w, h))
        frame = GroupItem(rect.adjusted(-side, -top, side, side), name, look.theme, look.scale)
        scene.addItem(frame)
        frames.append(frame)
    return frames


def jumps(moving: int, ms: int) -> bool:
    """Whether ``moving`` nodes go to their new places at once rather than by an animation."""
    return ms <= 0 or moving > ANIMATED_MAX


def animate_nodes(
    items: dict[str, NodeItem],
    lay: layouts.Layout,
    old: dict[str, QPointF],
    ms: int,
    parent: QObject,
) -> QVariantAnimation | None:
    """Move the nodes that were on screen from their ``old`` places to the layout's (animated)."""
    moving = [
        (it, it.pos(), QPointF(*lay.positions[nid]))
        for nid, it in items.items()
        if nid in old and it.pos() != QPointF(*lay.positions[nid])
    ]
    if not moving or jumps(len(moving), ms):
        edges: dict[int, EdgeItem] = {}
        for it, _, end in moving:
            it.setPos(end)
            fit_tile(it)
            edges.update((id(e), e) for e in it.edges)
        for e in edges.values():  # each edge once, though both its ends moved
            e.adjust()
        return None
    anim = QVariantAnimation(parent)
    anim.setStartValue(0.0)
    anim.setEndValue(1.0)
    anim.setDuration(ms)

    def step(t: float) -> None:
        for it, a, b in moving:
            it.move_to(a + (b - a) * t)

    anim.valueChanged.connect(step)
    anim.start()
    return anim
