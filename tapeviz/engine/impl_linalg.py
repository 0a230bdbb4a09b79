"""IMPL of the linear-algebra, einsum, padding, tiling, gather and custom-gradient primitives.

:mod:`tapeviz.engine.impl_rules` merges :data:`IMPL_LINALG` into ``IMPL``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine import primitives as P
from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.primitives import Primitive

IMPL_LINALG: dict[Primitive, Callable[..., Any]] = {}
FLOAT_ONLY_LINALG: frozenset[Primitive] = frozenset({P.solve_p, P.inv_p, P.det_p})


def _square(a: Any, op: str) -> None:
    shape = np.shape(a)
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise InvalidArgumentError(
            f"Input matrix must be square: {op} needs a (..., M, M) tensor, got shape "
            f"{list(shape)}",
            op,
        )


def _singular(op: str) -> InvalidArgumentError:
    return InvalidArgumentError("Input matrix is not invertible.", op)


def _diag(x: Any) -> Any:
    arr = np.asarray(x)
    if arr.ndim == 0:
        raise InvalidArgumentError("diag needs a tensor of rank ≥ 1 (the diagonal)", "diag")
    n = arr.shape[-1]
    out = np.zeros((*arr.shape, n), dtype=arr.dtype)
    idx = np.arange(n)
    out[..., idx, idx] = arr
    return out


def _diag_part(x: Any) -> Any:
    arr = np.asarray(x)
    if arr.ndim < 2:
        raise InvalidArgumentError(
            f"diag_part needs a tensor of rank ≥ 2, got shape {list(arr.shape)}", "diag_part"
        )
    return np.diagonal(arr, axis1=-2, axis2=-1).copy()


def _solve(a: Any, b: Any, *, adjoint: bool = False) -> Any:
    _square(a, "solve")
    sa, sb = np.shape(a), np.shape(b)
    if len(sb) < 2 or sb[-2] != sa[-1]:
        raise InvalidArgumentError(
            f"Input matrix and right-hand side must have the same number of rows: matrix "
            f"{list(sa)}, rhs {list(sb)} (the right-hand side is (..., M, K))",
            "solve",
        )
    m = np.swapaxes(a, -1, -2) if adjoint else a
    try:
        return np.linalg.solve(m, b)
    except np.linalg.LinAlgError:
        raise _singular("solve") from None


def _inv(a: Any, *, adjoint: bool = False) -> Any:
    _square(a, "inv")
    m = np.swapaxes(a, -1, -2) if adjoint else a
    try:
        return np.linalg.inv(m)
    except np.linalg.LinAlgError:
        raise _singular("inv") from None


def _det(a: Any) -> Any:
    _square(a, "det")
    return np.linalg.det(a)


def _einsum(*xs: Any, equation: str) -> Any:
    return np.einsum(equation, *xs)


IMPL_LINALG[P.diag_p] = _diag
IMPL_LINALG[P.diag_part_p] = _diag_part
IMPL_LINALG[P.solve_p] = _solve
IMPL_LINALG[P.inv_p] = _inv
IMPL_LINALG[P.det_p] = _det
IMPL_LINALG[P.einsum_p] = _einsum


# -- padding, tiling, gathering ------------------------------------------------------------
def _pad(x: Any, *, paddings: tuple[tuple[int, int], ...], constant_values: Any = 0) -> Any:
    arr = np.asarray(x)
    if len(paddings) != arr.ndim:
        raise InvalidArgumentError(
            f"The first dimension of paddings must be the rank of inputs "
            f"[{len(paddings)},2] vs {list(arr.shape)}",
            "pad",
        )
    if any(lo < 0 or hi < 0 for lo, hi in paddings):
        raise InvalidArgumentError(f"Paddings must be non-negative: {paddings}", "pad")
    return np.pad(arr, paddings, constant_values=np.asarray(constant_values, arr.dtype))


def _tile(x: Any, *, multiples: tuple[int, ...]) -> Any:
    arr = np.asarray(x)
    if len(multiples) != arr.ndim:
        raise InvalidArgumentError(
            f"Expected multiples argument to be a vector of length {arr.ndim} but got length "
            f"{len(multiples)}",
            "tile",
        )
    if any(m < 0 for m in multiples):
        raise InvalidArgumentError(f"Expected multiples[i] >= 0, got {multiples}", "tile")
    return np.tile(arr, multiples)


def check_indices(indices: Any, n: int, op: str) -> None:
    """Raise TensorFlow's error if an index is outside ``[0, n)``."""
    idx = np.asarray(indices)
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        flat = idx.reshape(-1)
        k = int(np.flatnonzero((flat < 0) | (flat >= n))[0])
        pos = ",".join(str(int(i)) for i in np.unravel_index(k, idx.shape)) if idx.ndim else ""
        raise InvalidArgumentError(f"indices[{pos}] = {int(flat[k])} is not in [0, {n})", op)


def _gather(params: Any, indices: Any, *, axis: int = 0) -> Any:
    arr = np.asarray(params)
    check_indices(indices, arr.shape[axis], "gather")
    return np.take(arr, np.asarray(indices, dtype=np.int64), axis=axis)


def _scatter_add(updates: Any, indices: Any, *, axis: int, shape: tuple[int, ...]) -> Any:
    up = np.asarray(updates)
    out = np.zeros(shape, dtype=up.dtype)
    key = (slice(None),) * axis + (np.asarray(indices, dtype=np.int64),)
    np.add.at(out, key, up)
    return out


IMPL_LINALG[P.pad_p] = _pad
IMPL_LINALG[P.tile_p] = _tile
IMPL_LINALG[P.gather_p] = _gather
IMPL_LINALG[P.scatter_add_p] = _scatter_add


def _custom_gradient(*xs: Any, grad_fn: Any, name: str = "") -> Any:
    """The forward of a ``tf.custom_gradient`` function, run again on ``xs`` (replay)."""
    return grad_fn.forward(*xs)


IMPL_LINALG[P.custom_gradient_p] = _custom_gradient
