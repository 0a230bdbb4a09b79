"""A loop's parameters named as the script's models name them (``dense/kernel``, ``net.w1``).

In order: the script's own name for the variable, the name its model gives it (a Keras path,
a ``tf.Module``'s attributes), the scoped name the step's tape read it under, the variable's
own name, and ``x1``, ``x2``… last. Keras paths lose the model's scope they all share
(``sequential/dense/kernel`` → ``dense/kernel``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tapeviz.models.timeline.index import TapeIndex
from tapeviz.models.timeline.store import ObjectStore


def read_name(store: Any, ref: int) -> str | None:
    """The name of the value a tape read (a Keras variable reads as its path), if scoped."""
    if ref < 0:
        return None
    if isinstance(store, ObjectStore):
        name = getattr(store.objs[ref], "name", None)
    else:
        name = getattr(store, "names", {}).get(ref)
    name = str(name).split(":")[0] if name else None
    return name if name and "/" in name else None


def parameter_name(index: TapeIndex, ids: Sequence[int], first_read: int, j: int) -> str:
    """Parameter j's name: ``ids`` are its tensor ids, last step first; ``first_read`` a ref."""
    for sid in ids:
        if sid in index.names:
            return index.names[sid]
    scoped = read_name(index.store, first_read)
    if scoped:
        return scoped
    for sid in ids:
        if sid in index.own_names:
            return index.own_names[sid]
    return f"x{j + 1}"


def shortened(names: Sequence[str]) -> list[str]:
    """Paths without the leading scopes they all share, each keeping two parts at least."""
    parts = [n.split("/") for n in names]
    if not parts or any(len(p) < 3 or "" in p for p in parts):
        return list(names)
    cut = 0
    while all(len(p) - cut > 2 for p in parts) and len({p[cut] for p in parts}) == 1:
        cut += 1
    out = ["/".join(p[cut:]) for p in parts]
    return out if len(set(out)) == len(set(names)) else list(names)
