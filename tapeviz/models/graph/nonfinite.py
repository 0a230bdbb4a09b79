"""Why a value is nan or ±inf: the op that made it and the reason, as data the UI words (no Qt).

``log(-1.0)`` gives nan, ``10.0 ** 1000`` gives inf in float32: the node that *made* the value is
the origin (:attr:`NonFinite.origin`); every op after it that reads it inherits it
(``code == "propagated"``). The UI translates :attr:`NonFinite.code` with its parameters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tapeviz.engine.core import OpRecord
from tapeviz.models.values import as_array, short
from tapeviz.models.values import nonfinite as bad
from tapeviz.sandbox.process.summaries import Summarised

LOGS = ("log", "log1p")
ROOTS = ("sqrt", "rsqrt")
DIVISIONS = ("divide", "reciprocal", "floordiv", "mod", "rsqrt")


@dataclass(frozen=True)
class NonFinite:
    """A nan or ±inf on a node and why: ``code`` with the op, the result and an operand.

    Codes: ``log_negative``, ``log_zero``, ``sqrt_negative``, ``divide_zero``,
    ``zero_divide_zero``, ``pow_negative_base``, ``overflow`` (``limit``: the dtype's largest
    number), ``undefined`` (an origin with no simpler reason), ``propagated`` (an input already
    was: ``operand`` names it), ``input`` (a source's value).
    """

    code: str
    op: str  # the op ("log"), empty for a source
    result: str  # "nan", "inf", "-inf" or "nan, inf"
    operand: str = ""  # the offending input's value ("-1") or name
    limit: str = ""  # for overflow: the dtype's largest finite number ("3.403e+38")
    dtype: str = ""

    @property
    def origin(self) -> bool:
        """Whether this node made the nan/inf (rather than received it)."""
        return self.code not in ("propagated", "input")


def _kinds(value: np.ndarray) -> str:
    if isinstance(value, Summarised):  # a big value the window has only as a summary
        return value.kinds
    found = []
    if np.any(np.isnan(value)):
        found.append("nan")
    if np.any(np.isposinf(value)):
        found.append("inf")
    if np.any(np.isneginf(value)):
        found.append("-inf")
    return ", ".join(found)


def _first(values: np.ndarray, mask: np.ndarray) -> str:
    picked = values[mask] if values.ndim else values
    return short(np.asarray(picked).reshape(-1)[0]) if np.size(picked) else short(values)


def explain(record: OpRecord, names: dict[int, str] | None = None) -> NonFinite | None:
    """Why the op's output is nan or ±inf (None when it is finite)."""
    value = record.outputs[0]._value
    if not bad(value):  # (a scalar's answer makes no array: most nodes of a big graph)
        return None
    out = as_array(value)
    result, op, dtype = _kinds(out), record.name, record.outputs[0].dtype.name
    for x in record.inputs:
        if bad(x._value):
            label = (names or {}).get(x.id) or short(x._value)
            return NonFinite("propagated", op, result, label, dtype=dtype)
    ins = [as_array(x._value) for x in record.inputs]
    if any(isinstance(a, Summarised) for a in ins):  # no numbers to look into
        return NonFinite("undefined", op, result, dtype=dtype)
    a = ins[0] if ins else np.zeros(())
    b = ins[1] if len(ins) > 1 else None
    if op in LOGS:
        shifted = a + 1 if op == "log1p" else a
        if np.any(shifted < 0):
            return NonFinite("log_negative", op, result, _first(a, shifted < 0), dtype=dtype)
        return NonFinite("log_zero", op, result, _first(a, shifted == 0), dtype=dtype)
    if op in ROOTS and np.any(a < 0):
        return NonFinite("sqrt_negative", op, result, _first(a, a < 0), dtype=dtype)
    if op in DIVISIONS:
        divisor = a if op in ("reciprocal", "rsqrt") else b
        if divisor is not None and np.any(divisor == 0):
            zero_by_zero = b is not None and np.any((a == 0) & (divisor == 0))
            code = "zero_divide_zero" if zero_by_zero and "nan" in result else "divide_zero"
            return NonFinite(code, op, result, "0", dtype=dtype)
    if op == "pow" and b is not None:
        fractional = (a < 0) & (np.floor(b) != b)
        if np.any(fractional):
            return NonFinite("pow_negative_base", op, result, _first(a, a < 0), dtype=dtype)
        if np.any((a == 0) & (b < 0)):
            return NonFinite("divide_zero", op, result, "0", dtype=dtype)
    if "inf" in result and "nan" not in result and out.dtype.kind == "f":
        limit = f"{float(np.finfo(out.dtype).max):.4g}"
        return NonFinite("overflow", op, result, limit=limit, dtype=dtype)
    return NonFinite("undefined", op, result, dtype=dtype)


def explain_source(value: Any, dtype: str) -> NonFinite | None:
    """A source (variable or constant) whose value is already nan or ±inf."""
    return NonFinite("input", "", _kinds(as_array(value)), dtype=dtype) if bad(value) else None
