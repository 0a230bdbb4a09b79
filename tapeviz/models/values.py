"""How values read on screen: 4 significant digits, arrays as shape + a short preview."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from tapeviz.engine.tensor import TensorLike
from tapeviz.sandbox.messages import MessageError, say


def as_array(value: Any) -> np.ndarray:
    """The numpy value of a tensor, numpy value or Python number."""
    if isinstance(value, TensorLike):
        value = value._value
    return np.asarray(value)


def number(v: Any, digits: int = 4) -> str:
    """One element: ``3``, ``-0.25``, ``1.235e+05``, ``nan``, ``inf``, ``True``."""
    v = np.asarray(v)[()]
    kind = np.asarray(v).dtype.kind
    if kind == "b":
        return str(bool(v))
    if kind in "iu":
        return str(int(v))
    f = float(v)
    if np.isnan(f):
        return "nan"
    if np.isinf(f):
        return "inf" if f > 0 else "-inf"
    text = f"{f:.{digits}g}"
    return "0" if text == "-0" else text


def short(value: Any, digits: int = 4, items: int = 3) -> str:
    """A compact value for a node: scalars to ``digits`` digits, arrays as ``(2, 3) [1, 2, …]``."""
    arr = as_array(value)
    if arr.ndim == 0:
        return number(arr, digits)
    flat = arr.reshape(-1)
    preview = ", ".join(number(x, 3) for x in flat[:items])
    more = ", …" if flat.size > items else ""
    return f"{tuple(arr.shape)} [{preview}{more}]"


def full(value: Any, max_items: int = 200) -> str:
    """The whole value for a tooltip, pretty-printed (long arrays summarised)."""
    arr = as_array(value)
    if arr.ndim == 0:
        return number(arr, 8)
    return np.array2string(arr, precision=6, threshold=max_items, suppress_small=False)


def nonfinite(value: Any) -> bool:
    """Whether any element is nan or ±inf (drawn in a warning colour)."""
    arr = as_array(value)
    return arr.dtype.kind == "f" and not bool(np.all(np.isfinite(arr)))


MAX_VALUE_TEXT = 100_000


def parse_value(text: str) -> float | list:
    """A number or nested lists of numbers, as typed (JSON syntax plus nan/inf); never eval."""
    cleaned = text.strip().replace("−", "-")
    for word, json_word in (("-inf", "-Infinity"), ("inf", "Infinity"), ("nan", "NaN")):
        if cleaned.lower() == word:
            cleaned = json_word
    if not cleaned:
        raise MessageError(say("value_empty"))
    if len(cleaned) > MAX_VALUE_TEXT:
        raise MessageError(say("value_long"))
    try:
        value = json.loads(cleaned)
    except (ValueError, RecursionError):
        raise MessageError(say("value_not_number", text=repr(text[:200]))) from None
    if isinstance(value, bool) or not isinstance(value, int | float | list):
        raise MessageError(say("value_not_number", text=repr(text[:200])))
    return value


def format_value(value: object) -> str:
    """The text a value is shown as in the table."""
    if hasattr(value, "tolist"):
        value = value.tolist()  # type: ignore[union-attr]
    if isinstance(value, list):
        return json.dumps(value)
    return repr(float(value)) if isinstance(value, float) else str(value)
