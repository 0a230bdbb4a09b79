"""Export a GraphModel as graphviz DOT text (no Qt needed)."""

from __future__ import annotations

from tapeviz.models.graph.model import GraphModel
from tapeviz.models.values import short

_SHAPES = {"variable": "ellipse", "watched": "box", "constant": "box", "op": "box",
           "target": "box", "folded": "box", "layer": "box3d"}  # fmt: skip
_STYLES = {"watched": "dashed,rounded", "op": "rounded", "target": "rounded,bold",
           "constant": "", "variable": "", "folded": "dotted", "layer": "rounded"}  # fmt: skip


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def to_dot(model: GraphModel, gradients: bool = True) -> str:
    """DOT text of the current graph: left to right, values and gradients in the labels."""
    lines = ["digraph tape {", "  rankdir=LR;", '  node [fontname="DejaVu Sans"];']
    for nid, node in model.nodes.items():
        label = node.symbol
        if node.op and node.label not in (node.op, node.symbol):
            label = f"{node.label} = {node.symbol}"
        label += f"\n= {short(node.value)}"
        if gradients and nid in model.gradients:
            label += f"\n∂ = {short(model.gradients[nid])}"
        attrs = [f"label={_quote(label)}", f"shape={_SHAPES.get(node.kind, 'box')}"]
        if _STYLES.get(node.kind):
            attrs.append(f"style={_quote(_STYLES[node.kind])}")
        lines.append(f"  {nid} [{', '.join(attrs)}];")
    for e in model.edges:
        lines.append(f'  {e.source} -> {e.target} [headlabel="{e.position}"];')
    lines.append("}")
    return "\n".join(lines) + "\n"
