"""VJP rules of convolution and pooling (TensorFlow's ``nn_grad.py``), closed under differentiation.

``conv2d``, its input gradient and its filter gradient are one bilinear map seen three ways
(``⟨conv2d(x, w), g⟩ = ⟨x, backprop_input(w, g)⟩ = ⟨w, backprop_filter(x, g)⟩``), so each one's
gradient is made of the other two; the max pool's gradient and its transpose
(``max_pool_grad_grad``) likewise, and the average pool's. Rules run on numpy values, or on
Tensors inside an enclosing tape (then they bind the primitives and are differentiable again).
Imported by :mod:`tapeviz.engine.vjp_rules`.
"""

from __future__ import annotations

from typing import Any

from tapeviz.engine import numeric as N
from tapeviz.engine import primitives as P
from tapeviz.engine.core import bind
from tapeviz.engine.impl_conv import IMPL_CONV
from tapeviz.engine.primitives import Primitive
from tapeviz.engine.tensor import TensorLike
from tapeviz.engine.vjp_table import defvjp


def _op(prim: Primitive, *args: Any, **params: Any) -> Any:
    """Run ``prim`` on raw values, or bind it (recorded) when any argument is a Tensor."""
    if any(isinstance(a, TensorLike) for a in args):
        return bind(prim, *args, **params)
    return IMPL_CONV[prim](*args, **params)


def _shape(x: Any) -> tuple[int, ...]:
    return tuple(int(d) for d in N.shape(x))


# -- convolution ---------------------------------------------------------------------------
def _conv_x(g: Any, ans: Any, x: Any, w: Any, **p: Any) -> Any:
    return _op(P.conv2d_backprop_input_p, w, g, input_shape=_shape(x), **p)


def _conv_w(g: Any, ans: Any, x: Any, w: Any, **p: Any) -> Any:
    return _op(P.conv2d_backprop_filter_p, x, g, filter_shape=_shape(w), **p)


defvjp(P.conv2d_p, _conv_x, _conv_w,
       text=("x̄ += conv2d_transpose(ḡ, w)", "w̄ += Σ over windows of x · ḡ"))  # fmt: skip


def _input_w(g: Any, ans: Any, w: Any, dy: Any, input_shape: Any, **p: Any) -> Any:
    return _op(P.conv2d_backprop_filter_p, g, dy, filter_shape=_shape(w), **p)


def _input_dy(g: Any, ans: Any, w: Any, dy: Any, input_shape: Any, **p: Any) -> Any:
    return _op(P.conv2d_p, g, w, **p)


defvjp(P.conv2d_backprop_input_p, _input_w, _input_dy,
       text=("w̄ += Σ over windows of ḡ · dy", "dȳ += conv2d(ḡ, w)"))  # fmt: skip


def _filter_x(g: Any, ans: Any, x: Any, dy: Any, filter_shape: Any, **p: Any) -> Any:
    return _op(P.conv2d_backprop_input_p, g, dy, input_shape=_shape(x), **p)


def _filter_dy(g: Any, ans: Any, x: Any, dy: Any, filter_shape: Any, **p: Any) -> Any:
    return _op(P.conv2d_p, x, g, **p)


defvjp(P.conv2d_backprop_filter_p, _filter_x, _filter_dy,
       text=("x̄ += conv2d_transpose(dy, ḡ)", "dȳ += conv2d(x, ḡ)"))  # fmt: skip


# -- pooling -------------------------------------------------------------------------------
def _max_pool_vjp(g: Any, ans: Any, x: Any, **p: Any) -> Any:
    return _op(P.max_pool_grad_p, x, g, **p)


defvjp(P.max_pool_p, _max_pool_vjp, text=("x̄ += ḡ at each window's (first) maximum",))


def _no_curvature(g: Any, ans: Any, x: Any, other: Any, **p: Any) -> Any:
    """The max pool is piecewise linear: moving ``x`` does not change its gradient (TF: 0)."""
    return N.zeros_like(x)


def _grad_dy(g: Any, ans: Any, x: Any, dy: Any, **p: Any) -> Any:
    return _op(P.max_pool_grad_grad_p, x, g, **p)


def _grad_grad_u(g: Any, ans: Any, x: Any, u: Any, **p: Any) -> Any:
    return _op(P.max_pool_grad_p, x, g, **p)


defvjp(P.max_pool_grad_p, _no_curvature, _grad_dy,
       text=("x̄ += 0 (piecewise linear)", "dȳ += ḡ at each window's maximum"))  # fmt: skip
defvjp(P.max_pool_grad_grad_p, _no_curvature, _grad_grad_u,
       text=("x̄ += 0 (piecewise linear)", "ū += ḡ sent back to each window's maximum"))  # fmt: skip


def _avg_pool_vjp(g: Any, ans: Any, x: Any, **p: Any) -> Any:
    return _op(P.avg_pool_grad_p, g, input_shape=_shape(x), **p)


def _avg_pool_grad_vjp(g: Any, ans: Any, dy: Any, input_shape: Any, **p: Any) -> Any:
    return _op(P.avg_pool_p, g, **p)


defvjp(P.avg_pool_p, _avg_pool_vjp, text=("x̄ += ḡ shared equally over each window",))
defvjp(P.avg_pool_grad_p, _avg_pool_grad_vjp, text=("dȳ += avg_pool(ḡ)",))
