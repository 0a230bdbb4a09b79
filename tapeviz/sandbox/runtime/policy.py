"""What user code may touch: attributes per type, callables, and checked methods.

Everything a script can reach comes from literals, the names given to it (safe builtins and the
import namespaces) and attribute access through :func:`get_attr`, which allows only the listed
public names of known types. Dunder and private names never get this far (the validator refuses
them, but for ``__name__``, ``__version__`` and ``super().__init__``), so frames, code objects,
globals and ``__subclasses__`` are out of reach. Classes a script may name but not construct
(``tf.Tensor``, ``np.ndarray``) are given to it as :func:`marker` classes that work with
``isinstance`` and refuse to be called.

Two kinds of entries allow attributes: :data:`ATTRS` lists the names of one engine or builtin
type, and :data:`PUBLIC_API` allows a whole package's public API at once: every public name
(no leading ``_``) that a class defined in that package, or its instances, hold. A package
named there must keep everything it does not mean scripts to reach behind a ``_``. Classes a
script defines (:mod:`classes`) are readable and writable by their public names.
"""

from __future__ import annotations

import types
import weakref
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from tapeviz import engine as tv
from tapeviz.engine import strings
from tapeviz.engine.concrete_function import ConcreteFunction
from tapeviz.engine.custom import CustomGradientFunction
from tapeviz.engine.function import Function
from tapeviz.engine.namespace import Namespace
from tapeviz.engine.optimizers import Optimizer
from tapeviz.engine.reprs import short_repr
from tapeviz.engine.tape import GradientTape, UnconnectedGradients
from tapeviz.engine.tensor import Tensor, TensorShape, Variable
from tapeviz.sandbox.errors import refused
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.runtime import classes, hints
from tapeviz.sandbox.runtime import private_names as private
from tapeviz.sandbox.runtime.classes import Super, UserProperty, is_user_class, is_user_instance
from tapeviz.sandbox.runtime.methods import CHECKED_METHODS, Checked, no_check, wrapper
from tapeviz.torch._flags import CudnnFlags


def _names(*groups: str) -> frozenset[str]:
    return frozenset(" ".join(groups).split())


_TENSOR = "numpy shape dtype ndim get_shape name id device"
ATTRS: dict[type, frozenset[str]] = {
    Tensor: _names(_TENSOR, "assign"),  # only a slice of a Variable has it (v[0].assign(1.0))
    Variable: _names(_TENSOR, "assign assign_add assign_sub read_value value trainable"),
    TensorShape: _names("as_list rank ndims num_elements"),
    tv.DType: _names("name is_floating is_integer is_bool base_dtype min max"),
    GradientTape: _names(
        "watch gradient jacobian batch_jacobian stop_recording reset watched_variables persistent"
    ),
    Optimizer: _names(
        "apply_gradients minimize learning_rate iterations get_config name momentum nesterov",
        "beta_1 beta_2 epsilon amsgrad rho centered initial_accumulator_value",
        "apply variables built clipnorm clipvalue global_clipnorm weight_decay",  # Keras 3
    ),
    UnconnectedGradients: _names("name value"),
    np.ndarray: _names(
        "shape dtype ndim size T reshape sum mean max min argmax argmin std var cumsum prod",
        "astype tolist item copy flatten ravel transpose round clip dot any all squeeze sort",
        "argsort nonzero real imag fill",
    ),
    np.generic: _names("item dtype shape ndim tolist astype real imag is_integer"),
    np.dtype: _names("name kind itemsize"),
    str: _names(
        "upper lower strip lstrip rstrip split rsplit join replace startswith endswith find",
        "rfind index count title capitalize isdigit isalpha isspace isnumeric splitlines",
        "format center ljust rjust zfill partition rpartition casefold swapcase",
    ),
    bytes: _names(  # what a tf.string tensor's numpy() gives
        "decode upper lower strip lstrip rstrip split rsplit startswith endswith find rfind",
        "index count isdigit isalpha isspace isascii splitlines",
    ),
    list: _names("append extend insert pop remove index count sort reverse copy clear"),
    dict: _names("keys values items get pop update setdefault copy clear popitem"),
    tuple: _names("count index"),
    set: _names(
        "add remove discard pop union intersection difference symmetric_difference issubset",
        "issuperset isdisjoint copy clear update",
    ),
    int: _names("bit_length conjugate real imag numerator denominator"),
    float: _names("is_integer conjugate real imag as_integer_ratio"),
    range: _names("start stop step count index"),
    UserProperty: _names("setter"),
    Function: _names(
        "experimental_get_tracing_count get_concrete_function input_signature",
        "pretty_printed_concrete_signatures",
    ),
    ConcreteFunction: _names(
        "structured_input_signature structured_outputs inputs pretty_printed_signature",
    ),
}
# Packages whose public API scripts may use whole (classes, their instances, their methods).
PUBLIC_API: tuple[str, ...] = (
    "tapeviz.tf", "tapeviz.torch", "tapeviz.sklearn", "tapeviz.sandbox.runtime.plotting",
    "tapeviz.sandbox.runtime.numpy_poly", "tapeviz.sandbox.runtime.tqdm_ns",
    "tapeviz.sandbox.runtime.pathlib_ns",
)  # fmt: skip
SETTABLE: dict[type, frozenset[str]] = {
    Optimizer: _names("learning_rate"),
    CudnnFlags: _names("enabled benchmark deterministic allow_tf32"),  # (no GPU: no effect)
}
_OBJECT_ATTRS: dict[int, frozenset[str]] = {id(UnconnectedGradients): _names("NONE ZERO")}
_CACHE: dict[type, tuple[frozenset[str], bool]] = {}
# A script's classes end with its run (and may gain attributes): a weak cache, cleared on writes.
_USER_CACHE: weakref.WeakKeyDictionary[type, tuple[frozenset[str], bool]] = (
    weakref.WeakKeyDictionary()
)
# Per pure script class (no library base): the names its MRO holds as data descriptors (a
# property wins over an instance's own value); None for any other class. Cleared with the above.
_OWN_READS: weakref.WeakKeyDictionary[type, frozenset[str] | None] = weakref.WeakKeyDictionary()
# The only dunder attributes a script may read. ``x.__class__`` is ``type(x)`` as a script sees
# it (d2l prints ``layer.__class__.__name__``): the same stand-in, whose own dunders stay shut.
DUNDER_READS = ("__name__", "__version__", "__class__")
CLASS_OF: Callable[[Any], Any] | None = None  # typeof.type_of, set when typeof is imported


def public_api(cls: type) -> bool:
    """Whether ``cls`` was defined in a :data:`PUBLIC_API` package."""
    module = cls.__dict__.get("__module__")
    return isinstance(module, str) and any(
        module == p or module.startswith(p + ".") for p in PUBLIC_API
    )


def _public(names: Iterable[Any]) -> set[str]:
    return {n for n in names if isinstance(n, str) and not n.startswith("_")}


def _type_info(tp: type) -> tuple[frozenset[str], bool]:
    """Names allowed on every instance of ``tp``, and whether its instances' own names are too."""
    cache = _USER_CACHE if tp.__dict__.get(private.MARK) is True else _CACHE
    found = cache.get(tp)
    if found is not None:
        return found
    names: set[str] = set(next((ATTRS[k] for k in tp.__mro__ if k in ATTRS), ()))
    public = False
    for k in tp.__mro__:
        if public_api(k):
            public = True
            names |= _public(k.__dict__)
    user = is_user_class(tp)
    if user:
        names |= classes.class_names(tp)
    out = cache[tp] = (frozenset(names), user or public)
    return out


def allowed_attrs(obj: Any) -> frozenset[str]:
    """The attribute names user code may read on ``obj``."""
    special = _OBJECT_ATTRS.get(id(obj))  # (only objects that live as long as the process)
    if special is None and type(obj) is Namespace:  # namespaces are fixed
        special = frozenset(n for n in obj if not n.startswith("_"))
        if id(obj) in SHARED:  # a module's: cached. A run's own (np.random.RandomState(0)) is
            _OBJECT_ATTRS[id(obj)] = special  # freed with the run and its id used again
    if special is not None:
        return special
    if isinstance(obj, type):  # a class: a script's or a public-API one (Dataset.range)
        if is_user_class(obj):  # its own names and its public-API bases' (Function.apply)
            inherited = (n for k in obj.__mro__ if public_api(k) for n in _public(k.__dict__))
            return frozenset(classes.class_names(obj)).union(inherited)
        if public_api(obj):
            return frozenset(n for k in obj.__mro__ if public_api(k) for n in _public(k.__dict__))
        return frozenset()
    tp = type(obj)
    names, own_names = _CACHE.get(tp) or _type_info(tp)
    if own_names:
        own = getattr(obj, "__dict__", None)
        if isinstance(own, dict) and own:
            names = names | _public(own)
        held = getattr(type(obj), "_held_names", None)  # a torch module's parameters, children
        if held is not None and public_api_instance(obj):
            names = names | _public(held(obj))
    return names


def public_api_instance(obj: Any) -> bool:
    """Whether ``obj``'s class is, or derives from, a public-API class."""
    tp = type(obj)
    found = _PUBLIC_MRO.get(tp)
    if found is None:
        found = _PUBLIC_MRO[tp] = any(public_api(k) for k in tp.__mro__)
    return found


_PUBLIC_MRO: weakref.WeakKeyDictionary[type, bool] = weakref.WeakKeyDictionary()


def allows(obj: Any, name: str) -> bool:
    """``name in allowed_attrs(obj)``, without building the set for an instance.

    A script's module reads ``self.fc1`` at every step: the set of every name it may read (its
    class's, its own ``__dict__``'s, its parameters' and children's) cost ~40 µs to build.
    """
    tp = type(obj)
    if tp is Namespace and id(obj) not in _OBJECT_ATTRS:  # (its names are fixed: ask it)
        return isinstance(name, str) and not name.startswith("_") and name in obj
    if id(obj) in _OBJECT_ATTRS or isinstance(obj, type):
        return name in allowed_attrs(obj)
    names, own_names = _CACHE.get(tp) or _type_info(tp)
    if name in names:
        return True
    if not own_names or not isinstance(name, str) or name.startswith("_"):
        return False
    own = getattr(obj, "__dict__", None)
    if isinstance(own, dict) and name in own:
        return True
    held = getattr(tp, "_held_names", None)
    return held is not None and public_api_instance(obj) and name in held(obj)


def _type_name(obj: Any) -> str:
    if type(obj) is Namespace:
        return repr(obj).split("'")[1]
    return type(obj).__name__


def _dunder(obj: Any, name: str) -> Any:
    """``__name__`` of classes, functions and modules, ``__version__`` of modules, ``__class__``."""
    if name == "__class__" and CLASS_OF is not None:
        return CLASS_OF(obj)
    value: Any = None
    if type(obj) is Namespace:
        if name == "__name__":
            value = _type_name(obj)
        elif "__version__" in obj:
            value = obj.__version__
    elif name == "__name__" and (isinstance(obj, type) or callable(obj)):
        # A class or a function has a name; an instance (even a callable one) has none.
        value = None if is_user_instance(obj) else getattr(obj, "__name__", None)
    if isinstance(value, str):
        return value
    what = "module" if type(obj) is Namespace else f"'{_type_name(obj)}' object"
    raise AttributeError(f"{what} has no attribute '{name}'")


def _engine_allows(owner: type, name: str) -> bool:
    return name in ATTRS.get(owner, ()) or (public_api(owner) and not name.startswith("_"))


# What a tf.string tensor's numpy() (an object array of bytes, nothing else) offers.
_BYTES_ARRAY_ATTRS = _names("shape dtype ndim size tolist item copy flatten ravel reshape T")


def _bytes_array(obj: Any) -> bool:
    return isinstance(obj, np.ndarray) and strings.is_bytes_array(obj)


def _shadowing(tp: type) -> frozenset[str] | None:
    """For a pure script class: the names of its data descriptors; None for other classes."""
    try:
        return _OWN_READS[tp]
    except KeyError:
        pass
    found = None
    if tp.__dict__.get(private.MARK) is True and private.is_pure(tp):
        found = frozenset(n for k in tp.__mro__ for n, v in k.__dict__.items()
                          if hasattr(type(v), "__set__"))  # fmt: skip
    _OWN_READS[tp] = found
    return found


def get_attr(obj: Any, name: str) -> Any:
    """``obj.name`` if the policy allows it; a clear refusal or AttributeError otherwise."""
    if name in DUNDER_READS:
        return _dunder(obj, name)
    tp = type(obj)
    shadowing = _shadowing(tp) if tp.__dict__.get(private.MARK) is True else None
    if shadowing is not None and name not in shadowing:  # a script object's own value: as is
        own = obj.__dict__
        if name in own and (name[0] != "_" or private.private_name_ok(name)):
            return own[name]
    if name.startswith("_") and type(obj) is not Super:
        if private.private_allowed(obj, name) or private.own_private_entry(obj, name):
            return getattr(obj, name)
        raise refused(say("private_attribute", name=name), say("hint_private"))
    if type(obj) is Super:
        value = classes.super_attribute(obj, name, _engine_allows)
        if callable(value) and not getattr(value, "_tapeviz_user", False):
            return Checked(value, no_check)
        return value
    if (
        isinstance(obj, np.generic | np.ndarray)
        and obj.dtype.kind not in "biufc"  # (complex: numbers too)
        and not (name in _BYTES_ARRAY_ATTRS and _bytes_array(obj))
    ):
        raise refused(say("numpy_dtype_value", dtype=obj.dtype))
    if not allows(obj, name):
        allowed = allowed_attrs(obj)
        if type(obj) is Namespace:
            raise hints.missing_attribute(_type_name(obj), name, allowed)
        if hasattr(type(obj), name) or (not is_user_instance(obj) and hasattr(obj, name)):
            raise refused(
                say("attribute", name=name, owner=_type_name(obj)), say("hint_public_api")
            )
        raise hints.missing_object_attribute(_type_name(obj), name, allowed)
    value = getattr(obj, name)
    if isinstance(obj, type) and public_api(obj) and isinstance(value, types.FunctionType):
        return Checked(value, no_check)  # a static method of a public-API class
    wrap = wrapper(type(obj), name, obj)
    return value if wrap is None else Checked(value, wrap)


def share(objs: Iterable[Any]) -> None:
    """Mark objects every run sees (the namespaces' values): no script may change them."""
    SHARED.update(id(o) for o in objs)


SHARED: set[int] = set()


def item_assignable(obj: Any) -> bool:
    """Whether ``obj[key] = value`` is allowed: lists, dicts, arrays, public-API mappings."""
    if isinstance(obj, list | dict | np.ndarray):
        return True
    tp = type(obj)
    return any(public_api(k) and "__setitem__" in k.__dict__ for k in tp.__mro__)


def set_attr(obj: Any, name: str, value: Any) -> None:
    """``obj.name = value``: a script's objects, public-API objects, a few hyper-parameters."""
    if name.startswith("_") and not (
        (private.private_allowed(obj, name) and not isinstance(obj, type))
        or (  # a script class (pure or not) may gain a private name no library class has
            is_user_class(obj)
            and private.private_name_ok(name)
            and not private.heirs_shadow(obj, name)
        )
    ):
        raise refused(say("private_attribute", name=name), say("hint_private"))
    if is_user_instance(obj) or is_user_class(obj):
        if is_user_class(obj):
            _USER_CACHE.clear()  # the class (and its subclasses) may gain a name
            _OWN_READS.clear()
            value = classes.as_class_attribute(value)
        setattr(obj, name, value)
        return
    tp = type(obj)
    if tp.__dict__.get("_open_attributes") is True and public_api(tp) and not name.startswith("_"):
        setattr(obj, name, value)  # a bag a script fills (torch's ctx in autograd.Function)
        return
    for k in tp.__mro__:
        if name in SETTABLE.get(k, ()):
            setattr(obj, name, value)
            return
    if _type_info(tp)[1] and not name.startswith("_") and id(obj) not in SHARED:
        own = getattr(obj, "__dict__", None)
        prop = next((k.__dict__[name] for k in tp.__mro__ if name in k.__dict__), None)
        if (isinstance(own, dict) and name in own) or (
            isinstance(prop, property) and prop.fset is not None
        ):
            setattr(obj, name, value)
            return
    raise refused(say("set_attribute", name=name, owner=_type_name(obj)), say("hint_settable"))


def del_attr(obj: Any, name: str) -> None:
    """``del obj.name`` on the script's own objects."""
    if name.startswith("_") and not private.private_allowed(obj, name):
        raise refused(say("private_attribute", name=name), say("hint_private"))
    if not (is_user_instance(obj) or is_user_class(obj)):
        raise refused(say("del_attribute", name=name, owner=_type_name(obj)))
    if is_user_class(obj):
        _USER_CACHE.clear()
        _OWN_READS.clear()
    delattr(obj, name)


# -- callables -------------------------------------------------------------------------------
SAFE_CALLABLES: set[int] = set()


class _TypeProxy(type):
    """Metaclass of stand-in classes: ``isinstance`` checks the real class, calls are checked."""

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, cls._real)  # type: ignore[attr-defined]

    def __subclasscheck__(cls, sub: Any) -> bool:
        return isinstance(sub, type) and issubclass(sub, cls._real)  # type: ignore[attr-defined]

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return cls._make(*args, **kwargs)  # type: ignore[attr-defined]

    def __repr__(cls) -> str:
        return f"<class '{cls.__dict__.get('_shown') or cls.__name__}'>"


class _Marker(_TypeProxy):
    """A stand-in that refuses to be called."""


def checked_type(
    real: type,
    make: Callable[..., Any],
    name: str | None = None,
    shown: str | None = None,
    dtype: Any = None,
) -> type:
    """A stand-in for ``real`` (for isinstance) whose calls go through ``make``.

    ``name`` is its ``__name__`` (``real``'s by default), ``shown`` its repr's dotted name;
    a ``dtype`` makes numpy read the stand-in as that dtype (``np.float32`` as ``dtype=``).
    """
    body = {"_real": real, "_make": staticmethod(make), "_shown": shown}
    if dtype is not None:
        body["dtype"] = dtype
    return _TypeProxy(name or real.__name__, (), body)


def marker(cls: type, name: str | None = None, shown: str | None = None) -> type:
    """A stand-in for ``cls`` that works with ``isinstance`` but cannot be constructed."""

    def refuse(*_: Any, **__: Any) -> Any:
        raise refused(say("construct", name=cls.__name__))

    body = {"_real": cls, "_make": staticmethod(refuse), "_shown": shown}
    return _Marker(name or cls.__name__, (), body)


def allow_callables(objs: Iterable[Any]) -> None:
    """Register functions and classes reachable from the namespaces as callable."""
    for obj in objs:
        if callable(obj) and not isinstance(obj, _Marker):
            SAFE_CALLABLES.add(id(obj))


def check_callable(f: Any) -> None:
    """Refuse calling anything that did not come from the policy's namespaces or the user."""
    if id(f) in SAFE_CALLABLES or type(f) is Checked:
        return
    if isinstance(f, type):
        if is_user_class(f):
            return
    elif (_CACHE.get(type(f)) or _type_info(type(f)))[1]:
        if callable(f):  # a script's object with __call__; a layer, a model, a loss
            return
    elif getattr(f, "_tapeviz_user", False):
        return
    if type(f) is Function or type(f) is CustomGradientFunction:
        check_callable(f.python_function)
        return
    if type(f) is ConcreteFunction:  # a trace of a script's tf.function
        check_callable(f._function)
        return
    if type(f) is classes.CheckedBoundMethod:  # a script's custom_gradient method, bound
        check_callable(f.function)
        return
    if isinstance(f, types.MethodType | types.BuiltinMethodType | types.MethodWrapperType):
        owner = getattr(f, "__self__", None)
        if owner is not None and allows(owner, f.__name__):
            return
    if not callable(f):
        raise TypeError(f"{_type_name(f)} {_short(f)} is not a function and cannot be called")
    raise refused(say("call", name=_short(f)))


def _short(obj: Any) -> str:
    return short_repr(obj, 40)


def _sort(owner: list[Any], *, key: Any = None, reverse: bool = False) -> None:
    if key is not None:
        check_callable(key)


CHECKED_METHODS[(list, "sort")] = _sort
