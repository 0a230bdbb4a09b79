"""A snapshot of every module-level state a script could change, found by walking the modules.

Every global of every module of ``tapeviz.tf`` (Keras included), the engine, the sandbox's
numpy and its matplotlib, and every plain class attribute of their classes, as comparable plain
data: containers recursively, thread-locals and tapeviz objects by their attributes, random
generators by their state, caches by their size, functions by name. Nothing here knows
:mod:`tapeviz.tf.run_state`: state that nobody registered shows up as a difference.
"""

from __future__ import annotations

import hashlib
import importlib
import pkgutil
import random
import re
import threading
import types
from collections.abc import Iterator
from typing import Any

import numpy as np

import tapeviz.engine
import tapeviz.sandbox.runtime.plotting
import tapeviz.tf
import tapeviz.torch
from tapeviz.engine.namespace import Namespace

# Globals left out, each with the reason it is not a setting a run could leak.
NOT_STATE = {
    "tapeviz.engine.tensor._ids": "tensor ids are unique in a process: the window keys a "
    "worker's tensors and variables by id (its ids start at a base of its own), so they never "
    "restart; a script's tensors are new objects either way",
    "tapeviz.engine.tensor.VARIABLES": "the live variables by id (a weak map): a run's "
    "results hold theirs; not a setting",
    "tapeviz.engine.core.NUMBERS": "immutable numpy scalars memoised per dtype",
    "tapeviz.engine.elementwise.NUMBERS": "the same memo as tapeviz.engine.core.NUMBERS",
    "tapeviz.engine.numeric._ZEROS": "immutable numpy zeros memoised per dtype",
    "tapeviz.engine.numeric._ONES": "immutable numpy ones memoised per dtype",
    "tapeviz.engine.numeric._ONES_0D": "read-only 0-d ones memoised per dtype",
    "tapeviz.torch._autograd._seq": "graph nodes are numbered in creation order (a topological "
    "order of every graph); never restarted, never a setting",
    "tapeviz.torch._autograd._SPARE": "the per-thread recorder reused by each op; it holds the "
    "last op's records only while that op runs",
    "tapeviz.torch.nn._naming._PARENTS": "which module each live module was registered in (a "
    "weak map for naming parameters): a run's modules leave it when they are collected",
}
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_CALLABLES = (
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.BuiltinMethodType,
    types.MethodWrapperType,
    types.WrapperDescriptorType,
    staticmethod,
    classmethod,
    property,
    type,
)


def modules() -> list[types.ModuleType]:
    """Every module whose globals are compared."""
    runtime = importlib.import_module("tapeviz.sandbox.runtime")
    out = [
        importlib.import_module(info.name)
        for info in pkgutil.iter_modules(runtime.__path__, runtime.__name__ + ".")
        if info.name.rpartition(".")[2].startswith("numpy_")
    ]
    for pkg in (tapeviz.tf, tapeviz.torch, tapeviz.engine, tapeviz.sandbox.runtime.plotting):
        out.append(pkg)
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            out.append(importlib.import_module(info.name))
    return out


def _frozen(value: Any) -> Any:
    """``value`` with its arrays as bytes (numpy's repr of a long array elides the middle)."""
    if isinstance(value, np.ndarray):
        return (str(value.dtype), value.shape, value.tobytes())
    if isinstance(value, dict):
        return tuple((k, _frozen(v)) for k, v in value.items())
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value


def _digest(value: Any) -> str:
    return hashlib.sha256(repr(_frozen(value)).encode()).hexdigest()[:16]


def _attributes(value: Any) -> Iterator[tuple[str, Any]]:
    """An object's data attributes: class-level defaults, then its own (this thread's)."""
    found: dict[str, Any] = {}
    for klass in reversed(type(value).__mro__[:-1]):
        for name, attr in vars(klass).items():
            if not name.startswith("__") and not isinstance(attr, _CALLABLES):
                found[name] = getattr(value, name, attr)
    if hasattr(value, "__dict__"):
        found.update(vars(value))
    for name in getattr(type(value), "__slots__", ()):
        if hasattr(value, name):
            found[name] = getattr(value, name)
    yield from sorted(found.items())


def plain(value: Any, depth: int = 0, path: frozenset[int] = frozenset()) -> Any:
    """``value`` as comparable plain data (bounded in depth and length; cycles cut)."""
    if value is None or isinstance(value, bool | int | str | bytes):
        return value
    if isinstance(value, float | complex | np.generic):
        return repr(value)  # nan equals nan
    if depth > 8 or id(value) in path:
        return "…"
    inner = path | {id(value)}

    def sub(v: Any) -> Any:
        return plain(v, depth + 1, inner)

    if isinstance(value, np.ndarray):
        return ("ndarray", _digest(value))
    if isinstance(value, np.random.RandomState):
        return ("RandomState", _digest(value.get_state(legacy=False)))
    if isinstance(value, np.random.Generator):
        return ("Generator", _digest(value.bit_generator.state))
    if isinstance(value, random.Random):
        return ("Random", _digest(value.getstate()))
    if isinstance(value, list | tuple):
        return (type(value).__name__, len(value), tuple(sub(v) for v in value[:100]))
    if isinstance(value, set | frozenset):
        return (type(value).__name__, len(value), tuple(sorted(repr(sub(v)) for v in value)))
    if isinstance(value, dict | types.MappingProxyType):
        items = list(value.items())[:500]
        return ("dict", len(value), tuple((repr(sub(k)), sub(v)) for k, v in items))
    if hasattr(value, "cache_info"):  # functools caches
        return ("cache", value.cache_info().currsize)
    if isinstance(value, _CALLABLES) or type(value).__name__ == "partial":
        return ("callable", getattr(value, "__qualname__", type(value).__name__))
    if isinstance(value, types.ModuleType):
        return ("module", value.__name__)
    if type(value) is Namespace:
        names = value.names()
        return ("namespace", repr(value), tuple((k, sub(v)) for k, v in names.items()))
    if isinstance(value, threading.local) or type(value).__module__.startswith("tapeviz"):
        attrs = tuple((k, sub(v)) for k, v in _attributes(value))
        return (type(value).__qualname__, attrs)
    return ("repr", _ADDRESS.sub("", repr(value))[:500])


def snapshot() -> dict[str, Any]:
    """Every module global and plain class attribute of :func:`modules`, as plain data."""
    out: dict[str, Any] = {}
    for module in modules():
        for name, value in vars(module).items():
            key = f"{module.__name__}.{name}"
            if name.startswith("__") or key in NOT_STATE:
                continue
            if isinstance(value, type) and value.__module__ == module.__name__:
                for attr, class_value in _attributes_of_class(value):
                    out[f"{key}.{attr}"] = plain(class_value)
            else:
                out[key] = plain(value)
    out["random (Python's)"] = _digest(random.getstate())
    out["numpy.random (numpy's)"] = _digest(np.random.get_state(legacy=False))
    out["numpy.geterr"] = np.geterr()
    out["numpy.get_printoptions"] = repr(np.get_printoptions())
    return out


def _attributes_of_class(cls: type) -> Iterator[tuple[str, Any]]:
    for name, attr in vars(cls).items():
        descriptor = type(attr).__name__ in ("member_descriptor", "getset_descriptor")
        if not name.startswith("__") and not isinstance(attr, _CALLABLES) and not descriptor:
            yield name, attr


def differences(before: dict[str, Any], after: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """The entries that differ: name -> (before, after), each shortened for the message."""
    keys = sorted(set(before) | set(after))
    return {
        k: (repr(before.get(k, "<absent>"))[:300], repr(after.get(k, "<absent>"))[:300])
        for k in keys
        if before.get(k, "<absent>") != after.get(k, "<absent>")
    }
