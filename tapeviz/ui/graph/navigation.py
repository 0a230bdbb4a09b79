"""Where the graph view goes: the arrow keys' neighbour and the highlighted paths."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tapeviz.models.graph.model import GraphModel

Point = tuple[float, float]


def neighbour(model: GraphModel, places: dict[str, Point], current: str, key: int) -> str | None:
    """→ a consumer, ← an input, ↑/↓ the node above or below in the same column."""
    if key == Qt.Key.Key_Right:
        found = model.successors(current)
    elif key == Qt.Key.Key_Left:
        found = model.predecessors(current)
    else:
        x = places[current][0]
        column = sorted((p[1], nid) for nid, p in places.items() if abs(p[0] - x) < 1)
        order = [nid for _, nid in column]
        i = order.index(current) + (1 if key == Qt.Key.Key_Down else -1)
        found = [order[i]] if 0 <= i < len(order) else []
    return found[0] if found else None


def paths(
    model: GraphModel | None, chosen: list[str]
) -> tuple[set[str], set[tuple[str, str, int]]]:
    """Nodes and edges (source, target, input) on the paths between the chosen nodes.

    From the first chosen node to the second, or to the targets when one node is chosen.
    """
    nodes: set[str] = set()
    edges: set[tuple[str, str, int]] = set()
    if model is None or not chosen:
        return nodes, edges
    ends = chosen[1:2] or [n for n, node in model.nodes.items() if node.kind == "target"]
    for end in ends:
        on, through = model.path_between(chosen[0], end)
        nodes.update(on)
        edges.update((e.source, e.target, e.position) for e in through)
    return nodes, edges
