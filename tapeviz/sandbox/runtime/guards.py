"""Operators with size checks: ``10**10**10``, ``[0]*10**10`` and giant broadcasts are refused."""

from __future__ import annotations

import operator
from collections.abc import Callable, ItemsView, KeysView
from typing import Any

import numpy as np

from tapeviz.engine.guard import shape_size
from tapeviz.engine.tensor import Tensor, Variable
from tapeviz.sandbox.errors import refused
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.runtime.checks import (
    as_count,
    budget,
    check_key,
    check_keys,
    check_power,
    consume,
    counted,
)
from tapeviz.sandbox.runtime.text import check_percent

_SEQ = (list, tuple, str, bytes)


def _broadcast(a: Any, b: Any, what: str) -> None:
    for x in (a, b):  # bytes in an object array (a tf.string's numpy()) repeat under * and %
        if isinstance(x, np.ndarray) and x.dtype.kind not in "biufc":
            raise refused(say("numpy_dtype_array", dtype=x.dtype))
    try:
        shape = np.broadcast_shapes(np.shape(a), np.shape(b))
    except ValueError:
        return  # numpy reports the mismatch itself
    budget().check_size(shape_size(shape), what)


def _check_add(a: Any, b: Any) -> None:
    if isinstance(a, _SEQ) and isinstance(b, _SEQ):
        budget().check_size(len(a) + len(b), "the result of +")
    elif isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        _broadcast(a, b, "the result of +")


def _check_mul(a: Any, b: Any) -> None:
    if isinstance(a, int) and isinstance(b, int):
        budget().check_int_bits(a.bit_length() + b.bit_length(), "the product")
    elif isinstance(a, _SEQ):  # the count may be any integer-like: np.int64, an int tensor
        budget().check_size(len(a) * max(as_count(b), 0), "the repeated sequence")
    elif isinstance(b, _SEQ):
        budget().check_size(len(b) * max(as_count(a), 0), "the repeated sequence")
    elif isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        _broadcast(a, b, "the result of *")


def _check_pow(a: Any, b: Any) -> None:
    check_power(a, b)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        _broadcast(a, b, "the result of **")


def _check_lshift(a: Any, b: Any) -> None:
    if isinstance(a, int) and isinstance(b, int) and b > 0:  # bools are ints too
        budget().check_int_bits(a.bit_length() + b, "the shifted integer")


_SETLIKE = (set, frozenset, KeysView, ItemsView)


def _check_setop(a: Any, b: Any) -> None:
    """``|``, ``&``, ``-``, ``^`` on sets and dict views hash every element of both sides."""
    if isinstance(a, _SETLIKE) or isinstance(b, _SETLIKE):
        for side in (a, b):
            check_keys(counted(side, "the set operand"))
        budget().check_size(_length(a) + _length(b), "the set")
    elif isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        _broadcast(a, b, "the result")


def _length(x: Any) -> int:
    try:
        return len(x)
    except TypeError:
        return 0


def check_matmul(a: Any, b: Any) -> None:
    """Size and multiply-add count of ``a @ b`` for numpy operands (batched, broadcast)."""
    if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)) or not a.ndim or not b.ndim:
        return
    sa = a.shape if a.ndim > 1 else (1, *a.shape)
    sb = b.shape if b.ndim > 1 else (*b.shape, 1)
    try:
        batch = shape_size(np.broadcast_shapes(sa[:-2], sb[:-2]))
    except ValueError:
        return  # numpy reports the mismatch itself
    out = batch * sa[-2] * sb[-1]
    budget().check_size(out, "the matrix product")
    budget().check_flops(out * sa[-1], "the matrix product")


def _check_mod(a: Any, b: Any) -> None:
    if isinstance(a, str | bytes):
        check_percent(a, b)
    elif isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        _broadcast(a, b, "the result of %")


_HASHED = (dict, set, frozenset, KeysView, ItemsView)
_SCANNED = (list, tuple, str, bytes, np.ndarray)


def contains(item: Any, collection: Any) -> bool:
    """``item in collection`` without C loops the limits cannot stop."""
    kind = type(collection)
    if kind is range:
        if type(item) is not int and type(item) is not bool:  # anything else scans the range
            budget().check_size(len(collection), "the range scan")
    elif isinstance(collection, _HASHED):
        check_key(item)
    elif not isinstance(collection, _SCANNED) and not hasattr(collection, "__contains__"):
        return any(x is item or x == item for x in consume(collection, "the scan"))
    return item in collection


def _check_elementwise(a: Any, b: Any) -> None:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        _broadcast(a, b, "the result")


_CHECKS: dict[str, Callable[[Any, Any], None]] = {
    "Add": _check_add,
    "Mult": _check_mul,
    "Pow": _check_pow,
    "LShift": _check_lshift,
    "MatMult": check_matmul,
    "Mod": _check_mod,
    "BitOr": _check_setop,
    "BitAnd": _check_setop,
    "BitXor": _check_setop,
    "Sub": _check_setop,
}

BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "Add": operator.add,
    "Sub": operator.sub,
    "Mult": operator.mul,
    "Div": operator.truediv,
    "FloorDiv": operator.floordiv,
    "Mod": operator.mod,
    "Pow": operator.pow,
    "MatMult": operator.matmul,
    "LShift": operator.lshift,
    "RShift": operator.rshift,
    "BitOr": operator.or_,
    "BitAnd": operator.and_,
    "BitXor": operator.xor,
}
INPLACE: dict[str, Callable[[Any, Any], Any]] = {
    "Add": operator.iadd,
    "Sub": operator.isub,
    "Mult": operator.imul,
    "Div": operator.itruediv,
    "FloorDiv": operator.ifloordiv,
    "Mod": operator.imod,
    "Pow": operator.ipow,
    "MatMult": operator.imatmul,
    "LShift": operator.ilshift,
    "RShift": operator.irshift,
    "BitOr": operator.ior,
    "BitAnd": operator.iand,
    "BitXor": operator.ixor,
}


def checked(op_name: str, inplace: bool = False) -> Callable[[Any, Any], Any]:
    """The operator ``op_name`` (an ``ast`` operator class name) with its size check."""
    fn = (INPLACE if inplace else BINARY)[op_name]
    check = _CHECKS.get(op_name, _check_elementwise)
    engine_types = (Tensor, Variable)

    def apply(a: Any, b: Any) -> Any:
        if type(a) not in engine_types and type(b) not in engine_types:
            check(a, b)  # tensors are checked by the engine's own size guard
        return fn(a, b)

    return apply
