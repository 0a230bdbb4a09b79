"""Layered left-to-right layouts of a graph: sources left, target right, few crossings.

``layered`` is ours: longest-path layers, barycenter ordering sweeps, then vertical alignment;
linear in the graph's size and deterministic. ``grandalf`` (pure Python Sugiyama) and graphviz
``dot`` (when on PATH) are the alternatives; all three return the same :class:`Layout`.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

Size = tuple[float, float]
Point = tuple[float, float]

H_GAP = 70.0  # between layers
V_GAP = 28.0  # between nodes of a layer
COMPACT_GAPS = (34.0, 12.0)  # (between layers, between nodes) when the graph must fit tighter
MAX_SPAN = 8  # longer edges are drawn straight instead of routed through virtual nodes
MAX_DUMMIES_PER_NODE = 4  # and the virtual nodes never outnumber the real ones by more


@dataclass(frozen=True)
class Layout:
    """Node centres, node layers, and the bounding box."""

    positions: dict[str, Point]
    layers: dict[str, int]
    width: float
    height: float
    engine: str = "layered"
    routes: dict[tuple[str, str], list[Point]] = field(default_factory=dict)  # bend points


def _neighbours(ids: Sequence[str], edges: Sequence[tuple[str, str]]) -> tuple[dict, dict]:
    preds: dict[str, list[str]] = {n: [] for n in ids}
    succs: dict[str, list[str]] = {n: [] for n in ids}
    for a, b in edges:
        if a in preds and b in preds and a != b:
            if a not in preds[b]:
                preds[b].append(a)
            if b not in succs[a]:
                succs[a].append(b)
    return preds, succs


def _layers(ids: Sequence[str], preds: dict, succs: dict) -> dict[str, int]:
    layer: dict[str, int] = {}
    pending = list(ids)
    for _ in range(len(ids) + 1):  # ids are usually topological already: one pass suffices
        rest = []
        for n in pending:
            top = -1
            for p in preds[n]:
                at = layer.get(p)
                if at is None:  # a predecessor not placed yet: the next pass
                    rest.append(n)
                    break
                if at > top:
                    top = at
            else:
                layer[n] = top + 1
        pending = rest
        if not pending:
            break
    for n in pending:  # a cycle cannot come from a tape, but never loop forever
        layer[n] = 0
    for n in ids:  # sources sit just left of their first consumer, not all at the far left
        if not preds[n] and succs[n]:
            layer[n] = max(0, min(layer[s] for s in succs[n]) - 1)
    return layer


def _order(ids: Sequence[str], layer: dict, preds: dict, succs: dict,
           previous: Mapping[str, Point] | None, sweeps: int) -> list[list[str]]:  # fmt: skip
    count = max(layer.values(), default=-1) + 1
    rows: list[list[str]] = [[] for _ in range(count)]
    for n in ids:
        rows[layer[n]].append(n)
    if previous:
        for row in rows:
            row.sort(key=lambda n: previous[n][1] if n in previous else float("inf"))
    pos = {n: i for row in rows for i, n in enumerate(row)}

    def sweep(order: range, neighbours: dict) -> bool:
        """One barycenter pass over the rows in ``order``; whether any row's order changed."""
        changed = False
        for li in order:
            row = rows[li]
            if len(row) < 2:  # (a lone node keeps its place: most rows of a long chain)
                continue
            keyed = []
            for i, n in enumerate(row):
                near = [pos[m] for m in neighbours[n]]
                keyed.append((sum(near) / len(near) if near else i, i, n))
            keyed.sort()
            new = [n for _, _, n in keyed]
            if new != row:
                changed = True
                rows[li] = new
                for i, n in enumerate(new):
                    pos[n] = i
        return changed

    for _ in range(sweeps if not previous else 1):
        down = sweep(range(1, count), preds)
        up = sweep(range(count - 2, -1, -1), succs)
        if not (down or up):  # a fixed point: every further sweep would change nothing
            break
    return rows


def layered(
    ids: Sequence[str],
    edges: Sequence[tuple[str, str]],
    sizes: Mapping[str, Size],
    previous: Mapping[str, Point] | None = None,
    sweeps: int = 4,
    gaps: tuple[float, float] = (H_GAP, V_GAP),
) -> Layout:
    """Our layered layout; with ``previous`` positions, existing nodes keep their order.

    ``gaps`` are the room between layers and between the nodes of a layer
    (:data:`COMPACT_GAPS` for a view the graph does not fit at its natural size).

    Edges spanning several layers get a virtual node in each layer they cross, so they take
    part in the ordering (fewer crossings) and are routed between nodes, never across them.
    Edges longer than ``MAX_SPAN`` layers (a weight reused across a deep net) stay straight,
    which keeps the layout linear in the graph's size.
    """
    preds, succs = _neighbours(ids, edges)
    layer = _layers(ids, preds, succs)
    sizes, chains = dict(sizes), {}
    all_ids = list(ids)
    budget = MAX_DUMMIES_PER_NODE * len(ids)
    for a in list(ids):
        for b in list(succs[a]):
            span = layer[b] - layer[a]
            if span <= 1 or span > MAX_SPAN or span - 1 > budget:
                continue
            budget -= span - 1
            chain = [f"\0{a}>{b}>{k}" for k in range(1, span)]
            chains[(a, b)] = chain
            succs[a][succs[a].index(b)] = chain[0]
            preds[b][preds[b].index(a)] = chain[-1]
            for k, d in enumerate(chain):
                layer[d] = layer[a] + 1 + k
                sizes[d] = (0.0, 10.0)
                preds[d] = [a if k == 0 else chain[k - 1]]
                succs[d] = [b if k == len(chain) - 1 else chain[k + 1]]
                all_ids.append(d)
    rows = _order(all_ids, layer, preds, succs, previous, sweeps)
    h_gap, v_gap = gaps
    xs: list[float] = []
    x = 0.0
    for row in rows:
        w = max([sizes[n][0] for n in row], default=0.0)
        xs.append(x + w / 2)
        x += w + h_gap
    y: dict[str, float] = {}
    for li, row in enumerate(rows):
        wanted = []
        for n in row:
            near = [y[p] for p in preds[n] if p in y]
            wanted.append(sum(near) / len(near) if near else None)
        _place(row, wanted, sizes, y, li == 0, v_gap)
    _center_sources(rows, succs, sizes, y, v_gap)
    top = min([y[n] - sizes[n][1] / 2 for n in all_ids], default=0.0)
    height = max([y[n] - top + sizes[n][1] / 2 for n in all_ids], default=0.0)
    left = 0.0
    if previous:  # the nodes that stay keep their places: the graph grows around them
        left, top = _anchor(ids, xs, layer, y, previous, (0.0, top))
    positions = {n: (xs[layer[n]] - left, y[n] - top) for n in ids}
    routes = {
        ab: [(xs[layer[d]] - left, y[d] - top) for d in chain] for ab, chain in chains.items()
    }
    real_layers = {n: layer[n] for n in ids}
    return Layout(positions, real_layers, max(x - h_gap, 0.0), height, "layered", routes)


def _anchor(ids: Sequence[str], xs: list[float], layer: dict, y: dict,
            previous: Mapping[str, Point], default: Point) -> Point:  # fmt: skip
    """The shift (left, top) that puts the nodes already shown back where they were.

    The median of their moves: a node that really moved (a new input came before it) does
    not drag the others along. Without such nodes, ``default``.
    """
    kept = [n for n in ids if n in previous]
    if not kept:
        return default
    dx = sorted(xs[layer[n]] - previous[n][0] for n in kept)
    dy = sorted(y[n] - previous[n][1] for n in kept)
    return dx[len(dx) // 2], dy[len(dy) // 2]


def _place(row: list[str], wanted: list[float | None], sizes: Mapping[str, Size],
           y: dict[str, float], first: bool, v_gap: float = V_GAP) -> None:  # fmt: skip
    """Put a layer's nodes in order, each as near its wanted y as the spacing allows."""
    cursor = None
    stacked = 0.0
    for n, want in zip(row, wanted, strict=True):
        h = sizes[n][1]
        target = want if want is not None else (stacked + h / 2)
        if cursor is not None:
            target = max(target, cursor + h / 2 + v_gap)
        y[n] = target
        cursor = target + h / 2
        stacked = cursor + v_gap
    # pull the block back up so its middle sits where its nodes wanted to be on average
    known = [w for w in wanted if w is not None]
    if known and not first:
        shift = sum(known) / len(known) - sum(y[n] for n in row) / len(row)
        if shift < 0:
            for n in row:
                y[n] += shift


def _center_sources(rows: list[list[str]], succs: dict, sizes: Mapping[str, Size],
                    y: dict[str, float], v_gap: float = V_GAP) -> None:  # fmt: skip
    """Move source-only rows next to the nodes they feed (keeping their order and spacing)."""
    for row in rows:
        wanted = []
        for n in row:
            near = [y[s] for s in succs[n]]
            wanted.append(sum(near) / len(near) if near else None)
        if all(w is None for w in wanted):
            continue
        # (only this row's places: copying every place per row made big graphs quadratic)
        _place(row, [w if w is not None else y[n] for n, w in zip(row, wanted, strict=True)],
               sizes, y, True, v_gap)  # fmt: skip


def grandalf(
    ids: Sequence[str], edges: Sequence[tuple[str, str]], sizes: Mapping[str, Size]
) -> Layout:
    """Sugiyama layout by grandalf, turned to run left to right."""
    from grandalf.graphs import Edge, Graph, Vertex
    from grandalf.layouts import SugiyamaLayout

    class _View:
        def __init__(self, w: float, h: float) -> None:
            self.w, self.h = h, w  # grandalf lays out top-down: swap to run left-right
            self.xy = (0.0, 0.0)

    verts = {n: Vertex(n) for n in ids}
    for n, v in verts.items():
        v.view = _View(*sizes[n])
    pairs = [(a, b) for a, b in dict.fromkeys(edges) if a in verts and b in verts and a != b]
    es = [Edge(verts[a], verts[b]) for a, b in pairs]
    graph = Graph(list(verts.values()), es)
    offset = 0.0
    positions: dict[str, Point] = {}
    for comp in graph.C:
        sug = SugiyamaLayout(comp)
        sug.xspace, sug.yspace = V_GAP, H_GAP
        sug.init_all()
        sug.draw(3)
        ys = [v.view.xy[0] for v in comp.sV]
        low = min(ys) - max(v.view.w for v in comp.sV)
        for v in comp.sV:
            positions[v.data] = (v.view.xy[1], v.view.xy[0] - low + offset)
        offset = max(p[1] for p in positions.values()) + V_GAP * 2
    return _normalised(positions, sizes, "grandalf")


def dot_available() -> bool:
    """Whether graphviz ``dot`` is on PATH."""
    return shutil.which("dot") is not None


def dot(ids: Sequence[str], edges: Sequence[tuple[str, str]], sizes: Mapping[str, Size]) -> Layout:
    """Layout by graphviz ``dot -Tplain`` (rankdir=LR)."""
    lines = ["digraph G {", "rankdir=LR; nodesep=0.35; ranksep=0.8;"]
    for i, n in enumerate(ids):
        w, h = sizes[n]
        lines.append(f"n{i} [shape=box, fixedsize=true, width={w / 72:.3f}, height={h / 72:.3f}];")
    index = {n: i for i, n in enumerate(ids)}
    for a, b in edges:
        if a in index and b in index:
            lines.append(f"n{index[a]} -> n{index[b]};")
    lines.append("}")
    out = subprocess.run(["dot", "-Tplain"], input="\n".join(lines), capture_output=True,
                         text=True, check=True, timeout=60).stdout  # fmt: skip
    positions: dict[str, Point] = {}
    for line in out.splitlines():
        parts = line.split()
        if parts and parts[0] == "node":
            positions[ids[int(parts[1][1:])]] = (float(parts[2]) * 72, -float(parts[3]) * 72)
    return _normalised(positions, sizes, "dot")


def _normalised(positions: dict[str, Point], sizes: Mapping[str, Size], engine: str) -> Layout:
    if not positions:
        return Layout({}, {}, 0.0, 0.0, engine)
    left = min(x - sizes[n][0] / 2 for n, (x, _) in positions.items())
    top = min(y - sizes[n][1] / 2 for n, (_, y) in positions.items())
    moved = {n: (x - left, y - top) for n, (x, y) in positions.items()}
    width = max(x + sizes[n][0] / 2 for n, (x, _) in moved.items())
    height = max(y + sizes[n][1] / 2 for n, (_, y) in moved.items())
    xs = sorted({round(x) for x, _ in moved.values()})
    layers = {n: xs.index(round(x)) for n, (x, _) in moved.items()}
    return Layout(moved, layers, width, height, engine)


ENGINES = {"layered": layered, "grandalf": grandalf, "dot": dot}
