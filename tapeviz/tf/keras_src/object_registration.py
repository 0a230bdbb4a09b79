"""``keras.saving.register_keras_serializable`` and the run's table of custom objects.

As in Keras 3, a class (or function) registered as ``"package>Name"`` is found by that name
when a saved model is loaded; ``custom_objects`` (and ``CustomObjectScope``) add names for one
load. The table is per run (:mod:`tapeviz.tf.run_state`), as a fresh program's is. In a
script, ``@keras.saving.register_keras_serializable()`` may decorate a class: the decorator is
marked as one a class statement may apply.
"""

from __future__ import annotations

import threading
from typing import Any

from tapeviz.tf import run_state
from tapeviz.tf.runtime import _Block  # a with-block scripts may open

__all__ = [
    "CustomObjectScope",
    "get_custom_objects",
    "get_registered_name",
    "get_registered_object",
    "register_keras_serializable",
    "registered_name",
]


class _Registry(threading.local):
    def __init__(self) -> None:
        self.objects: dict[str, Any] = {}
        self.names: dict[int, tuple[Any, str]] = {}  # id(obj) -> (obj, its registered name)
        self.scopes: list[dict[str, Any]] = []
        self.loaders: list[Any] = []  # serialization.Loader, the innermost last


_REGISTRY = _Registry()
run_state.register_attributes(
    "tapeviz.tf.keras_src.object_registration",
    _REGISTRY,
    lambda: {"objects": {}, "names": {}, "scopes": [], "loaders": []},
)


def register_keras_serializable(package: str = "Custom", name: str | None = None) -> Any:
    """Register a class (or function) under ``"package>name"`` for loading."""

    def decorator(arg: Any) -> Any:
        class_name = name if name is not None else getattr(arg, "__name__", str(arg))
        registered = f"{package}>{class_name}"
        if isinstance(arg, type) and not hasattr(arg, "get_config"):
            raise ValueError("Cannot register a class that does not have a get_config() method.")
        known = _REGISTRY.objects.get(registered)
        if known is not None and known is not arg:
            raise ValueError(f"{registered} has already been registered to {known}")
        _REGISTRY.objects[registered] = arg
        _REGISTRY.names[id(arg)] = (arg, registered)
        return arg

    decorator._tapeviz_class_decorator = True  # type: ignore[attr-defined]  (scripts may use it)
    return decorator


register_keras_serializable._tapeviz_decorator_factory = True  # type: ignore[attr-defined]


def registered_name(obj: Any) -> str | None:
    """The name ``obj`` was registered under, or None."""
    found = _REGISTRY.names.get(id(obj))
    return found[1] if found is not None and found[0] is obj else None


def get_registered_name(obj: Any) -> str:
    """The name ``obj`` is registered under (its own name if it is not registered)."""
    return registered_name(obj) or getattr(obj, "__name__", str(obj))


def get_custom_objects() -> dict[str, Any]:
    """The registered objects by name (the run's own table)."""
    return _REGISTRY.objects


def get_registered_object(
    name: str, custom_objects: dict[str, Any] | None = None, module_objects: Any = None
) -> Any:
    """The object registered (or given in a scope or in ``custom_objects``) as ``name``."""
    for table in ({} if custom_objects is None else custom_objects, *reversed(_REGISTRY.scopes),
                  _REGISTRY.objects, module_objects or {}):  # fmt: skip
        if name in table:
            return table[name]
    return None


class CustomObjectScope(_Block):
    """``with keras.saving.CustomObjectScope({"MyLayer": MyLayer}):`` makes the names known."""

    def __init__(self, custom_objects: dict[str, Any] | None = None) -> None:
        super().__init__("custom_object_scope")
        self.custom_objects = dict(custom_objects or {})

    def __enter__(self) -> CustomObjectScope:
        _REGISTRY.scopes.append(self.custom_objects)
        return self

    def __exit__(self, *exc: object) -> None:
        if _REGISTRY.scopes and _REGISTRY.scopes[-1] is self.custom_objects:
            _REGISTRY.scopes.pop()
