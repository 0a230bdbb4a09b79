"""Fold a network's ops by layer: one box per Keras layer, tf.Module or torch Module call.

Ops recorded inside a name scope (``("sequential", "dense_1")``; a torch module's forward runs
in ``("net", "fc1")``) become one ``layer`` node named by the scope, showing the layer's input
and output shapes and its parameters' names. Only the innermost scopes fold: the glue a
model's own ``forward`` runs between its layers (``F.relu`` in ``net``) stays as plain ops, so
the folded graph never loops back through a box. Parameters used only inside one layer go
into its box. A scope in ``expanded`` stays unfolded (the user double-clicked it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tapeviz.engine.core import OpRecord
from tapeviz.models.graph.nodes import Edge, Node

LAYER_PREFIX = "L:"  # node ids of folded layers: "L:sequential/dense_1"


def scope_key(scope: Sequence[str]) -> str:
    """``sequential/dense_1``: how a scope is named in ids and in ``expanded``."""
    return "/".join(scope)


def leaf_scopes(records: Sequence[OpRecord]) -> list[tuple[str, ...]]:
    """The innermost scopes of the records, in first-use order (no other scope lies inside)."""
    seen: dict[tuple[str, ...], None] = {}
    for rec in records:
        if rec.scope:
            seen.setdefault(tuple(rec.scope), None)
    scopes = list(seen)
    return [s for s in scopes if not any(len(o) > len(s) and o[: len(s)] == s for o in scopes)]


def _shape_text(value: Any) -> str:
    shape = np.shape(value)
    return "scalar" if not shape else "(" + ", ".join(str(d) for d in shape) + ")"


def _short_param(label: str, key: str) -> str:
    """``kernel`` for ``sequential/dense_1/kernel`` inside layer ``sequential/dense_1``."""
    last = key.rsplit("/", 1)[-1]
    for prefix in (key + "/", last + "/", key.replace("/", ".") + ".", last + "."):
        if label.startswith(prefix):
            return label[len(prefix) :]
    return label


def fold_layers(
    nodes: dict[str, Node],
    edges: list[Edge],
    records: Sequence[OpRecord],
    expanded: Sequence[str] = (),
) -> dict[str, str]:
    """Fold the ops of each innermost scope into one layer node, in place.

    Returns the folded node ids mapped to their layer's id (for the tensor → node lookup).
    """
    leaves = {s: scope_key(s) for s in leaf_scopes(records)}
    group: dict[str, str] = {}  # op node id -> layer id
    members: dict[str, list[str]] = {}
    for nid, node in nodes.items():
        if node.record is None or node.kind not in ("op", "target"):
            continue
        scope = tuple(records[node.record].scope)
        key = leaves.get(scope)
        if key is None or key in expanded:
            continue
        lid = LAYER_PREFIX + key
        group[nid] = lid
        members.setdefault(lid, []).append(nid)
    if not members:
        return {}
    consumers: dict[str, list[str]] = {}
    for e in edges:
        consumers.setdefault(e.source, []).append(group.get(e.target, e.target))
    # parameters: variables read only by one layer go into its box
    params: dict[str, list[str]] = {}
    for nid, node in nodes.items():
        if node.kind not in ("variable", "watched"):
            continue
        users = consumers.get(nid, [])
        if not users or any(u != users[0] for u in users) or users[0] not in members:
            continue
        # a watched leaf is a parameter when the layer names it (torch's ``fc1.weight``)
        key = users[0][len(LAYER_PREFIX) :]
        if node.kind == "variable" or _short_param(node.label, key) != node.label:
            group[nid] = users[0]
            params.setdefault(users[0], []).append(nid)
    new_nodes: dict[str, Node] = {}
    for nid, node in nodes.items():
        lid = group.get(nid)
        if lid is None:
            new_nodes[nid] = node
        elif nid == members[lid][-1]:
            new_nodes[lid] = _layer_node(lid, members[lid], params.get(lid, []), nodes, edges)
    # a layer's node takes the place of its last op, so layout order follows the records
    order = list(new_nodes)
    new_edges: list[Edge] = []
    seen: dict[tuple[str, str, int], None] = {}
    position: dict[str, dict[str, int]] = {}
    for e in edges:
        source, target = group.get(e.source, e.source), group.get(e.target, e.target)
        if source == target:
            continue
        pos = e.position
        if target.startswith(LAYER_PREFIX):
            slots = position.setdefault(target, {})
            pos = slots.setdefault(source, len(slots))
        key = (source, target, pos)
        if key in seen:
            continue
        seen[key] = None
        new_edges.append(Edge(source, target, pos, e.tensor_id))
    nodes.clear()
    nodes.update((nid, new_nodes[nid]) for nid in order)
    edges[:] = new_edges
    return group


def _layer_node(
    lid: str,
    ops: list[str],
    params: list[str],
    nodes: Mapping[str, Node],
    edges: Sequence[Edge],
) -> Node:
    key = lid[len(LAYER_PREFIX) :]
    inside = {*ops, *params}
    last = nodes[ops[-1]]
    # the layer's input: the first value that flows in from outside and is not a parameter
    inputs = [e for e in edges if e.target in inside and e.source not in inside]
    data_in = next(
        (e for e in inputs if nodes[e.source].kind not in ("variable", "constant")),
        inputs[0] if inputs else None,
    )
    shape_in = _shape_text(nodes[data_in.source].value) if data_in is not None else "?"
    names = [_short_param(nodes[p].label, key) for p in params]
    kinds = []
    for nid in ops:
        op = nodes[nid].symbol
        if op not in kinds:
            kinds.append(op)
    lines = [f"{shape_in} → {_shape_text(last.value)}"]
    if names:
        lines.append(" · ".join(names))
    lines.append(" ".join(kinds[:4]) + (" …" if len(kinds) > 4 else ""))
    records = tuple(nodes[n].record for n in ops if nodes[n].record is not None)
    note = next((nodes[n].note for n in ops if nodes[n].note is not None), None)
    return Node(
        lid, "layer", key.rsplit("/", 1)[-1], key.rsplit("/", 1)[-1],
        last.tensor_id, last.value, last.dtype, None, "\n".join(lines), last.record,
        any(nodes[n].watched for n in ops), last.tapes, note, records,
        tuple(nodes[p].label for p in params),
    )  # fmt: skip
