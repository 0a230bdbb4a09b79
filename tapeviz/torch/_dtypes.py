"""PyTorch's dtypes over the engine's, and torch's type promotion (``torch.result_type``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.engine import dtypes as _dt
from tapeviz.engine.dtypes import DType as _EngineDType


class dtype:  # noqa: N801  (torch's spelling)
    """A tensor element type, spelled as torch spells it (``torch.float32``)."""

    __slots__ = ("_engine", "_name", "is_complex", "is_floating_point", "is_signed", "itemsize")

    def __init__(self, name: str, engine: _EngineDType) -> None:
        self._name = name
        self._engine = engine
        self.is_floating_point = engine.is_floating
        self.is_complex = False
        self.is_signed = engine.np.kind in "fi"
        self.itemsize = engine.np.itemsize

    def to_real(self) -> dtype:
        """The dtype itself (no complex dtypes in tapeviz)."""
        return self

    def __repr__(self) -> str:
        return f"torch.{self._name}"

    __str__ = __repr__

    def __reduce__(self) -> tuple[Any, ...]:
        return (_by_name, (self._name,))


float32 = dtype("float32", _dt.float32)
float64 = dtype("float64", _dt.float64)
float16 = dtype("float16", _dt.float16)
int64 = dtype("int64", _dt.int64)
int32 = dtype("int32", _dt.int32)
int16 = dtype("int16", _dt.int16)
int8 = dtype("int8", _dt.int8)
uint8 = dtype("uint8", _dt.uint8)
bool_ = dtype("bool", _dt.bool_)
ALL = (float32, float64, float16, int64, int32, int16, int8, uint8, bool_)
ALIASES = {
    "float": float32, "double": float64, "half": float16, "long": int64, "int": int32,
    "short": int16, "bool": bool_,
}  # fmt: skip
_BY_ENGINE = {d._engine: d for d in ALL}
_BY_NAME = {d._name: d for d in ALL}


def _by_name(name: str) -> dtype:
    return _BY_NAME[name]


class _Default:
    value = float32  # torch.set_default_dtype changes it for a run (reset between runs)


DEFAULT = _Default()


def of_engine(d: _EngineDType) -> dtype:
    """The torch dtype of an engine dtype."""
    return _BY_ENGINE[d]


def as_torch(d: Any) -> dtype:
    """A torch dtype from what a script passes as ``dtype=`` (torch dtypes, Python types, numpy)."""
    if isinstance(d, dtype):
        return d
    if d is float:
        return DEFAULT.value
    if d is int:
        return int64
    if d is bool:
        return bool_
    try:
        return _BY_ENGINE[_dt.from_numpy(np.dtype(d))]
    except (TypeError, KeyError, ValueError):
        raise TypeError(
            f"dtype must be a torch.dtype (torch.float32, torch.int64, ...), got {d!r}"
        ) from None


def _category(d: dtype) -> int:
    return 2 if d.is_floating_point else (0 if d is bool_ else 1)


def promote_types(a: dtype, b: dtype) -> dtype:
    """``torch.promote_types``: the smallest dtype both convert to."""
    if a is b:
        return a
    ca, cb = _category(a), _category(b)
    if ca != cb:
        return a if ca > cb else b
    if ca == 2:
        return a if a.itemsize >= b.itemsize else b
    return _BY_ENGINE[_dt.from_numpy(np.promote_types(a._engine.np, b._engine.np))]


def _scalar_dtype(x: Any) -> dtype:
    if isinstance(x, bool | np.bool_):
        return bool_
    if isinstance(x, int | np.integer):
        return int64
    return DEFAULT.value  # a Python float (torch's default dtype)


def result_type(*operands: Any) -> dtype:
    """``torch.result_type``: tensors with dimensions lead, then 0-d tensors, then numbers."""
    dims: dtype | None = None
    zero: dtype | None = None
    wrapped: dtype | None = None
    for x in operands:
        d = getattr(x, "dtype", None)
        if isinstance(d, dtype) and hasattr(x, "_t"):
            if x._t._value.ndim:
                dims = d if dims is None else promote_types(dims, d)
            else:
                zero = d if zero is None else promote_types(zero, d)
        elif x is not None:
            s = _scalar_dtype(x)
            wrapped = s if wrapped is None else promote_types(wrapped, s)
    return _combine(dims, _combine(zero, wrapped)) or DEFAULT.value


def _combine(higher: dtype | None, lower: dtype | None) -> dtype | None:
    if higher is None:
        return lower
    if lower is None:
        return higher
    if higher.is_floating_point:
        return higher
    if higher is bool_ or lower.is_floating_point:
        return promote_types(higher, lower)
    return higher
