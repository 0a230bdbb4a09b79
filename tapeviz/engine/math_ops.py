"""More of ``tf.math``: hyperbolic and inverse trig, erf, atan2, nan tests, products, cumsum.

Moments (``reduce_variance``, ``reduce_std``) are composed from ops, as TensorFlow does.
"""

from __future__ import annotations

from typing import Any

from tapeviz.engine import dtypes
from tapeviz.engine import primitives as P
from tapeviz.engine.array_ops import _axis, cast, reduce_mean, reduce_sum
from tapeviz.engine.core import bind
from tapeviz.engine.elementwise import unary
from tapeviz.engine.errors import EngineTypeError
from tapeviz.engine.ops import (
    multiply,
    negative,
    not_equal,
    softplus,
    sqrt,
    square,
    subtract,
)
from tapeviz.engine.tensor import Tensor, TensorLike, convert_to_tensor

__all__ = [
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "ceil",
    "cosh",
    "count_nonzero",
    "cumprod",
    "cumsum",
    "erf",
    "erfc",
    "is_finite",
    "is_inf",
    "is_nan",
    "log_sigmoid",
    "reduce_all",
    "reduce_any",
    "reduce_euclidean_norm",
    "reduce_logsumexp",
    "reduce_prod",
    "reduce_std",
    "reduce_variance",
    "scalar_mul",
    "sinh",
    "squared_difference",
]

sinh = unary(P.sinh_p, "sinh", "Elementwise hyperbolic sine.")
cosh = unary(P.cosh_p, "cosh", "Elementwise hyperbolic cosine.")
asin = unary(P.asin_p, "asin", "Elementwise inverse sine.")
acos = unary(P.acos_p, "acos", "Elementwise inverse cosine.")
atan = unary(P.atan_p, "atan", "Elementwise inverse tangent.")
asinh = unary(P.asinh_p, "asinh", "Elementwise inverse hyperbolic sine.")
acosh = unary(P.acosh_p, "acosh", "Elementwise inverse hyperbolic cosine.")
atanh = unary(P.atanh_p, "atanh", "Elementwise inverse hyperbolic tangent.")
erf = unary(P.erf_p, "erf", "Elementwise Gauss error function.")
erfc = unary(P.erfc_p, "erfc", "Elementwise complementary error function ``1 − erf x``.")
ceil = unary(P.ceil_p, "ceil", "Elementwise ceiling (no gradient).")


def atan2(y: Any, x: Any, name: str | None = None) -> Tensor:
    """Elementwise angle of the point ``(x, y)``: ``atan(y / x)`` in the right quadrant."""
    return bind(P.atan2_p, y, x)


def is_nan(x: Any, name: str | None = None) -> Tensor:
    """Elementwise test for nan (bool, float inputs only)."""
    return bind(P.is_nan_p, x)


def is_inf(x: Any, name: str | None = None) -> Tensor:
    """Elementwise test for +inf or −inf."""
    return bind(P.is_inf_p, x)


def is_finite(x: Any, name: str | None = None) -> Tensor:
    """Elementwise test for a finite value (neither nan nor ±inf)."""
    return bind(P.is_finite_p, x)


def _reduce(prim: Any, x: Any, axis: Any, keepdims: bool) -> Tensor:
    return bind(prim, x, axis=_axis(axis), keepdims=bool(keepdims))


def reduce_prod(
    input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None
) -> Tensor:
    """Product over ``axis`` (all axes when None); the gradient handles zeros as TF does."""
    return _reduce(P.reduce_prod_p, input_tensor, axis, keepdims)


def reduce_logsumexp(
    input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None
) -> Tensor:
    """``log(sum(exp(x)))`` over ``axis``, computed without overflow."""
    return _reduce(P.reduce_logsumexp_p, input_tensor, axis, keepdims)


def reduce_any(
    input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None
) -> Tensor:
    """Logical or over ``axis`` of a bool tensor."""
    return _reduce(P.reduce_any_p, input_tensor, axis, keepdims)


def reduce_all(
    input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None
) -> Tensor:
    """Logical and over ``axis`` of a bool tensor."""
    return _reduce(P.reduce_all_p, input_tensor, axis, keepdims)


def _float(x: Any, what: str) -> TensorLike:
    t = x if isinstance(x, TensorLike) else convert_to_tensor(x)
    if not t.dtype.is_floating:
        raise EngineTypeError(
            f"{what}: Input must be either real or complex. Received {t.dtype.name} input; "
            "use tf.cast(x, tf.float32)",
            what,
        )
    return t


def reduce_variance(
    input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None
) -> Tensor:
    """Population variance over ``axis``: ``mean((x − mean(x))²)``, TensorFlow's composite."""
    x = _float(input_tensor, "reduce_variance")
    means = reduce_mean(x, axis=axis, keepdims=True)
    return reduce_mean(square(subtract(x, means)), axis=axis, keepdims=keepdims)


def reduce_std(
    input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None
) -> Tensor:
    """Population standard deviation over ``axis``: ``sqrt(reduce_variance(x))``."""
    return sqrt(reduce_variance(input_tensor, axis=axis, keepdims=keepdims))


def reduce_euclidean_norm(
    input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None
) -> Tensor:
    """``sqrt(sum(x²))`` over ``axis``."""
    return sqrt(reduce_sum(square(input_tensor), axis=axis, keepdims=keepdims))


def count_nonzero(
    input: Any,
    axis: Any = None,
    keepdims: bool | None = None,
    dtype: Any = dtypes.int64,
    name: str | None = None,
) -> Tensor:
    """Number of non-zero elements over ``axis`` (int64 by default; no gradient)."""
    x = input if isinstance(input, TensorLike) else convert_to_tensor(input)
    zero = False if x.dtype.is_bool else 0
    nonzero = cast(not_equal(x, zero), dtype)
    return reduce_sum(nonzero, axis=axis, keepdims=bool(keepdims))


def cumsum(
    x: Any, axis: Any = 0, exclusive: bool = False, reverse: bool = False, name: str | None = None
) -> Tensor:
    """Running sum along ``axis`` (``exclusive`` starts at 0, ``reverse`` runs backwards)."""
    return bind(P.cumsum_p, x, axis=int(_axis(axis)), exclusive=bool(exclusive),  # type: ignore[arg-type]
                reverse=bool(reverse))  # fmt: skip


def cumprod(
    x: Any, axis: Any = 0, exclusive: bool = False, reverse: bool = False, name: str | None = None
) -> Tensor:
    """Running product along ``axis`` (``exclusive`` starts at 1)."""
    return bind(P.cumprod_p, x, axis=int(_axis(axis)), exclusive=bool(exclusive),  # type: ignore[arg-type]
                reverse=bool(reverse))  # fmt: skip


def squared_difference(x: Any, y: Any, name: str | None = None) -> Tensor:
    """Elementwise ``(x − y)²``."""
    return square(subtract(x, y))


def log_sigmoid(x: Any, name: str | None = None) -> Tensor:
    """Elementwise ``log σ(x) = −softplus(−x)``, TensorFlow's composite."""
    return negative(softplus(negative(x)))


def scalar_mul(scalar: Any, x: Any, name: str | None = None) -> Tensor:
    """``scalar · x``."""
    return multiply(scalar, x)
