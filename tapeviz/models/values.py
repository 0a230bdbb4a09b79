"""How values read on screen: 4 significant digits, arrays as shape + a short preview.

Distinct values stay distinct: 2013 and 2014 never both read ``2.01e+03``. A value the worker
summarised (:class:`~tapeviz.sandbox.process.summaries.Summarised`) reads as its summary until
its full value was fetched, then as that value.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

from tapeviz.engine.tensor import TensorLike
from tapeviz.sandbox.messages import MessageError, say
from tapeviz.sandbox.process.summaries import Summarised


def as_array(value: Any) -> np.ndarray:
    """The numpy value of a tensor, numpy value or Python number.

    A summarised value not fetched yet stays a :class:`Summarised` (its shape and dtype read;
    its numbers raise ``NotFetched``).
    """
    if isinstance(value, TensorLike):
        value = value._value
    if type(value) is Summarised:
        return value if value.full is None else value.full  # type: ignore[return-value]
    return np.asarray(value)


def summarised(value: Any) -> Summarised | None:
    """The summary a value (or a tensor's) is while its full value was not fetched, or None."""
    if isinstance(value, TensorLike):
        value = value._value
    return value if type(value) is Summarised and value.full is None else None


def summary_text(s: Summarised, digits: int = 4) -> str:
    """``shape (4096, 1280) float32, min -1.2 max 3.4 mean 0.01`` (and nan/inf counts)."""
    return s.text(lambda f: number(f, digits))


INTEGER_TEXT = 1e6  # integral floats below this read as integers: 2013, 12000, -3
FIXED_TEXT = 1e6  # non-integral values from 1 up to this read in fixed notation: 2013.5
MAX_DIGITS = 9  # float32 needs at most 9 significant digits to tell two values apart
_INF = float("inf")
TEXTS_KEPT = 30_000  # numbers whose text is kept (~5 MB; the cache is emptied when full)
_TEXTS: dict[tuple[float, int], str] = {}


def number(v: Any, digits: int = 4) -> str:
    """One element: ``3``, ``-0.25``, ``2013``, ``2013.5``, ``1.144e+09``, ``nan``, ``True``.

    Integral floats below a million read as integers (``12000``, not ``1.2e+04``); other values
    from 1 up to a million keep their integer part whole (``20135.5``, never ``2.014e+04``), so
    rounding to ``digits`` significant digits never turns one integer into another.
    """
    if isinstance(v, float | np.floating):  # the common case, without numpy's dispatch
        f = float(v)
    else:
        v = np.asarray(v)[()]
        kind = np.asarray(v).dtype.kind
        if kind == "b":
            return str(bool(v))
        if kind in "iu":
            return str(int(v))
        f = float(v)
    if f != f:
        return "nan"
    if f in (_INF, -_INF):
        return "inf" if f > 0 else "-inf"
    key = (f, digits)  # (a graph re-run while typing shows mostly the same numbers again)
    text = _TEXTS.get(key)
    if text is None:
        if len(_TEXTS) >= TEXTS_KEPT:
            _TEXTS.clear()
        text = _TEXTS[key] = _number_text(f, digits)
    return text


def _number_text(f: float, digits: int) -> str:
    size = abs(f)
    if f.is_integer() and size < INTEGER_TEXT:
        return str(int(f))
    if 1.0 <= size < FIXED_TEXT:
        whole = len(str(int(size)))
        text = f"{f:.{max(digits - whole, 1)}f}".rstrip("0").rstrip(".")
    else:
        text = f"{f:.{digits}g}"
    return "0" if text == "-0" else text


def distinct_digits(values: Any, digits: int = 3) -> int:
    """The fewest significant digits (at least ``digits``) that show distinct values distinctly.

    ``[2013.21, 2013.24]`` needs 6; values that are equal may read the same. At most
    :data:`MAX_DIGITS`, enough for any two float32 values.
    """
    arr = as_array(values)
    flat = arr.head if type(arr) is Summarised else arr.reshape(-1)
    if flat.dtype.kind != "f" or flat.size < 2:
        return digits
    unique = np.unique(flat[np.isfinite(flat)])
    for d in range(digits, MAX_DIGITS + 1):
        if len({number(x, d) for x in unique}) == len(unique):
            return d
    return MAX_DIGITS


def short(value: Any, digits: int = 4, items: int = 3) -> str:
    """A compact value for a node: scalars to ``digits`` digits, arrays as ``(5,) [2013, 2014, …]``.

    The preview uses as many digits as its distinct elements need to read differently.
    """
    if isinstance(value, float | np.floating):
        return number(value, digits)
    if value is None:  # no value (a gradient that is not there)
        return "None"
    arr = as_array(value)
    if type(arr) is Summarised:  # its first elements travelled with the summary
        flat = arr.head
    elif arr.ndim == 0:
        return number(arr[()], digits)
    else:
        flat = arr.reshape(-1)
    shown = flat[:items]
    d = distinct_digits(shown, 3)
    preview = ", ".join(number(x, d) for x in shown)
    more = ", …" if flat.size > items else ""
    return f"{tuple(arr.shape)} [{preview}{more}]"


def full(value: Any, max_items: int = 200) -> str:
    """The whole value for a tooltip, pretty-printed (long arrays summarised)."""
    arr = as_array(value)
    if type(arr) is Summarised:
        return summary_text(arr)
    if arr.ndim == 0:
        return number(arr, 8)
    return np.array2string(arr, precision=6, threshold=max_items, suppress_small=False)


def same_value(a: Any, b: Any) -> bool:
    """Whether two values show the same (the same object, or equal numbers; nan equals nan)."""
    if a is b:
        return True
    if a is None or b is None:
        return False
    if type(a) is type(b) and isinstance(a, float | np.generic) and not isinstance(a, np.void):
        return bool(a == b or (a != a and b != b))  # a scalar's gradient: no arrays needed
    x, y = as_array(a), as_array(b)
    if type(x) is Summarised or type(y) is Summarised:  # (summaries: the same one, or not)
        return x is y
    return x.shape == y.shape and x.dtype == y.dtype and bool(np.array_equal(x, y, equal_nan=True))


def nonfinite(value: Any) -> bool:
    """Whether any element is nan or ±inf (drawn in a warning colour)."""
    if isinstance(value, float | np.floating):
        return not math.isfinite(value)
    arr = as_array(value)
    if type(arr) is Summarised:
        return bool(arr.nans or arr.posinf or arr.neginf)
    if arr.ndim == 0:
        return arr.dtype.kind == "f" and not math.isfinite(arr[()])
    return arr.dtype.kind == "f" and not bool(np.isfinite(arr).all())


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
