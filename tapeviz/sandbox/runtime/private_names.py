"""Which ``_private`` names a script may use on which objects (the rules the policy asks).

* A class whose bases are all the script's own ("pure", like micrograd's ``Value``) may keep
  any private name except the few tapeviz reads off objects it is handed
  (:data:`RESERVED_PRIVATE`, duck typing and marks) and ``_tapeviz…``.
* A class derived from a library class (``nn.Module``, ``tf.Module``) may add private methods
  of its own (``_init_weights``) but never a name the library has or tapeviz's code spells
  anywhere (:func:`library_defines`), and private values on its instances stay the library's.
* Library objects keep every private name shut.
"""

from __future__ import annotations

import functools
import re
import weakref
from pathlib import Path
from typing import Any

MARK = "_tapeviz_class"  # in the own __dict__ of every class a script defined

# Private names tapeviz's own code reads off the objects it is handed (duck typing, marks, the
# namedtuple protocol): no script object may carry one, so none can pass for a tensor, a
# namedtuple, a script function or a library class (a test keeps this list complete).
RESERVED_PRIVATE = (
    "_value", "_var", "_dtype_policy", "_checkpoint_children", "_own_weights", "_fields",
    "_asdict", "_replace", "_make", "_field_defaults", "_real", "_shown", "_held_names",
    "_open_attributes",
    "_opt_called", "_hooks", "_nodes", "_node", "_kind", "_signatures", "_stack", "_t",
    "_batched", "_build_shapes", "_compile_loss", "_dtypes", "_graph_inputs", "_graph_outputs",
    "_get_closed_form_lr", "_not_called", "_series", "_rng", "_name", "_names", "_paused",
    "_schedulers", "_legacy_dtype", "_numbers",
)  # fmt: skip


def is_pure(cls: type) -> bool:
    """Whether every class in ``cls``'s MRO is the script's own (or ``object``)."""
    found = _PURE.get(cls)
    if found is None:
        found = _PURE[cls] = all(k is object or k.__dict__.get(MARK) is True for k in cls.__mro__)
    return found


_PURE: weakref.WeakKeyDictionary[type, bool] = weakref.WeakKeyDictionary()  # (MROs never change)


@functools.cache
def private_name_ok(name: str) -> bool:
    """Whether ``name`` may be a private attribute of a script's own object (not reserved)."""
    return (
        name.startswith("_")
        and not name.startswith("__")
        and not name.startswith("_tapeviz")
        and name not in RESERVED_PRIVATE
    )


def private_allowed(obj: Any, name: str) -> bool:
    """Whether a script may read or write ``obj._name``: its objects of its own pure classes.

    A class with a library base (``tf.Module``, ``nn.Module``) keeps the library's private
    names shut, as every library object does (see :func:`own_private_entry` for the script's
    own methods on such a class).
    """
    cls = obj if isinstance(obj, type) else type(obj)
    return private_name_ok(name) and cls.__dict__.get(MARK) is True and is_pure(cls)


def library_defines(cls: type, name: str) -> bool:
    """Whether ``name`` is the library's on ``cls`` (the script may not shadow it there).

    On a class with a library base: a library class in its MRO defines it, or tapeviz's own
    code spells it anywhere (an instance value set lazily and read with a fallback to the
    class would find the script's). A pure script class has no library to shadow.
    """
    if is_pure(cls):
        return False
    if name in tapeviz_private_names():
        return True
    return any(name in k.__dict__ for k in cls.__mro__
               if k is not object and k.__dict__.get(MARK) is not True)  # fmt: skip


@functools.cache
def tapeviz_private_names() -> frozenset[str]:
    """Every ``_name`` the code scripts reach (engine, tf, torch, sklearn, sandbox) spells."""
    root = Path(__file__).resolve().parents[2]
    found: set[str] = set()
    for part in ("engine", "tf", "torch", "sklearn", "sandbox"):
        for path in sorted((root / part).rglob("*.py")):
            found.update(_PRIVATE_SPELLED.findall(path.read_text(encoding="utf-8")))
    return frozenset(found)


_PRIVATE_SPELLED = re.compile(r"""(?:\.|["'])(_[a-z][A-Za-z0-9_]*)""")


def own_private_entry(obj: Any, name: str) -> bool:
    """Whether ``obj._name`` on a library-derived script class is the script's own entry.

    A script class's method or attribute (``_init_weights``) that no library class defines;
    never a value on the instance (``self._x = ...`` on such an object stays shut: the
    library keeps its own private values there).
    """
    cls = obj if isinstance(obj, type) else type(obj)
    if not private_name_ok(name) or cls.__dict__.get(MARK) is not True:
        return False
    if not isinstance(obj, type) and name in getattr(obj, "__dict__", {}):
        return False
    return not library_defines(cls, name) and any(
        name in k.__dict__ for k in cls.__mro__ if k.__dict__.get(MARK) is True
    )


def private_names(cls: type) -> list[str]:
    """The private names a script class's own body (or later assignments) gave it."""
    return [n for n in cls.__dict__ if n.startswith("_") and not n.startswith("__")
            and n != MARK]  # fmt: skip


def heirs_shadow(cls: type, name: str) -> bool:
    """Whether a library class in the MRO of ``cls`` or of a class derived from it defines ``name``.

    A private name set on ``cls`` later would shadow the library's there.
    """
    todo = [cls]
    while todo:
        k = todo.pop()
        if library_defines(k, name):
            return True
        todo.extend(type.__subclasses__(k))
    return False
