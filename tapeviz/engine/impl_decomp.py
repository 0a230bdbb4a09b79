"""IMPL of the matrix decompositions: ``svd``, ``qr`` and ``eigh``, one primitive each.

A decomposition has several outputs and a primitive one, so each primitive computes the whole
decomposition and returns the part its ``part`` param names (``"s"``, ``"u"``, ``"v"``;
``"q"``, ``"r"``; ``"e"``, ``"v"``). :mod:`tapeviz.engine.impl_rules` merges
:data:`IMPL_DECOMP` into ``IMPL``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine import primitives as P
from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.primitives import Primitive

IMPL_DECOMP: dict[Primitive, Callable[..., Any]] = {}
FLOAT_ONLY_DECOMP: frozenset[Primitive] = frozenset({P.svd_p, P.qr_p, P.eigh_p})


def _matrix(a: Any, op: str, square: bool = False) -> np.ndarray:
    arr = np.asarray(a)
    if arr.ndim < 2:
        raise InvalidArgumentError(
            f"{op}: input must have rank >= 2, got shape {list(arr.shape)}", op
        )
    if square and arr.shape[-1] != arr.shape[-2]:
        raise InvalidArgumentError(
            f"Input matrix must be square: {op} needs a (..., M, M) tensor, got shape "
            f"{list(arr.shape)}",
            op,
        )
    return arr


def _finite(arr: np.ndarray, op: str) -> None:
    if not np.all(np.isfinite(arr)):
        raise InvalidArgumentError(f"{op}: the input holds inf or nan values", op)


def svd_parts(a: Any, full_matrices: bool = False) -> tuple[Any, Any, Any]:
    """``s, u, v`` of ``a`` as TensorFlow returns them (``a = u · diag(s) · vᵀ``)."""
    arr = _matrix(a, "svd")
    _finite(arr, "svd")
    u, s, vh = np.linalg.svd(arr, full_matrices=full_matrices)
    return s, u, np.swapaxes(vh, -1, -2).copy()


def _svd(a: Any, *, part: str, full_matrices: bool = False, compute_uv: bool = True) -> Any:
    if part == "s":
        arr = _matrix(a, "svd")
        _finite(arr, "svd")
        return np.linalg.svd(arr, compute_uv=False)
    _, u, v = svd_parts(a, full_matrices)
    return u if part == "u" else v


def qr_parts(a: Any, full_matrices: bool = False) -> tuple[Any, Any]:
    """``q, r`` of ``a`` (``a = q · r``, ``r`` upper triangular)."""
    arr = _matrix(a, "qr")
    q, r = np.linalg.qr(arr, mode="complete" if full_matrices else "reduced")
    return q, r


def _qr(a: Any, *, part: str, full_matrices: bool = False) -> Any:
    q, r = qr_parts(a, full_matrices)
    return q if part == "q" else r


def eigh_parts(a: Any) -> tuple[Any, Any]:
    """Eigenvalues (ascending) and eigenvectors of a self-adjoint matrix's lower triangle."""
    arr = _matrix(a, "eigh", square=True)
    _finite(arr, "eigh")
    return np.linalg.eigh(arr, UPLO="L")


def _eigh(a: Any, *, part: str, compute_v: bool = True) -> Any:
    if part == "e" and not compute_v:
        arr = _matrix(a, "eigvalsh", square=True)
        _finite(arr, "eigvalsh")
        return np.linalg.eigvalsh(arr, UPLO="L")
    e, v = eigh_parts(a)
    return e if part == "e" else v


IMPL_DECOMP[P.svd_p] = _svd
IMPL_DECOMP[P.qr_p] = _qr
IMPL_DECOMP[P.eigh_p] = _eigh
