"""Sorting and counting: sort, argsort, top_k, unique, sequence_mask.

``sort`` and ``top_k`` gather each element from its place, so the gradient flows back to it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from tapeviz.engine import dtypes
from tapeviz.engine.array_ops import _new_shape, reshape, transpose
from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.shape_ops import _ints, _t, gather
from tapeviz.engine.tensor import Tensor, TensorLike, constant

__all__ = ["argsort", "sequence_mask", "sort", "top_k", "unique"]


def _along(x: TensorLike, axis: int, order: np.ndarray) -> Tensor:
    """``x`` reordered along ``axis`` by per-row ``order`` (a gather on the flattened rows)."""
    nd = len(x.shape)
    ax = axis % nd
    perm = [*(i for i in range(nd) if i != ax), ax]
    moved: Any = x if ax == nd - 1 else transpose(x, tuple(perm))
    rows = int(np.prod(moved.shape[:-1], dtype=np.int64))
    n = int(moved.shape[-1])
    k = order.shape[-1]
    o = np.moveaxis(order, ax, -1).reshape(rows, k)
    linear = (np.arange(rows)[:, None] * n + o).reshape(-1)
    flat = gather(reshape(moved, (rows * n,)), constant(linear.astype(np.int64)))
    out = reshape(flat, (*moved.shape[:-1], k))
    if ax == nd - 1:
        return out
    inverse = np.argsort(perm)
    return transpose(out, tuple(int(i) for i in inverse))


def argsort(
    values: Any, axis: int = -1, direction: str = "ASCENDING", stable: bool = False,
    name: str | None = None,
) -> Tensor:  # fmt: skip
    """Indices that sort ``values`` along ``axis`` (int32; no gradient)."""
    v = np.asarray(_t(values)._value)
    if direction not in ("ASCENDING", "DESCENDING"):
        raise InvalidArgumentError(f"argsort: unknown direction {direction!r}", "argsort")
    order = np.argsort(-v if direction == "DESCENDING" else v, axis=axis, kind="stable")
    return constant(order.astype(np.int32))


def sort(
    values: Any, axis: int = -1, direction: str = "ASCENDING", name: str | None = None
) -> Tensor:
    """``values`` sorted along ``axis`` (the gradient flows back to each element's place)."""
    t = _t(values)
    order = np.asarray(argsort(t, axis=axis, direction=direction)._value)
    return _along(t, axis, order)


class TopKV2(NamedTuple):
    """The result of ``top_k``: values and their indices."""

    values: Tensor
    indices: Tensor


def top_k(input: Any, k: int = 1, sorted: bool = True, name: str | None = None) -> TopKV2:
    """The ``k`` largest entries of the last axis and their indices."""
    t = _t(input)
    v = np.asarray(t._value)
    order = np.argsort(-v, axis=-1, kind="stable")[..., : int(k)]
    return TopKV2(_along(t, -1, order), constant(order.astype(np.int32)))


def sequence_mask(
    lengths: Any, maxlen: Any = None, dtype: Any = dtypes.bool_, name: str | None = None
) -> Tensor:
    """``mask[i, j] = j < lengths[i]``."""
    n = _ints(lengths, "sequence_mask: lengths")
    m = int(n.max()) if maxlen is None and n.size else int(maxlen or 0)
    _new_shape((*n.shape, m), "sequence_mask")
    return constant((np.arange(m) < n[..., None]).astype(dtypes.as_dtype(dtype).np))


class Unique(NamedTuple):
    """The result of ``unique``: the distinct values in order of appearance, and the index map."""

    y: Tensor
    idx: Tensor


def unique(x: Any, out_idx: Any = dtypes.int32, name: str | None = None) -> Unique:
    """Distinct values of a 1-D tensor in order of first appearance, and each element's index."""
    v = np.asarray(_t(x)._value)
    if v.ndim != 1:
        raise InvalidArgumentError(
            f"unique expects a 1D vector, got shape {list(v.shape)}", "unique"
        )
    _, first, inverse = np.unique(v, return_index=True, return_inverse=True)
    order = np.argsort(first)
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    out = dtypes.as_dtype(out_idx).np
    return Unique(constant(v[np.sort(first)]), constant(rank[inverse].astype(out)))
