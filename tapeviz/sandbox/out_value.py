"""The text a notebook shows under a cell (``Out:``): the value of a script's last expression.

It runs in the worker, after the run: it never calls a user's ``__repr__`` (an object of a class
the script defined reads ``<ClassName>``), and it stops at :data:`LIMIT` characters before a
huge value's text is built (numpy summarises arrays over :data:`SMALL` elements).
"""

from __future__ import annotations

import reprlib
from typing import Any

import numpy as np

from tapeviz.engine import strings
from tapeviz.engine.tensor import TensorLike

LIMIT = 2000  # characters of a value's text, at most
SMALL = 1000  # elements of an array or tensor shown whole (numpy's own threshold)
_PLAIN = (bool, int, float, complex, str, bytes)
_NUMERIC_KINDS = "biufcmMUS"  # numpy dtype kinds whose repr is numpy's own (no object arrays)


class _Nested(reprlib.Repr):
    """reprlib over lists, tuples and dicts; each leaf as :func:`value_text` reads it."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 4
        self.maxlist = self.maxtuple = self.maxdict = 20
        self.maxstring = self.maxother = 200

    def repr_instance(self, obj: Any, level: int) -> str:
        if type(obj) in (list, tuple, dict):
            return super().repr1(obj, level)
        return _leaf(obj, self.maxother) or f"<{type(obj).__name__}>"


def value_text(value: Any, limit: int = LIMIT) -> str | None:
    """What a notebook shows for ``value`` (``6.0`` for ``dy_dx.numpy()``); None for None."""
    if value is None:
        return None
    try:
        if type(value) in (list, tuple, dict):
            text = _Nested().repr(value)
        else:
            text = _leaf(value, limit) or f"<{type(value).__name__}>"
    except Exception:  # (an int of over 4,300 digits in a list: Python refuses its repr)
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _leaf(value: Any, limit: int) -> str | None:
    """The text of a number, string, numpy value or tensor; None for anything else."""
    if type(value) in _PLAIN:
        if type(value) is int and value.bit_length() > 4 * limit:
            return f"<int of {value.bit_length():,} bits>"
        if type(value) in (str, bytes) and len(value) > limit:
            return repr(value[:limit]) + "…"
        return repr(value)
    if isinstance(value, np.generic) and value.dtype.kind in _NUMERIC_KINDS + "?":
        return str(value)  # np.float32(6.0) reads 6.0, as the TensorFlow tutorials print it
    if isinstance(value, np.ndarray) and value.dtype.kind in _NUMERIC_KINDS + "?":
        with np.printoptions(threshold=SMALL, edgeitems=3):
            return repr(value)
    if isinstance(value, TensorLike):
        dtype = value.dtype
        small = value.size <= SMALL and (
            not dtype.is_string or strings.total_bytes(value._value) <= 100_000
        )
        return repr(value) if small else f"<tf.Tensor: shape={value.shape}, dtype={dtype.name}>"
    return None
