"""VJP rules of the linear algebra, einsum, pad, tile, gather and custom-gradient primitives.

Imported by :mod:`tapeviz.engine.vjp_rules`. The einsum rule is an einsum of the output's
adjoint with the other operands; repeated subscripts (``"ii->i"``, ``"bxby->bxy"``) put the
adjoint back on the diagonal with an identity operand.
"""

from __future__ import annotations

from typing import Any

from tapeviz.engine import numeric as N
from tapeviz.engine import primitives as P
from tapeviz.engine.vjp_table import RULE_TEXT, VJP, Variadic, defvjp, ub


def _diag_part_vjp(g: Any, ans: Any, x: Any) -> Any:
    shape = tuple(N.shape(x))
    full = N.diag(g)
    k = N.shape(g)[-1]
    if shape[-2:] == (k, k):
        return full
    return N.scatter(full, shape, (Ellipsis, slice(0, k), slice(0, k)))


defvjp(P.diag_p, lambda g, ans, x: N.diag_part(g), text=("x̄ += diagonal of Ḡ",))
defvjp(P.diag_part_p, _diag_part_vjp, text=("X̄ += diag(ḡ)",))


def _solve_a(g: Any, ans: Any, a: Any, b: Any, adjoint: bool) -> Any:
    gb = N.solve(a, g, adjoint=not adjoint)
    if adjoint:
        return ub(-N.matmul(ans, gb, transpose_b=True), a)
    return ub(-N.matmul(gb, ans, transpose_b=True), a)


def _solve_b(g: Any, ans: Any, a: Any, b: Any, adjoint: bool) -> Any:
    return ub(N.solve(a, g, adjoint=not adjoint), b)


defvjp(P.solve_p, _solve_a, _solve_b,
       text=("Ā += −(A⁻ᵀ Ḡ) Xᵀ", "B̄ += A⁻ᵀ Ḡ"))  # fmt: skip


def _inv_vjp(g: Any, ans: Any, a: Any, adjoint: bool) -> Any:
    inner = N.matmul(g, ans, transpose_a=adjoint, transpose_b=not adjoint)
    return -N.matmul(ans, inner, transpose_a=not adjoint)


def _det_vjp(g: Any, ans: Any, a: Any) -> Any:
    scale = N.reshape(g * ans, (*N.shape(ans), 1, 1))
    return scale * N.inv(a, adjoint=True)


defvjp(P.inv_p, _inv_vjp, text=("Ā += −A⁻ᵀ Ḡ A⁻ᵀ",))
defvjp(P.det_p, _det_vjp, text=("Ā += ḡ · det A · A⁻ᵀ",))


# -- einsum --------------------------------------------------------------------------------
def _einsum_vjp(argnum: int, g: Any, ans: Any, *xs: Any, equation: str) -> Any:
    lhs, out = equation.split("->")
    subs = lhs.split(",")
    mine = subs[argnum]
    others = [s for i, s in enumerate(subs) if i != argnum]
    available = set(out).union(*others)
    unique = "".join(dict.fromkeys(mine))
    sizes = {c: N.shape(xs[argnum])[mine.index(c)] for c in unique}
    kept = "".join(c for c in unique if c in available)
    grad = N.einsum(",".join([out, *others]) + "->" + kept,
                    g, *[x for i, x in enumerate(xs) if i != argnum])  # fmt: skip
    # letters broadcast from size 1 in this operand: sum them back
    gshape = N.shape(grad)
    squeeze = tuple(i for i, c in enumerate(kept) if sizes[c] == 1 and gshape[i] != 1)
    if squeeze:
        grad = N.reduce_sum(grad, axis=squeeze, keepdims=True)
    if len(kept) < len(unique):  # letters summed inside this operand only: broadcast back
        spread = tuple(sizes[c] if c in kept else 1 for c in unique)
        grad = N.broadcast_to(N.reshape(grad, spread), tuple(sizes[c] for c in unique))
    if len(unique) < len(mine):  # repeated letters: the adjoint goes on the diagonal
        fresh = [c for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                 if c not in equation]  # fmt: skip
        seen: set[str] = set()
        target, eyes, eye_subs = [], [], []
        for c in mine:
            if c in seen:
                d = fresh.pop(0)
                target.append(d)
                eye_subs.append(c + d)
                eyes.append(N.eye_like(sizes[c], grad))
            else:
                seen.add(c)
                target.append(c)
        grad = N.einsum(",".join([unique, *eye_subs]) + "->" + "".join(target), grad, *eyes)
    return grad


VJP[P.einsum_p] = Variadic(_einsum_vjp)
RULE_TEXT[P.einsum_p] = ("x̄ᵢ += einsum of ḡ with the other operands",)


# -- pad, tile, gather ---------------------------------------------------------------------
def _pad_vjp(g: Any, ans: Any, x: Any, paddings: Any, constant_values: Any) -> Any:
    key = tuple(slice(lo, lo + n) for (lo, _), n in zip(paddings, N.shape(x), strict=True))
    return N.getitem(g, key)


def _tile_vjp(g: Any, ans: Any, x: Any, multiples: tuple[int, ...]) -> Any:
    shape = tuple(N.shape(x))
    if not shape:
        return g
    split: list[int] = []
    for m, d in zip(multiples, shape, strict=True):
        split += [m, d]
    return N.reduce_sum(N.reshape(g, tuple(split)), axis=tuple(range(0, 2 * len(shape), 2)))


defvjp(P.pad_p, _pad_vjp, text=("x̄ += ḡ without the padding",))
defvjp(P.tile_p, _tile_vjp, text=("x̄ += Σ of ḡ over the tiles",))
defvjp(P.gather_p, lambda g, ans, x, idx, axis: N.scatter_add(g, idx, axis, tuple(N.shape(x))),
       None, text=("x̄[indices] += ḡ (repeats add up)", "no gradient (indices)"))  # fmt: skip
defvjp(P.scatter_add_p, lambda g, ans, u, idx, axis, shape: N.gather(g, idx, axis), None,
       text=("ū += ḡ[indices]", "no gradient (indices)"))  # fmt: skip


def _custom_vjp(argnum: int, g: Any, ans: Any, *xs: Any, grad_fn: Any, name: str = "") -> Any:
    return grad_fn.vjp(argnum, g, ans, *xs)


VJP[P.custom_gradient_p] = Variadic(_custom_vjp)
RULE_TEXT[P.custom_gradient_p] = ("x̄ᵢ += the function's own gradient of ḡ",)
