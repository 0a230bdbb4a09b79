"""VJP rules of the activations, softmax, cross-entropies and extra maths (TensorFlow's kernels).

Imported by :mod:`tapeviz.engine.vjp_rules`, which completes the tables. Each rule runs on raw
numpy values or, inside an enclosing tape, on Tensors (then it is itself differentiable).
"""

from __future__ import annotations

import math
from typing import Any

from tapeviz.engine import numeric as N
from tapeviz.engine import primitives as P
from tapeviz.engine.impl_nn import SELU_ALPHA, SELU_SCALE
from tapeviz.engine.vjp_table import defvjp, keep, ub

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_INV_SQRT_2 = 1.0 / math.sqrt(2.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_SQRT_2_OVER_PI = 0.7978845608028654
_GELU_COEFF = 0.044715

# -- activations ---------------------------------------------------------------------------
defvjp(P.elu_p, lambda g, ans, x: N.where(ans < 0, g * (ans + 1), g),
       text=("x̄ += ḡ if x > 0 else ḡ · eˣ",))  # fmt: skip
defvjp(P.selu_p, lambda g, ans, x: N.where(ans < 0, g * (ans + SELU_SCALE * SELU_ALPHA),
                                           g * SELU_SCALE),
       text=("x̄ += λ · ḡ if x > 0 else ḡ · λ·α·eˣ",))  # fmt: skip


def _gelu_vjp(g: Any, ans: Any, x: Any, approximate: bool) -> Any:
    if approximate:
        t = N.tanh(_SQRT_2_OVER_PI * (x + _GELU_COEFF * (x * x * x)))
        dt = N.one_minus(t * t) * (_SQRT_2_OVER_PI * (1 + 3 * _GELU_COEFF * (x * x)))
        return g * (0.5 * (1 + t) + 0.5 * x * dt)
    cdf = 0.5 * (1 + N.erf(x * _INV_SQRT_2))
    pdf = N.exp(-0.5 * (x * x)) * _INV_SQRT_2PI
    return g * (cdf + x * pdf)


defvjp(P.gelu_p, _gelu_vjp, text=("x̄ += ḡ · (Φ(x) + x·φ(x))",))
defvjp(P.relu6_p, lambda g, ans, x: N.mask(g, (x > 0) & (x < 6)),
       text=("x̄ += ḡ if 0 < x < 6 else 0",))  # fmt: skip
defvjp(P.softsign_p, lambda g, ans, x: g / ((1 + N.absolute(x)) * (1 + N.absolute(x))),
       text=("x̄ += ḡ / (1 + |x|)²",))  # fmt: skip


def _silu_vjp(g: Any, ans: Any, x: Any, beta: float) -> Any:
    s = N.sigmoid(x * beta)
    return g * (s * (1 + (x * beta) * N.one_minus(s)))


defvjp(P.silu_p, _silu_vjp, text=("x̄ += ḡ · σ(βx) · (1 + βx · (1 − σ(βx)))",))


def _softmax_vjp(g: Any, ans: Any, x: Any, axis: int) -> Any:
    return (g - N.reduce_sum(g * ans, axis=axis, keepdims=True)) * ans


def _log_softmax_vjp(g: Any, ans: Any, x: Any, axis: int) -> Any:
    return g - N.reduce_sum(g, axis=axis, keepdims=True) * N.exp(ans)


defvjp(P.softmax_p, _softmax_vjp, text=("x̄ += (ḡ − Σ ḡ·y) · y,  y = softmax(x)",))
defvjp(P.log_softmax_p, _log_softmax_vjp, text=("x̄ += ḡ − Σ ḡ · softmax(x)",))


def _xent_labels(g: Any, ans: Any, labels: Any, logits: Any, axis: int) -> Any:
    return keep(g, logits, axis, False) * -N.log_softmax(logits, axis)


def _xent_logits(g: Any, ans: Any, labels: Any, logits: Any, axis: int) -> Any:
    return keep(g, logits, axis, False) * (N.softmax(logits, axis) - labels)


defvjp(P.softmax_cross_entropy_p, _xent_labels, _xent_logits,
       text=("z̄ += −ḡ · log softmax(x)", "x̄ += ḡ · (softmax(x) − z)"))  # fmt: skip


def _sparse_xent_logits(g: Any, ans: Any, labels: Any, logits: Any) -> Any:
    onehot = N.one_hot_like(labels, N.shape(logits)[-1], logits)
    return keep(g, logits, -1, False) * (N.softmax(logits, -1) - onehot)


defvjp(P.sparse_softmax_cross_entropy_p, None, _sparse_xent_logits,
       text=("no gradient (class indices)", "x̄ += ḡ · (softmax(x) − onehot(label))"))  # fmt: skip

# -- more maths ----------------------------------------------------------------------------
defvjp(P.sinh_p, lambda g, ans, x: g * N.cosh(x), text=("x̄ += ḡ · cosh x",))
defvjp(P.cosh_p, lambda g, ans, x: g * N.sinh(x), text=("x̄ += ḡ · sinh x",))
defvjp(P.asin_p, lambda g, ans, x: g * N.reciprocal(N.sqrt(N.one_minus(x * x))),
       text=("x̄ += ḡ / √(1 − x²)",))  # fmt: skip
defvjp(P.acos_p, lambda g, ans, x: -g * N.reciprocal(N.sqrt(N.one_minus(x * x))),
       text=("x̄ += −ḡ / √(1 − x²)",))  # fmt: skip
defvjp(P.atan_p, lambda g, ans, x: g * N.reciprocal(1 + x * x), text=("x̄ += ḡ / (1 + x²)",))
defvjp(P.asinh_p, lambda g, ans, x: g * N.reciprocal(N.cosh(ans)),
       text=("x̄ += ḡ / cosh(asinh x)",))  # fmt: skip
defvjp(P.acosh_p, lambda g, ans, x: g * N.reciprocal(N.sinh(ans)),
       text=("x̄ += ḡ / sinh(acosh x)",))  # fmt: skip
defvjp(P.atanh_p, lambda g, ans, x: g * N.reciprocal(N.one_minus(x * x)),
       text=("x̄ += ḡ / (1 − x²)",))  # fmt: skip


def _atan2_y(g: Any, ans: Any, y: Any, x: Any) -> Any:
    return ub(x * (g / (x * x + y * y)), y)


def _atan2_x(g: Any, ans: Any, y: Any, x: Any) -> Any:
    return ub(-y * (g / (x * x + y * y)), x)


defvjp(P.atan2_p, _atan2_y, _atan2_x,
       text=("ȳ += ḡ · x / (x² + y²)", "x̄ += −ḡ · y / (x² + y²)"))  # fmt: skip
defvjp(P.erf_p, lambda g, ans, x: g * (_TWO_OVER_SQRT_PI * N.exp(-(x * x))),
       text=("x̄ += ḡ · 2/√π · e^(−x²)",))  # fmt: skip
defvjp(P.erfc_p, lambda g, ans, x: g * (-_TWO_OVER_SQRT_PI * N.exp(-(x * x))),
       text=("x̄ += −ḡ · 2/√π · e^(−x²)",))  # fmt: skip
for _p in (P.ceil_p, P.is_nan_p, P.is_inf_p, P.is_finite_p, P.reduce_any_p, P.reduce_all_p):
    defvjp(_p, None, text=("no gradient",))


# -- products, log-sum-exp, running sums ---------------------------------------------------
def _prod_vjp(g: Any, ans: Any, x: Any, axis: Any, keepdims: bool) -> Any:
    """TensorFlow's _ProdGrad: the product of the others as left and right cumprods (zeros ok)."""
    shape = tuple(N.shape(x))
    gk = N.broadcast_to(keep(g, x, axis, keepdims), shape)
    nd = len(shape)
    if nd == 0:
        return gk
    axes = (
        tuple(range(nd))
        if axis is None
        else tuple(a % nd for a in ((axis,) if isinstance(axis, int) else axis))
    )
    other = tuple(i for i in range(nd) if i not in axes)
    perm = axes + other
    permuted_shape = tuple(shape[i] for i in perm)
    reduced = _size(shape[i] for i in axes)
    rest = _size(shape[i] for i in other)
    flat = N.reshape(N.transpose(x, perm), (reduced, rest))
    left = N.cumprod(flat, 0, exclusive=True)
    right = N.cumprod(flat, 0, exclusive=True, reverse=True)
    y = N.reshape(left * right, permuted_shape)
    inverse = [0] * nd
    for i, p in enumerate(perm):
        inverse[p] = i
    return gk * N.transpose(y, tuple(inverse))


def _size(dims: Any) -> int:
    n = 1
    for d in dims:
        n *= int(d)
    return n


def _logsumexp_vjp(g: Any, ans: Any, x: Any, axis: Any, keepdims: bool) -> Any:
    return keep(g, x, axis, keepdims) * N.exp(x - keep(ans, x, axis, keepdims))


def _cumsum_vjp(g: Any, ans: Any, x: Any, axis: int, exclusive: bool, reverse: bool) -> Any:
    return N.cumsum(g, axis, exclusive=exclusive, reverse=not reverse)


def _cumprod_vjp(g: Any, ans: Any, x: Any, axis: int, exclusive: bool, reverse: bool) -> Any:
    out = N.cumsum(ans * g, axis, exclusive=exclusive, reverse=not reverse)
    return N.divide_no_nan(out, x)


defvjp(P.reduce_prod_p, _prod_vjp, text=("x̄ᵢ += ḡ · Π of the other elements",))
defvjp(P.reduce_logsumexp_p, _logsumexp_vjp, text=("x̄ += ḡ · softmax(x)",))
defvjp(P.cumsum_p, _cumsum_vjp, text=("x̄ += running Σ of ḡ, in the other direction",))
defvjp(P.cumprod_p, _cumprod_vjp, text=("x̄ += (running Σ of ḡ·y, other direction) / x",))
