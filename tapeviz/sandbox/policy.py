"""What user code may touch: attributes per type, callables, and size-checked builtins.

Everything a script can reach comes from literals, the names given to it (safe builtins and the
import namespaces) and attribute access through :func:`get_attr`, which allows only the listed
public names of known types. Dunder and private names never get this far (the validator refuses
them), so frames, code objects, globals and ``__subclasses__`` are out of reach.
"""

from __future__ import annotations

import string
import threading
import types
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from tapeviz import engine as tv
from tapeviz.engine.function import Function
from tapeviz.engine.namespace import Namespace
from tapeviz.engine.optimizers import Optimizer
from tapeviz.engine.tape import GradientTape, UnconnectedGradients
from tapeviz.engine.tensor import Tensor, TensorShape, Variable
from tapeviz.sandbox.errors import refused, suggest
from tapeviz.sandbox.limits import Budget


class _Current(threading.local):
    budget: Budget | None = None


CURRENT = _Current()


def budget() -> Budget:
    """The budget of the run on this thread."""
    b = CURRENT.budget
    if b is None:  # pragma: no cover - wrappers only run inside a run
        raise RuntimeError("no sandbox run is active on this thread")
    return b


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
# Classes that name/introspect engine objects but must not be constructed from user code.
NOT_CALLABLE: tuple[type, ...] = (Tensor, TensorShape, tv.DType, Function, np.ndarray)
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
    allowed = allowed_attrs(obj)
    if name not in allowed:
        if hasattr(type(obj), name) or (type(obj) is not Namespace and hasattr(obj, name)):
            raise refused(
                f"'{name}' of {_type_name(obj)} is not available in tapeviz scripts",
                "only the documented public API of tensors, tapes and optimizers is",
            )
        hint = suggest(name, allowed)
        raise AttributeError(
            f"{_type_name(obj)} has no attribute '{name}'" + (f"; {hint}" if hint else "")
        )
    value = getattr(obj, name)
    if type(obj) is str and name in _STR_CHECKED:
        return _STR_CHECKED[name](obj, value)
    if type(obj) is list and name in ("extend", "insert"):
        return _list_growth(obj, value)
    return value


def set_attr(obj: Any, name: str, value: Any) -> None:
    """``obj.name = value`` for the few settable hyper-parameters (``opt.learning_rate``)."""
    for k in type(obj).__mro__:
        if name in SETTABLE.get(k, ()):
            setattr(obj, name, value)
            return
    raise refused(f"cannot set '{name}' on {_type_name(obj)}", "only opt.learning_rate is settable")


# -- callables -------------------------------------------------------------------------------
SAFE_CALLABLES: set[int] = set()


def allow_callables(objs: Iterable[Any]) -> None:
    """Register functions and classes reachable from the namespaces as callable."""
    for obj in objs:
        if callable(obj) and not (isinstance(obj, type) and issubclass(obj, NOT_CALLABLE)):
            SAFE_CALLABLES.add(id(obj))


def check_callable(f: Any) -> None:
    """Refuse calling anything that did not come from the policy's namespaces or the user."""
    if id(f) in SAFE_CALLABLES or getattr(f, "_tapeviz_user", False) or type(f) is Function:
        return
    if isinstance(f, types.MethodType | types.BuiltinMethodType | types.MethodWrapperType):
        owner = getattr(f, "__self__", None)
        if owner is not None and f.__name__ in allowed_attrs(owner):
            return
    if isinstance(f, _StrMethod | _Growth):
        return
    if not callable(f):
        raise TypeError(f"{_type_name(f)} {_short(f)} is not a function and cannot be called")
    raise refused(f"calling {_short(f)} is not available in tapeviz scripts")


def _short(obj: Any) -> str:
    text = repr(obj)
    return text if len(text) <= 40 else text[:37] + "..."


# -- strings: no attribute walks through format strings, no giant paddings --------------------
_FORMATTER = string.Formatter()


def check_format_string(fmt: str) -> None:
    """Refuse ``{0.__class__}``-style lookups and huge widths in a format string."""
    for _, field, spec, _ in _FORMATTER.parse(fmt):
        if field is not None and ("." in field or "[" in field):
            raise refused(
                f"format field '{{{field}}}' looks up attributes or items",
                "format the value itself instead, e.g. f'{x:.3f}'",
            )
        if spec:
            check_format_spec(spec)
            if "{" in spec:
                check_format_string(spec)


def check_format_spec(spec: str) -> None:
    """Refuse a format spec whose width or precision would build a giant string."""
    digits = "".join(c if c.isdigit() else " " for c in spec).split()
    if any(len(d) > 5 or int(d) > 10_000 for d in digits):
        raise refused(f"format spec '{spec}' asks for a string wider than 10,000 characters")


class _StrMethod:
    """A string method wrapped with a check of its arguments."""

    def __init__(self, method: Callable[..., Any], check: Callable[..., None]) -> None:
        self._method, self._check = method, check

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self._check(*args, **kwargs)
        return self._method(*args, **kwargs)


def _width_check(width: Any = 0, *_: Any, **__: Any) -> None:
    if isinstance(width, int) and width > budget().limits.max_elements:
        raise refused(f"a string of width {width:,} is larger than the size limit")


_STR_CHECKED: dict[str, Callable[[str, Any], Any]] = {
    "format": lambda s, m: (check_format_string(s), m)[1],
    "center": lambda s, m: _StrMethod(m, _width_check),
    "ljust": lambda s, m: _StrMethod(m, _width_check),
    "rjust": lambda s, m: _StrMethod(m, _width_check),
    "zfill": lambda s, m: _StrMethod(m, _width_check),
    "join": lambda s, m: _StrMethod(m, lambda items: budget().check_size(_length(items), "join")),
}


class _Growth:
    """``list.extend``/``insert`` with a size check."""

    def __init__(self, target: list[Any], method: Callable[..., Any]) -> None:
        self._target, self._method = target, method

    def __call__(self, *args: Any) -> Any:
        extra = _length(args[-1]) if self._method.__name__ == "extend" and args else 1
        budget().check_size(len(self._target) + extra, "the list")
        return self._method(*args)


def _list_growth(target: list[Any], method: Callable[..., Any]) -> _Growth:
    return _Growth(target, method)


def _length(items: Any) -> int:
    try:
        return len(items)
    except TypeError:
        return 0
