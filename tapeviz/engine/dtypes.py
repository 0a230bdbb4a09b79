"""Data types: TensorFlow-style dtype objects over numpy dtypes."""

from __future__ import annotations

from typing import Any

import numpy as np


class DType:
    """A tensor element type, spelled like TensorFlow's (``tv.float32``)."""

    __slots__ = (
        "is_bool", "is_complex", "is_floating", "is_integer", "is_string", "name", "np", "scalar",
    )  # fmt: skip

    def __init__(self, name: str, np_dtype: np.dtype) -> None:
        self.name = name
        self.np = np_dtype
        self.scalar: type = np_dtype.type  # the numpy scalar type of a 0-d value
        self.is_floating = np_dtype.kind == "f"  # the only differentiable kind
        self.is_integer = np_dtype.kind in "iu"
        self.is_bool = np_dtype.kind == "b"
        self.is_string = np_dtype.kind == "O"  # tf.string: numpy object arrays of bytes
        self.is_complex = np_dtype.kind == "c"  # values only: never on a tape

    @property
    def as_numpy_dtype(self) -> type:
        """The numpy scalar type of this dtype."""
        return self.np.type

    @property
    def base_dtype(self) -> DType:
        """The dtype itself (TensorFlow compatibility)."""
        return self

    @property
    def min(self) -> Any:
        """Smallest representable value."""
        if self.is_string or self.is_complex:
            raise TypeError(f"Cannot find minimum value of {self.name}.")
        return np.finfo(self.np).min if self.is_floating else np.iinfo(self.np).min

    @property
    def max(self) -> Any:
        """Largest representable value."""
        if self.is_string or self.is_complex:
            raise TypeError(f"Cannot find maximum value of {self.name}.")
        return np.finfo(self.np).max if self.is_floating else np.iinfo(self.np).max

    def __repr__(self) -> str:
        return f"tf.{self.name}"

    def __str__(self) -> str:
        return f"<dtype: '{self.name}'>"

    def __reduce__(self) -> tuple[Any, ...]:
        return (as_dtype, (self.name,))


float16 = DType("float16", np.dtype(np.float16))
float32 = DType("float32", np.dtype(np.float32))
float64 = DType("float64", np.dtype(np.float64))
int8 = DType("int8", np.dtype(np.int8))
int16 = DType("int16", np.dtype(np.int16))
int32 = DType("int32", np.dtype(np.int32))
int64 = DType("int64", np.dtype(np.int64))
uint8 = DType("uint8", np.dtype(np.uint8))
bool_ = DType("bool", np.dtype(np.bool_))
# Byte strings, never differentiable; apart from ALL_DTYPES (the numeric ones), as object
# arrays must not become tensors unless every element is bytes (engine.strings checks).
string = DType("string", np.dtype(object))
# Complex numbers: tensors and variables of them print and compute as TensorFlow's, but no tape
# records their ops (tapeviz draws and differentiates real-valued graphs).
complex64 = DType("complex64", np.dtype(np.complex64))
complex128 = DType("complex128", np.dtype(np.complex128))
half = float16
double = float64

ALL_DTYPES: tuple[DType, ...] = (float16, float32, float64, int8, int16, int32, int64, uint8, bool_)
_BY_NP: dict[np.dtype, DType] = {d.np: d for d in (*ALL_DTYPES, complex64, complex128)}
_BY_NAME: dict[str, DType] = {d.name: d for d in ALL_DTYPES}
_BY_NAME.update(
    {"half": float16, "double": float64, "float": float32, "int": int32, "string": string,
     "complex64": complex64, "complex128": complex128}
)  # fmt: skip
# TensorFlow's DataType enum values (types.proto): tf.zeros(2, 1) is a float32 tensor.
_BY_ENUM: dict[int, DType] = {
    1: float32,
    2: float64,
    3: int32,
    4: uint8,
    5: int16,
    6: int8,
    9: int64,
    10: bool_,
    19: float16,
    8: complex64,
    18: complex128,
}


def as_dtype(value: Any) -> DType:
    """Return the DType for a DType, a name (``"float32"``) or a numpy dtype/type."""
    if isinstance(value, DType):
        return value
    if isinstance(value, str):
        try:
            return _BY_NAME[value]
        except KeyError:
            known = ", ".join(d.name for d in (*ALL_DTYPES, string))
            raise TypeError(f"unknown dtype {value!r}; known dtypes: {known}") from None
    if isinstance(value, int) and not isinstance(value, bool):  # TensorFlow's DataType enum
        found = _BY_ENUM.get(value)
        if found is None:
            raise TypeError(
                f"Cannot convert the argument `type_value`: {value!r} to a TensorFlow DType "
                "tapeviz has (DataType numbers 1 float32, 2 float64, 3 int32, 4 uint8, 5 int16, "
                "6 int8, 9 int64, 10 bool, 19 float16)"
            )
        return found
    if value is float:
        return float32
    if value is int:
        return int32
    if value is bool:
        return bool_
    if value is str or value is bytes:
        return string
    try:
        if np.dtype(value).kind in "OSU":  # numpy's object, bytes and str dtypes
            return string
    except (TypeError, ValueError):
        pass
    try:
        return _BY_NP[np.dtype(value)]
    except (TypeError, KeyError):
        raise TypeError(f"unsupported dtype {value!r}") from None


def from_numpy(np_dtype: np.dtype) -> DType:
    """Return the DType of a numpy dtype, or raise TypeError for unsupported ones."""
    try:
        return _BY_NP[np_dtype]
    except KeyError:
        raise TypeError(f"unsupported numpy dtype {np_dtype}") from None
