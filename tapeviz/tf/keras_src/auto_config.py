"""Keras 3's automatic config: a layer remembers the arguments it was constructed with.

Keras 3 (``Operation.__new__``) binds a new layer's constructor arguments to its ``__init__``
(defaults applied, ``**kwargs`` merged in, ``name`` left out) and keeps them; a class that does
not write its own ``get_config`` is serialized with them, and ``cls(**config)`` makes it again.
Keras keeps them only when every value is a plain ``str``/``int``/``float``/``bool``/``None``
(nested in lists, tuples and dicts) and ``__init__`` takes no positional-only or ``*args``
arguments: otherwise saving such a class raises ``NotImplementedError``
(:func:`check_user_config`). tapeviz keeps the arguments as given (its own layers are
serialized from them, values such as initializers included) and applies Keras' rule when a
script's class is saved.
"""

from __future__ import annotations

import inspect
import textwrap
import weakref
from typing import Any, NamedTuple

__all__ = ["AutoConfig", "check_user_config", "record"]

_PLAIN = (str, int, float, bool, type(None))
_SIGNATURES: weakref.WeakKeyDictionary[type, inspect.Signature | None] = weakref.WeakKeyDictionary()


class AutoConfig(NamedTuple):
    """The bound constructor arguments (None if they could not be bound), and why not."""

    arguments: dict[str, Any] | None
    problem: str | None  # "args": positional-only or *args were used; "bind": no match


def _signature(cls: type) -> inspect.Signature | None:
    if cls in _SIGNATURES:
        return _SIGNATURES[cls]
    try:
        sig: inspect.Signature | None = inspect.signature(cls.__init__)
    except (TypeError, ValueError):
        sig = None
    _SIGNATURES[cls] = sig
    return sig


def _bind(cls: type, args: tuple[Any, ...], kwargs: dict[str, Any]) -> AutoConfig:
    sig = _signature(cls)
    if sig is None:
        return AutoConfig(None, "bind")
    params = list(sig.parameters.values())
    if any(p.kind is p.POSITIONAL_ONLY for p in params[1:]):
        return AutoConfig(None, "args")
    try:
        bound = sig.bind(None, *args, **kwargs)
    except TypeError:
        return AutoConfig(None, "bind")
    bound.apply_defaults()
    arguments = dict(bound.arguments)
    arguments.pop(params[0].name if params else "self", None)
    for p in params:
        if p.kind is p.VAR_KEYWORD:
            arguments.update(arguments.pop(p.name, {}))
        elif p.kind is p.VAR_POSITIONAL and arguments.pop(p.name, ()):
            return AutoConfig(None, "args")
    arguments.pop("name", None)
    return AutoConfig(arguments, None)


def record(obj: Any, cls: type, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Keep the arguments ``cls(*args, **kwargs)`` was called with on the new ``obj``."""
    try:
        found = _bind(cls, args, kwargs)
    except Exception:  # a signature that cannot be read: no auto config, as in Keras
        found = AutoConfig(None, "bind")
    obj.__dict__["_auto_config"] = found


def _plain(value: Any, depth: int = 0) -> bool:
    if isinstance(value, _PLAIN):
        return True
    if depth < 20 and isinstance(value, list | tuple):
        return all(_plain(v, depth + 1) for v in value)
    if depth < 20 and isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v, depth + 1) for k, v in value.items())
    return False


_EXAMPLE = """
    class CustomLayer(keras.layers.Layer):
        def __init__(self, arg1, arg2, **kwargs):
            super().__init__(**kwargs)
            self.arg1 = arg1
            self.arg2 = arg2

        def get_config(self):
            config = super().get_config()
            config.update({
                "arg1": self.arg1,
                "arg2": self.arg2,
            })
            return config"""


def check_user_config(obj: Any) -> dict[str, Any]:
    """A script class's auto config as Keras 3 allows it, or its ``NotImplementedError``."""
    found: AutoConfig = obj.__dict__.get("_auto_config") or AutoConfig(None, "bind")
    name = type(obj).__name__
    if found.arguments is not None and _plain(found.arguments):
        return dict(found.arguments)
    if found.problem == "args":
        text = f"""
            Object {name} was created by passing
            positional only or variadic positional arguments (e.g.,
            `*args`) to `__init__()`, which is not supported by the
            automatic config generation. Please remove all positional
            only and variadic arguments from `__init__()`
            or override `get_config()` and `from_config()` to make
            the object serializatble.

            Example:
            """
    else:
        text = f"""
            Object {name} was created by passing
            non-serializable argument values in `__init__()`,
            and therefore the object must override `get_config()` in
            order to be serializable. Please implement `get_config()`.

            Example:
            """
    raise NotImplementedError(textwrap.dedent(text) + textwrap.dedent(_EXAMPLE))
