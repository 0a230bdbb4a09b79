"""The names ``tapeviz.tf`` offers, generated from the namespace (for Help → TensorFlow)."""

from __future__ import annotations

import types
from typing import Any

from tapeviz.engine.namespace import Namespace

__all__ = ["supported_names", "unavailable_names"]

_OWN = ("supported_names", "unavailable_names")  # tapeviz's own helpers, not TensorFlow names


def _entries(obj: Any) -> list[tuple[str, Any]]:
    if type(obj) is Namespace:
        return [(n, getattr(obj, n)) for n in obj]
    return [
        (n, v)
        for n, v in vars(obj).items()
        if not n.startswith("_")
        and not isinstance(v, types.ModuleType)
        and n not in _OWN
        and type(v).__name__ != "_Feature"  # from __future__ import annotations
    ]


def _walk(
    title: str, obj: Any, out: dict[str, list[str]], stubs: dict[str, list[str]], seen: set[int]
) -> None:
    from tapeviz.tf.unavailable import is_unavailable

    names: list[str] = []
    missing: list[str] = []
    nested: list[tuple[str, Any]] = []
    for name, value in _entries(obj):
        if type(value) is Namespace:
            nested.append((f"{title}.{name}", value))
        elif is_unavailable(value):
            missing.append(name)
        else:
            names.append(name)
    if names:
        out[title] = sorted(names, key=str.lower)
    if missing:
        stubs[title] = sorted(missing, key=str.lower)
    for sub_title, ns in nested:
        if id(ns) not in seen:  # an alias (tf.optimizers is tf.keras.optimizers) once
            seen.add(id(ns))
            _walk(sub_title, ns, out, stubs, seen)


def _catalog() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    import tapeviz.tf as tf

    out: dict[str, list[str]] = {}
    stubs: dict[str, list[str]] = {}
    _walk("tf", tf, out, stubs, {id(tf)})
    return out, stubs


def supported_names() -> dict[str, list[str]]:
    """Every working name by namespace, ``{"tf": [...], "tf.keras.layers": [...], ...}``.

    Namespaces come in the order a reader meets them (``tf`` first, each namespace followed by
    its own sub-namespaces); names are sorted within each. Names that only raise "not available
    in tapeviz" are left out (see :func:`unavailable_names`).
    """
    return _catalog()[0]


def unavailable_names() -> dict[str, list[str]]:
    """The names that exist only to say they are not available (files, downloads, saving)."""
    return _catalog()[1]
