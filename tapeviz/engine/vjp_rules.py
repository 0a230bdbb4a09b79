"""VJP[prim]: one rule per input, ``rule(g, ans, *inputs, **params) -> input's gradient``.

``g`` is the adjoint of the op's output, ``ans`` its value. A rule of ``None`` means no gradient
path through that input (as TensorFlow's NotDifferentiable). Rules follow TensorFlow's gradient
definitions (``tensorflow/python/ops/math_grad.py``) including their choices at kinks and ties.
``RULE_TEXT`` holds the same rules in words for the UI.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.engine import numeric as N
from tapeviz.engine import primitives as P
from tapeviz.engine.primitives import Primitive
from tapeviz.engine.vjp_table import RULE_TEXT, VJP, Rule, Variadic, defvjp, keep, ub

# -- elementwise arithmetic ----------------------------------------------------------------
defvjp(P.add_p, lambda g, ans, x, y: ub(g, x), lambda g, ans, x, y: ub(g, y),
       text=("x̄ += ḡ", "ȳ += ḡ"))  # fmt: skip
defvjp(P.subtract_p, lambda g, ans, x, y: ub(g, x), lambda g, ans, x, y: ub(-g, y),
       text=("x̄ += ḡ", "ȳ += −ḡ"))  # fmt: skip
defvjp(P.multiply_p, lambda g, ans, x, y: ub(g * y, x), lambda g, ans, x, y: ub(x * g, y),
       text=("x̄ += ḡ · y", "ȳ += x · ḡ"))  # fmt: skip
defvjp(P.divide_p, lambda g, ans, x, y: ub(g / y, x),
       lambda g, ans, x, y: ub(g * (-x / y / y), y),
       text=("x̄ += ḡ / y", "ȳ += ḡ · (−x / y²)"))  # fmt: skip
defvjp(P.divide_no_nan_p, lambda g, ans, x, y: ub(N.divide_no_nan(g, y), x),
       lambda g, ans, x, y: ub(g * N.divide_no_nan(N.divide_no_nan(-x, y), y), y),
       text=("x̄ += ḡ / y (0 where y = 0)", "ȳ += ḡ · (−x / y²) (0 where y = 0)"))  # fmt: skip
defvjp(P.floordiv_p, None, None, text=("no gradient", "no gradient"))
defvjp(P.mod_p, lambda g, ans, x, y: ub(g, x),
       lambda g, ans, x, y: ub(-g * N.floordiv(x, y), y),
       text=("x̄ += ḡ", "ȳ += −ḡ · ⌊x / y⌋"))  # fmt: skip
defvjp(P.negative_p, lambda g, ans, x: -g, text=("x̄ += −ḡ",))


def _pow_x(g: Any, ans: Any, x: Any, y: Any) -> Any:
    return ub(g * y * N.pow(x, y - 1), x)


def _pow_y(g: Any, ans: Any, x: Any, y: Any) -> Any:
    pos = x > 0  # TensorFlow: log(x) is taken as 0 where x <= 0
    log_x = N.where(pos, N.log(N.where(pos, x, N.ones_like(x))), N.zeros_like(x))
    return ub(g * ans * log_x, y)


defvjp(P.pow_p, _pow_x, _pow_y, text=("x̄ += ḡ · y · x^(y−1)", "ȳ += ḡ · xʸ · ln x (0 if x ≤ 0)"))
defvjp(P.square_p, lambda g, ans, x: g * (x * 2), text=("x̄ += ḡ · 2x",))


def _nonzero_g(g: Any, value: Any) -> Any:
    """TensorFlow's Sqrt/Rsqrt/Reciprocal grad kernels give exactly 0 where ḡ is 0."""
    return N.where(g == 0, N.zeros_like(value), value)


defvjp(P.sqrt_p, lambda g, ans, x: _nonzero_g(g, 0.5 * g / ans), text=("x̄ += ḡ · 0.5 / √x",))
defvjp(P.rsqrt_p, lambda g, ans, x: _nonzero_g(g, -0.5 * (g * ans) * (ans * ans)),
       text=("x̄ += ḡ · (−½) · x^(−3/2)",))  # fmt: skip
defvjp(P.reciprocal_p, lambda g, ans, x: _nonzero_g(g, -ans * ans * g), text=("x̄ += −ḡ / x²",))

# -- transcendental and activations --------------------------------------------------------
defvjp(P.exp_p, lambda g, ans, x: g * ans, text=("x̄ += ḡ · eˣ",))
defvjp(P.log_p, lambda g, ans, x: g * N.reciprocal(x), text=("x̄ += ḡ / x",))
defvjp(P.log1p_p, lambda g, ans, x: g * N.reciprocal(1 + x), text=("x̄ += ḡ / (1 + x)",))
defvjp(P.expm1_p, lambda g, ans, x: g * N.exp(x), text=("x̄ += ḡ · eˣ",))
defvjp(P.sin_p, lambda g, ans, x: g * N.cos(x), text=("x̄ += ḡ · cos x",))
defvjp(P.cos_p, lambda g, ans, x: -g * N.sin(x), text=("x̄ += −ḡ · sin x",))
defvjp(P.tan_p, lambda g, ans, x: (N.reciprocal(N.cos(x)) * N.reciprocal(N.cos(x))) * g,
       text=("x̄ += ḡ / cos² x",))  # fmt: skip
defvjp(P.tanh_p, lambda g, ans, x: g * N.one_minus(ans * ans), text=("x̄ += ḡ · (1 − tanh² x)",))
defvjp(P.sigmoid_p, lambda g, ans, x: g * (ans * N.one_minus(ans)),
       text=("x̄ += ḡ · σ(x) · (1 − σ(x))",))  # fmt: skip
defvjp(P.softplus_p, lambda g, ans, x: g * N.sigmoid(x), text=("x̄ += ḡ · σ(x)",))
defvjp(P.relu_p, lambda g, ans, x: N.mask(g, ans > 0), text=("x̄ += ḡ if x > 0 else 0",))
defvjp(P.leaky_relu_p, lambda g, ans, x, alpha: N.where(x > 0, g, g * alpha),
       text=("x̄ += ḡ if x > 0 else α · ḡ",))  # fmt: skip
defvjp(P.abs_p, lambda g, ans, x: g * N.sign(x), text=("x̄ += ḡ · sign(x)",))
defvjp(P.sign_p, lambda g, ans, x: N.zeros_like(x), text=("x̄ += 0",))
defvjp(P.floor_p, None, text=("no gradient",))
defvjp(P.round_p, None, text=("no gradient",))


# -- selection -----------------------------------------------------------------------------
def _select(mask: Any, g: Any, x: Any, to_x: bool) -> Any:
    z = N.zeros_like(g)
    return ub(N.where(mask, g, z) if to_x else N.where(mask, z, g), x)


defvjp(P.maximum_p, lambda g, ans, x, y: _select(x >= y, g, x, True),
       lambda g, ans, x, y: _select(x >= y, g, y, False),
       text=("x̄ += ḡ where x ≥ y", "ȳ += ḡ where x < y"))  # fmt: skip
defvjp(P.minimum_p, lambda g, ans, x, y: _select(x <= y, g, x, True),
       lambda g, ans, x, y: _select(x <= y, g, y, False),
       text=("x̄ += ḡ where x ≤ y", "ȳ += ḡ where x > y"))  # fmt: skip


def _clip_parts(g: Any, x: Any, lo: Any, hi: Any) -> tuple[Any, Any, Any]:
    # clip_by_value = maximum(minimum(x, hi), lo); ties go to x at both steps.
    z = N.zeros_like(g)
    below_hi = x <= hi
    t = N.where(below_hi, x, N.zeros_like(x) + hi)
    above_lo = t >= lo
    g_t = N.where(above_lo, g, z)
    return N.where(below_hi, g_t, z), N.where(above_lo, z, g), N.where(below_hi, z, g_t)


defvjp(P.clip_by_value_p, lambda g, ans, x, lo, hi: _clip_parts(g, x, lo, hi)[0],
       lambda g, ans, x, lo, hi: ub(_clip_parts(g, x, lo, hi)[1], lo),
       lambda g, ans, x, lo, hi: ub(_clip_parts(g, x, lo, hi)[2], hi),
       text=("x̄ += ḡ where lo ≤ x ≤ hi", "lō += ḡ where x < lo",
             "hī += ḡ where x > hi"))  # fmt: skip
defvjp(P.where_p, None, lambda g, ans, c, x, y: _select(c, g, x, True),
       lambda g, ans, c, x, y: _select(c, g, y, False),
       text=("no gradient", "x̄ += ḡ where c", "ȳ += ḡ where not c"))  # fmt: skip
for _cmp in (P.less_p, P.less_equal_p, P.greater_p, P.greater_equal_p, P.equal_p,
             P.not_equal_p, P.logical_and_p, P.logical_or_p):  # fmt: skip
    defvjp(_cmp, None, None, text=("no gradient", "no gradient"))
defvjp(P.logical_not_p, None, text=("no gradient",))


# -- linear algebra and reductions ---------------------------------------------------------
def _matmul_a(g: Any, ans: Any, a: Any, b: Any, transpose_a: bool, transpose_b: bool) -> Any:
    if not transpose_a:
        ga = N.matmul(g, b, transpose_b=not transpose_b)
    else:
        ga = N.matmul(b, g, transpose_a=transpose_b, transpose_b=True)
    return ub(ga, a)


def _matmul_b(g: Any, ans: Any, a: Any, b: Any, transpose_a: bool, transpose_b: bool) -> Any:
    if not transpose_b:
        gb = N.matmul(a, g, transpose_a=not transpose_a)
    else:
        gb = N.matmul(g, a, transpose_a=True, transpose_b=transpose_a)
    return ub(gb, b)


defvjp(P.matmul_p, _matmul_a, _matmul_b, text=("Ā += Ḡ · Bᵀ", "B̄ += Aᵀ · Ḡ"))


def _sum_vjp(g: Any, ans: Any, x: Any, axis: Any, keepdims: bool) -> Any:
    return N.broadcast_to(keep(g, x, axis, keepdims), N.shape(x))


def _mean_vjp(g: Any, ans: Any, x: Any, axis: Any, keepdims: bool) -> Any:
    if axis is None and type(x) is np.ndarray and type(g) is x.dtype.type:  # the mean of all:
        share = np.empty(x.shape, x.dtype)  # each element's share, one array
        share.fill(g / max(1, x.size))
        return share
    count = max(1, _size(N.shape(x)) // max(1, _size(N.shape(ans))))
    return N.broadcast_to(keep(g, x, axis, keepdims), N.shape(x)) / count


def _size(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _minmax_vjp(g: Any, ans: Any, x: Any, axis: Any, keepdims: bool) -> Any:
    y = keep(ans, x, axis, keepdims)
    hits = N.where(N.equal(y, x), N.ones_like(x), N.zeros_like(x))
    count = keep(N.reduce_sum(hits, axis=axis, keepdims=keepdims), x, axis, keepdims)
    return hits / count * keep(g, x, axis, keepdims)


defvjp(P.reduce_sum_p, _sum_vjp, text=("x̄ += ḡ (broadcast)",))
defvjp(P.reduce_mean_p, _mean_vjp, text=("x̄ += ḡ / n (broadcast)",))
defvjp(P.reduce_max_p, _minmax_vjp, text=("x̄ += ḡ / k at the k maxima",))
defvjp(P.reduce_min_p, _minmax_vjp, text=("x̄ += ḡ / k at the k minima",))
defvjp(P.argmax_p, None, text=("no gradient",))
defvjp(P.argmin_p, None, text=("no gradient",))


def _norm_vjp(g: Any, ans: Any, x: Any, ord: Any, axis: Any, keepdims: bool) -> Any:
    gk = keep(g, x, axis, keepdims)
    if ord in (1, 1.0):
        return gk * N.sign(x)
    if ord in ("euclidean", "fro", 2, 2.0):
        return gk * x / keep(ans, x, axis, keepdims)
    return _minmax_vjp(g, ans, x * N.sign(x), axis, keepdims) * N.sign(x)


defvjp(P.norm_p, _norm_vjp, text=("x̄ += ḡ · x / ‖x‖",))


# -- shapes and structure ------------------------------------------------------------------
def _stack_vjp(argnum: int, g: Any, ans: Any, *xs: Any, axis: int) -> Any:
    nd = len(N.shape(ans))
    key = (slice(None),) * (axis % nd) + (argnum,)
    return N.getitem(g, key)


def _concat_vjp(argnum: int, g: Any, ans: Any, *xs: Any, axis: int) -> Any:
    nd = len(N.shape(ans))
    ax = axis % nd
    start = sum(N.shape(x)[ax] if N.shape(x) else 1 for x in xs[:argnum])
    width = N.shape(xs[argnum])[ax] if N.shape(xs[argnum]) else 1
    part = N.getitem(g, (slice(None),) * ax + (slice(start, start + width),))
    return N.reshape(part, N.shape(xs[argnum]))


VJP[P.stack_p] = Variadic(_stack_vjp)
RULE_TEXT[P.stack_p] = ("x̄ᵢ += ḡ[i]",)
VJP[P.concat_p] = Variadic(_concat_vjp)
RULE_TEXT[P.concat_p] = ("x̄ᵢ += ḡ[slice of xᵢ]",)


def _transpose_vjp(g: Any, ans: Any, x: Any, perm: Any) -> Any:
    if perm is None:
        return N.transpose(g, None)
    inverse = [0] * len(perm)
    for i, p in enumerate(perm):
        inverse[p] = i
    return N.transpose(g, tuple(inverse))


def _cast_vjp(g: Any, ans: Any, x: Any, dtype: Any) -> Any:
    return N.cast_like(g, x) if N.is_float(x) and dtype.is_floating else None


defvjp(P.reshape_p, lambda g, ans, x, shape: N.reshape(g, N.shape(x)), text=("x̄ += reshape(ḡ)",))
defvjp(P.transpose_p, _transpose_vjp, text=("x̄ += transpose(ḡ)",))
defvjp(P.broadcast_to_p, lambda g, ans, x, shape: ub(g, x), text=("x̄ += Σ ḡ over broadcast axes",))
defvjp(P.getitem_p, lambda g, ans, x, key: N.scatter(g, N.shape(x), key), text=("x̄[i] += ḡ",))
defvjp(P.scatter_p, lambda g, ans, x, shape, key: N.getitem(g, key), text=("x̄ += ḡ[i]",))
defvjp(P.cast_p, _cast_vjp, text=("x̄ += cast(ḡ) between float dtypes",))
defvjp(P.identity_p, lambda g, ans, x: g, text=("x̄ += ḡ",))
defvjp(P.stop_gradient_p, None, text=("gradient stopped",))


# The rules of the activation, extra maths, linear algebra and indexing primitives.
from tapeviz.engine import (  # noqa: E402, F401  (they fill VJP and RULE_TEXT)
    vjp_conv,
    vjp_decomp,
    vjp_fused,
    vjp_linalg,
    vjp_nchw,
    vjp_nn,
)

# Ops through which a watched input may reach no source: no rule for some input (stop_gradient,
# floor, comparisons, where's condition) or a rule that may give None (a cast to integers, a
# custom gradient function returning None).
DEAD_ENDS: frozenset[Primitive] = frozenset(
    [p for p, r in VJP.items() if r is None or (type(r) is tuple and None in r)]
    + [P.cast_p, P.custom_gradient_p]
)


def rule_for(prim: Primitive, argnum: int) -> Rule | None:
    """The VJP rule of ``prim`` for input ``argnum``, or None when there is no gradient path."""
    rules = VJP[prim]
    if rules is None:
        return None
    if isinstance(rules, Variadic):
        return rules[argnum]
    return rules[argnum] if argnum < len(rules) else None


def local_derivative(rec: Any, position: int) -> Any:
    """∂output/∂input ``position`` of a recorded op at its recorded values (the VJP of a 1).

    None where there is none: no path, or a ``custom_gradient`` (its gradient function need
    not be linear in the upstream, and may be known only by what it gave in the script).
    """
    rule = rule_for(rec.primitive, position)
    if rule is None or rec.primitive is P.custom_gradient_p:
        return None
    args = [x._value for x in rec.inputs]
    ans = rec.outputs[0]._value
    with np.errstate(all="ignore"):
        return rule(np.ones_like(ans), ans, *args, **rec.params)
