"""Display options that reshape the graph: constants folded into ops, unreached ops hidden."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from tapeviz.models.graph.nodes import Edge, Node

SYMBOLS = {
    "add": "+", "subtract": "−", "multiply": "×", "divide": "÷", "negative": "−", "pow": "^",
    "matmul": "@", "square": "²", "sqrt": "√", "floordiv": "//", "mod": "%",
}  # fmt: skip


def _fold_text(op: str, position: int, value: Any) -> str | None:
    text = f"{float(value):g}" if np.asarray(value).dtype.kind == "f" else str(value)
    symbol = SYMBOLS.get(op)
    if symbol is None or op in ("negative", "square", "sqrt"):
        return None
    return f"{symbol}{text}" if position == 1 else f"{text}{symbol}"


def fold_constants(nodes: dict[str, Node], edges: list[Edge]) -> None:
    """Fold each scalar constant used once into its op's label (``×2``), in place."""
    uses: dict[str, list[Edge]] = {}
    for e in edges:
        uses.setdefault(e.source, []).append(e)
    for nid, node in list(nodes.items()):
        if node.kind != "constant" or np.ndim(node.value) or len(uses.get(nid, ())) != 1:
            continue
        edge = uses[nid][0]
        op_node = nodes[edge.target]
        text = _fold_text(op_node.op or "", edge.position, node.value)
        if text is None or op_node.symbol != SYMBOLS.get(op_node.op or ""):
            continue
        nodes[edge.target] = replace(op_node, symbol=text)
        del nodes[nid]
        edges.remove(edge)


def hide_unreached(nodes: dict[str, Node], edges: list[Edge]) -> None:
    """Drop the ops no watched source reaches, and the sources left unused, in place."""
    hidden = {nid for nid, n in nodes.items() if n.kind in ("op", "target") and not n.watched}
    edges[:] = [e for e in edges if e.target not in hidden and e.source not in hidden]
    used = {e.source for e in edges} | {e.target for e in edges}
    for nid in list(nodes):
        n = nodes[nid]
        if nid in hidden or (n.is_source and nid not in used):
            del nodes[nid]
