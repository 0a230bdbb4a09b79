"""VJP rules of ``svd``, ``qr`` and ``eigh``: TensorFlow's (``linalg_grad.py``), one part each.

A decomposition's gradient is linear in the adjoints of its outputs, so the rule of each part
is TensorFlow's rule with the other parts' adjoints zero; the records of one call add up to
TensorFlow's gradient. Like every rule, they run on numpy values, or on Tensors inside another
tape (the decomposition is then bound again, so higher derivatives are taped too).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.engine import decomp_ops, impl_decomp
from tapeviz.engine import numeric as N
from tapeviz.engine import primitives as P
from tapeviz.engine.array_ops import concat
from tapeviz.engine.tensor import TensorLike
from tapeviz.engine.vjp_table import defvjp


def _mt(x: Any) -> Any:
    """Swap the last two axes."""
    nd = len(N.shape(x))
    return N.transpose(x, (*range(nd - 2), nd - 1, nd - 2))


def _mask(x: Any, rows: int, cols: int, kind: str) -> Any:
    """A 0/1 matrix of ``x``'s dtype: ``"tril"`` (lower triangle) or ``"off"`` (off-diagonal)."""
    dtype = x.dtype.np if isinstance(x, TensorLike) else np.asarray(x).dtype
    ones = np.ones((rows, cols), dtype=dtype)
    return np.tril(ones) if kind == "tril" else ones - np.eye(rows, cols, dtype=dtype)


def _safe_reciprocal(x: Any) -> Any:
    """TensorFlow's Lorentz-broadened ``1/x`` (finite where ``x`` is 0)."""
    return x * N.reciprocal(x * x + 1e-20)


def _pairwise(x: Any) -> Any:
    """``f[i, j] = 1 / (x_j − x_i)`` off the diagonal, 0 on it."""
    k = N.shape(x)[-1]
    row = N.reshape(x, (*N.shape(x)[:-1], 1, k))
    col = N.reshape(x, (*N.shape(x)[:-1], k, 1))
    return _safe_reciprocal(row - col) * _mask(x, k, k, "off")


def _cols(x: Any, start: int, stop: int | None) -> Any:
    return N.getitem(x, (Ellipsis, slice(None), slice(start, stop)))


def _concat_cols(a: Any, b: Any) -> Any:
    if isinstance(a, TensorLike) or isinstance(b, TensorLike):
        return concat([a, b], axis=-1)
    return np.concatenate([a, b], axis=-1)


def _svd_of(a: Any, full_matrices: bool) -> tuple[Any, Any, Any]:
    if isinstance(a, TensorLike):
        return decomp_ops.svd(a, full_matrices=full_matrices)
    return impl_decomp.svd_parts(a, full_matrices)


def _svd_vjp(g: Any, ans: Any, a: Any, part: str, full_matrices: bool, compute_uv: bool) -> Any:
    if part == "s":  # u · diag(ḡ) · vᵀ over the reduced factors (TensorFlow's term1 alone)
        s, u, v = _svd_of(a, False)
        return N.matmul(u, N.matmul(N.diag(g), v, transpose_b=True))
    s, u, v = _svd_of(a, full_matrices)
    gu, gv = (g, None) if part == "u" else (None, g)
    m, n = N.shape(a)[-2:]
    adjoint = m > n
    if adjoint:  # the rule for aᵀ = v · diag(s) · uᵀ, transposed at the end
        m, n, u, v, gu, gv = n, m, v, u, gv, gu
    if full_matrices and abs(m - n) > 1:
        raise NotImplementedError(
            "svd gradient is not implemented for abs(m - n) > 1 when full_matrices is True"
        )
    f = _pairwise(s * s)
    s_mat = N.diag(s)
    v1 = _cols(v, 0, m)
    if gu is not None:
        f_u = f * N.matmul(u, gu, transpose_a=True)
        inner = N.matmul(f_u + _mt(f_u), s_mat)
    else:
        gv1 = _cols(gv, 0, m)
        f_v = f * N.matmul(v1, gv1, transpose_a=True)
        inner = N.matmul(s_mat, f_v + _mt(f_v))
    grad = N.matmul(u, N.matmul(inner, v1, transpose_b=True))
    if m != n and gv is not None:
        gv1t = _mt(_cols(gv, 0, m))
        term2 = gv1t - N.matmul(N.matmul(gv1t, v1), v1, transpose_b=True)
        if full_matrices:
            v1t_gv2 = N.matmul(v1, _cols(gv, m, n), transpose_a=True)
            term2 = term2 - N.matmul(v1t_gv2, _cols(v, m, n), transpose_b=True)
        grad = grad + N.matmul(N.matmul(u, N.diag(_safe_reciprocal(s))), term2)
    return _mt(grad) if adjoint else grad


def _qr_of(a: Any, full_matrices: bool) -> tuple[Any, Any]:
    if isinstance(a, TensorLike):
        return tuple(decomp_ops.qr(a, full_matrices=full_matrices))  # type: ignore[return-value]
    return impl_decomp.qr_parts(a, full_matrices)


def _triangular_solve(x: Any, r: Any) -> Any:
    """``x · r⁻ᵀ`` for an upper-triangular ``r``."""
    return _mt(N.solve(r, _mt(x)))


def _qr_square_and_deep(q: Any, r: Any, dq: Any, dr: Any) -> Any:
    qdq = N.matmul(q, dq, transpose_a=True)
    rdr = N.matmul(r, dr, transpose_b=True)
    k = N.shape(qdq)[-1]
    tril = (qdq - _mt(qdq) + rdr - _mt(rdr)) * _mask(qdq, k, k, "tril")
    grad_a = N.matmul(q, dr + _triangular_solve(tril, r))
    return grad_a + _triangular_solve(dq - N.matmul(q, qdq), r)


def _qr_vjp(g: Any, ans: Any, a: Any, part: str, full_matrices: bool) -> Any:
    q, r = _qr_of(a, full_matrices)
    rows, cols = N.shape(a)[-2:]
    if full_matrices and rows > cols:
        raise NotImplementedError(
            "QrGrad not implemented when nrows > ncols and full_matrices is true."
        )
    dq, dr = (g, N.zeros_like(r)) if part == "q" else (N.zeros_like(q), g)
    if rows >= cols:
        return _qr_square_and_deep(q, r, dq, dr)
    # a = [x, y], r = [u, v]: reduced to the square case (arXiv:2009.10071, as TensorFlow)
    y, u = _cols(a, rows, None), _cols(r, 0, rows)
    dv, du = _cols(dr, rows, None), _cols(dr, 0, rows)
    dx = _qr_square_and_deep(q, u, dq + N.matmul(y, dv, transpose_b=True), du)
    return _concat_cols(dx, N.matmul(q, dv))


def _eigh_of(a: Any) -> tuple[Any, Any]:
    if isinstance(a, TensorLike):
        return decomp_ops.eigh(a)
    return impl_decomp.eigh_parts(a)


def _eigh_vjp(g: Any, ans: Any, a: Any, part: str, compute_v: bool) -> Any:
    e, v = _eigh_of(a)
    mid = N.diag(g) if part == "e" else _pairwise(e) * N.matmul(v, g, transpose_a=True)
    grad = N.matmul(v, N.matmul(mid, v, transpose_b=True))
    # The op reads the lower triangle only: symmetrise, keep it, halve the diagonal.
    k = N.shape(grad)[-1]
    grad = (grad + _mt(grad)) * _mask(grad, k, k, "tril")
    return grad - 0.5 * N.diag(N.diag_part(grad))


defvjp(P.svd_p, _svd_vjp, text=("Ā += TensorFlow's SVD rule: u·(diag(s̄) + F terms)·vᵀ",))
defvjp(P.qr_p, _qr_vjp, text=("Ā += TensorFlow's QR rule (triangular solves with R)",))
defvjp(P.eigh_p, _eigh_vjp, text=("Ā += v·(diag(ē) + F∘vᵀv̄)·vᵀ, on the lower triangle",))
