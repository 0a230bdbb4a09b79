"""``tf.Module`` and ``tf.name_scope``: named containers of variables and sub-modules.

A module collects its ``variables``, ``trainable_variables`` and ``submodules`` by walking its
attributes the way TensorFlow does: attributes in sorted name order (lists, tuples and dicts
inside them too, dict keys sorted), a module's own values before its sub-modules' values, each
object once. Ops and variables made inside ``with module.name_scope:`` (or a method decorated
with ``tf.Module.with_name_scope``) are recorded and named under the module's name.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from typing import Any

from tapeviz.engine.state import STATE, NameScope
from tapeviz.engine.tensor import Variable

__all__ = ["Module", "camel_to_snake", "name_scope"]

_IGNORED = frozenset(
    ("_self_unconditional_checkpoint_dependencies", "_self_unconditional_dependency_names")
)
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def camel_to_snake(name: str) -> str:
    """``"SequentialModule"`` → ``"sequential_module"`` (TensorFlow's and Keras' rule)."""
    return re.sub(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))", r"_\1", name).lower()


def name_scope(name: str) -> NameScope:
    """A with-block whose ops (and new variables) are named under ``name``."""
    if not isinstance(name, str):
        raise ValueError("name for name_scope must be a string.")
    return NameScope(name)


class Module:
    """Base class of models and layers: a name, a name scope, and its variables collected."""

    def __init__(self, name: str | None = None) -> None:
        if name is None:
            name = camel_to_snake(type(self).__name__)
        elif not _IDENTIFIER.match(name):
            raise ValueError(
                f"'{name}' is not a valid module name. Module names must be valid Python "
                "identifiers (e.g. a valid class name)."
            )
        self._set_module_name(name)

    def _set_module_name(self, name: str) -> None:
        self._name = name
        with NameScope(name) as scope_name:  # nested under the scope the module is made in
            self._scope_name = scope_name

    @property
    def name(self) -> str:
        """The module's name (its class name in snake case unless given)."""
        return self._name

    @property
    def name_scope(self) -> NameScope:
        """A with-block that runs ops and creates variables under this module's name."""
        return NameScope(self._scope_name)

    @property
    def variables(self) -> tuple[Variable, ...]:
        """Every variable of this module and its sub-modules (TensorFlow's walk order)."""
        return tuple(self._flatten(predicate=_is_variable))

    @property
    def trainable_variables(self) -> tuple[Variable, ...]:
        """The trainable variables of this module and its sub-modules."""
        return tuple(self._flatten(predicate=_is_trainable))

    @property
    def non_trainable_variables(self) -> tuple[Variable, ...]:
        """The variables that are not trainable."""
        return tuple(self._flatten(predicate=_is_frozen))

    @property
    def submodules(self) -> tuple[Module, ...]:
        """Every module inside this one, recursively (direct ones first)."""
        return tuple(self._flatten(predicate=_is_module))

    def _flatten(
        self,
        recursive: bool = True,
        predicate: Callable[[Any], bool] | None = None,
        with_path: bool = False,
    ) -> Iterator[Any]:
        return _flatten_module(
            self, recursive, predicate or (lambda _: True), with_path, (), {id(self)}, []
        )

    @classmethod
    def with_name_scope(cls, method: Callable[..., Any]) -> Callable[..., Any]:
        """Decorate a method so that it runs inside ``self.name_scope``."""

        @functools.wraps(method)
        def wrapped(self: Module, *args: Any, **kwargs: Any) -> Any:
            with self.name_scope:
                return method(self, *args, **kwargs)

        return wrapped


def _is_variable(obj: Any) -> bool:
    return isinstance(obj, Variable)


def _is_trainable(obj: Any) -> bool:
    return isinstance(obj, Variable) and obj.trainable


def _is_frozen(obj: Any) -> bool:
    return isinstance(obj, Variable) and not obj.trainable


def _is_module(obj: Any) -> bool:
    return isinstance(obj, Module)


def _leaves(value: Any, path: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """``tf.nest.flatten_with_tuple_paths``: lists and tuples in order, dict keys sorted."""
    if isinstance(value, dict):
        for k in sorted(value, key=repr):
            yield from _leaves(value[k], (*path, k))
    elif isinstance(value, list | tuple) and not isinstance(value, str):
        for i, v in enumerate(value):
            yield from _leaves(v, (*path, i))
    else:
        yield path, value


def _flatten_module(
    module: Module,
    recursive: bool,
    predicate: Callable[[Any], bool],
    with_path: bool,
    module_path: tuple[Any, ...],
    seen: set[int],
    stack: list[int],
) -> Iterator[Any]:
    """TensorFlow's ``_flatten_module``: direct properties first, then each sub-module."""
    if id(module) in stack:
        recursive = False
    submodules = []
    attrs = vars(module)
    for key in sorted(attrs):
        if key in _IGNORED:
            continue
        for leaf_path, leaf in _leaves(attrs[key], (key,)):
            if not with_path:
                if id(leaf) in seen:
                    continue
                seen.add(id(leaf))
            if predicate(leaf):
                yield (module_path + leaf_path, leaf) if with_path else leaf
            if recursive and _is_module(leaf):
                submodules.append((module_path + leaf_path, leaf))
    stack.append(id(module))
    for sub_path, sub in submodules:
        yield from _flatten_module(sub, recursive, predicate, with_path, sub_path, seen, stack)
    stack.pop()


def current_scope() -> tuple[str, ...]:
    """The name scope ops run in now (outermost first)."""
    return STATE.scope
