"""Checks before C code does something big: format widths, text sizes, key nesting, iterables.

C functions (``str.join``, ``set.update``, tuple hashing, ``str(list)``) run without returning to
the interpreter, so a script's time and size limits cannot stop them half-way. Everything that
could make them huge is measured here first, against the limits of the run on this thread.
"""

from __future__ import annotations

import math
import operator
import re
import string
import threading
from collections.abc import ItemsView, Iterable, Iterator, KeysView, ValuesView
from typing import Any

import numpy as np

from tapeviz.engine.tensor import TensorLike
from tapeviz.sandbox.errors import limit_hit, refused
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.runtime.limits import Budget


class _Current(threading.local):
    budget: Budget | None = None


CURRENT = _Current()


def budget() -> Budget:
    """The budget of the run on this thread."""
    b = CURRENT.budget
    if b is None:
        raise RuntimeError("no sandbox run is active on this thread")
    return b


# -- iterables consumed by C code -------------------------------------------------------------
def counted(items: Iterable[Any], what: str) -> Iterable[Any]:
    """``items`` if its length is known and within limits; else a step-counted list of it."""
    b = budget()
    try:
        n = len(items)  # type: ignore[arg-type]
    except (TypeError, OverflowError):
        n = -1
    if n >= 0:  # a C loop over at most max_elements items: the size check bounds its time
        b.check_size(n, what)
        return items
    return list(consume(items, what))


def consume(items: Iterable[Any], what: str) -> Iterator[Any]:
    """Iterate in Python, counting steps and elements (so limits apply to lazy iterators)."""
    b = budget()
    limit = b.limits.max_elements
    for i, item in enumerate(items):
        if i >= limit:
            b.check_size(i + 1, what)
        b.steps += 1
        if b.steps >= b.next_check:
            b.check()
        yield item


# -- format strings and text sizes -----------------------------------------------------------
_FORMATTER = string.Formatter()
MAX_WIDTH = 10_000


def as_count(value: Any) -> int:
    """``value`` as an int if it is integer-like (int, bool, numpy int, int tensor), else 0."""
    try:
        return operator.index(value)
    except TypeError:
        return 0


def _width_limit(width: int, what: str) -> None:
    if width > MAX_WIDTH:
        raise budget().trip(
            limit_hit("size", say("width", what=what, width=f"{width:,}", cap=f"{MAX_WIDTH:,}"))
        )


def check_format_spec(spec: str) -> None:
    """Refuse a format spec whose width or precision would build a giant string."""
    if "{" in spec:
        raise refused(say("nested_format"), say("hint_width"))
    for digits in re.findall(r"\d+", spec):
        _width_limit(int(digits) if len(digits) < 9 else 10**9, f"the format spec '{spec}'")


def check_format_string(fmt: str) -> None:
    """Refuse ``{0.__class__}``-style lookups and huge widths in a ``str.format`` template."""
    for _, field, spec, _ in _FORMATTER.parse(fmt):
        if field is not None and ("." in field or "[" in field):
            raise refused(say("format_lookup", field="{" + field + "}"), say("hint_format_value"))
        if spec:
            check_format_spec(spec)


def text_size(obj: Any, cap: int) -> int:
    """An estimate of ``len(str(obj))``, walking containers but stopping once over ``cap``."""
    total = 0
    stack = [obj]
    seen = 0
    while stack and total <= cap:
        x = stack.pop()
        seen += 1
        if isinstance(x, str | bytes):
            total += len(x) + 4
        elif isinstance(x, list | tuple | set | frozenset | KeysView | ValuesView | ItemsView):
            total += 2 + 2 * len(x)
            if len(x) > cap:
                return cap + 1
            stack.extend(x)
        elif isinstance(x, dict):
            total += 2 + 4 * len(x)
            if len(x) > cap:
                return cap + 1
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, np.ndarray | TensorLike):
            total += _array_text(x)
        elif isinstance(x, int) and not isinstance(x, bool):
            total += x.bit_length() // 3 + 2
        else:
            total += 24
    return total


def _array_text(x: Any) -> int:
    """An estimate of an array's printed length under numpy's print options."""
    options = np.get_printoptions()
    n = int(np.size(x))
    if n > options["threshold"]:
        n = min(n, max(1000, (2 * options["edgeitems"]) ** max(np.ndim(x), 1)))
    width = max(12, options["precision"] + 4, len(options["nanstr"]), len(options["infstr"]))
    return n * width + 60


def check_text(obj: Any, what: str, printed: bool = False) -> None:
    """Refuse turning ``obj`` into a string longer than the size limit (output limit if printed)."""
    limits = budget().limits
    cap = limits.max_output if printed else limits.max_elements
    if not isinstance(obj, int | float | bool | type(None)) and text_size(obj, cap) > cap:
        name = "output" if printed else "size"
        raise budget().trip(limit_hit(name, say("text_size", what=what, cap=f"{cap:,}")))


# -- hashing: tuple hashes recurse in C (no depth check, no caching) ---------------------------
MAX_NESTING = 200
MAX_HASH_WORK = 1_000_000


def check_key(key: Any) -> None:
    """Refuse hashing a tuple nested too deep (it would crash CPython) or too costly to hash."""
    if type(key) is tuple:
        _tuple_cost(key, 1, {})


def _tuple_cost(t: tuple[Any, ...], depth: int, memo: dict[int, int]) -> int:
    if depth > MAX_NESTING:
        raise budget().trip(limit_hit("size", say("tuple_nesting", cap=MAX_NESTING)))
    known = memo.get(id(t))
    if known is not None:
        return known
    cost = 1 + len(t)
    for e in t:
        if type(e) is tuple:
            cost += _tuple_cost(e, depth + 1, memo)
            if cost > MAX_HASH_WORK:
                raise budget().trip(limit_hit("size", say("tuple_hash")))
    memo[id(t)] = cost
    return cost


def check_keys(items: Iterable[Any]) -> None:
    """:func:`check_key` for every element (``items`` must be a sized collection)."""
    for item in items:
        if type(item) is tuple:
            check_key(item)


def int_bits(base: int, exp: int) -> int:
    """About how many bits ``base ** exp`` has."""
    return int(exp * math.log2(abs(base))) + 1


def check_power(base: Any, exp: Any) -> None:
    """Refuse ``base ** exp`` when both are ints and the result would be huge."""
    if isinstance(base, int) and isinstance(exp, int) and exp > 0 and abs(base) > 1:
        budget().check_int_bits(int_bits(base, exp), "the power")


# -- nested lists handed to library code (numpy, the engine) ----------------------------------
MAX_ARRAY_NESTING = 32  # numpy's own limit on dimensions


def nested_size(obj: Any, what: str) -> int:
    """Elements an array made of ``obj`` would have, from the first element at each level.

    Bounded: a list that contains itself (``a[0] = a``) or is nested deeper than an array can
    be is refused instead of walked forever, and the count stops at the size limit.
    """
    n, depth = 1, 0
    cap = budget().limits.max_elements
    while isinstance(obj, list | tuple | range):
        depth += 1
        if depth > MAX_ARRAY_NESTING:
            raise refused(
                say("list_nesting", what=what, cap=MAX_ARRAY_NESTING), say("hint_contains_itself")
            )
        n *= len(obj)
        if n > cap:
            budget().check_size(n, what)
        if not len(obj):
            break
        obj = obj[0]
    return n


def check_arguments(args: tuple[Any, ...], kwargs: dict[str, Any], what: str) -> None:
    """Library calls get no list deeper or (at first sight) larger than the limits allow."""
    for a in args:
        if type(a) is list or type(a) is tuple:
            nested_size(a, what)
    if kwargs:
        for a in kwargs.values():
            if type(a) is list or type(a) is tuple:
                nested_size(a, what)
