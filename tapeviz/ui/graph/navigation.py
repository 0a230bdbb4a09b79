"""Where the graph view goes: the arrow keys' neighbour, the highlighted paths, the fit."""

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


def _clean_start(
    start: float,
    span: float,
    boxes: list[tuple[float, float]],
    keep: tuple[float, float],
    margin: float,
    order: tuple[int, int],
) -> float:
    """A view start (left or top) that cuts no node in half and still shows ``keep`` whole.

    It moves past the nodes it would cut (``+1``) or back to include them (``-1``), in the
    ``order`` given, until it cuts none; it stays put if neither keeps ``keep`` in view.
    """
    for direction in order:
        at = start
        for _ in range(len(boxes) + 1):
            cut = [b for b in boxes if b[0] < at < b[1]]
            if not cut:
                break
            at = (
                max(b[1] for b in cut) + margin
                if direction > 0
                else min(b[0] for b in cut) - margin
            )
        if not any(b[0] < at < b[1] for b in boxes) and at <= keep[0] and keep[1] <= at + span:
            return at
    return start


def fit_view(
    rect: tuple[float, float, float, float],
    port: tuple[float, float],
    end: Point,
    smallest: float,
    largest: float,
    boxes: list[tuple[float, float, float, float]] | None = None,
    margin: float = 0.0,
) -> tuple[float, float, float]:
    """The zoom and the scene point to centre that fit ``rect`` (left, top, width, height).

    The zoom fits the viewport ``port`` within ``smallest``…``largest``. When the graph is
    then larger than the view, the view shows its right end (the target) and, vertically,
    the ``end`` point's row; its left and top edges never cut a node (``boxes``: each node's
    centre x, y, width and height).
    """
    left, top, width, height = rect
    ratio = min(port[0] / width, port[1] / height)
    z = min(max(ratio, smallest), largest)
    span_w, span_h = port[0] / z, port[1] / z
    nodes = boxes or []
    target = next((b for b in nodes if b[0] == end[0] and b[1] == end[1]), (*end, 0.0, 0.0))
    x, y = left + width / 2, top + height / 2
    if width > span_w:
        across = [(bx - bw / 2, bx + bw / 2) for bx, _, bw, _ in nodes]
        keep = (target[0] - target[2] / 2, target[0] + target[2] / 2)
        start = _clean_start(left + width - span_w, span_w, across, keep, margin, (1, -1))
        x = start + span_w / 2
    if height > span_h:
        start = min(max(end[1] - span_h / 2, top), top + height - span_h)
        down = [(by - bh / 2, by + bh / 2) for _, by, _, bh in nodes]
        keep = (target[1] - target[3] / 2, target[1] + target[3] / 2)
        y = _clean_start(start, span_h, down, keep, margin, (-1, 1)) + span_h / 2
    return z, x, y
