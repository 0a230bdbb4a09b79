"""The text a notebook shows under a cell (``Out:``): the value of a script's last expression.

It runs in the worker, after the run, so it never runs the script's code: containers are walked
only when they are exactly ``list``, ``tuple`` or ``dict`` (a class of the script's own reads
``<ClassName>``, whatever its name), and numbers and arrays only when they are numpy's or the
engine's own. The text stops at :data:`LIMIT` characters as it is built, and every array in it
is summarised first (numpy's threshold: :data:`SMALL` elements, :data:`NESTED` inside a list).
"""

from __future__ import annotations

from itertools import islice
from typing import TYPE_CHECKING, Any

import numpy as np

from tapeviz.engine import strings
from tapeviz.engine.tensor import TensorLike

if TYPE_CHECKING:
    from tapeviz.sandbox.result import RunResult

LIMIT = 2000  # characters of a value's text, at most
SMALL = 1000  # elements of an array or tensor shown whole (numpy's own threshold)
NESTED = 20  # the same, for one inside a list, tuple or dict
ITEMS = 20  # items of a list, tuple or dict shown
TEXT_BYTES = 100_000  # a numpy string array bigger than this reads as its shape and dtype
DEPTH = 4  # levels of nested containers shown
_PLAIN = (bool, int, float, complex, str, bytes)
_NUMPY_KINDS = "biufcmMUS?"  # dtype kinds numpy prints itself (numbers, text; no objects)


class _Full(Exception):
    """The text has reached its limit."""


class _Text:
    """A value's text, built part by part up to ``limit`` characters."""

    def __init__(self, limit: int) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.limit = limit

    def put(self, part: str) -> None:
        self.parts.append(part)
        self.size += len(part)
        if self.size > self.limit:
            raise _Full

    def add(self, value: Any, depth: int) -> None:
        kind = type(value)
        if kind in (list, tuple, dict):
            self._container(value, depth)
        else:
            left = max(self.limit - self.size, 10)
            self.put(_leaf(value, left, NESTED if depth else SMALL) or f"<{_name(kind)}>")

    def _container(self, value: Any, depth: int) -> None:
        kind = type(value)
        ends = {list: "[]", tuple: "()", dict: "{}"}[kind]
        if depth >= DEPTH:
            self.put(f"{ends[0]}...{ends[1]}")
            return
        self.put(ends[0])
        pairs = value.items() if kind is dict else enumerate(value)
        for i, (key, item) in enumerate(islice(pairs, ITEMS)):  # (insertion order, as Python)
            if i:
                self.put(", ")
            if kind is dict:
                self.add(key, depth + 1)
                self.put(": ")
            self.add(item, depth + 1)
        if len(value) > ITEMS:
            self.put(", ...")
        if kind is tuple and len(value) == 1:
            self.put(",")
        self.put(ends[1])


def out_text(result: RunResult) -> str | None:
    """A script run's ``Out:``: its last expression's value as a notebook shows it, or None.

    A received result's value is that text already (the worker made it), or a tensor of its
    table; a run that failed shows none, as a notebook cell that raised.
    """
    value = result.value
    if result.error is not None or value is None:
        return None
    return value if isinstance(value, str) else value_text(value)


def value_text(value: Any, limit: int = LIMIT) -> str | None:
    """What a notebook shows for ``value`` (``6.0`` for ``dy_dx.numpy()``); None for None."""
    if value is None:
        return None
    text = _Text(limit)
    try:
        text.add(value, 0)
    except _Full:
        pass
    except BaseException:  # (a Stop arriving now, an int Python will not print): the type
        return f"<{_name(type(value))}>"
    out = "".join(text.parts)
    return out if len(out) <= limit else out[: limit - 1] + "…"


def _name(kind: type) -> str:
    """A class's own name, read past any ``__name__`` its metaclass defines (script code)."""
    name = type.__dict__["__name__"].__get__(kind, type)
    return name if isinstance(name, str) else "object"


def _leaf(value: Any, limit: int, small: int) -> str | None:
    """The text of a number, string, numpy value or tensor; None for anything else."""
    kind = type(value)
    if kind in _PLAIN:
        if kind is int and value.bit_length() > 4 * limit:
            return f"<int of {value.bit_length():,} bits>"
        if kind in (str, bytes) and len(value) > limit:
            return repr(value[:limit]) + "…"
        return repr(value)
    if isinstance(value, np.generic) and kind is value.dtype.type:  # (numpy's own, no subclass)
        if value.dtype.kind in "US":  # (a numpy string: as Python's, cut before it is printed)
            return _leaf(value.item(), limit, small)
        return str(value) if value.dtype.kind in _NUMPY_KINDS else None  # 6.0, as TF shows it
    if kind is np.ndarray and value.dtype.kind in _NUMPY_KINDS:
        if value.dtype.kind in "US" and value.nbytes > TEXT_BYTES:
            return f"<ndarray: shape={value.shape}, dtype={value.dtype}>"
        with np.printoptions(threshold=small, edgeitems=3):
            return repr(value)
    if isinstance(value, TensorLike):  # (the engine's classes: a script cannot subclass them)
        dtype = value.dtype
        shown = value.size <= small and (
            not dtype.is_string or strings.total_bytes(value._value) <= 100_000
        )
        return repr(value) if shown else f"<tf.Tensor: shape={value.shape}, dtype={dtype.name}>"
    return None
