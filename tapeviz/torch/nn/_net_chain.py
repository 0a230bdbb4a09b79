"""A subclassed model's ``forward`` read as a chain of ``Linear`` layers and activations.

Courses write ``class CircleModelV2(nn.Module)`` with ``self.layer_1 = nn.Linear(2, 10)`` …
and ``forward`` returning ``self.layer_3(self.relu(self.layer_2(self.relu(self.layer_1(x)))))``
(or ``torch.relu``/``F.relu`` between the layers). The Network view draws such a model when its
call is a chain: starting from its output, each step back is a ``Linear`` call of the model's own
whose output became the next value as it is (reshaped at most) or through ReLU, tanh or sigmoid,
until the model's input is reached. The activations are read from the values, so a module
activation, a functional one and a reused ``nn.ReLU()`` read alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tapeviz.torch._tensor import Tensor
from tapeviz.torch.nn.activation import ReLU, Sigmoid, Tanh
from tapeviz.torch.nn.layers import Identity, Linear

__all__ = ["ACTIVATION_KINDS", "chain_layers", "how"]

# Module activations whose calls are kept (a call's input and output name the activation).
ACTIVATION_KINDS = {ReLU: "relu", Tanh: "tanh", Sigmoid: "sigmoid", Identity: "linear"}
MAX_DEPTH = 8  # Linear layers in a chain (the view draws up to 6 hidden layers)


def _values(t: Any) -> np.ndarray | None:
    if not isinstance(t, Tensor):
        return None
    a = np.asarray(t._t._value)
    return a.reshape(-1) if a.dtype.kind == "f" else None


def how(after: Any, before: Any) -> str | None:
    """How ``after`` was made from ``before``: "linear", "relu", "tanh", "sigmoid" or None.

    "linear": as it is or reshaped (``.squeeze()``); None: not from it.
    """
    if after is before:
        return "linear"
    a, b = _values(after), _values(before)
    if a is None or b is None or a.size != b.size or a.size == 0:
        return None
    if np.array_equal(a, b):
        return "linear"
    b64 = b.astype(np.float64)
    if np.array_equal(a, np.maximum(b, 0)):
        return "relu"
    with np.errstate(over="ignore"):
        for name, fn in (("tanh", np.tanh), ("sigmoid", lambda v: 1 / (1 + np.exp(-v)))):
            if np.allclose(a, fn(b64), rtol=1e-5, atol=1e-7):
                return name
    return None


def _activation(calls: Sequence[tuple[Any, Any, Any]], start: int, target: Any, out: Any) -> Any:
    """The activation between a Linear's output ``out`` and ``target`` (module calls first)."""
    for module, given, made in calls[start:]:
        kind = ACTIVATION_KINDS.get(type(module))
        if kind is not None and given is out and made is target:
            return kind
    return how(target, out)


def chain_layers(
    model: Any, x: Any, out: Any, calls: Sequence[tuple[Any, Any, Any]]
) -> list[dict[str, Any]] | str:
    """The layers of ``model`` (called on ``x``, giving ``out``) from the leaf calls it made.

    ``calls`` are the latest (module, input, output) calls of Linear layers and activation
    modules, oldest first. Returns the layers as a Sequential's description has them, or why the
    call is not a chain the view can draw.
    """
    names = {id(m): str(n)[:100] for n, m in model.named_modules() if type(m) is Linear}
    layers: list[dict[str, Any]] = []
    target, end = out, len(calls)
    while len(layers) <= MAX_DEPTH:
        for j in range(end - 1, -1, -1):
            module, given, made = calls[j]
            if type(module) is Linear and id(module) in names:
                act = _activation(calls, j + 1, target, made)
                if act is not None:
                    break
        else:
            return "its forward is not a chain of its Linear layers and activations"
        bias = module.bias
        layers.append({
            "name": names[id(module)], "units": int(module.out_features), "activation": act,
            "kernel": int(module.weight._t.id), "bias": -1 if bias is None else int(bias._t.id),
            "transposed": True, "inputs": int(module.in_features),
        })  # fmt: skip
        if how(given, x) == "linear":
            break
        target, end = given, j
    else:
        return "its forward is not a chain of its Linear layers and activations"
    layers.reverse()
    width = 2
    for layer in layers:
        if layer.pop("inputs") != width:
            return "its Linear layers are not one chain"
        width = layer["units"]
    return layers
