"""Classes a script defines: real Python classes whose methods are the interpreter's functions.

``class Model(tf.Module): ...`` makes a real class (so the engine's base classes work on its
instances as on their own), under rules that keep the class a plain container of the script's
code and data:

* its namespace holds public names and the special methods the language needs to construct
  and call objects, ``__init__`` and ``__call__``, the two a data set needs (``len(ds)``,
  ``ds[i]``: a ``torch.utils.data.Dataset``), ``__len__`` and ``__getitem__``, ``__repr__`` and
  the arithmetic operators (micrograd's ``Value``); nothing can replace ``__eq__``,
  ``__hash__``, ``__getattr__``, ``__del__`` or an engine base's private attributes;
* a class whose bases are all the script's own (or ``object``) may keep private names
  (``self._prev``, ``_backward``), except the few tapeviz reads off objects
  (``private_names.RESERVED_PRIVATE``); a class with a library base keeps the library's
  private names shut, and may add its own;
* a function defined in its body becomes a :class:`Method` (a descriptor binding ``self``);
  every call runs the interpreter's :class:`~tapeviz.sandbox.runtime.frames.UserFunction`, which
  spends the run's budget wherever it is called from, engine code included, and refuses to run
  once the run is over;
* its bases are other script classes, ``object``, exception classes, or the engine classes made
  for subclassing (:data:`ROOTS`: ``tf.Module``, Keras ``Layer``/``Model``, ... and their
  subclasses); tensors, tapes, optimizers and builtin containers are not subclassable;
* ``super()`` is a :class:`Super` view that reads only what the policy allows on each class.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable, Iterable
from typing import Any

from tapeviz.engine.custom import CustomGradientFunction
from tapeviz.engine.function import Function
from tapeviz.sandbox.errors import limit_hit, refused
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.runtime.checks import CURRENT
from tapeviz.sandbox.runtime.private_names import (
    MARK,
    RESERVED_PRIVATE,  # noqa: F401 (re-exported: the rules' list, where scripts' classes are made)
    library_defines,
    private_name_ok,
    private_names,
)

CELL = "<class>"  # the frame key holding the class its methods were defined in (for super())
OPERATORS = (
    "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
    "__rtruediv__", "__pow__", "__rpow__", "__matmul__", "__rmatmul__", "__neg__", "__pos__",
)  # fmt: skip
SPECIAL = ("__init__", "__call__", "__len__", "__getitem__", "__repr__", *OPERATORS)
# Special methods super() may reach on a library base (the rest only on the script's classes).
_SUPER_SPECIAL = ("__init__", "__call__", "__len__", "__getitem__")
# Special methods that must be plain script functions (a @tf.function one would replay its
# traced ops wherever Python calls it, the run over or not).
_PLAIN = ("__repr__", *OPERATORS)
ROOTS: list[type] = []  # engine classes made for subclassing (modules.py registers them)
EXCEPTIONS: list[type] = []  # exception classes a script may subclass (builtins.py)


def is_user_class(obj: Any) -> bool:
    """Whether ``obj`` is a class the script defined."""
    return isinstance(obj, type) and obj.__dict__.get(MARK) is True


def is_user_instance(obj: Any) -> bool:
    """Whether ``obj`` is an instance of a class the script defined."""
    return type(obj).__dict__.get(MARK) is True


def allow_bases(classes: Iterable[Any]) -> None:
    """Register engine classes as subclassable (their subclasses are too)."""
    for cls in classes:
        if isinstance(cls, type) and cls not in ROOTS:
            ROOTS.append(cls)


def is_object(base: Any) -> bool:
    """Whether ``base`` is ``object`` or the script's stand-in for it (``class A(object)``)."""
    return base is object or (isinstance(base, type) and base.__dict__.get("_real") is object)


def check_base(base: Any) -> None:
    """Refuse a base class outside the rules above (stand-ins like ``tf.Tensor`` included)."""
    if is_user_class(base):
        return
    if isinstance(base, type) and (
        any(base is e for e in EXCEPTIONS) or any(issubclass(base, r) for r in ROOTS)
    ):
        return
    name = getattr(base, "__name__", None)
    what = name if isinstance(name, str) else type(base).__name__
    raise refused(
        f"{what} cannot be subclassed in tapeviz scripts",
        "a class can derive from object, exceptions, your own classes, tf.Module and Keras "
        "layers, models, losses and metrics",
    )


# -- what the class body's functions become ---------------------------------------------------
class BoundMethod:
    """A script method bound to its instance (or class, for a classmethod)."""

    __slots__ = ("function", "instance")
    _tapeviz_user = True

    def __init__(self, function: Callable[..., Any], instance: Any) -> None:
        self.function = function
        self.instance = instance

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.function(self.instance, *args, **kwargs)

    @property
    def __name__(self) -> str:  # type: ignore[override]
        """The method's name."""
        return str(getattr(self.function, "__name__", "method"))

    @property
    def __signature__(self) -> inspect.Signature:
        """The function's parameters after the bound first one."""
        params = list(inspect.signature(self.function).parameters.values())
        if params and params[0].kind in (params[0].POSITIONAL_OR_KEYWORD,
                                         params[0].POSITIONAL_ONLY):  # fmt: skip
            params = params[1:]
        return inspect.Signature(params)

    def __repr__(self) -> str:
        owner = self.instance if isinstance(self.instance, type) else type(self.instance)
        return f"<bound method {owner.__name__}.{self.__name__}>"


class Method:
    """A function defined in a class body: reading it from an instance binds ``self``."""

    __slots__ = ("function",)

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        return self.function if instance is None else BoundMethod(self.function, instance)


class ReprMethod(Method):
    """A script's ``__repr__``: once its run is over, ``<Value object>`` instead of a refusal.

    Python calls ``repr`` wherever it prints an object (a traceback, a debugger, a test's
    failure text); the script's function runs only while its run does.
    """

    __slots__ = ()

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return self.function
        budget = getattr(getattr(self.function, "closure", None), "budget", None)
        if budget is None or budget.tripped is not None or CURRENT.budget is not budget:
            return lambda: f"<{type(instance).__name__} object>"  # (no run of its own active)
        bound = BoundMethod(self.function, instance)

        def checked() -> Any:  # (a list of 30 reprs of 10 M characters is 300 M: refuse one)
            text = bound()
            cap = budget.limits.max_output
            if isinstance(text, str) and len(text) > cap:
                raise budget.trip(limit_hit("output", say("repr_output", cap=f"{cap:,}")))
            return text

        return checked


class CheckedBoundMethod(BoundMethod):
    """A bound method whose function is the engine's (``@tf.custom_gradient``).

    That function turns its arguments into tensors, so they are checked (sizes) as any library
    call's are.
    """

    __slots__ = ()
    _tapeviz_user = False


class EngineMethod(Method):
    """A class body's ``@tf.custom_gradient`` method: ``self`` passed through, arguments checked."""

    __slots__ = ()

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        return self.function if instance is None else CheckedBoundMethod(self.function, instance)


class StaticMethod:
    """``@staticmethod``: the function itself, from the class or an instance."""

    __slots__ = ("function",)

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        return self.function


class ClassMethod:
    """``@classmethod``: bound to the class it is read from."""

    __slots__ = ("function",)

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        return BoundMethod(self.function, owner if owner is not None else type(instance))


class UserProperty:
    """``@property`` (and ``@x.setter``) over the script's functions."""

    __slots__ = ("fget", "fset", "name")

    def __init__(self, fget: Any = None, fset: Any = None) -> None:
        self.fget, self.fset = fget, fset
        self.name = str(getattr(fget, "__name__", "property"))

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return self
        if self.fget is None:
            raise AttributeError(f"property '{self.name}' has no getter")
        return self.fget(instance)

    def __set__(self, instance: Any, value: Any) -> None:
        if self.fset is None:
            raise AttributeError(
                f"property '{self.name}' of '{type(instance).__name__}' object has no setter"
            )
        self.fset(instance, value)

    def __delete__(self, instance: Any) -> None:
        raise AttributeError(f"property '{self.name}' cannot be deleted")

    def setter(self, fset: Any) -> UserProperty:
        """The same property with ``fset`` as its setter (``@x.setter``)."""
        _need_user_function(fset, "@property.setter")
        return UserProperty(self.fget, fset)

    def __repr__(self) -> str:
        return f"<property {self.name}>"


def _is_user_function(fn: Any) -> bool:
    if getattr(fn, "_tapeviz_user", False) and not isinstance(fn, BoundMethod):
        return True
    inner = getattr(fn, "python_function", None)  # a @tf.function around a script function
    wrapper = type(fn) is Function or type(fn) is CustomGradientFunction  # or custom_gradient
    return inner is not None and wrapper and _is_user_function(inner)


def _need_user_function(fn: Any, what: str) -> None:
    if not _is_user_function(fn):
        raise refused(say("functions_only", what=what))


def make_property(fget: Any = None, fset: Any = None, doc: Any = None) -> UserProperty:
    """``property(fget, fset)`` with the script's own functions."""
    for fn in (fget, fset):
        if fn is not None:
            _need_user_function(fn, "property()")
    return UserProperty(fget, fset)


def make_staticmethod(fn: Any) -> StaticMethod:
    """``staticmethod(f)`` for a script function."""
    _need_user_function(fn, "staticmethod()")
    return StaticMethod(fn)


def make_classmethod(fn: Any) -> ClassMethod:
    """``classmethod(f)`` for a script function."""
    _need_user_function(fn, "classmethod()")
    return ClassMethod(fn)


def as_class_attribute(value: Any) -> Any:
    """What a class stores for ``value``: script functions become methods (bound to ``self``).

    Library functions (``print``, ``tf.nn.relu``) stay unbound, as builtins do in Python, so an
    instance never hands itself to library code as an argument nobody wrote.
    """
    if type(value) is CustomGradientFunction and _is_user_function(value):
        return EngineMethod(value.as_method())  # self is passed through, not made a tensor
    inner = getattr(value, "python_function", None)
    if (
        type(value) is Function
        and type(inner) is CustomGradientFunction
        and _is_user_function(value)
    ):
        return EngineMethod(Function(inner.as_method(), **value.options))  # (the same, traced)
    if _is_user_function(value):
        return Method(value)
    if isinstance(value, types.FunctionType):
        return StaticMethod(value)
    return value


# -- making the class -------------------------------------------------------------------------
def make_class(name: str, bases: tuple[Any, ...], namespace: dict[str, Any]) -> type:
    """The class a ``class`` statement defines, from its evaluated bases and body namespace."""
    real = tuple(b for b in bases if not is_object(b))
    for base in real:
        check_base(base)
    body: dict[str, Any] = {"__module__": "__main__", "__qualname__": name, "__doc__": None}
    for key, value in namespace.items():
        if key.startswith("_") and key not in SPECIAL and not private_name_ok(key):
            raise refused(say("class_attribute", name=key), say("hint_class_private"))
        if key in SPECIAL and not _is_user_function(value):
            raise refused(say("method_def", name=key))
        if key in _PLAIN and not getattr(value, "_tapeviz_user", False):
            raise refused(say("method_def", name=key))
        body[key] = ReprMethod(value) if key == "__repr__" else as_class_attribute(value)
    body[MARK] = True
    try:
        cls = types.new_class(name, real, exec_body=lambda ns: ns.update(body))
    except TypeError as exc:  # a layout conflict, an inconsistent MRO
        raise TypeError(f"cannot create class {name}: {exc}") from None
    # With a library base, no private name of a script class in the MRO (this one's or a mixin
    # above it) may shadow one the library defines: the engine would call the script's.
    for k in cls.__mro__:
        if k.__dict__.get(MARK) is True:
            for n in private_names(k):
                if library_defines(cls, n):
                    raise refused(say("class_attribute", name=n), say("hint_class_private"))
    return cls


def class_names(cls: type) -> set[str]:
    """The public names the script's classes in ``cls``'s MRO define."""
    out: set[str] = set()
    for k in cls.__mro__:
        if k.__dict__.get(MARK) is True:
            out.update(n for n in k.__dict__ if not n.startswith("_"))
    return out


class Super:
    """``super()`` / ``super(Cls, self)``: the next class's attributes, as the policy allows."""

    __slots__ = ("cls", "obj")

    def __init__(self, cls: Any, obj: Any) -> None:
        if not is_user_class(cls):
            raise TypeError("super() needs a class defined in the script")
        target = obj if isinstance(obj, type) else type(obj)
        if not (isinstance(target, type) and issubclass(target, cls)):
            raise TypeError("super(type, obj): obj must be an instance or subtype of type")
        self.cls, self.obj = cls, obj

    def owner(self, name: str) -> type | None:
        """The class after ``cls`` in the MRO that defines ``name``."""
        target = self.obj if isinstance(self.obj, type) else type(self.obj)
        mro = target.__mro__
        for k in mro[mro.index(self.cls) + 1 :]:
            if name in k.__dict__:
                return k
        return None

    def __repr__(self) -> str:
        return f"<super: {self.cls.__name__}>"


def super_attribute(view: Super, name: str, engine_allows: Callable[[type, str], bool]) -> Any:
    """``super().name``: a script class's entry, or an allowed attribute of an engine base."""
    owner = view.owner(name)
    if owner is None:
        raise AttributeError(f"'super' object has no attribute '{name}'")
    script = owner.__dict__.get(MARK) is True
    engine = not script and name not in _SUPER_SPECIAL
    if engine and (owner is object or not engine_allows(owner, name)):
        raise refused(say("super_attribute", name=name))
    if not script and name in SPECIAL and name not in _SUPER_SPECIAL:  # (object.__repr__ …)
        raise refused(say("super_attribute", name=name))
    return getattr(super(view.cls, view.obj), name)
