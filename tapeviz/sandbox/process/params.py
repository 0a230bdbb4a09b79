"""An op record's ``params`` as plain JSON and back, with every value type checked on the way in.

Params are numbers, strings, bools, None, tuples, slices, ``Ellipsis``, dtypes and small index
arrays (fancy indexing); nothing else crosses the process boundary. A value the encoder does
not know (a user's function held by ``custom_gradient``) is sent as ``{"opaque": name}`` and
comes back as an :class:`Opaque` marker: the window shows it but never calls it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np

from tapeviz.engine import dtypes
from tapeviz.sandbox.process.wire import ProtocolError, Writer

EMPTY: Mapping[str, Any] = MappingProxyType({})
MAX_ITEMS = 10_000  # values in one record's params


class Opaque:
    """A param the worker could not send as data (shown by name, never called)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Opaque) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)


def encode(value: Any, writer: Writer) -> Any:
    """A JSON-able stand-in for one param value."""
    if value is None or type(value) in (bool, int, str):
        return value
    if type(value) is float:
        return value if math.isfinite(value) else {"f": repr(value)}
    if isinstance(value, tuple):
        return {"t": [encode(v, writer) for v in value]}
    if isinstance(value, list):
        return {"l": [encode(v, writer) for v in value]}
    if isinstance(value, slice):
        return {"s": [encode(value.start, writer), encode(value.stop, writer),
                      encode(value.step, writer)]}  # fmt: skip
    if value is Ellipsis:
        return {"e": 1}
    if isinstance(value, dtypes.DType):
        return {"d": value.name}
    if isinstance(value, np.ndarray):
        return {"a": writer.array(value)}
    if isinstance(value, np.generic):
        return {"n": writer.array(np.asarray(value))}
    name = getattr(value, "__name__", None) or type(value).__name__
    return {"opaque": str(name)[:100]}


def encode_params(params: Mapping[str, Any], writer: Writer) -> dict[str, Any]:
    """A record's params as a JSON object."""
    return {str(k): encode(v, writer) for k, v in params.items()}


def decode(obj: Any, frame: Any, budget: list[int]) -> Any:
    """The param value ``obj`` stands for; :class:`ProtocolError` for anything unexpected."""
    budget[0] -= 1
    if budget[0] < 0:
        raise ProtocolError("a record's params are too large")
    if obj is None or type(obj) in (bool, int, float, str):
        if type(obj) is str and len(obj) > 10_000:
            raise ProtocolError("a param string is too long")
        return obj
    if not isinstance(obj, dict) or len(obj) != 1:
        raise ProtocolError("a param is not plain data")
    ((tag, inner),) = obj.items()
    if tag in ("t", "l") and isinstance(inner, list):
        values = [decode(v, frame, budget) for v in inner]
        return tuple(values) if tag == "t" else values
    if tag == "s" and isinstance(inner, list) and len(inner) == 3:
        parts = [decode(v, frame, budget) for v in inner]
        if not all(p is None or type(p) is int or isinstance(p, np.integer) for p in parts):
            raise ProtocolError("a slice of non-integers")
        return slice(*parts)
    if tag == "e" and inner == 1:
        return Ellipsis
    if tag == "d" and isinstance(inner, str):
        try:
            return dtypes.as_dtype(inner)
        except Exception:
            raise ProtocolError(f"unknown dtype {inner[:40]!r}") from None
    if tag == "f" and inner in ("inf", "-inf", "nan"):
        return float(inner)
    if tag == "a":
        arr = frame.array(inner)
        if arr.size > 10_000_000:
            raise ProtocolError("an index array is too large")
        return arr
    if tag == "n":
        arr = frame.array(inner)
        if arr.ndim != 0:
            raise ProtocolError("a numpy scalar param with a shape")
        return arr[()]
    if tag == "opaque" and isinstance(inner, str):
        return Opaque(inner[:100])
    raise ProtocolError(f"unknown param tag {tag[:20]!r}")


def decode_params(doc: Any, frame: Any) -> Mapping[str, Any]:
    """A record's params from their JSON object (read-only, like the engine's)."""
    if not isinstance(doc, dict):
        raise ProtocolError("a record's params are not an object")
    if not doc:
        return EMPTY
    budget = [MAX_ITEMS]
    out = {}
    for k, v in doc.items():
        if len(k) > 100:
            raise ProtocolError("a param name is too long")
        out[k] = decode(v, frame, budget)
    return MappingProxyType(out)
