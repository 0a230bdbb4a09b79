"""The backward pass through a folded layer, in the formulas a lecturer writes on the board.

A dense layer ``a = σ(x @ W + b)`` (Keras' ``Dense``; torch's ``Linear`` plus the activation
its module applies) is explained as::

    dense_1 ← δ = ∂L/∂a = …
      δz = δ ⊙ σ′(z) = δ ⊙ (1 − a²) = …
      ∂L/∂kernel = xᵀ · δz = …;  ∂L/∂bias = Σ δz = …
      δx = δz · kernelᵀ = … (to the layer below)

with the numbers of this pass. Any other layer lists its output's δ, its parameters'
gradients and the δ it sends back. The numbers are the stepper's own adjoints (one code path).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tapeviz.engine.core import OpRecord
from tapeviz.models.backward.stepper import short

# σ′ of each activation in terms of its output a (or input z), as written on the board
DERIVATIVES = {
    "tanh": "1 − a²",
    "sigmoid": "a ⊙ (1 − a)",
    "relu": "[z > 0]",
    "elu": "[z > 0] + [z ≤ 0] ⊙ (a + 1)",
    "softplus": "sigmoid(z)",
    "exp": "a",
    "identity": "1",
}
MATMULS = ("matmul", "addmm", "linear")


def _param_name(name: str, layer: str) -> str:
    for prefix in (layer + "/", layer + "."):
        if name.startswith(prefix):
            return name[len(prefix) :]
    return name.rsplit("/", 1)[-1]


def layer_text(
    title: str,
    records: Sequence[OpRecord],
    adjoints: Mapping[int, Any],
    name: Callable[[Any], str],
) -> str:
    """The backward pass through one layer (its ``records`` in recording order), explained."""
    if not records:
        return title
    produced = {o.id for r in records for o in r.outputs}
    out = records[-1].outputs[0]
    lines = [f"{title} ← δ = ∂L/∂{title} = {short(adjoints.get(out.id))}"]
    ops = [r.name for r in records]
    grad = adjoints.get
    if ops[0] in MATMULS and len(records[0].inputs) >= 2:
        x, w = records[0].inputs[0], records[0].inputs[1]
        z = records[0].outputs[0]
        bias = None
        k = 1
        if k < len(records) and ops[k] in ("add", "bias_add"):
            bias = next((t for t in records[k].inputs if t.id not in produced), None)
            z = records[k].outputs[0]
            k += 1
        act = ops[k] if k < len(records) else None
        wn = _param_name(name(w), title)
        # torch's weight is (out, in): x @ Wᵀ; Keras' kernel is (in, out): x @ W
        flipped = bool(records[0].params.get("transpose_b"))
        if act is not None:
            rule = DERIVATIVES.get(act, f"{act}′(z)")
            lines.append(f"  δz = δ ⊙ {act}′(z) = δ ⊙ ({rule}) = {short(grad(z.id))}")
        else:
            lines.append(f"  δz = δ = {short(grad(z.id))}")
        rule_w, rule_x = ("δzᵀ · x", f"δz · {wn}") if flipped else ("xᵀ · δz", f"δz · {wn}ᵀ")
        parts = [f"∂L/∂{wn} = {rule_w} = {short(grad(w.id))}"]
        if bias is not None:
            parts.append(f"∂L/∂{_param_name(name(bias), title)} = Σ δz = {short(grad(bias.id))}")
        lines.append("  " + ";  ".join(parts))
        if x.id in adjoints:
            lines.append(f"  δx = {rule_x} = {short(grad(x.id))}   (to the layer below)")
        return "\n".join(lines)
    inputs = [t for r in records for t in r.inputs if t.id not in produced]
    seen: dict[int, Any] = {}
    for t in inputs:
        seen.setdefault(t.id, t)
    for t in seen.values():
        if t.id in adjoints:
            lines.append(f"  ∂L/∂{name(t)} = {short(grad(t.id))}")
    return "\n".join(lines)
