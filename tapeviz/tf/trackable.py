"""The object graph a checkpoint saves: every variable by the path of attributes that reaches it.

As in TensorFlow, what is saved is found by walking objects from a root: a ``tf.Module``'s
attributes (sorted; lists, tuples and dicts in them by index and key), a Keras layer's own
weights (by the attribute that holds them, else by their name: ``kernel``, ``bias``) and its
sub-layers (by attribute; a ``Sequential``'s or functional model's as ``layers/0``, ...), a
compiled model's ``optimizer``, an optimizer's ``iterations`` and ``learning_rate``, a
``tf.train.Checkpoint``'s keyword arguments. Each variable is saved once, under the first
path that reaches it (breadth first). An optimizer's slots (Adam's ``m`` and ``v``) are saved
beside the variable they belong to: ``net/l1/kernel/.OPTIMIZER_SLOT/optimizer/m``.

Restoring assigns each saved value to the variable at the same path. A value whose variable
does not exist yet because its Keras layer is not built yet (a subclassed model before its
first call) waits for the layer's build, as TensorFlow's deferred restoration does
(:func:`after_build`, called by ``Layer`` once it has built).
"""

from __future__ import annotations

import threading
import weakref
from collections import deque
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from tapeviz.engine.optimizer_base import Optimizer
from tapeviz.engine.tensor import Variable
from tapeviz.tf import run_state
from tapeviz.tf.module import Module

__all__ = [
    "SLOT",
    "Graph",
    "after_build",
    "assign",
    "children",
    "collect",
    "deepest_layer",
    "defer",
    "is_trackable",
    "shown",
]

SLOT = "/.OPTIMIZER_SLOT/"
_MODULE_INTERNALS = frozenset(("_name", "_scope_name", "_auto_config"))


def _is_layer(obj: Any) -> bool:
    return isinstance(obj, Module) and hasattr(type(obj), "_own_weights")


def is_trackable(obj: Any) -> bool:
    """Whether a checkpoint can hold ``obj`` (variables, modules, layers, optimizers, ...)."""
    if isinstance(obj, Variable | Module | Optimizer) or hasattr(obj, "_checkpoint_children"):
        return True
    if isinstance(obj, list | tuple | dict):
        return all(is_trackable(v) for v in (obj.values() if isinstance(obj, dict) else obj))
    return hasattr(obj, "__next__")  # a dataset iterator: tracked, nothing of it saved


def _public_holders(obj: Any) -> dict[int, str]:
    """``id(value) -> attribute path`` for what ``obj``'s attributes hold (lists one level)."""
    out: dict[int, str] = {}
    for key, value in vars(obj).items():
        if key.startswith("_"):
            continue
        if isinstance(value, list | tuple):
            for i, item in enumerate(value):
                out.setdefault(id(item), f"{key}/{i}")
        elif isinstance(value, dict):
            for k, item in value.items():
                out.setdefault(id(item), f"{key}/{k}")
        else:
            out.setdefault(id(value), key)
    return out


def _layer_children(layer: Any) -> list[tuple[str, Any]]:
    holders = _public_holders(layer)
    out: list[tuple[str, Any]] = []
    used: set[str] = set()

    def add(name: str, value: Any) -> None:
        base, n = name, 1
        while name in used:
            name, n = f"{base}_{n}", n + 1
        used.add(name)
        out.append((name, value))

    for v in layer._own_weights():
        add(holders.get(id(v)) or str(v.name).split(":")[0].rsplit("/", 1)[-1], v)
    if hasattr(layer, "_stack") or hasattr(layer, "_nodes"):  # Sequential, functional
        for i, sub in enumerate(layer.layers):
            add(f"layers/{i}", sub)
    else:
        for i, sub in enumerate(layer._layers):
            add(holders.get(id(sub)) or f"layers/{i}", sub)
    optimizer = layer.__dict__.get("optimizer")
    if isinstance(optimizer, Optimizer):
        add("optimizer", optimizer)
    return out


def _module_children(module: Module) -> list[tuple[str, Any]]:
    attrs = vars(module)
    return [(k, attrs[k]) for k in sorted(attrs)
            if k not in _MODULE_INTERNALS and not k.startswith("_self_")
            and _holds_state(attrs[k])]  # fmt: skip


def _holds_state(value: Any, depth: int = 0) -> bool:
    if isinstance(value, Variable | Module | Optimizer) or hasattr(value, "_checkpoint_children"):
        return True
    if depth < 4 and isinstance(value, list | tuple):
        return any(_holds_state(v, depth + 1) for v in value)
    if depth < 4 and isinstance(value, dict):
        return any(_holds_state(v, depth + 1) for v in value.values())
    return False


def children(obj: Any) -> list[tuple[str, Any]]:
    """The named children of ``obj`` in the object graph (none for a variable)."""
    if isinstance(obj, Variable):
        return []
    own = getattr(obj, "_checkpoint_children", None)
    if own is not None:
        return list(own())
    if isinstance(obj, Optimizer):
        out: list[tuple[str, Any]] = [("iterations", obj.iterations)]
        if obj._schedule is None:
            out.append(("learning_rate", obj._learning_rate))
        return out
    if _is_layer(obj):
        return _layer_children(obj)
    if isinstance(obj, Module):
        return _module_children(obj)
    if isinstance(obj, dict):
        return [(str(k), obj[k]) for k in sorted(obj, key=str) if _holds_state(obj[k])]
    if isinstance(obj, list | tuple):
        return [(str(i), v) for i, v in enumerate(obj) if _holds_state(v)]
    return []


class Graph(NamedTuple):
    """What a walk from a root found: variables and other objects by path, optimizers."""

    variables: dict[str, Variable]
    objects: dict[str, Any]
    optimizers: list[tuple[str, Optimizer]]

    def slots(self) -> dict[str, np.ndarray]:
        """Each optimizer's slot values, by ``<variable path>/.OPTIMIZER_SLOT/<opt>/<slot>``."""
        by_id = {v.id: p for p, v in self.variables.items()}
        out: dict[str, np.ndarray] = {}
        for opt_path, opt in self.optimizers:
            for vid, state in opt._state.items():
                var_path = by_id.get(vid)
                if var_path is None:
                    continue
                for slot, value in state.items():
                    out[f"{var_path}{SLOT}{opt_path}/{slot}"] = np.asarray(value)
        return out


def collect(roots: list[tuple[str, Any]], prefix: str = "") -> Graph:
    """Walk the graph breadth first from ``roots``; each object under its first path."""
    variables: dict[str, Variable] = {}
    objects: dict[str, Any] = {}
    optimizers: list[tuple[str, Optimizer]] = []
    seen: set[int] = set()
    todo = deque((f"{prefix}{name}", obj) for name, obj in roots)
    while todo:
        path, obj = todo.popleft()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, Variable):
            variables[path] = obj
            continue
        objects[path] = obj
        if isinstance(obj, Optimizer):
            optimizers.append((path, obj))
        if len(objects) + len(variables) > 100_000:
            raise ValueError("the object graph to save has more than 100,000 objects")
        todo.extend((f"{path}/{name}" if path else name, child) for name, child in children(obj))
    return Graph(variables, objects, optimizers)


def shown(path: str) -> str:
    """A path as TensorFlow prints it in messages: ``(root).net.l1.kernel``."""
    return "(root)." + path.replace(SLOT, ".OPTIMIZER_SLOT.").replace("/", ".")


def assign(var: Variable, value: np.ndarray, key: str) -> None:
    """Give ``var`` a saved value (TensorFlow's ValueError when the shapes differ)."""
    value = np.asarray(value)
    if tuple(value.shape) != tuple(np.shape(var._value)):
        raise ValueError(
            f"Received incompatible tensor with shape {tuple(value.shape)} when attempting to "
            f"restore variable with shape {tuple(np.shape(var._value))} and name {key}."
        )
    var.assign(np.array(value, dtype=var.dtype.np), read_value=False)


def set_slots(opt: Optimizer, var: Variable, slots: dict[str, np.ndarray]) -> None:
    """Give ``opt`` the saved slot values for ``var`` (its other slots start at zero)."""
    state = opt.init_state(var._value)
    for name, value in slots.items():
        if name in state and np.shape(value) == np.shape(state[name]):
            state[name] = np.array(value, dtype=np.asarray(state[name]).dtype)
    opt._state[var.id] = state


# -- deferred restoration --------------------------------------------------------------------
class Pending(NamedTuple):
    """A saved value waiting for its variable: where it goes below its layer, and who asked."""

    value: np.ndarray | None  # None: only slots wait
    slots: tuple[tuple[Optimizer, dict[str, np.ndarray]], ...]
    done: Callable[[], None]  # called once the value (and slots) are restored
    key: str  # the checkpoint's key, for messages


class _Waiting(threading.local):
    def __init__(self) -> None:
        self.layers: weakref.WeakKeyDictionary[Any, dict[str, Pending]] = (
            weakref.WeakKeyDictionary()
        )


_WAITING = _Waiting()
run_state.register_attributes(
    "tapeviz.tf.trackable", _WAITING, lambda: {"layers": weakref.WeakKeyDictionary()}
)


def defer(layer: Any, rest: str, pending: Pending) -> None:
    """Keep ``pending`` until ``layer`` builds; ``rest`` is its path below the layer."""
    _WAITING.layers.setdefault(layer, {})[rest] = pending


def waiting() -> int:
    """How many saved values wait for a layer to build."""
    return sum(len(d) for d in _WAITING.layers.values())


def after_build(layer: Any) -> None:
    """A layer has built: restore the values that waited for its variables."""
    waiting_here = _WAITING.layers.pop(layer, None) if _WAITING.layers else None
    if waiting_here:
        place(layer, waiting_here)


def place(owner: Any, values: dict[str, Pending]) -> None:
    """Restore each value at its path below ``owner`` (or keep it for its layer's build)."""
    graph = collect([("", owner)])
    found, objects = graph.variables, graph.objects
    for rest, pending in values.items():
        var = found.get(rest)
        if var is not None:
            if pending.value is not None:
                assign(var, pending.value, pending.key)
            for opt, slots in pending.slots:
                set_slots(opt, var, slots)
            pending.done()
            continue
        parent, tail = deepest_layer(objects, rest)
        if parent is not None and not parent.built:
            defer(parent, tail, pending)
        elif parent is None and _is_layer(owner) and not owner.built:
            defer(owner, rest, pending)


def deepest_layer(objects: dict[str, Any], rest: str) -> tuple[Any, str]:
    """The deepest layer (below the owner) on the way to ``rest``, and the path left below it."""
    parts = rest.split("/")
    for cut in range(len(parts) - 1, 0, -1):
        obj = objects.get("/".join(parts[:cut]))
        if obj is not None and _is_layer(obj):
            return obj, "/".join(parts[cut:])
    return None, rest
