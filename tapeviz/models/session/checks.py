"""Checks a session's fields pass at load so that everything that reads them later can trust them.

The window and ``tapeviz export`` convert each variable with ``np.asarray(value, dtype)`` (the
variables table, the worker request, the studio's start point) and put its text in the table;
the window passes the graph settings as keyword arguments and writes the whole session back
to disk as UTF-8 on every autosave. Each check here answers one of those uses with a message
naming the field, so a bad file is refused when it is opened instead of failing later.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from tapeviz.models.values import MAX_VALUE_TEXT, format_value

INT32 = np.iinfo(np.int32)
FLOAT32_MAX = float(np.finfo(np.float32).max)
# The graph pane's settings (``GraphPane.graph_settings``; a window test keeps the two equal).
# Other keys are dropped at load: the pane ignores keys it does not know, and passing them as
# keyword arguments would clash with the method's own parameters (``self``).
GRAPH_KEYS = (
    "layout", "fold_constants", "hide_unreached", "fold_layers", "edge_labels", "tape_groups",
)  # fmt: skip


class FieldError(ValueError):
    """A field that fails its check (the caller adds where it is)."""


def unicode_text(value: str) -> str:
    """``value`` if it can be written as UTF-8 (no lone surrogates, as a JSON escape can make)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise FieldError("holds text that is not valid Unicode (a lone surrogate)") from None
    return value


def _first(values: np.ndarray, bad: np.ndarray) -> float:
    return float(values.reshape(-1)[np.flatnonzero(bad.reshape(-1))[0]])


def array_value(value: Any, dtype: str) -> Any:
    """Check that a number tree converts to ``dtype`` as the runner does; return it unchanged.

    It must be a number or a rectangular array; an int32 value must be finite and in the int32
    range; a finite float32 value must not overflow to infinity; its text must fit the
    variables table.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            wide = np.asarray(value, dtype=np.float64)
        except ValueError:
            raise FieldError(
                "the value is not a rectangular array (its rows have different lengths)"
            ) from None
        if dtype == "int32" and wide.size:
            if not np.isfinite(wide).all():
                bad = _first(wide, ~np.isfinite(wide))
                raise FieldError(f"{bad} is not a whole number, so it cannot be int32")
            outside = (wide < INT32.min) | (wide > INT32.max)
            if outside.any():
                raise FieldError(
                    f"{_first(wide, outside):.0f} is outside the int32 range "
                    f"({INT32.min:,} to {INT32.max:,})"
                )
        if dtype == "float32" and wide.size:
            over = np.isfinite(wide) & (np.abs(wide) > FLOAT32_MAX)
            over &= np.isinf(wide.astype(np.float32))
            if over.any():
                raise FieldError(
                    f"{_first(wide, over):g} is beyond the float32 range (±{FLOAT32_MAX:.4g})"
                )
    _convert(value, dtype)
    if len(format_value(value)) > MAX_VALUE_TEXT:
        raise FieldError(
            f"the value is longer than the variables table takes ({MAX_VALUE_TEXT:,} characters)"
        )
    return value


def _convert(value: Any, dtype: str) -> None:
    """The runner's own conversion, with every numpy warning an error (the last safety net)."""
    try:
        with np.errstate(all="raise"), warnings.catch_warnings():
            warnings.simplefilter("error")
            np.asarray(value, dtype=np.dtype(dtype))
    except (ValueError, TypeError, ArithmeticError, RuntimeWarning) as exc:
        raise FieldError(f"cannot be converted to {dtype} ({exc})") from None


def graph_settings(value: Any) -> Any:
    """The graph settings with only the pane's keys (anything but an object is kept: ignored)."""
    if not isinstance(value, dict):
        return value
    return {k: v for k, v in value.items() if k in GRAPH_KEYS}
