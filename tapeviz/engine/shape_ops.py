"""Indexing and rearranging: pad, tile, gather, gather_nd, one_hot, meshgrid, split, sort, ...

``pad`` (constant mode), ``tile`` and ``gather`` are primitives; the others are composed from
them and from reshape/getitem, so each has TensorFlow's gradient without a rule of its own.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from tapeviz.engine import dtypes
from tapeviz.engine import primitives as P
from tapeviz.engine.array_ops import _new_shape, broadcast_to, getitem, reshape
from tapeviz.engine.core import bind
from tapeviz.engine.errors import EngineTypeError, InvalidArgumentError
from tapeviz.engine.tensor import Tensor, TensorLike, constant, convert_to_tensor

__all__ = [
    "boolean_mask",
    "gather",
    "gather_nd",
    "meshgrid",
    "one_hot",
    "pad",
    "repeat",
    "reverse",
    "roll",
    "slice",
    "split",
    "tile",
    "unstack",
]


def _t(x: Any) -> TensorLike:
    return x if isinstance(x, TensorLike) else convert_to_tensor(x)


def _ints(x: Any, what: str) -> np.ndarray:
    arr = np.asarray(x._value if isinstance(x, TensorLike) else x)
    if arr.dtype.kind not in "iu":
        raise EngineTypeError(f"{what} must be integers, got {arr.dtype}", what)
    return arr


def pad(
    tensor: Any,
    paddings: Any,
    mode: str = "CONSTANT",
    constant_values: Any = 0,
    name: str | None = None,
) -> Tensor:
    """Pad each dimension by ``paddings[i] = [before, after]`` (CONSTANT, REFLECT or SYMMETRIC)."""
    t = _t(tensor)
    pads = tuple((int(lo), int(hi)) for lo, hi in _ints(paddings, "pad: paddings").tolist())
    kind = str(mode).upper()
    if kind == "CONSTANT":
        value = (
            constant_values._value if isinstance(constant_values, TensorLike) else constant_values
        )
        return bind(P.pad_p, t, paddings=pads, constant_values=np.asarray(value).item())
    if kind not in ("REFLECT", "SYMMETRIC"):
        raise InvalidArgumentError(f"pad: unknown mode {mode!r}", "pad")
    if len(pads) != len(t.shape):
        raise InvalidArgumentError(
            f"The first dimension of paddings must be the rank of inputs[{len(pads)},2] vs "
            f"{list(t.shape)}",
            "pad",
        )
    out: Any = t
    for axis, (lo, hi) in enumerate(pads):
        if lo or hi:  # mirror padding is a gather of mirrored indices along each axis
            out = gather(out, _mirror(int(t.shape[axis]), lo, hi, kind), axis=axis)
    return out if out is not t else bind(P.identity_p, t)


def _mirror(n: int, lo: int, hi: int, kind: str) -> np.ndarray:
    edge = 1 if kind == "REFLECT" else 0
    if lo > n - edge or hi > n - edge:
        raise InvalidArgumentError(
            f"paddings must be less than{' or equal to' if not edge else ''} the dimension size: "
            f"{lo}, {hi} vs {n}",
            "pad",
        )
    idx = np.arange(n)
    before = idx[edge : lo + edge][::-1]
    after = idx[n - hi - edge : n - edge][::-1]
    return np.concatenate([before, idx, after]).astype(np.int32)


def tile(input: Any, multiples: Any, name: str | None = None) -> Tensor:
    """Repeat ``input`` ``multiples[i]`` times along each dimension."""
    reps = tuple(int(m) for m in _ints(multiples, "tile: multiples").reshape(-1).tolist())
    t = _t(input)
    _new_shape(tuple(d * m for d, m in zip(t.shape, reps, strict=False)), "tile")
    return bind(P.tile_p, t, multiples=reps)


def gather(
    params: Any,
    indices: Any,
    validate_indices: Any = None,
    axis: Any = None,
    batch_dims: int = 0,
    name: str | None = None,
) -> Tensor:
    """Slices of ``params`` at ``indices`` along ``axis`` (0 by default)."""
    if batch_dims:
        raise InvalidArgumentError("gather: batch_dims is not supported in tapeviz", "gather")
    p = _t(params)
    idx = _t(indices)
    if not idx.dtype.is_integer:
        raise EngineTypeError(
            f"Value passed to parameter 'indices' has DataType {idx.dtype.name} not in list of "
            "allowed values: int16, int32, int64",
            "gather",
        )
    nd = len(p.shape)
    ax = 0 if axis is None else int(axis)
    if not -nd <= ax < max(nd, 1) or nd == 0:
        raise InvalidArgumentError(
            f"Expected axis in the range [{-nd}, {nd}), but got {ax}", "gather"
        )
    return bind(P.gather_p, p, idx, axis=ax % nd)


def gather_nd(params: Any, indices: Any, batch_dims: int = 0, name: str | None = None) -> Tensor:
    """``params[indices[..., 0], indices[..., 1], ...]`` for each index row."""
    if batch_dims:
        raise InvalidArgumentError("gather_nd: batch_dims is not supported in tapeviz", "gather_nd")
    p = _t(params)
    idx = _ints(indices, "gather_nd: indices")
    k = idx.shape[-1] if idx.ndim else 0
    if idx.ndim == 0 or k > len(p.shape):
        raise InvalidArgumentError(
            f"gather_nd: index depth {k} exceeds the rank of params {list(p.shape)}", "gather_nd"
        )
    lead = tuple(int(d) for d in p.shape[:k])
    for j, n in enumerate(lead):
        bad = (idx[..., j] < 0) | (idx[..., j] >= n)
        if bad.any():
            row = idx[np.unravel_index(int(np.flatnonzero(bad)[0]), bad.shape)]
            raise InvalidArgumentError(
                f"indices{list(np.unravel_index(int(np.flatnonzero(bad)[0]), bad.shape))} = "
                f"{row.tolist()} does not index into param shape {list(p.shape)}",
                "gather_nd",
            )
    linear = (
        np.ravel_multi_index(tuple(np.moveaxis(idx, -1, 0)), lead)
        if k
        else np.zeros(idx.shape[:-1], dtype=np.int64)
    )
    flat = reshape(p, (int(np.prod(lead, dtype=np.int64)), *p.shape[k:]))
    return gather(flat, constant(np.asarray(linear, dtype=np.int64)), axis=0)


def one_hot(
    indices: Any,
    depth: int,
    on_value: Any = None,
    off_value: Any = None,
    axis: int | None = None,
    dtype: Any = None,
    name: str | None = None,
) -> Tensor:
    """A one-hot encoding of integer ``indices`` (indices outside ``[0, depth)`` give zeros)."""
    idx = _ints(indices, "one_hot: indices")
    d = int(depth)
    if dtype is not None:
        dt = dtypes.as_dtype(dtype)
    elif isinstance(on_value, TensorLike):
        dt = on_value.dtype
    elif isinstance(on_value, float) or on_value is None:
        dt = dtypes.float32
    else:
        dt = dtypes.as_dtype(type(on_value))
    on = 1 if on_value is None else np.asarray(getattr(on_value, "_value", on_value)).item()
    off = 0 if off_value is None else np.asarray(getattr(off_value, "_value", off_value)).item()
    _new_shape((*idx.shape, d), "one_hot")
    hot = idx[..., None] == np.arange(d)
    out = np.where(hot, np.asarray(on, dt.np), np.asarray(off, dt.np))
    if axis is not None and axis != -1:
        out = np.moveaxis(out, -1, int(axis))
    return constant(np.ascontiguousarray(out))


def meshgrid(*args: Any, indexing: str = "xy", name: str | None = None) -> list[Tensor]:
    """Coordinate grids from 1-D tensors (``indexing="xy"``: the first two axes swapped)."""
    if indexing not in ("xy", "ij"):
        raise InvalidArgumentError("meshgrid: indexing must be 'xy' or 'ij'", "meshgrid")
    xs = [_t(a) for a in args]
    n = len(xs)
    sizes = [int(np.size(x._value)) for x in xs]
    shapes = [[1] * n for _ in xs]
    for i in range(n):
        shapes[i][i] = -1
    if indexing == "xy" and n > 1:
        shapes[0][0], shapes[0][1] = 1, -1
        shapes[1][0], shapes[1][1] = -1, 1
        sizes[0], sizes[1] = sizes[1], sizes[0]
    return [
        broadcast_to(reshape(x, tuple(s)), tuple(sizes)) for x, s in zip(xs, shapes, strict=True)
    ]


def reverse(tensor: Any, axis: Any, name: str | None = None) -> Tensor:
    """Reverse the order of elements along each of ``axis``."""
    t = _t(tensor)
    out: Any = t
    for a in np.atleast_1d(_ints(axis, "reverse: axis")).tolist():
        n = int(t.shape[a])
        out = gather(out, constant(np.arange(n - 1, -1, -1, dtype=np.int32)), axis=a)
    return out


def roll(input: Any, shift: Any, axis: Any, name: str | None = None) -> Tensor:
    """Shift elements cyclically by ``shift`` along ``axis`` (each may be a list)."""
    t = _t(input)
    shifts = np.atleast_1d(_ints(shift, "roll: shift")).tolist()
    axes = np.atleast_1d(_ints(axis, "roll: axis")).tolist()
    out: Any = t
    for s, a in zip(shifts, axes, strict=True):
        n = int(t.shape[a])
        out = gather(out, constant(((np.arange(n) - s) % n).astype(np.int32)), axis=a)
    return out


def repeat(input: Any, repeats: Any, axis: int | None = None, name: str | None = None) -> Tensor:
    """Repeat each element ``repeats`` times along ``axis`` (flattened when None)."""
    t = _t(input)
    if axis is None:
        t = reshape(t, (-1,))
        axis = 0
    n = int(t.shape[axis])
    idx = np.repeat(np.arange(n), _ints(repeats, "repeat: repeats"))
    return gather(t, constant(idx.astype(np.int32)), axis=axis)


def split(
    value: Any, num_or_size_splits: Any, axis: int = 0, num: int | None = None,
    name: str | None = None,
) -> list[Tensor]:  # fmt: skip
    """Split along ``axis`` into equal parts (an int) or parts of the given sizes."""
    t = _t(value)
    n = int(t.shape[axis])
    sizes = np.atleast_1d(_ints(num_or_size_splits, "split: num_or_size_splits")).tolist()
    if len(sizes) == 1 and not isinstance(num_or_size_splits, list | tuple | TensorLike):
        k = sizes[0]
        if k <= 0 or n % k:
            raise InvalidArgumentError(
                f"Number of ways to split should evenly divide the split dimension, but got "
                f"split_dim {axis} (size = {n}) and num_split {k}",
                "split",
            )
        sizes = [n // k] * k
    if -1 in sizes:
        sizes[sizes.index(-1)] = n - (sum(sizes) + 1)
    if sum(sizes) != n:
        raise InvalidArgumentError(
            f"Determined shape must either match input shape along split_dim exactly if fully "
            f"specified, or be less than the size of the input along split_dim if not fully "
            f"specified.  Got: {sum(sizes)}",
            "split",
        )
    ax = axis % len(t.shape)
    out, start = [], 0
    for s in sizes:
        out.append(getitem(t, (*(builtins.slice(None),) * ax, builtins.slice(start, start + s))))
        start += s
    return out


def unstack(
    value: Any, num: int | None = None, axis: int = 0, name: str | None = None
) -> list[Tensor]:
    """The slices of ``value`` along ``axis``, as a list."""
    t = _t(value)
    if not t.shape:
        raise InvalidArgumentError("Cannot unstack a scalar (rank 0) tensor", "unstack")
    ax = axis % len(t.shape)
    n = int(t.shape[ax])
    if num is not None and int(num) != n:
        raise InvalidArgumentError(f"unstack: num={num} but the axis has {n} elements", "unstack")
    return [getitem(t, (builtins.slice(None),) * ax + (i,)) for i in range(n)]


def slice(input_: Any, begin: Any, size: Any, name: str | None = None) -> Tensor:
    """The block of ``size`` (−1: to the end) starting at ``begin``."""
    t = _t(input_)
    starts = _ints(begin, "slice: begin").reshape(-1).tolist()
    sizes = _ints(size, "slice: size").reshape(-1).tolist()
    key = tuple(
        builtins.slice(b, None if s == -1 else b + s) for b, s in zip(starts, sizes, strict=True)
    )
    return getitem(t, key)


def boolean_mask(
    tensor: Any, mask: Any, axis: int | None = None, name: str | None = None
) -> Tensor:
    """The elements (or slices) of ``tensor`` where the bool ``mask`` is true."""
    t = _t(tensor)
    m = np.asarray(mask._value if isinstance(mask, TensorLike) else mask, dtype=bool)
    ax = 0 if axis is None else int(axis)
    k = m.ndim
    if k == 0 or tuple(t.shape[ax : ax + k]) != m.shape:
        raise InvalidArgumentError(
            f"Shapes {tuple(t.shape[ax : ax + k])} and {m.shape} are incompatible "
            "(the mask must match the leading dimensions it selects)",
            "boolean_mask",
        )
    shape = tuple(t.shape)
    merged = reshape(t, (*shape[:ax], int(np.prod(m.shape, dtype=np.int64)), *shape[ax + k :]))
    return gather(merged, constant(np.flatnonzero(m).astype(np.int64)), axis=ax)
