"""Flatten and rebuild nested structures of tensors (lists, tuples, dicts), like ``tf.nest``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

_CONTAINERS = (list, tuple, dict)  # a tuple: isinstance checks it faster than list | tuple | dict


def flatten(structure: Any) -> list[Any]:
    """Leaves of ``structure`` in order (dict values in insertion order)."""
    if not isinstance(structure, _CONTAINERS):
        return [structure]
    if type(structure) is list and _flat(structure):
        return list(structure)
    return list(_leaves(structure))


def _flat(items: list[Any]) -> bool:
    """Whether no item of ``items`` is a container (a loop: no generator on this hot path)."""
    for s in items:  # noqa: SIM110  (all() of a generator is slower here)
        if isinstance(s, _CONTAINERS):
            return False
    return True


def _leaves(s: Any) -> Iterator[Any]:
    if isinstance(s, list | tuple):
        for item in s:
            yield from _leaves(item)
    elif isinstance(s, dict):
        for item in s.values():
            yield from _leaves(item)
    else:
        yield s


def pack_as(structure: Any, leaves: list[Any]) -> Any:
    """Rebuild ``structure`` with ``leaves`` in place of its leaves."""
    if not isinstance(structure, _CONTAINERS):
        return leaves[0]
    if type(structure) is list and len(structure) == len(leaves) and _flat(structure):
        return list(leaves)  # a flat list: the leaves
    return _pack(structure, iter(leaves))


def _pack(s: Any, it: Iterator[Any]) -> Any:
    if isinstance(s, list):
        return [_pack(item, it) for item in s]
    if isinstance(s, tuple):
        packed = [_pack(item, it) for item in s]
        return type(s)(*packed) if hasattr(s, "_fields") else tuple(packed)
    if isinstance(s, dict):
        return {k: _pack(v, it) for k, v in s.items()}
    return next(it)


def is_nested(structure: Any) -> bool:
    """Whether ``structure`` is a list, tuple or dict (not a leaf)."""
    return isinstance(structure, _CONTAINERS)


def map_structure(func: Any, *structures: Any) -> Any:
    """``func`` applied to the leaves of ``structures`` (same structure), rebuilt like the first."""
    if not structures:
        raise TypeError("map_structure needs at least one structure")
    flats = [flatten(s) for s in structures]
    if any(len(f) != len(flats[0]) for f in flats):
        raise ValueError("The two structures don't have the same number of elements.")
    return pack_as(structures[0], [func(*leaves) for leaves in zip(*flats, strict=True)])
