"""What user code may touch: attributes per type, callables, and checked methods.

Everything a script can reach comes from literals, the names given to it (safe builtins and the
import namespaces) and attribute access through :func:`get_attr`, which allows only the listed
public names of known types. Dunder and private names never get this far (the validator refuses
them), so frames, code objects, globals and ``__subclasses__`` are out of reach. Classes a script
may name but not construct (``tf.Tensor``, ``np.ndarray``) are given to it as :func:`marker`
classes that work with ``isinstance`` and refuse to be called.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from tapeviz import engine as tv
from tapeviz.engine.function import Function
from tapeviz.engine.namespace import Namespace
from tapeviz.engine.optimizers import Optimizer
from tapeviz.engine.reprs import short_repr
from tapeviz.engine.tape import GradientTape, UnconnectedGradients
from tapeviz.engine.tensor import Tensor, TensorShape, Variable
from tapeviz.sandbox.errors import refused, suggest
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.runtime import checks
from tapeviz.sandbox.runtime.checks import (
    budget,
    check_format_string,
    check_key,
    check_keys,
    counted,
)


def _names(*groups: str) -> frozenset[str]:
    return frozenset(" ".join(groups).split())


_TENSOR = "numpy shape dtype ndim get_shape name id"
ATTRS: dict[type, frozenset[str]] = {
    Tensor: _names(_TENSOR),
    Variable: _names(_TENSOR, "assign assign_add assign_sub read_value value trainable"),
    TensorShape: _names("as_list rank ndims num_elements"),
    tv.DType: _names("name is_floating is_integer is_bool base_dtype min max"),
    GradientTape: _names(
        "watch gradient jacobian batch_jacobian stop_recording reset watched_variables persistent"
    ),
    Optimizer: _names(
        "apply_gradients minimize learning_rate iterations get_config name momentum nesterov",
        "beta_1 beta_2 epsilon amsgrad rho centered initial_accumulator_value",
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
}
SETTABLE: dict[type, frozenset[str]] = {Optimizer: _names("learning_rate")}
_OBJECT_ATTRS: dict[int, frozenset[str]] = {id(UnconnectedGradients): _names("NONE ZERO")}
_CACHE: dict[type, frozenset[str] | None] = {}


def allowed_attrs(obj: Any) -> frozenset[str]:
    """The attribute names user code may read on ``obj``."""
    special = _OBJECT_ATTRS.get(id(obj))
    if special is None and type(obj) is Namespace:  # namespaces are fixed: cache their names
        special = _OBJECT_ATTRS[id(obj)] = frozenset(n for n in obj if not n.startswith("_"))
    if special is not None:
        return special
    tp = type(obj)
    found = _CACHE.get(tp, 0)
    if found == 0:
        found = next((ATTRS[k] for k in tp.__mro__ if k in ATTRS), None)
        _CACHE[tp] = found
    return found or frozenset()


def _type_name(obj: Any) -> str:
    if type(obj) is Namespace:
        return repr(obj).split("'")[1]
    return type(obj).__name__


def get_attr(obj: Any, name: str) -> Any:
    """``obj.name`` if the policy allows it; a clear refusal or AttributeError otherwise."""
    if isinstance(obj, np.generic | np.ndarray) and obj.dtype.kind not in "biuf":
        raise refused(say("numpy_dtype_value", dtype=obj.dtype))
    allowed = allowed_attrs(obj)
    if name not in allowed:
        if hasattr(type(obj), name) or (type(obj) is not Namespace and hasattr(obj, name)):
            raise refused(
                say("attribute", name=name, owner=_type_name(obj)), say("hint_public_api")
            )
        hint = suggest(name, allowed)
        raise AttributeError(
            f"{_type_name(obj)} has no attribute '{name}'" + (f"; {hint.text}" if hint else "")
        )
    value = getattr(obj, name)
    wrap = None
    for k in type(obj).__mro__:  # subclasses (np.float64 of float, ...) get the same checks
        wrap = _CHECKED_METHODS.get((k, name))
        if wrap is not None:
            break
    if wrap is None and isinstance(obj, np.ndarray | np.generic):
        wrap = _CHECKED_METHODS.get((np.ndarray, name))
    return value if wrap is None else Checked(value, wrap)


def set_attr(obj: Any, name: str, value: Any) -> None:
    """``obj.name = value`` for the few settable hyper-parameters (``opt.learning_rate``)."""
    for k in type(obj).__mro__:
        if name in SETTABLE.get(k, ()):
            setattr(obj, name, value)
            return
    raise refused(say("set_attribute", name=name, owner=_type_name(obj)), say("hint_settable"))


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
        return f"<class '{cls.__name__}'>"


class _Marker(_TypeProxy):
    """A stand-in that refuses to be called."""


def checked_type(real: type, make: Callable[..., Any]) -> type:
    """A stand-in for ``real`` (for isinstance) whose calls go through ``make``."""
    return _TypeProxy(real.__name__, (), {"_real": real, "_make": staticmethod(make)})


def marker(cls: type) -> type:
    """A stand-in for ``cls`` that works with ``isinstance`` but cannot be constructed."""

    def refuse(*_: Any, **__: Any) -> Any:
        raise refused(say("construct", name=cls.__name__))

    return _Marker(cls.__name__, (), {"_real": cls, "_make": staticmethod(refuse)})


def allow_callables(objs: Iterable[Any]) -> None:
    """Register functions and classes reachable from the namespaces as callable."""
    for obj in objs:
        if callable(obj) and not isinstance(obj, _Marker):
            SAFE_CALLABLES.add(id(obj))


def check_callable(f: Any) -> None:
    """Refuse calling anything that did not come from the policy's namespaces or the user."""
    if id(f) in SAFE_CALLABLES or getattr(f, "_tapeviz_user", False) or type(f) is Checked:
        return
    if type(f) is Function:
        check_callable(f.python_function)
        return
    if isinstance(f, types.MethodType | types.BuiltinMethodType | types.MethodWrapperType):
        owner = getattr(f, "__self__", None)
        if owner is not None and f.__name__ in allowed_attrs(owner):
            return
    if not callable(f):
        raise TypeError(f"{_type_name(f)} {_short(f)} is not a function and cannot be called")
    raise refused(say("call", name=_short(f)))


def _short(obj: Any) -> str:
    return short_repr(obj, 40)


# -- methods whose arguments are checked first -----------------------------------------------
class Checked:
    """A bound method run after a check of its arguments (sizes, keys, callables)."""

    __slots__ = ("_check", "_method")

    def __init__(self, method: Callable[..., Any], check: Callable[..., Any]) -> None:
        self._method, self._check = method, check

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        fixed = self._check(self._method.__self__, *args, **kwargs)
        if fixed is not None:
            args, kwargs = fixed
        return self._method(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<method {self._method.__name__}>"


def _width(owner: Any, width: Any = 0, *rest: Any) -> None:
    checks._width_limit(checks.as_count(width), "the padded string")


def _format(owner: str, *args: Any, **kwargs: Any) -> None:
    check_format_string(owner)
    checks.check_text(list(args) + list(kwargs.values()), "the formatted values")


def _replace(owner: str, old: Any, new: Any, count: int = -1) -> None:
    if isinstance(old, str) and isinstance(new, str) and len(new) > len(old):
        hits = owner.count(old) if old else len(owner) + 1
        if count >= 0:
            hits = min(hits, count)
        budget().check_size(len(owner) + hits * (len(new) - len(old)), "the replaced string")


def _join(owner: str, items: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    parts = list(counted(items, "join"))
    total = sum(len(p) for p in parts if isinstance(p, str)) + len(owner) * len(parts)
    budget().check_size(total, "the joined string")
    return (parts,), {}


def _iterable_args(owner: Any, *args: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    lists = [list(counted(a, "the argument")) for a in args]
    for items in lists:
        check_keys(items)
    if isinstance(owner, list | set | dict):
        budget().check_size(len(owner) + sum(len(x) for x in lists), "the collection")
    return tuple(lists), {}


Fixed = tuple[tuple[Any, ...], dict[str, Any]]


def _dict_update(owner: dict[Any, Any], *args: Any, **kwargs: Any) -> Fixed:
    items = [list(counted(a.items() if isinstance(a, dict) else a, "update")) for a in args]
    for pairs in items:
        check_keys(p[0] for p in pairs if isinstance(p, tuple | list) and p)
    budget().check_size(len(owner) + sum(len(x) for x in items) + len(kwargs), "the dict")
    return tuple(items), kwargs


def _key(owner: Any, key: Any = None, *rest: Any) -> None:
    check_key(key)


def _sort(owner: list[Any], *, key: Any = None, reverse: bool = False) -> None:
    if key is not None:
        check_callable(key)


def _grow_one(owner: list[Any], *args: Any) -> None:
    budget().check_size(len(owner) + 1, "the list")


def _astype(owner: Any, dtype: Any, *args: Any, **kwargs: Any) -> None:
    if np.dtype(dtype).kind not in "biuf":
        raise refused(say("array_dtype", dtype=np.dtype(dtype)))


def _dot(owner: np.ndarray, other: Any, *args: Any) -> None:
    from tapeviz.sandbox.runtime.guards import check_matmul

    check_matmul(owner, np.asarray(other))


def _range_scan(owner: range, value: Any = None, *rest: Any) -> None:
    if not isinstance(value, int):  # ints are found in O(1); anything else scans the range
        budget().check_size(len(owner), "the range scan")


_CHECKED_METHODS: dict[tuple[type, str], Callable[..., Any]] = {
    **{(str, m): _width for m in ("center", "ljust", "rjust", "zfill")},
    (str, "format"): _format,
    (str, "replace"): _replace,
    (str, "join"): _join,
    (list, "extend"): _iterable_args,
    (list, "insert"): _grow_one,
    (list, "sort"): _sort,
    (dict, "update"): _dict_update,
    **{(dict, m): _key for m in ("get", "pop", "setdefault")},
    **{(set, m): _key for m in ("add", "remove", "discard")},
    **{(set, m): _iterable_args for m in (
        "update", "union", "intersection", "difference", "symmetric_difference", "issubset",
        "issuperset", "isdisjoint")},
    (np.ndarray, "astype"): _astype,
    (np.ndarray, "dot"): _dot,
    **{(range, m): _range_scan for m in ("count", "index")},
}  # fmt: skip
