"""An op record's ``params`` as plain JSON and back, with every value type checked on the way in.

Params are numbers, strings, bools, None, tuples, slices, ``Ellipsis``, dtypes and small index
arrays (fancy indexing); nothing else crosses the process boundary. A ``custom_gradient``
record's gradient function is sent as what it gave (``{"cg": [name, [[upstream, [gradient or
None, ...]], ...], result tensor id]}``) and comes back as a
:class:`~tapeviz.engine.custom.RecordedGradient`: the window's backward pass steps on with
those values and never calls user code. Any other value the encoder does not know is sent as
``{"opaque": name}`` and comes back as an :class:`Opaque` marker: the window shows it but
never calls it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np

from tapeviz.engine import dtypes
from tapeviz.engine.custom import SEEN_MAX, CustomGradient, RecordedGradient
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
    if isinstance(value, CustomGradient):
        try:
            seen = [[writer.array(g), [None if x is None else writer.array(x) for x in grads]]
                    for g, grads in value.seen]  # fmt: skip
            return {"cg": [str(value.__name__)[:100], seen, value.result_id]}
        except ProtocolError:  # a gradient numpy cannot send (e.g. of objects): shown only
            pass
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
    if tag == "cg" and isinstance(inner, list) and len(inner) == 3:
        return _recorded_gradient(inner, frame, budget)
    raise ProtocolError(f"unknown param tag {tag[:20]!r}")


def _recorded_gradient(inner: list[Any], frame: Any, budget: list[int]) -> RecordedGradient:
    name, seen, result_id = inner
    if not isinstance(name, str) or not isinstance(seen, list) or len(seen) > SEEN_MAX:
        raise ProtocolError("a custom gradient is not plain data")
    if result_id is not None and type(result_id) is not int:
        raise ProtocolError("a custom gradient's result is not a tensor id")
    table: list[tuple[np.ndarray, list[np.ndarray | None]]] = []
    for entry in seen:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], list)):
            raise ProtocolError("a custom gradient entry is not plain data")
        budget[0] -= 1 + len(entry[1])
        if budget[0] < 0:
            raise ProtocolError("a record's params are too large")
        grads = [None if x is None else _float_array(frame, x) for x in entry[1]]
        table.append((_float_array(frame, entry[0]), grads))
    return RecordedGradient(name[:100], table, result_id)


def _float_array(frame: Any, ref: Any) -> np.ndarray:
    arr = frame.array(ref)
    if not isinstance(arr, np.ndarray) or arr.dtype.kind not in "biufc":
        raise ProtocolError("a custom gradient value is not numeric")
    return arr


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
