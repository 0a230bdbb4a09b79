"""Methods of builtin and numpy values whose arguments are checked before C code runs them.

``str.join`` of a huge list, ``list.extend`` of an endless iterator, ``dict.update`` with tuple
keys nested too deep, ``ndarray.astype(object)``: :func:`wrapper` gives the check that runs
first, and :class:`Checked` is the bound method the policy hands to the script instead
(``list.sort``'s check, of its ``key`` function, is the policy's own).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.sandbox.errors import refused
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.runtime import checks
from tapeviz.sandbox.runtime.checks import (
    budget,
    check_key,
    check_keys,
    counted,
)
from tapeviz.sandbox.runtime.text import check_length, format_string


class Done:
    """What a check returns when it has made the call's result itself (``str.format``)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


class Checked:
    """A bound method run after a check of its arguments (sizes, keys, callables)."""

    __slots__ = ("_check", "_method")

    def __init__(self, method: Callable[..., Any], check: Callable[..., Any]) -> None:
        self._method, self._check = method, check

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        fixed = self._check(getattr(self._method, "__self__", None), *args, **kwargs)
        if fixed is not None:
            if type(fixed) is Done:
                return fixed.value
            args, kwargs = fixed
        return self._method(*args, **kwargs)

    @property
    def __name__(self) -> str:  # type: ignore[override]
        """The method's name."""
        return str(getattr(self._method, "__name__", "method"))

    def __repr__(self) -> str:
        return f"<method {self.__name__}>"


def no_check(owner: Any, *args: Any, **kwargs: Any) -> None:
    """For methods reached through ``super()``: the call's arguments are checked by the caller."""


def _width(owner: Any, width: Any = 0, *rest: Any) -> None:
    checks._width_limit(checks.as_count(width), "the padded string")


def _format(owner: str, *args: Any, **kwargs: Any) -> Done:
    return Done(format_string(owner, *args, **kwargs))


def _cased(name: str) -> Callable[..., Done | None]:
    method = getattr(str, name)

    def check(owner: str) -> Done | None:
        if len(owner) * 3 <= budget().limits.max_elements or owner.isascii():
            return None  # (a case change makes at most three characters of one: 'ﬃ' -> 'FFI')
        out = method(owner)
        check_length(len(out), "the changed string")
        return Done(out)

    return check


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


CHECKED_METHODS: dict[tuple[type, str], Callable[..., Any]] = {
    **{(str, m): _width for m in ("center", "ljust", "rjust", "zfill")},
    (str, "format"): _format,
    **{(str, m): _cased(m) for m in (
        "upper", "lower", "casefold", "title", "capitalize", "swapcase")},
    (str, "replace"): _replace,
    (str, "join"): _join,
    (list, "extend"): _iterable_args,
    (list, "insert"): _grow_one,
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


def wrapper(tp: type, name: str, obj: Any) -> Callable[..., Any] | None:
    """The argument check for method ``name`` of ``obj`` (found along ``tp``'s MRO), if any."""
    key = (tp, name)
    found = _FOUND.get(key, _UNKNOWN)
    if found is not _UNKNOWN:
        return found  # type: ignore[return-value]
    for k in tp.__mro__:  # subclasses (np.float64 of float, ...) get the same checks
        found = CHECKED_METHODS.get((k, name))
        if found is not None:
            break
    if found is None and isinstance(obj, np.ndarray | np.generic):
        found = CHECKED_METHODS.get((np.ndarray, name))
    if tp.__dict__.get("_tapeviz_class") is not True:  # (a script's classes end with the run)
        _FOUND[key] = found
    return found


_UNKNOWN = object()
_FOUND: dict[tuple[type, str], Any] = {}
