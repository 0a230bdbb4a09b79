"""Operators with size checks: ``10**10**10``, ``[0]*10**10`` and giant broadcasts are refused."""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine.guard import shape_size
from tapeviz.engine.tensor import Tensor, Variable
from tapeviz.sandbox.builtins import check_power
from tapeviz.sandbox.policy import budget, check_format_spec

_SEQ = (list, tuple, str, bytes)
_PERCENT_WIDTH = re.compile(r"%[-+ #0]*(\d+)?(?:\.(\d+))?")


def _broadcast(a: Any, b: Any, what: str) -> None:
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
    if type(a) is int and type(b) is int:
        budget().check_int_bits(a.bit_length() + b.bit_length(), "the product")
    elif isinstance(a, _SEQ) and isinstance(b, int):
        budget().check_size(len(a) * max(b, 0), "the repeated sequence")
    elif isinstance(b, _SEQ) and isinstance(a, int):
        budget().check_size(len(b) * max(a, 0), "the repeated sequence")
    elif isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        _broadcast(a, b, "the result of *")


def _check_pow(a: Any, b: Any) -> None:
    check_power(a, b)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        _broadcast(a, b, "the result of **")


def _check_lshift(a: Any, b: Any) -> None:
    if type(a) is int and type(b) is int and b > 0:
        budget().check_int_bits(a.bit_length() + b, "the shifted integer")


def _check_matmul(a: Any, b: Any) -> None:
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.ndim >= 1 and b.ndim >= 1:
        rows = shape_size(a.shape[:-1])
        cols = b.shape[-1] if b.ndim > 1 else 1
        budget().check_size(rows * cols, "the matrix product")


def _check_mod(a: Any, b: Any) -> None:
    if isinstance(a, str):
        for m in _PERCENT_WIDTH.finditer(a):
            check_format_spec("".join(g or "" for g in m.groups()) + "0")
    elif isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        _broadcast(a, b, "the result of %")


def _check_elementwise(a: Any, b: Any) -> None:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        _broadcast(a, b, "the result")


_CHECKS: dict[str, Callable[[Any, Any], None]] = {
    "Add": _check_add,
    "Mult": _check_mul,
    "Pow": _check_pow,
    "LShift": _check_lshift,
    "MatMult": _check_matmul,
    "Mod": _check_mod,
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
