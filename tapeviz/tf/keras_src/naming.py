"""The names a script's models give their variables: Keras paths and ``tf.Module`` attributes.

A Keras variable is named by its path (``sequential/dense/kernel``); any other variable a
``tf.Module`` (or a Keras layer) holds, by the attributes that reach it from the script's name
for the module (``net.w1``, ``net.layers[0].b``). The timeline names a loop's parameters with
these instead of ``x1``, ``x2``; the sandbox sends them across the process wall.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tapeviz.engine.keras_variable import KerasVariable
from tapeviz.engine.tensor import Variable
from tapeviz.tf.module import Module

__all__ = ["MAX_NAMES", "variable_names"]

MAX_NAMES = 10_000  # variables named at most
MAX_MODULES = 200  # modules of the namespace walked at most


def _is_variable(obj: Any) -> bool:
    return isinstance(obj, Variable)


def _attribute_path(key: str, path: tuple[Any, ...]) -> str:
    """``net.layers[0].w`` for the path ``("layers", 0, "w")`` from ``net``."""
    parts = [key]
    for p in path:
        parts.append(f".{p}" if isinstance(p, str) and p.isidentifier() else f"[{p!r}]")
    return "".join(parts)[:200]


def variable_names(namespace: Mapping[str, Any]) -> dict[int, str]:
    """Variable id → its Keras path, or its attribute path from a module of ``namespace``."""
    out: dict[int, str] = {}
    modules = [(k, v) for k, v in namespace.items() if isinstance(v, Module)][:MAX_MODULES]
    for key, module in modules:
        try:
            for path, var in module._flatten(predicate=_is_variable, with_path=True):
                if var.id not in out:
                    path_ = getattr(var, "path", None) if isinstance(var, KerasVariable) else None
                    out[var.id] = str(path_)[:200] if path_ else _attribute_path(str(key), path)
                if len(out) >= MAX_NAMES:
                    return out
        except Exception:  # a module whose attributes cannot be walked keeps its variables' names
            continue
    return out
