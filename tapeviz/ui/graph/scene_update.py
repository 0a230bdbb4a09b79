"""Updating the graph's scene in place after a re-run that changed little (a keystroke).

A re-run of edited code records mostly the same ops under the same ids (``o0``, ``o1``, … in
recording order): a :class:`SceneUpdate` keeps their items (redrawn only where their text
changed), makes items for the new nodes and edges, and removes those of the nodes that went,
by slices for a big graph. Building a whole new scene instead costs a few milliseconds per
node; a keystroke in a 300-op expression changes two or three.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QGraphicsScene

from tapeviz.models.graph.model import GraphModel
from tapeviz.ui.graph.items import EdgeItem, GroupItem, NodeItem
from tapeviz.ui.graph.scene import (
    LAZY_TEXT,
    Built,
    Look,
    Plan,
    frame_groups,
    jumps,
    make_edge,
    named_frames,
    plan_ports,
    planned_extent,
    route_of,
)
from tapeviz.ui.graph.tiles import Tile

REUSE_NEW_MAX = 250  # nodes a re-run may add for its scene to be updated in place
REUSE_MAX = 3000  # nodes: a bigger graph is built anew by slices (in place took 3 s at 20,000)


def reusable(items: dict[str, NodeItem], plan: Plan) -> bool:
    """Whether the scene of ``items`` is worth updating for ``plan`` (most nodes stay).

    Not a graph over REUSE_MAX nodes: there a new scene, built by slices around the view,
    shows sooner than an update of every item.
    Not a tiled scene either (a big one, shrinking): its kept nodes would move and its tiles
    keep the reach of the nodes removed (a fit of the view would look at empty space).
    """
    size = len(plan.nodes)
    if not items or size > REUSE_MAX or size - len(items) > REUSE_NEW_MAX or 2 * len(items) < size:
        return False  # more new nodes than that, or fewer kept, whatever the ids
    first = next(iter(items.values()))
    if isinstance(first, NodeItem) and isinstance(first.parentItem(), Tile):
        return False
    new = sum(1 for nid in plan.nodes if nid not in items)
    return new <= REUSE_NEW_MAX and 2 * (len(plan.nodes) - new) >= len(plan.nodes)


class SceneUpdate:
    """Give a scene the planned graph, keeping the items of the nodes that stay.

    :meth:`step` works for a time (``float("inf")``: all at once); ``built`` is the end.

    A keystroke in a 1,000-op expression updates ~1,200 nodes and their edges: ~90 ms at once.
    The view shows the old picture until the last slice (it suspends its repaints: a scroll or
    a zoom meanwhile shows at the end), so the slices never show a half-updated graph. What the
    update reads of the model (gradients, the edges' ports and labels, the nested tapes'
    frames) is taken when it is made: the next run changes the model in place, and may arrive
    while the update goes on. When the nodes will not be animated (:func:`jumps`: too many
    move, or no animation), they are put in their new places here, so each edge is drawn once,
    not once here and again when its ends jump.
    """

    def __init__(
        self,
        scene: QGraphicsScene,
        items: dict[str, NodeItem],
        edges: list[EdgeItem],
        groups: list[GroupItem],
        plan: Plan,
        model: GraphModel,
        look: Look,
        ms: int = 0,
    ) -> None:
        self.scene, self.items, self.edges, self.groups = scene, items, edges, groups
        self.plan, self.look = plan, look
        self.grads = dict(model.gradients)
        self.ports = [
            (target, e, port, ports, model.edge_label(e) if look.edge_labels else None)
            for target, e, port, ports in plan_ports(plan, model)
        ]
        self.frames = named_frames(model) if look.groups else []
        self.old = {nid: it.pos() for nid, it in items.items()}
        places = plan.layout.positions
        moving = sum(
            1 for nid, at in self.old.items() if nid in places and at != QPointF(*places[nid])
        )
        self.jump = jumps(moving, ms)  # (``ms``: the view's animation time)
        self.kept: dict[str, NodeItem] = {}
        self.built: Built | None = None  # set by the last step
        self._work: Iterator[None] | None = self._steps()  # (dropped when done: no cycle left)

    def step(self, budget: float) -> bool:
        """Work for ``budget`` seconds; whether some is left (else ``built`` is set).

        An update that failed (an exception from a step) has nothing left and no ``built``.
        """
        work, self._work = self._work, None  # (given back below while some is left)
        if work is None:
            return False
        end = time.perf_counter() + budget
        for i, _ in enumerate(work):
            if i & 31 == 31 and time.perf_counter() > end:
                self._work = work
                return True
        return False

    def _steps(self) -> Iterator[None]:
        scene, items, plan, look, grads = self.scene, self.items, self.plan, self.look, self.grads
        lay, kept, jump = plan.layout, self.kept, self.jump
        lazy = len(plan.nodes) > LAZY_TEXT
        for nid, node in plan.nodes.items():
            item = items.get(nid)
            size = plan.sizes.get(nid)
            if item is not None:
                item.reuse(node, grads.get(nid), size)
                if jump:
                    item.setPos(QPointF(*lay.positions[nid]))
            else:
                item = NodeItem(node, look.theme, look.scale, grads.get(nid), size, lazy)
                item.setPos(QPointF(*lay.positions[nid]))
                scene.addItem(item)
            kept[nid] = item
            yield
        for nid, item in items.items():
            if nid not in kept:
                scene.removeItem(item)
        by_key = {(e.source.node.id, e.target.node.id, e.input_position): e for e in self.edges}
        new_edges: list[EdgeItem] = []
        for target, e, port, ports, label in self.ports:  # (the builder's own order)
            edge = by_key.pop((e.source, target, e.position), None)
            ends = (kept[e.source], kept[target])
            if edge is not None and (edge.source, edge.target) == ends:
                edge.model_edge = e
                moved = edge.reroute(port, ports, route_of(lay, e.source, target))
                if look.edge_labels and edge.set_label(label):
                    pass  # (drawn again with its label)
                elif moved or jump:
                    edge.adjust()
            else:
                edge = make_edge(kept, target, e, port, ports, label, lay, look)
                scene.addItem(edge)
            new_edges.append(edge)
            yield
        for edge in by_key.values():
            edge.detach()
            if edge.scene() is scene:
                scene.removeItem(edge)
        for group in self.groups:
            scene.removeItem(group)
        frames = frame_groups(scene, kept, self.frames, lay, look) if look.groups else []
        extent = planned_extent(plan)
        self.built = Built(scene, kept, new_edges, frames, lay, self.old, look, extent)
