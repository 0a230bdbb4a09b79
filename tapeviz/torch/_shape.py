"""torch's shape and indexing ops: ``view``, ``reshape``, ``t``, ``cat``, ``x[i]``, ``x[i] = v``."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

import numpy as np

from tapeviz import engine as E
from tapeviz.engine.numeric import scatter
from tapeviz.torch import _dtypes as D
from tapeviz.torch._ops import apply, as_tensor_arg, engine_of
from tapeviz.torch._tensor import Tensor, _dim


def _sizes(args: Sequence[Any]) -> tuple[int, ...]:
    if len(args) == 1 and isinstance(args[0], list | tuple):
        args = tuple(args[0])
    return tuple(int(a) for a in args)


def _reshaped(x: Tensor, shape: tuple[int, ...], name: str) -> Tensor:
    n = x.numel()
    known = int(np.prod([d for d in shape if d != -1])) if shape else 1
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    if (-1 in shape and (known == 0 or n % known)) or (-1 not in shape and known != n):
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {n}")
    return apply(name, E.reshape, [x], x._t, shape)


def reshape(input: Tensor, *shape: Any) -> Tensor:
    """The same elements in a new shape (one ``-1`` is inferred)."""
    return _reshaped(input, _sizes(shape), "ViewBackward0")


def view(input: Tensor, *shape: Any) -> Tensor:
    """The same elements in a new shape (a view in torch)."""
    if len(shape) == 1 and isinstance(shape[0], D.dtype):
        raise RuntimeError("view(dtype) is not supported in tapeviz: use .to(dtype)")
    return _reshaped(input, _sizes(shape), "ViewBackward0")


def view_as(input: Tensor, other: Tensor) -> Tensor:
    """Reshaped like ``other``."""
    return view(input, tuple(other.shape))


reshape_as = view_as


def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """Dimensions ``start_dim..end_dim`` merged into one."""
    shape = tuple(input.shape)
    if not shape:
        return reshape(input, (1,))
    a, b = _dim(start_dim, len(shape)), _dim(end_dim, len(shape))
    new = (*shape[:a], int(np.prod(shape[a : b + 1])), *shape[b + 1 :])
    return _reshaped(input, new, "ViewBackward0")


def squeeze(input: Tensor, dim: Any = None) -> Tensor:
    """Dimensions of length 1 removed (only ``dim``'s if given)."""
    shape = tuple(input.shape)
    if dim is None:
        new = tuple(d for d in shape if d != 1)
        return apply("SqueezeBackward0", E.reshape, [input], input._t, new)
    dims = dim if isinstance(dim, tuple | list) else (dim,)
    drop = [_dim(d, len(shape)) for d in dims] if shape else []
    new = tuple(d for i, d in enumerate(shape) if not (i in drop and d == 1))
    return apply("SqueezeBackward1", E.reshape, [input], input._t, new)


def unsqueeze(input: Tensor, dim: int) -> Tensor:
    """A new dimension of length 1 at ``dim``."""
    d = _dim(dim, input.ndim + 1)
    return apply("UnsqueezeBackward0", E.expand_dims, [input], input._t, d)


def t(input: Tensor) -> Tensor:
    """The transpose of a matrix (vectors and scalars unchanged)."""
    if input.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input.ndim}D")
    if input.ndim < 2:
        return apply("TBackward0", E.identity, [input], input._t)
    return apply("TBackward0", E.transpose, [input], input._t)


def transpose(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """Dimensions ``dim0`` and ``dim1`` swapped."""
    n = input.ndim
    perm = list(range(n))
    a, b = _dim(dim0, n), _dim(dim1, n)
    perm[a], perm[b] = perm[b], perm[a]
    return apply("TransposeBackward0", E.transpose, [input], input._t, perm)


swapaxes = swapdims = transpose


def permute(input: Tensor, *dims: Any) -> Tensor:
    """Dimensions reordered."""
    perm = [_dim(d, input.ndim) for d in _sizes(dims)]
    return apply("PermuteBackward0", E.transpose, [input], input._t, perm)


def expand(input: Tensor, *sizes: Any) -> Tensor:
    """Broadcast to ``sizes`` (``-1`` keeps a dimension)."""
    want = _sizes(sizes)
    shape = (1,) * (len(want) - input.ndim) + tuple(input.shape)
    full = tuple(s if w == -1 else w for s, w in zip(shape, want, strict=True))
    return apply("ExpandBackward0", E.broadcast_to, [input], input._t, full)


def expand_as(input: Tensor, other: Tensor) -> Tensor:
    """Broadcast to ``other``'s shape."""
    return expand(input, tuple(other.shape))


def repeat(input: Tensor, *sizes: Any) -> Tensor:
    """Tiled ``sizes`` times along each dimension."""
    reps = _sizes(sizes)
    x = input
    if len(reps) > x.ndim:
        x = reshape(x, (1,) * (len(reps) - x.ndim) + tuple(x.shape))
    return apply("RepeatBackward0", E.tile, [x], x._t, reps)


def cat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """Tensors joined along an existing dimension."""
    ts = [as_tensor_arg(t) for t in tensors]
    if not ts:
        raise RuntimeError("torch.cat(): expected a non-empty list of Tensors")
    want = D.result_type(*ts)
    d = _dim(dim, ts[0].ndim)
    return apply("CatBackward0", E.concat, ts, [engine_of(t, want) for t in ts], d)


concat = concatenate = cat


def stack(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    """Tensors joined along a new dimension."""
    ts = [as_tensor_arg(t) for t in tensors]
    if not ts:
        raise RuntimeError("stack expects a non-empty TensorList")
    shapes = list(dict.fromkeys(tuple(t.shape) for t in ts))
    if len(shapes) > 1:
        raise RuntimeError(
            f"stack expects each tensor to be equal size, but got {list(shapes[0])} at entry 0 "
            f"and {list(shapes[1])} at entry {[tuple(t.shape) for t in ts].index(shapes[1])}"
        )
    want = D.result_type(*ts)
    d = _dim(dim, ts[0].ndim + 1)
    return apply("StackBackward0", E.stack, ts, [engine_of(t, want) for t in ts], d)


def unbind(input: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """The slices along ``dim``."""
    d = _dim(dim, input.ndim)
    key = (slice(None),) * d
    return tuple(getitem(input, (*key, i)) for i in range(input.shape[d]))


def split(tensor: Tensor, split_size_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """Pieces of ``split_size`` (or the given sizes) along ``dim``."""
    d = _dim(dim, tensor.ndim)
    n = tensor.shape[d]
    if isinstance(split_size_or_sections, int):
        size = split_size_or_sections
        sizes = [builtins.min(size, n - s) for s in range(0, n, size)] if size else [n]
    else:
        sizes = [int(s) for s in split_size_or_sections]
    out, start = [], 0
    for s in sizes:
        out.append(getitem(tensor, (*(slice(None),) * d, slice(start, start + s))))
        start += s
    return tuple(out)


def chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """``chunks`` pieces along ``dim`` (the last may be smaller)."""
    n = input.shape[_dim(dim, input.ndim)]
    return split(input, -(-n // chunks) if n else 1, dim)


def flip(input: Tensor, dims: Any) -> Tensor:
    """Elements reversed along ``dims``."""
    ds = dims if isinstance(dims, list | tuple) else [dims]
    key = [slice(None)] * input.ndim
    for d in ds:
        key[_dim(d, input.ndim)] = slice(None, None, -1)
    return apply("FlipBackward0", E.getitem, [input], input._t, tuple(key))


def clone(input: Tensor, *, memory_format: Any = None) -> Tensor:
    """A copy (recorded in the graph)."""
    return apply("CloneBackward0", E.identity, [input], input._t)


def contiguous(input: Tensor, memory_format: Any = None) -> Tensor:
    """The tensor itself (tapeviz's tensors are always contiguous)."""
    return input


def index_select(input: Tensor, dim: int, index: Tensor) -> Tensor:
    """The slices at ``index`` along ``dim``."""
    d = _dim(dim, input.ndim)
    idx = np.asarray(as_tensor_arg(index)._t._value).astype(np.int64)
    return apply("IndexSelectBackward0", E.gather, [input], input._t, idx, axis=d)


def gather(input: Tensor, dim: int, index: Tensor) -> Tensor:
    """``out[i][j] = input[index[i][j]][j]`` for ``dim=0`` (and so on)."""
    d = _dim(dim, input.ndim)
    idx = np.asarray(index._t._value).astype(np.int64)
    grids = list(np.indices(idx.shape, sparse=True))
    grids[d] = idx
    return apply("GatherBackward0", E.getitem, [input], input._t, tuple(grids))


# -- indexing -------------------------------------------------------------------------------------


def _key(key: Any) -> Any:
    if isinstance(key, tuple):
        return tuple(_key_part(k) for k in key)
    return _key_part(key)


def _key_part(k: Any) -> Any:
    if isinstance(k, Tensor):
        v = np.asarray(k._t._value)
        if v.dtype == np.bool_:
            return v
        if v.dtype.kind not in "iu":
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        return int(v) if v.ndim == 0 else v
    if isinstance(k, list):
        return np.asarray(k)
    return k


def _index_name(key: Any) -> str:
    parts = key if isinstance(key, tuple) else (key,)
    if builtins.any(isinstance(p, np.ndarray) for p in parts):
        return "IndexBackward0"
    if builtins.all(isinstance(p, int) for p in parts):
        return "SelectBackward0"
    return "SliceBackward0"


def getitem(input: Tensor, key: Any) -> Tensor:
    """``input[key]``: integers, slices, ``...``, ``None``, index and mask tensors."""
    k = _key(key)
    try:
        np.empty(input._t._value.shape, np.bool_)[k]
    except IndexError as exc:
        raise IndexError(_index_message(exc, input)) from None
    return apply(_index_name(k), E.getitem, [input], input._t, k)


def _index_message(exc: IndexError, x: Tensor) -> str:
    text = str(exc)
    if "out of bounds" in text:
        import re

        m = re.search(r"index (-?\d+) is out of bounds for axis (\d+) with size (\d+)", text)
        if m:
            return (f"index {m.group(1)} is out of bounds for dimension {m.group(2)} with size "
                    f"{m.group(3)}")  # fmt: skip
    if "too many indices" in text:
        return f"too many indices for tensor of dimension {x.ndim}"
    return text


def setitem(input: Tensor, key: Any, value: Any) -> None:
    """``input[key] = value``, in place (recorded when a graph needs it)."""
    k = _key(key)
    x = input
    x._check_inplace()
    v = as_tensor_arg(value)
    want = x.dtype
    mask = np.zeros(x._t._value.shape, np.bool_)
    try:
        mask[k] = True
    except IndexError as exc:
        raise IndexError(_index_message(exc, x)) from None
    shape = np.empty(x._t._value.shape, np.bool_)[k].shape

    def fn(base: Any, val: Any) -> Any:
        put = scatter(E.broadcast_to(val, shape), tuple(mask.shape), k)
        return E.where(E.constant(mask), put, base)

    ev = engine_of(v, want)
    if not isinstance(ev, E.Tensor | tuple):  # a number: a constant (a _Cast is a tuple)
        ev = E.constant(ev)
    x._become(apply("CopySlices", fn, [x, v], x._t, ev))
