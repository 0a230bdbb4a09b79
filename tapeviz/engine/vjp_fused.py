"""VJP rules of the fused ops (:mod:`tapeviz.engine.fused`): the rules of the ops they fuse.

Each rule chains the unfused ops' own rules in the order the backward walk would run them
(recomputing the fused op's cheap intermediates), so the adjoints are the unfused ones bit for
bit; a numpy fast path may write the same chain inline where the arithmetic is the same. On
Tensors (inside an enclosing tape) the chained rules record themselves, so a second derivative
works too. Imported by :mod:`tapeviz.engine.vjp_rules`, which defines the chained rules first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numpy import empty, ndarray

from tapeviz.engine import numeric as N
from tapeviz.engine import primitives as P
from tapeviz.engine.vjp_table import VJP, Rule, defvjp

_MATMUL_A, _MATMUL_B = VJP[P.matmul_p]  # type: ignore[misc]
_ADD_B = VJP[P.add_p][1]  # type: ignore[index]
_SUB_A, _SUB_B = VJP[P.subtract_p]  # type: ignore[misc]
_MUL_A, _MUL_B = VJP[P.multiply_p]  # type: ignore[misc]
_MEAN = VJP[P.reduce_mean_p][0]  # type: ignore[index]
_SQUARE = VJP[P.square_p][0]  # type: ignore[index]
_RELU = VJP[P.relu_p][0]  # type: ignore[index]


# -- dense: f's rule, then add's and matmul's -------------------------------------------------
def _dense_rules(f: Rule | None) -> tuple[Rule, Rule]:
    """Both inputs' rules of ``f(a @ W + w₀)``, ``b = [W; w₀]``, for f's rule ``f(ḡ, f(z), z)``.

    They share ḡ·f′ through a one-entry memo keyed on the record's adjoint and output objects
    (it holds them, so their ids cannot be reused while it does).
    """
    last: tuple[Any, Any, Any] = (None, None, None)

    def z(g: Any, ans: Any) -> Any:  # the adjoint of a @ W + w₀
        nonlocal last
        memo = last  # one read: another thread may replace the tuple, never change it
        if memo[0] is g and memo[1] is ans:
            return memo[2]
        gz = g if f is None else f(g, ans, None)  # f's rules read only ḡ and f's output
        last = (g, ans, gz)
        return gz

    def rule_a(g: Any, ans: Any, a: Any, b: Any) -> Any:
        gz = z(g, ans)
        if type(gz) is ndarray and type(b) is ndarray and gz.ndim == 2 and b.ndim == 2:
            return gz @ b[:-1].T  # matmul's rule on matrices, already a's shape (ub: unchanged)
        return _MATMUL_A(gz, None, a, N.getitem(b, _KERNEL), False, False)

    def rule_b(g: Any, ans: Any, a: Any, b: Any) -> Any:
        gz = z(g, ans)
        if type(gz) is ndarray and type(a) is ndarray and gz.ndim == 2 and a.ndim == 2:
            out = empty(b.shape, gz.dtype)
            out[:-1] = a.T @ gz  # matmul's rule on matrices: W's adjoint
            out[-1] = gz.sum(0, dtype=gz.dtype)  # add's rule (ub of a bias): w₀'s
            return out
        kernel = _MATMUL_B(gz, None, a, N.getitem(b, _KERNEL), False, False)
        bias = _ADD_B(gz, None, None, N.getitem(b, -1))
        shape = N.shape(b)
        return N.scatter(kernel, shape, _KERNEL) + N.scatter(bias, shape, -1)

    return rule_a, rule_b


_KERNEL = slice(None, -1)
_DENSE_TEXT = ("Ā += (ḡ · f′) · Wᵀ", "B̄ += [Aᵀ · (ḡ · f′); ḡ · f′ summed over rows]")
for _prim, _f in (
    (P.dense_linear_p, None),
    (P.dense_relu_p, _RELU),
    (P.dense_tanh_p, VJP[P.tanh_p][0]),  # type: ignore[index]
    (P.dense_sigmoid_p, VJP[P.sigmoid_p][0]),  # type: ignore[index]
):
    defvjp(_prim, *_dense_rules(_f), text=_DENSE_TEXT)


# -- the losses: the mean's rule, then the loss's ops' ------------------------------------------
# Python's 0.5 and 1.0 stand for the float constants the unfused ops bind (exact in every float
# dtype, so the products are the same). Where an unfused rule reads only the shape of its input
# (the mean's), it is given an intermediate of that shape and dtype, said below.
def _square_d(g: Any, ans: Any, a: Any, b: Any) -> Any:
    """The adjoint of ``d = a − b`` in ``mean(square(d)) · ½`` (``ans`` has the mean's shape)."""
    d = a - b
    if type(d) is ndarray and type(g) is d.dtype.type:  # the chain below on a numpy batch:
        return ((g * 0.5) / max(1, d.size)) * (d * 2)  # each element's share of ḡ·½, · 2d
    g_mean = _MUL_A(g, None, ans, 0.5)
    g_square = _MEAN(g_mean, ans, d, None, False)  # reads only the shape of square(d): d's
    return _SQUARE(g_square, None, d)


def _hinge_m(g: Any, ans: Any, a: Any, b: Any) -> Any:
    """The adjoint of ``m = b · a`` in ``mean(relu(1 − m))``."""
    m = b * a
    s = 1.0 - m
    g_relu = _MEAN(g, ans, s, None, False)  # reads only the shape of relu(s): s's
    g_s = _RELU(g_relu, s, s)  # reads relu(s) > 0, which is s > 0
    return _SUB_B(g_s, None, None, m)


def _rules(
    inner: Callable[[Any, Any, Any, Any], Any], last_a: Rule, last_b: Rule
) -> tuple[Rule, Rule]:
    """Both inputs' rules: ``inner``'s adjoint through the loss's first op's two rules."""

    def rule_a(g: Any, ans: Any, a: Any, b: Any) -> Any:
        return last_a(inner(g, ans, a, b), None, a, b)

    def rule_b(g: Any, ans: Any, a: Any, b: Any) -> Any:
        return last_b(inner(g, ans, a, b), None, a, b)

    return rule_a, rule_b


defvjp(P.square_loss_p, *_rules(_square_d, _SUB_A, _SUB_B),
       text=("ā += ḡ · (a − b) / n", "b̄ += −ḡ · (a − b) / n"))  # fmt: skip
# b · a: multiply's rules with the labels b first (x) and the outputs a second (y)
defvjp(P.hinge_loss_p,
       *_rules(_hinge_m, lambda g, ans, a, b: _MUL_B(g, None, b, a),
               lambda g, ans, a, b: _MUL_A(g, None, b, a)),
       text=("ā += −ḡ · b / n where b · a < 1", "b̄ += −ḡ · a / n where b · a < 1"))  # fmt: skip
