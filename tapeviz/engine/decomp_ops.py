"""``tf.linalg.svd``, ``qr``, ``eigh``, ``eigvalsh`` and ``tf.norm`` with all of its orders.

Each decomposition binds one primitive per output (``part="s"``, ``"u"``, ...), so every output
has its own record and gradient; the rules are TensorFlow's (``linalg_grad.py``). ``tf_norm``
is ``tf.norm``: TensorFlow's checks of ``ord`` and ``axis``, matrix norms over a pair of axes
(``1``, ``inf``, ``2`` as the largest singular value, ``'fro'``) and vector ``p``-norms, each
made of differentiable ops as TensorFlow makes it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from tapeviz.engine import primitives as P
from tapeviz.engine.array_ops import norm, reduce_max, reduce_sum, reshape, squeeze, transpose
from tapeviz.engine.core import bind
from tapeviz.engine.ops import abs as abs_op
from tapeviz.engine.tensor import Tensor, TensorLike, convert_to_tensor

__all__ = ["eigh", "eigvalsh", "qr", "svd", "tf_norm"]


class Qr(NamedTuple):
    """What ``tf.linalg.qr`` returns: ``q`` (orthonormal columns) and ``r`` (upper triangular)."""

    q: Tensor
    r: Tensor


def svd(
    tensor: Any, full_matrices: bool = False, compute_uv: bool = True, name: str | None = None
) -> Any:
    """Singular values ``s`` (descending), and ``u``, ``v`` with ``a = u · diag(s) · vᵀ``."""
    t = _tensor(tensor)
    fm, cuv = bool(full_matrices), bool(compute_uv)
    s = bind(P.svd_p, t, part="s", full_matrices=fm, compute_uv=cuv)
    if not cuv:
        return s
    u = bind(P.svd_p, t, part="u", full_matrices=fm, compute_uv=True)
    v = bind(P.svd_p, t, part="v", full_matrices=fm, compute_uv=True)
    return s, u, v


def qr(input: Any, full_matrices: bool = False, name: str | None = None) -> Qr:
    """The QR decomposition ``a = q · r`` (``full_matrices``: ``q`` square)."""
    t = _tensor(input)
    fm = bool(full_matrices)
    return Qr(
        bind(P.qr_p, t, part="q", full_matrices=fm), bind(P.qr_p, t, part="r", full_matrices=fm)
    )


def eigh(tensor: Any, name: str | None = None) -> tuple[Tensor, Tensor]:
    """Eigenvalues (ascending) and eigenvectors of a self-adjoint matrix (its lower triangle)."""
    t = _tensor(tensor)
    return bind(P.eigh_p, t, part="e", compute_v=True), bind(P.eigh_p, t, part="v", compute_v=True)


def eigvalsh(tensor: Any, name: str | None = None) -> Tensor:
    """Eigenvalues (ascending) of a self-adjoint matrix."""
    return bind(P.eigh_p, _tensor(tensor), part="e", compute_v=False)


def _tensor(x: Any) -> Any:
    return x if isinstance(x, TensorLike) else convert_to_tensor(x)


_MATRIX_NORMS = ["euclidean", "fro", 1, 2, np.inf]
_VECTOR_NORMS = ["euclidean", 1, 2, np.inf]


def _is_int(a: Any) -> bool:
    return isinstance(a, int | np.integer) and not isinstance(a, bool)


def _positive_real(ord: Any) -> bool:
    return isinstance(ord, int | float | np.integer | np.floating) and ord > 0


def tf_norm(
    tensor: Any,
    ord: Any = "euclidean",
    axis: Any = None,
    keepdims: Any = None,
    name: str | None = None,
) -> Tensor:
    """``tf.norm``: a vector norm (``axis`` None or an int) or a matrix norm (two axes)."""
    keep = bool(keepdims)
    matrix = isinstance(axis, tuple | list) and len(axis) == 2
    if matrix:
        axis = tuple(axis)
        if not _is_int(axis[0]) or not _is_int(axis[1]) or axis[0] == axis[1]:
            raise ValueError(
                f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}"
            )
        if not any(_same(ord, o) for o in _MATRIX_NORMS):
            raise ValueError(f"'ord' must be a supported matrix norm in {_MATRIX_NORMS}, got {ord}")
    else:
        if not (axis is None or _is_int(axis)):
            raise ValueError(
                f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}"
            )
        if not _positive_real(ord) and not any(_same(ord, o) for o in _VECTOR_NORMS):
            raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
    t = _tensor(tensor)
    nd = len(t.shape)
    axes = None if axis is None else tuple(int(a) % nd for a in (axis if matrix else (axis,)))
    if matrix and _same(ord, 2):
        return _matrix_2_norm(t, axes, keep)
    if matrix and (_same(ord, 1) or _same(ord, np.inf)):
        a0, a1 = axes if _same(ord, 1) else axes[::-1]
        sums = reduce_sum(abs_op(t), axis=a0, keepdims=True)
        out = reduce_max(sums, axis=a1, keepdims=True)
        return out if keep else squeeze(out, axis=axes)
    if ord in ("euclidean", "fro") or _same(ord, 1) or _same(ord, 2) or _same(ord, np.inf):
        kind = "euclidean" if ord in ("fro", 2, 2.0) else ord
        return norm(t, ord=kind, axis=axes, keepdims=keep)
    p = float(ord)  # a general p-norm, as TensorFlow composes it
    out = reduce_sum(abs_op(t) ** p, axis=axes, keepdims=keep) ** (1.0 / p)
    return out


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def _matrix_2_norm(t: Any, axes: tuple[int, int], keep: bool) -> Tensor:
    """The largest singular value over the two ``axes``, as TensorFlow computes it."""
    nd = len(t.shape)
    rest = [i for i in range(nd) if i not in axes]
    perm = (*rest, *axes)
    moved = t if perm == tuple(range(nd)) else transpose(t, perm)
    s = svd(moved, compute_uv=False)
    top = reduce_max(abs_op(s), axis=-1, keepdims=True)
    out = reshape(top, (*top.shape, 1))  # (..., 1, 1): the two axes, at the end
    back = tuple(int(np.argwhere(np.array(perm) == i)[0][0]) for i in range(nd))
    out = transpose(out, back) if back != tuple(range(nd)) else out
    return out if keep else squeeze(out, axis=axes)
