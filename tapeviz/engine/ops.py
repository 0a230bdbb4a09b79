"""User-facing elementwise ops: each binds one primitive; Tensor operators call these."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.engine import primitives as P
from tapeviz.engine.array_ops import *  # noqa: F403  (re-exported: ops is the one op namespace)
from tapeviz.engine.array_ops import __all__ as _array_all
from tapeviz.engine.array_ops import getitem, identity, matmul
from tapeviz.engine.core import bind
from tapeviz.engine.elementwise import binary, unary
from tapeviz.engine.errors import EngineError, EngineTypeError
from tapeviz.engine.tensor import Tensor, TensorLike, Variable, constant, convert_to_tensor

__all__ = [
    "abs",
    "add",
    "clip_by_value",
    "cos",
    "divide",
    "divide_no_nan",
    "equal",
    "exp",
    "expm1",
    "floor",
    "floordiv",
    "greater",
    "greater_equal",
    "leaky_relu",
    "less",
    "less_equal",
    "log",
    "log1p",
    "logical_and",
    "logical_not",
    "logical_or",
    "maximum",
    "minimum",
    "mod",
    "multiply",
    "negative",
    "not_equal",
    "pow",
    "reciprocal",
    "relu",
    "round",
    "rsqrt",
    "sigmoid",
    "sign",
    "sin",
    "softplus",
    "sqrt",
    "square",
    "subtract",
    "tan",
    "tanh",
    "where",
    *_array_all,
]


add = binary(P.add_p, "add", "Elementwise ``x + y`` with broadcasting.")
subtract = binary(P.subtract_p, "subtract", "Elementwise ``x - y``.")
multiply = binary(P.multiply_p, "multiply", "Elementwise ``x * y``.")
divide = binary(P.divide_p, "divide", "Elementwise true division ``x / y``.")


def divide_no_nan(x: Any, y: Any, name: str | None = None) -> Tensor:
    """Elementwise ``x / y``, 0 where ``y`` is 0."""
    return bind(P.divide_no_nan_p, x, y)


def floordiv(x: Any, y: Any, name: str | None = None) -> Tensor:
    """Elementwise floor division ``x // y`` (no gradient)."""
    return bind(P.floordiv_p, x, y)


def mod(x: Any, y: Any, name: str | None = None) -> Tensor:
    """Elementwise floor modulo ``x % y``."""
    return bind(P.mod_p, x, y)


negative = unary(P.negative_p, "negative", "Elementwise ``-x``.")
pow = binary(P.pow_p, "pow", "Elementwise ``x ** y``.")
square = unary(P.square_p, "square", "Elementwise ``x²``.")
sqrt = unary(P.sqrt_p, "sqrt", "Elementwise square root.")
rsqrt = unary(P.rsqrt_p, "rsqrt", "Elementwise ``1/√x``.")
reciprocal = unary(P.reciprocal_p, "reciprocal", "Elementwise ``1/x``.")
exp = unary(P.exp_p, "exp", "Elementwise ``eˣ``.")
log = unary(P.log_p, "log", "Elementwise natural logarithm.")
log1p = unary(P.log1p_p, "log1p", "Elementwise ``ln(1 + x)``.")
expm1 = unary(P.expm1_p, "expm1", "Elementwise ``eˣ − 1``.")
sin = unary(P.sin_p, "sin", "Elementwise sine.")
cos = unary(P.cos_p, "cos", "Elementwise cosine.")
tan = unary(P.tan_p, "tan", "Elementwise tangent.")
tanh = unary(P.tanh_p, "tanh", "Elementwise hyperbolic tangent.")
sigmoid = unary(P.sigmoid_p, "sigmoid", "Elementwise logistic sigmoid.")
_softplus = unary(P.softplus_p, "softplus", "")


def softplus(features: Any, name: str | None = None) -> Tensor:
    """Elementwise ``ln(1 + eˣ)``."""
    return _softplus(features)


_relu = unary(P.relu_p, "relu", "")


def relu(features: Any, name: str | None = None) -> Tensor:
    """Elementwise ``max(x, 0)``."""
    return _relu(features)


def leaky_relu(features: Any, alpha: float = 0.2, name: str | None = None) -> Tensor:
    """Elementwise ``x if x > 0 else alpha·x``."""
    return bind(P.leaky_relu_p, features, alpha=float(alpha))


abs = unary(P.abs_p, "abs", "Elementwise absolute value.")
sign = unary(P.sign_p, "sign", "Elementwise sign (−1, 0, 1).")
floor = unary(P.floor_p, "floor", "Elementwise floor (no gradient).")
round = unary(P.round_p, "round", "Elementwise rounding, half to even (no gradient).")
maximum = binary(P.maximum_p, "maximum", "Elementwise maximum; at ties the gradient goes to ``x``.")
minimum = binary(P.minimum_p, "minimum", "Elementwise minimum; at ties the gradient goes to ``x``.")


def clip_by_value(
    t: Any, clip_value_min: Any, clip_value_max: Any, name: str | None = None
) -> Tensor:
    """Clip ``t`` to ``[clip_value_min, clip_value_max]``."""
    return bind(P.clip_by_value_p, t, clip_value_min, clip_value_max)


def where(condition: Any, x: Any = None, y: Any = None, name: str | None = None) -> Tensor:
    """Select from ``x`` where ``condition`` else ``y``; with one argument, the true indices."""
    if x is None and y is None:
        cond = np.asarray(convert_to_tensor(condition)._value)
        return constant(np.argwhere(cond).astype(np.int64))
    if x is None or y is None:
        raise EngineTypeError("where: give both x and y, or neither", "where")
    return bind(P.where_p, condition, x, y)


def less(x: Any, y: Any, name: str | None = None) -> Tensor:
    """Elementwise ``x < y`` (bool, no gradient)."""
    return bind(P.less_p, x, y)


def less_equal(x: Any, y: Any, name: str | None = None) -> Tensor:
    """Elementwise ``x <= y``."""
    return bind(P.less_equal_p, x, y)


def greater(x: Any, y: Any, name: str | None = None) -> Tensor:
    """Elementwise ``x > y``."""
    return bind(P.greater_p, x, y)


def greater_equal(x: Any, y: Any, name: str | None = None) -> Tensor:
    """Elementwise ``x >= y``."""
    return bind(P.greater_equal_p, x, y)


def equal(x: Any, y: Any, name: str | None = None) -> Tensor:
    """Elementwise ``x == y``."""
    return bind(P.equal_p, x, y)


def not_equal(x: Any, y: Any, name: str | None = None) -> Tensor:
    """Elementwise ``x != y``."""
    return bind(P.not_equal_p, x, y)


def logical_and(x: Any, y: Any, name: str | None = None) -> Tensor:
    """Elementwise logical and of bool tensors."""
    return bind(P.logical_and_p, x, y)


def logical_or(x: Any, y: Any, name: str | None = None) -> Tensor:
    """Elementwise logical or of bool tensors."""
    return bind(P.logical_or_p, x, y)


def logical_not(x: Any, name: str | None = None) -> Tensor:
    """Elementwise logical not of a bool tensor."""
    return bind(P.logical_not_p, x)


# -- operators on Tensor and Variable ------------------------------------------------------


def _reflect(fn: Any) -> Any:
    def reflected(self: Any, other: Any) -> Tensor:
        return fn(other, self)

    return reflected


def _eq(self: Any, other: Any) -> Any:
    try:
        return equal(self, other)
    except EngineError:
        return False


def _ne(self: Any, other: Any) -> Any:
    try:
        return not_equal(self, other)
    except EngineError:
        return True


def _xor(self: Any, other: Any) -> Tensor:
    if isinstance(self, TensorLike) and self.dtype.is_bool:
        return logical_and(logical_or(self, other), logical_not(logical_and(self, other)))
    raise EngineTypeError("^ is bitwise xor in Python, not power: write x**2 instead of x^2", "xor")


def _install_operators() -> None:
    table: dict[str, Any] = {
        "__add__": add, "__radd__": _reflect(add),
        "__sub__": subtract, "__rsub__": _reflect(subtract),
        "__mul__": multiply, "__rmul__": _reflect(multiply),
        "__truediv__": divide, "__rtruediv__": _reflect(divide),
        "__floordiv__": floordiv, "__rfloordiv__": _reflect(floordiv),
        "__mod__": mod, "__rmod__": _reflect(mod),
        "__pow__": pow, "__rpow__": _reflect(pow),
        "__matmul__": matmul, "__rmatmul__": _reflect(matmul),
        "__neg__": negative, "__abs__": abs, "__pos__": identity,
        "__lt__": less, "__le__": less_equal, "__gt__": greater, "__ge__": greater_equal,
        "__eq__": _eq, "__ne__": _ne,
        "__and__": logical_and, "__rand__": _reflect(logical_and),
        "__or__": logical_or, "__ror__": _reflect(logical_or),
        "__invert__": logical_not, "__xor__": _xor, "__rxor__": _reflect(_xor),
        "__getitem__": getitem,
    }  # fmt: skip
    for cls in (Tensor, Variable):
        for name, fn in table.items():
            setattr(cls, name, fn)


_install_operators()
