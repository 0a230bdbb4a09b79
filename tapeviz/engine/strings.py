r"""``tf.string`` values: numpy object arrays of ``bytes`` (a 0-d one is a Python ``bytes``).

TensorFlow's strings are byte strings: a Python ``str`` becomes its UTF-8 bytes, a tensor
prints them as Python shows bytes (``b'Gray wolf'``, ``b'\xf0\x9f\xa5\xb3'``), and
``numpy()`` gives ``bytes`` or an object array of them. Only a few ops take strings (``+``
joins, ``==``, reshaping, indexing, gathering); the numeric ones raise TensorFlow's error.
Nothing here is differentiable: a string tensor on a tape is a constant.

An object array becomes a tensor only when every element is ``bytes`` (or ``str``, encoded),
so no other Python object ever sits inside a tensor.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.engine import dtypes
from tapeviz.engine import primitives as P
from tapeviz.engine.errors import EngineTypeError, InvalidArgumentError, UnimplementedError
from tapeviz.engine.guard import GUARD, check_elements, shape_size
from tapeviz.engine.primitives import Primitive
from tapeviz.engine.values import freeze

__all__ = [
    "STRING_OPS",
    "as_object",
    "check_bytes",
    "check_op",
    "is_bytes_array",
    "is_text",
    "is_text_array",
    "not_convertible",
    "op_result",
    "to_bytes",
    "value_dtype",
]

# The primitives TensorFlow runs on strings (``add`` is TensorFlow's ``Add``: it joins them).
STRING_OPS: frozenset[Primitive] = frozenset(
    {
        P.add_p, P.equal_p, P.not_equal_p, P.identity_p, P.stop_gradient_p, P.reshape_p,
        P.transpose_p, P.broadcast_to_p, P.getitem_p, P.stack_p, P.concat_p, P.tile_p,
        P.gather_p, P.where_p,
    }
)  # fmt: skip
_NUMERIC_T = (
    "bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32, uint64, int64, "
    "complex64, complex128"
)
# TensorFlow's DataTypeString spelling, used in its messages ("Cast string to float ...").
TF_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def is_text(value: Any) -> bool:
    """Whether ``value`` is a Python or numpy string or bytes scalar."""
    return isinstance(value, str | bytes)  # np.str_ and np.bytes_ derive from these


def is_text_array(arr: Any) -> bool:
    """Whether a numpy array or scalar holds text only (numpy ``S``/``U``, or ``str``/bytes)."""
    kind = arr.dtype.kind
    return kind in "SU" or (kind == "O" and all(map(is_text, np.asarray(arr).flat)))


def value_dtype(arr: Any) -> dtypes.DType:
    """The dtype of a tensor value: ``bytes`` and object arrays (of bytes) are strings."""
    if type(arr) is bytes or (type(arr) is np.ndarray and arr.dtype.kind == "O"):
        return dtypes.string
    return dtypes.from_numpy(np.asarray(arr).dtype)


def not_convertible(what: str, dtype: dtypes.DType, op: str) -> EngineTypeError:
    """TensorFlow's error for text to a number dtype, or numbers to tf.string."""
    return EngineTypeError(f"Cannot convert {what} to EagerTensor of dtype {dtype.name}", op)


def as_object(value: Any, shape: tuple[int, ...]) -> Any:
    """A string value ready to broadcast to ``shape`` (its strings shared), within the limit."""
    if value_dtype(value).is_string:
        check_bytes(shape_size(shape) * longest(value), "constant")
        return np.asarray(value, dtype=object)
    return value


def is_bytes_array(arr: np.ndarray) -> bool:
    """Whether ``arr`` is an object array whose elements are all ``bytes``."""
    if arr.dtype.kind != "O":
        return False
    return all(type(x) is bytes for x in arr.flat)


def _leaf(value: Any, whole: Any, op: str) -> bytes:
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, bytes):
        return bytes(value)
    if getattr(getattr(value, "dtype", None), "is_string", False) and np.ndim(value._value) == 0:
        return value._value  # a scalar string tensor inside a list
    if value is whole:
        raise not_convertible(f"{value!r:.40}", dtypes.string, op)
    raise EngineTypeError(
        f"{op}: cannot convert {whole!r:.60} to a string tensor: {value!r:.40} is not a string",
        op,
    )


def _children(value: Any) -> Any:
    """The items one level down, or None for a leaf."""
    if isinstance(value, list | tuple):
        return value
    if isinstance(value, np.ndarray) and value.ndim > 0:
        return list(value)
    inner = getattr(value, "_value", None)
    if isinstance(inner, np.ndarray) and getattr(value.dtype, "is_string", False):
        return list(inner)
    return None


def _shape(value: Any) -> list[int]:
    shape: list[int] = []
    items = _children(value)
    while items is not None:
        shape.append(len(items))
        if not items:
            break
        items = _children(items[0])
    return shape


def _array(value: Any, op: str) -> np.ndarray:
    """A numpy ``S``/``U``/``O`` array as an object array of bytes."""
    if value.dtype.kind == "S":
        out = value.astype(object)
    elif value.dtype.kind == "U":
        out = np.empty(value.shape, dtype=object)
        out.flat[:] = [s.encode("utf-8") for s in value.flat]
    elif value.dtype.kind == "O":
        out = np.empty(value.shape, dtype=object)
        out.flat[:] = [_leaf(s, value, op) for s in value.flat]
    else:
        raise EngineTypeError(f"{op}: cannot make a string tensor of {value.dtype} values", op)
    return out


def to_bytes(value: Any, op: str = "constant") -> Any:
    """``value`` (text, bytes, nested lists of them, numpy text arrays) as a string value.

    A frozen object array of ``bytes``, or one ``bytes`` for a scalar, as tensors hold them.
    """
    if is_text(value):
        out = _leaf(value, value, op)
        check_bytes(len(out), op)
        return out
    if isinstance(value, np.ndarray):
        check_elements(value.size, op)
        if value.dtype.kind in "SU":  # each element becomes a bytes object of its own
            check_bytes(value.nbytes, op)
        arr = _array(value, op)
    else:
        shape = _shape(value)
        if not shape:
            return _leaf(value, value, op)
        check_elements(shape_size(shape), op)
        flat: list[bytes] = []
        _walk(value, 0, shape, flat, value, op)
        arr = np.empty(len(flat), dtype=object)
        arr[:] = flat
        arr = arr.reshape(shape)
    check_bytes(total_bytes(arr), op)
    return freeze(arr)


def _walk(value: Any, level: int, shape: list[int], out: list[bytes], whole: Any, op: str) -> None:
    items = _children(value)
    if level == len(shape):
        if items is not None:
            raise _ragged()
        out.append(_leaf(value, whole, op))
        return
    if items is None or len(items) != shape[level]:
        raise _ragged()
    for item in items:
        _walk(item, level + 1, shape, out, whole, op)


def _ragged() -> InvalidArgumentError:
    return InvalidArgumentError("Can't convert non-rectangular Python sequence to Tensor.")


def total_bytes(value: Any) -> int:
    """The number of bytes in all the strings of a string value."""
    if type(value) is bytes:
        return len(value)
    return sum(map(len, np.asarray(value, dtype=object).flat))


def longest(value: Any) -> int:
    """The length of the longest string of a string value (0 if it has none)."""
    if type(value) is bytes:
        return len(value)
    return max(map(len, value.flat), default=0)


def check_bytes(count: int, what: str) -> None:
    """Refuse a string tensor of more bytes, in all, than the tensor size limit."""
    if GUARD.max_elements is not None:
        check_elements(count, f"{what} (its bytes of text)")


# -- ops on string tensors ---------------------------------------------------------------------
def not_for_strings(name: str) -> InvalidArgumentError:
    """TensorFlow's error for a numeric op given a string tensor."""
    return InvalidArgumentError(
        f"Value for attr 'T' of string is not in the list of allowed values: {_NUMERIC_T}\n\t"
        f"; NodeDef: {{{{node {name}}}}} [Op:{name}]",
        name,
    )


def check_op(prim: Primitive, xs: tuple[Any, ...], params: Any) -> None:
    """Refuse, as TensorFlow does, an op its string kernels lack; size a join first."""
    if prim not in STRING_OPS:
        if prim is P.cast_p:
            target = params["dtype"].name
            raise UnimplementedError(
                f"Cast string to {TF_TYPE_NAMES.get(target, target)} is not supported [Op:Cast]",
                "cast",
            )
        raise not_for_strings(prim.tf_name)
    if prim is P.add_p:
        other = xs[1]
        if not other.dtype.is_string:
            raise InvalidArgumentError(
                "cannot compute Add as input #1(zero-based) was expected to be a string tensor "
                f"but is a {other.dtype.name} tensor [Op:Add]",
                "add",
            )
        if GUARD.max_elements is not None:
            a, b = xs[0]._value, other._value
            try:
                n = shape_size(np.broadcast_shapes(np.shape(a), np.shape(b)))
            except ValueError:
                return  # the op reports the mismatch
            check_bytes(n * (longest(a) + longest(b)), "add")


def filled(shape: tuple[int, ...], value: bytes) -> Any:
    """An object array of ``shape`` whose elements are all ``value`` (one object, shared)."""
    check_bytes(shape_size(shape) * len(value), "fill")
    arr = np.empty(shape, dtype=object)
    arr.fill(value)
    return freeze(arr)


def cast_to_string(x: Any) -> Any:
    """``tf.cast(x, tf.string)``: a string tensor as it is; TensorFlow casts nothing else."""
    dtype = getattr(x, "dtype", None)
    if dtype is dtypes.string:
        return x
    name = dtype.name if isinstance(dtype, dtypes.DType) else "int32"
    raise UnimplementedError(
        f"Cast {TF_TYPE_NAMES.get(name, name)} to string is not supported [Op:Cast]", "cast"
    )


def op_result(prim: Primitive, out: Any) -> Any:
    """A string op's numpy result as a tensor value: bytes, or an object array of bytes."""
    if isinstance(out, np.generic | np.ndarray) and out.dtype.kind == "S":
        out = np.asarray(out).astype(object)
    if type(out) is np.ndarray and out.dtype.kind == "O" and is_bytes_array(out):
        return freeze(out)
    if type(out) is bytes:
        return out
    raise EngineTypeError(f"{prim.name} made a result that is not a tensor: {out!r:.40}", prim.name)
