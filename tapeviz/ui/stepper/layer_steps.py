"""Stepping a folded network layer by layer: one → does every op of the layer in front.

The graph model says which records a layer box holds (``Node.members``); the stepper's
position jumps over the run of steps whose records lie in one box, and the detail line
explains the layer as a whole (``tapeviz.models.backward.layers``).
"""

from __future__ import annotations

from tapeviz.models.backward.layers import layer_text
from tapeviz.models.backward.stepper import BackwardStepper
from tapeviz.models.graph.layers import LAYER_PREFIX
from tapeviz.models.graph.model import GraphModel


def _box(model: GraphModel, stepper: BackwardStepper, k: int) -> tuple[int, ...]:
    """The records of the layer box step ``k`` lies in (empty: an op of its own)."""
    nid = model.node_for_record(stepper.steps[k].record.id)
    node = model.nodes.get(nid)
    return node.members if nid.startswith(LAYER_PREFIX) and node is not None else ()


def next_position(model: GraphModel, stepper: BackwardStepper) -> int:
    """The position after the next step, or after the whole layer the next step opens."""
    p = stepper.position
    if p >= len(stepper):
        return p
    members = _box(model, stepper, p)
    q = p + 1
    while members and q < len(stepper) and stepper.steps[q].record.id in members:
        q += 1
    return q


def previous_position(model: GraphModel, stepper: BackwardStepper) -> int:
    """The position before the last step, or before the whole layer it finished."""
    p = stepper.position
    if p == 0:
        return 0
    members = _box(model, stepper, p - 1)
    q = p - 1
    while members and q > 0 and stepper.steps[q - 1].record.id in members:
        q -= 1
    return q


def layer_detail(model: GraphModel, stepper: BackwardStepper) -> str | None:
    """The layer just finished, explained as a whole (None: the last step was a plain op)."""
    p = stepper.position
    if p == 0:
        return None
    nid = model.node_for_record(stepper.steps[p - 1].record.id)
    node = model.nodes.get(nid)
    if node is None or not nid.startswith(LAYER_PREFIX):
        return None
    if p < len(stepper) and stepper.steps[p].record.id in node.members:
        return None  # inside the layer (a jump landed there): the op's own text
    records = [stepper.records[i] for i in sorted(node.members) if i < len(stepper.records)]
    adjoints = stepper.adjoints_at()
    if not records or adjoints.get(records[-1].outputs[0].id) is None:
        return None  # the layer's output has no δ here (its box is not what the pass walked)
    return layer_text(node.label, records, adjoints, stepper.name)
