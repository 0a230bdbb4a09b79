"""The Python builtins a script can use, with size and step checks where C code would loop."""

from __future__ import annotations

import builtins as _py
from collections.abc import Callable
from typing import Any

from tapeviz.engine.reprs import without_addresses
from tapeviz.engine.state import STATE
from tapeviz.engine.tensor import Tensor
from tapeviz.sandbox.errors import limit_hit, refused
from tapeviz.sandbox.messages import Message, say
from tapeviz.sandbox.runtime import classes
from tapeviz.sandbox.runtime.checks import (
    as_count,
    budget,
    check_key,
    check_keys,
    check_power,
    check_text,
    counted,
    text_size,
)
from tapeviz.sandbox.runtime.policy import allow_callables, check_callable, checked_type
from tapeviz.sandbox.runtime.typeof import register, type_of

# Builtins that exist in Python but not in a script, with the reason shown to the user.
FORBIDDEN: dict[str, Message] = {  # a builtin that is not there, and why (the hint)
    **dict.fromkeys(("open", "input", "memoryview", "bytearray"), say("hint_no_files")),
    **dict.fromkeys(
        ("eval", "exec", "compile", "__import__", "breakpoint", "help", "exit", "quit"),
        say("hint_no_code"),
    ),
    **dict.fromkeys(
        ("getattr", "setattr", "delattr", "hasattr", "vars", "globals", "locals", "dir",
         "__builtins__"),
        say("hint_no_introspection"),
    ),
}  # fmt: skip


def _consuming(fn: Callable[..., Any], what: str, keys: bool = False) -> Callable[..., Any]:
    """Wrap a builtin that loops over its first argument in C: count and size it first."""

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if args:
            items = counted(args[0], what)
            if keys and not isinstance(items, dict | set | frozenset):  # those are hashed already
                items = list(items)
                check_keys(x[0] if fn is dict and isinstance(x, tuple) else x for x in items)
            args = (items, *args[1:])
        for value in kwargs.values():
            if callable(value):
                check_callable(value)
        return fn(*args, **kwargs)

    wrapped.__name__ = fn.__name__
    return wrapped


def _minmax(fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if len(args) == 1:
            args = (counted(args[0], fn.__name__),)
        if "key" in kwargs:
            check_callable(kwargs["key"])
        return fn(*args, **kwargs)

    wrapped.__name__ = fn.__name__
    return wrapped


def safe_pow(base: Any, exp: Any, mod: Any = None) -> Any:
    """``pow`` with the size check of ``**``, and a work check for modular powers."""
    if mod is None:
        check_power(base, exp)
        return base**exp
    if isinstance(exp, int) and isinstance(mod, int):
        budget().check_flops(abs(exp).bit_length() * abs(mod).bit_length() ** 2 // 64, "pow()")
    return _py.pow(base, exp, mod)


def _sum(items: Any, start: Any = 0) -> Any:
    items = counted(items, "sum")
    if isinstance(start, list | tuple | str):  # sum of sequences is quadratic in C: do it here
        out = list(start)
        for part in items:
            budget().check_size(len(out) + len(part), "sum")
            out.extend(part)
        return type(start)(out) if not isinstance(start, str) else "".join(out)
    return sum(items, start)


def _round(number: Any, ndigits: Any = None) -> Any:
    if ndigits is not None and abs(as_count(ndigits)) > 10_000:
        raise refused(say("round_digits"))
    return round(number) if ndigits is None else round(number, ndigits)


def _iter(obj: Any, *sentinel: Any) -> Any:
    if sentinel:
        raise refused(say("iter_sentinel"))
    return iter(obj)


def _hash(obj: Any) -> int:
    check_key(obj)
    return hash(obj)


def _text(fn: Callable[[Any], str]) -> Callable[[Any], str]:
    def wrapped(obj: Any = "") -> str:
        check_text(obj, f"{fn.__name__}()")
        return without_addresses(fn(obj))

    wrapped.__name__ = fn.__name__
    return wrapped


def _map(fn: Any, *iterables: Any) -> Any:
    check_callable(fn)
    return map(fn, *iterables)


def _filter(fn: Any, iterable: Any) -> Any:
    if fn is not None:
        check_callable(fn)
    return filter(fn, iterable)


def _isinstance(obj: Any, classes: Any) -> bool:
    group = classes if isinstance(classes, tuple) else (classes,)
    if not all(isinstance(c, type) for c in group):
        raise TypeError("isinstance() needs a class or a tuple of classes as its second argument")
    return isinstance(obj, classes)


def _range(*args: Any) -> range:
    return range(*args)


def _type(*args: Any) -> Any:
    if len(args) != 1:
        raise refused(say("type_three"))
    return type_of(args[0])


def _super(*args: Any) -> Any:
    if not args:  # super() inside a method is compiled to its class and first argument
        raise RuntimeError("super(): no arguments (use it inside a method of a class)")
    if len(args) != 2:
        raise TypeError("super() takes a class and an object: super(Model, self)")
    return classes.Super(*args)


def _object(*args: Any) -> Any:
    raise refused(say("object_call"), say("hint_object_base"))


def sandbox_print(
    *args: Any, sep: str | None = " ", end: str | None = "\n", file: Any = None, flush: bool = False
) -> None:
    """``print`` into the run's output (never to a file).

    Silent inside a ``tf.function`` call TensorFlow would not trace again (its Python body
    would not run there).
    """
    if file is not None:
        raise refused(say("print_file"))
    if STATE.retraced:
        return
    if STATE.tracing and STATE.tracing[-1]:  # tracing: an argument is a symbolic tensor
        symbols = STATE.tracing[-1]
        args = tuple(symbols.get(id(a), a) if type(a) is Tensor else a for a in args)
    sep = " " if sep is None else sep
    end = "\n" if end is None else end
    sep, end = str(sep), str(end)
    cap = budget().limits.max_output
    total = text_size(args, cap) + len(sep) * max(len(args) - 1, 0) + len(end)
    if total > cap:
        raise budget().trip(limit_hit("output", say("print_output", cap=f"{cap:,}")))
    budget().write(without_addresses(str(sep).join(str(a) for a in args) + str(end)))


def _make_builtins() -> dict[str, Any]:
    names: dict[str, Any] = {
        "print": sandbox_print,
        "range": _range,
        "len": len,
        "abs": abs,
        "round": _round,
        "int": int,
        "float": float,
        "bool": bool,
        "str": checked_type(str, _text(str)),
        "repr": _text(repr),
        "divmod": divmod,
        "chr": chr,
        "ord": ord,
        "pow": safe_pow,
        "isinstance": _isinstance,
        "zip": zip,
        "enumerate": enumerate,
        "reversed": reversed,
        "map": _map,
        "filter": _filter,
        "iter": _iter,
        "next": next,
        "callable": callable,
        "hash": _hash,
        "id": id,
        "list": checked_type(list, _consuming(list, "list")),
        "tuple": checked_type(tuple, _consuming(tuple, "tuple")),
        "set": checked_type(set, _consuming(set, "set", keys=True)),
        "frozenset": checked_type(frozenset, _consuming(frozenset, "frozenset", keys=True)),
        "dict": checked_type(dict, _consuming(dict, "dict", keys=True)),
        "sorted": _consuming(sorted, "sorted"),
        "sum": _sum,
        "any": _consuming(any, "any"),
        "all": _consuming(all, "all"),
        "min": _minmax(min),
        "max": _minmax(max),
        "type": checked_type(type, _type),
        "super": _super,
        "property": checked_type(classes.UserProperty, classes.make_property, "property"),
        "staticmethod": checked_type(
            classes.StaticMethod, classes.make_staticmethod, "staticmethod"
        ),
        "classmethod": checked_type(classes.ClassMethod, classes.make_classmethod, "classmethod"),
        "object": checked_type(object, _object),
    }
    for exc in (
        Exception, ValueError, TypeError, RuntimeError, ZeroDivisionError, IndexError, KeyError,
        AssertionError, ArithmeticError, OverflowError, NameError, AttributeError,
        StopIteration, NotImplementedError, LookupError, OSError, FileNotFoundError,
        FileExistsError, IsADirectoryError, NotADirectoryError, KeyboardInterrupt,
    ):  # fmt: skip
        names[exc.__name__] = exc
        classes.EXCEPTIONS.append(exc)
    return names


BUILTINS: dict[str, Any] = _make_builtins()
allow_callables(BUILTINS.values())
for _name in ("int", "float", "bool", "str", "list", "tuple", "set", "frozenset", "dict", "type"):
    register(getattr(_py, _name), BUILTINS[_name])
