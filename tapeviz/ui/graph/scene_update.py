"""Updating the graph's scene in place after a re-run that changed little (a keystroke).

A re-run of edited code records mostly the same ops under the same ids (``o0``, ``o1``, … in
recording order): :func:`update_scene` keeps their items (redrawn only where their text
changed), makes items for the new nodes and edges, and removes those of the nodes that went.
Building a whole new scene instead costs a few milliseconds per node; a keystroke in a
300-op expression changes two or three.
"""

from __future__ import annotations

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
    make_edge,
    plan_ports,
    planned_extent,
    route_of,
)
from tapeviz.ui.graph.tiles import Tile

REUSE_NEW_MAX = 250  # nodes a re-run may add for its scene to be updated in place
REUSE_MAX = 3000  # nodes: a bigger graph is built anew by slices (in place took 3 s at 20,000)


def reusable(items: dict[str, NodeItem], plan: Plan) -> bool:
    """Whether the scene of ``items`` is worth updating for ``plan`` (most nodes stay).

    Not a graph over REUSE_MAX nodes: an update happens in one turn, a new scene by slices.
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


def update_scene(
    scene: QGraphicsScene,
    items: dict[str, NodeItem],
    edges: list[EdgeItem],
    groups: list[GroupItem],
    plan: Plan,
    model: GraphModel,
    look: Look,
) -> Built:
    """Give ``scene`` the planned graph, keeping the items of the nodes that stay."""
    lay, grads = plan.layout, model.gradients
    old = {nid: it.pos() for nid, it in items.items()}
    lazy = len(plan.nodes) > LAZY_TEXT
    kept: dict[str, NodeItem] = {}
    for nid, node in plan.nodes.items():
        item = items.get(nid)
        size = plan.sizes.get(nid)
        if item is not None:
            item.reuse(node, grads.get(nid), size)
        else:
            item = NodeItem(node, look.theme, look.scale, grads.get(nid), size, lazy)
            item.setPos(QPointF(*lay.positions[nid]))
            scene.addItem(item)
        kept[nid] = item
    for nid, item in items.items():
        if nid not in kept:
            scene.removeItem(item)
    by_key = {(e.source.node.id, e.target.node.id, e.input_position): e for e in edges}
    new_edges: list[EdgeItem] = []
    for target, e, port, ports in plan_ports(plan, model):  # (the builder's own order)
        edge = by_key.pop((e.source, target, e.position), None)
        ends = (kept[e.source], kept[target])
        if edge is not None and (edge.source, edge.target) == ends:
            edge.model_edge = e
            moved = edge.reroute(port, ports, route_of(lay, e.source, target))
            if look.edge_labels:
                edge.set_label(model.edge_label(e))  # (it adjusts the edge)
            elif moved:
                edge.adjust()
        else:
            edge = make_edge(kept, target, e, port, ports, model, lay, look)
            scene.addItem(edge)
        new_edges.append(edge)
    for edge in by_key.values():
        edge.detach()
        if edge.scene() is scene:
            scene.removeItem(edge)
    for group in groups:
        scene.removeItem(group)
    frames = frame_groups(scene, kept, model, lay, look) if look.groups else []
    return Built(scene, kept, new_edges, frames, lay, old, look, planned_extent(plan))
