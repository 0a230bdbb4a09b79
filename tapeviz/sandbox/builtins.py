"""The Python builtins a script can use, with size and step checks where C code would loop."""

from __future__ import annotations

import builtins as _py
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from tapeviz.sandbox.errors import refused
from tapeviz.sandbox.policy import allow_callables, budget, check_callable

# Builtins that exist in Python but not in a script, with the reason shown to the user.
FORBIDDEN: dict[str, str] = {
    **dict.fromkeys(("open", "input", "memoryview", "bytearray"), "no file or memory access"),
    **dict.fromkeys(
        ("eval", "exec", "compile", "__import__", "breakpoint", "help", "exit", "quit"),
        "no running of other code",
    ),
    **dict.fromkeys(
        (
            "getattr",
            "setattr",
            "delattr",
            "hasattr",
            "vars",
            "globals",
            "locals",
            "dir",
            "type",
            "object",
            "super",
            "classmethod",
            "staticmethod",
            "property",
            "__builtins__",
        ),
        "no introspection",
    ),
}


def _counted(items: Iterable[Any], what: str) -> Iterable[Any]:
    """``items`` if its length is known and within limits; else a step-counting copy."""
    b = budget()
    try:
        n = len(items)  # type: ignore[arg-type]
    except (TypeError, OverflowError):
        n = -1
    if n >= 0:
        b.check_size(n, what)
        b.steps += n
        if b.steps >= b.next_check:
            b.check(None)
        return items
    return list(_consume(items, what))


def _consume(items: Iterable[Any], what: str) -> Iterator[Any]:
    b = budget()
    limit = b.limits.max_elements
    for i, item in enumerate(items):
        if i >= limit:
            b.check_size(i + 1, what)
        b.steps += 1
        if b.steps >= b.next_check:
            b.check(None)
        yield item


def _wrap(fn: Callable[..., Any], what: str) -> Callable[..., Any]:
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if args:
            args = (_counted(args[0], what), *args[1:])
        for value in kwargs.values():
            if callable(value):
                check_callable(value)
        return fn(*args, **kwargs)

    wrapped.__name__ = fn.__name__
    return wrapped


def _minmax(fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if len(args) == 1:
            args = (_counted(args[0], fn.__name__),)
        if "key" in kwargs:
            check_callable(kwargs["key"])
        return fn(*args, **kwargs)

    wrapped.__name__ = fn.__name__
    return wrapped


def safe_pow(base: Any, exp: Any, mod: Any = None) -> Any:
    """``pow`` with the integer-size check of ``**``."""
    if mod is None:
        check_power(base, exp)
        return base**exp
    return _py.pow(base, exp, mod)


def check_power(base: Any, exp: Any) -> None:
    """Refuse ``base ** exp`` when both are ints and the result would be huge."""
    if type(base) is int and type(exp) is int and exp > 0 and abs(base) > 1:
        budget().check_int_bits(exp * base.bit_length(), "the power")


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


def sandbox_print(
    *args: Any, sep: str | None = " ", end: str | None = "\n", file: Any = None, flush: bool = False
) -> None:
    """``print`` into the run's output (never to a file)."""
    if file is not None:
        raise refused("print(file=...) is not available: output goes to the console")
    sep = " " if sep is None else sep
    end = "\n" if end is None else end
    budget().write(str(sep).join(str(a) for a in args) + str(end))


def _make_builtins() -> dict[str, Any]:
    names: dict[str, Any] = {
        "print": sandbox_print,
        "range": _range,
        "len": len,
        "abs": abs,
        "round": round,
        "int": int,
        "float": float,
        "bool": bool,
        "str": str,
        "repr": repr,
        "divmod": divmod,
        "pow": safe_pow,
        "isinstance": _isinstance,
        "zip": zip,
        "enumerate": enumerate,
        "reversed": reversed,
        "map": _map,
        "filter": _filter,
        "iter": iter,
        "next": next,
        "callable": callable,
        "hash": hash,
        "id": id,
        "list": _wrap(list, "list"),
        "tuple": _wrap(tuple, "tuple"),
        "set": _wrap(set, "set"),
        "frozenset": _wrap(frozenset, "frozenset"),
        "dict": _wrap(dict, "dict"),
        "sorted": _wrap(sorted, "sorted"),
        "sum": _wrap(sum, "sum"),
        "any": _wrap(any, "any"),
        "all": _wrap(all, "all"),
        "min": _minmax(min),
        "max": _minmax(max),
    }
    for exc in (
        Exception,
        ValueError,
        TypeError,
        RuntimeError,
        ZeroDivisionError,
        IndexError,
        KeyError,
        AssertionError,
        ArithmeticError,
        OverflowError,
        NameError,
        AttributeError,
        StopIteration,
        NotImplementedError,
        LookupError,
    ):
        names[exc.__name__] = exc
    return names


BUILTINS: dict[str, Any] = _make_builtins()
allow_callables(BUILTINS.values())
