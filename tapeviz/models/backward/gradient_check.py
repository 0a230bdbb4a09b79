"""Check a tape's gradients against central finite differences, by replaying its records.

The records hold every op and its inputs, so the forward computation can be re-run in float64
with a source nudged by ±h: no user code runs again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tapeviz.engine.core import OpRecord
from tapeviz.engine.impl_rules import IMPL


def _as64(value: Any) -> Any:
    arr = np.asarray(value)
    return arr.astype(np.float64) if arr.dtype.kind == "f" else arr


def replay(records: Sequence[OpRecord], overrides: Mapping[int, Any]) -> dict[int, Any]:
    """Re-run the recorded ops in float64, with ``overrides`` (tensor id -> value) as inputs."""
    values: dict[int, Any] = {k: _as64(v) for k, v in overrides.items()}
    with np.errstate(all="ignore"):
        for rec in records:
            args = [values.get(x.id) for x in rec.inputs]
            args = [
                _as64(x._value) if a is None else a for a, x in zip(args, rec.inputs, strict=True)
            ]
            params = dict(rec.params)
            if rec.name == "cast" and params["dtype"].is_floating:
                params = {}  # stay in float64
                out = args[0]
            elif rec.name == "custom_gradient":
                out = _custom_result(rec, args, values)
            else:
                out = IMPL[rec.primitive](*args, **params)
            for o in rec.outputs:
                values[o.id] = _as64(out)
    return values


def _custom_result(rec: OpRecord, args: list[Any], values: Mapping[int, Any]) -> Any:
    """A ``custom_gradient`` op's value: that of the tensor its function returned.

    The function's own ops are on the tape before it (replayed already), so no user code runs;
    a result no source reaches keeps its recorded value.
    """
    result = getattr(rec.params.get("grad_fn"), "result_id", None)
    for x, arg in zip(rec.inputs, args, strict=True):
        if x.id == result:
            return arg
    if result in values:
        return values[result]
    return _as64(rec.outputs[0]._value)


def _value_of(records: Sequence[OpRecord], tensor_id: int) -> Any:
    for rec in records:
        for t in (*rec.inputs, *rec.outputs):
            if t.id == tensor_id:
                return t._value
    raise KeyError(f"tensor {tensor_id} is not on this tape")


def finite_difference(
    records: Sequence[OpRecord], target: int, source: int, h: float = 1e-6
) -> np.ndarray:
    """Central differences of ``sum(target)`` with respect to each element of ``source``."""
    base = _as64(_value_of(records, source))
    grad = np.zeros(np.shape(base), dtype=np.float64)
    for idx in np.ndindex(grad.shape):
        plus, minus = np.array(base, dtype=np.float64), np.array(base, dtype=np.float64)
        plus[idx] += h
        minus[idx] -= h
        f_plus = np.sum(replay(records, {source: plus})[target])
        f_minus = np.sum(replay(records, {source: minus})[target])
        grad[idx] = (f_plus - f_minus) / (2 * h)
    return grad


def relative_error(a: Any, b: Any) -> float:
    """Max |a − b| / max(|a|, |b|, 1e-12): 0 when they agree exactly."""
    a64, b64 = _as64(a), _as64(b)
    scale = max(
        float(np.max(np.abs(a64), initial=0.0)), float(np.max(np.abs(b64), initial=0.0)), 1e-12
    )
    return float(np.max(np.abs(a64 - b64), initial=0.0)) / scale


@dataclass(frozen=True)
class CheckRow:
    """One source: the tape's gradient, the finite-difference estimate and their relative error."""

    source_id: int
    name: str
    tape: Any
    estimate: Any
    error: float


def check(
    records: Sequence[OpRecord],
    target: int,
    gradients: Mapping[int, Any],
    names: Mapping[int, str],
    h: float = 1e-6,
) -> list[CheckRow]:
    """A row per source in ``gradients`` (tensor id -> the tape's gradient)."""
    rows = []
    for sid, g in gradients.items():
        estimate = finite_difference(records, target, sid, h)
        rows.append(
            CheckRow(sid, names.get(sid, f"#{sid}"), g, estimate, relative_error(g, estimate))
        )
    return rows


def error_curve(
    records: Sequence[OpRecord], target: int, source: int, gradient: Any,
    steps: Sequence[float] = tuple(10.0 ** -np.arange(1, 13)),
) -> list[tuple[float, float]]:  # fmt: skip
    """(h, relative error) pairs: truncation error shrinks with h until rounding takes over."""
    return [
        (h, relative_error(gradient, finite_difference(records, target, source, h))) for h in steps
    ]
