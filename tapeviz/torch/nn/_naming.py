"""How the app sees modules: the name scope a forward runs in, and parameters' engine names.

A module's ``forward`` runs inside an engine name scope named as its parent registered it
(``fc1``, ``0``; a top-level module by its class, ``sequential``), so the graph can fold a
module's ops into one box; every parameter's engine tensor is named by its ``named_parameters()``
path from the outermost module (``net.0.weight``), so the timeline names parameters as torch
does. A module's parent is kept in a weak table outside the module, so ``copy.deepcopy`` and
pickling see only torch's attributes.
"""

from __future__ import annotations

import weakref
from typing import Any

from tapeviz.torch._tensor import Tensor

# child module -> (weak reference to the module it was last registered in, its name there)
_PARENTS: weakref.WeakKeyDictionary[Any, tuple[weakref.ref[Any], str]] = weakref.WeakKeyDictionary()


def _typename(obj: object) -> str:
    """``torch.typename``: ``torch.FloatTensor`` for tensors, else the qualified class name."""
    if isinstance(obj, Tensor):
        return str(obj.type())
    cls = type(obj)
    module = cls.__module__ or ""
    return cls.__qualname__ if module in ("", "builtins") else f"{module}.{cls.__qualname__}"


def _addindent(s: str, spaces: int) -> str:
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    first = lines.pop(0)
    return first + "\n" + "\n".join(spaces * " " + line for line in lines)


def _scope_name(module: Any) -> str:
    """The name scope of a module's forward: its name in its parent (``fc1``), or its class's.

    A module in a container that is never called itself (``ModuleList``, ``ModuleDict``) is
    named with the container's name in front (``layers.0``), as ``named_parameters`` names it.
    """
    entry = _PARENTS.get(module)
    if entry is not None:
        parent = entry[0]()
        if parent is not None and parent.__dict__.get("_modules", {}).get(entry[1]) is module:
            if getattr(parent, "_not_called", False):
                return _scope_name(parent) + "." + entry[1]
            return entry[1]
    return type(module).__name__.lower()


def _root(module: Any) -> Any:
    seen = {id(module)}
    while True:
        entry = _PARENTS.get(module)
        parent = entry[0]() if entry is not None else None
        if parent is None or id(parent) in seen:
            return module
        if parent.__dict__.get("_modules", {}).get(entry[1]) is not module:  # type: ignore[index]
            return module
        seen.add(id(parent))
        module = parent


def _rename(module: Any) -> None:
    """Name every parameter's and buffer's engine tensor by its path from the outermost module."""
    root = _root(module)
    for name, p in root.named_parameters():
        p._c.t.name = name
    for name, b in root.named_buffers():
        b._c.t.name = name
