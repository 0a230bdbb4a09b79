"""User-facing array ops: linear algebra, reductions, shapes, indexing and creation helpers."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

import numpy as np

from tapeviz.engine import dtypes
from tapeviz.engine import primitives as P
from tapeviz.engine.core import bind
from tapeviz.engine.errors import EngineTypeError, InvalidArgumentError
from tapeviz.engine.guard import check_elements, shape_size
from tapeviz.engine.strings import cast_to_string, filled
from tapeviz.engine.tensor import Tensor, TensorLike, Variable, constant, convert_to_tensor

__all__ = [
    "add_n",
    "argmax",
    "argmin",
    "broadcast_to",
    "cast",
    "concat",
    "expand_dims",
    "fill",
    "getitem",
    "identity",
    "linspace",
    "matmul",
    "norm",
    "ones",
    "ones_like",
    "range",
    "rank",
    "reduce_max",
    "reduce_mean",
    "reduce_min",
    "reduce_sum",
    "reshape",
    "shape",
    "size",
    "squeeze",
    "stack",
    "stop_gradient",
    "transpose",
    "zeros",
    "zeros_like",
]


def matmul(
    a: Any,
    b: Any,
    transpose_a: bool = False,
    transpose_b: bool = False,
    adjoint_a: bool = False,
    adjoint_b: bool = False,
    name: str | None = None,
) -> Tensor:
    """Matrix product of rank ≥ 2 tensors (batched over leading dimensions)."""
    return bind(
        P.matmul_p, a, b, transpose_a=transpose_a or adjoint_a, transpose_b=transpose_b or adjoint_b
    )


def _axis(axis: Any) -> int | tuple[int, ...] | None:
    if axis is None:
        return None
    if isinstance(axis, TensorLike):
        axis = np.asarray(axis._value).tolist()
    if isinstance(axis, list | tuple):
        return tuple(int(a) for a in axis)
    return int(axis)


def reduce_sum(
    input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None
) -> Tensor:
    """Sum over ``axis`` (all axes when None)."""
    return bind(P.reduce_sum_p, input_tensor, axis=_axis(axis), keepdims=bool(keepdims))


def reduce_mean(
    input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None
) -> Tensor:
    """Mean over ``axis`` (all axes when None)."""
    return bind(P.reduce_mean_p, input_tensor, axis=_axis(axis), keepdims=bool(keepdims))


def reduce_max(
    input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None
) -> Tensor:
    """Maximum over ``axis``; tied maxima share the gradient equally."""
    return bind(P.reduce_max_p, input_tensor, axis=_axis(axis), keepdims=bool(keepdims))


def reduce_min(
    input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None
) -> Tensor:
    """Minimum over ``axis``; tied minima share the gradient equally."""
    return bind(P.reduce_min_p, input_tensor, axis=_axis(axis), keepdims=bool(keepdims))


def argmax(
    input: Any, axis: Any = None, output_type: Any = dtypes.int64, name: str | None = None
) -> Tensor:
    """Index of the largest value along ``axis`` (0 when None); no gradient."""
    out = dtypes.as_dtype(output_type).np
    return bind(P.argmax_p, input, axis=0 if axis is None else int(axis), output_type=out)


def argmin(
    input: Any, axis: Any = None, output_type: Any = dtypes.int64, name: str | None = None
) -> Tensor:
    """Index of the smallest value along ``axis`` (0 when None); no gradient."""
    out = dtypes.as_dtype(output_type).np
    return bind(P.argmin_p, input, axis=0 if axis is None else int(axis), output_type=out)


def norm(
    tensor: Any,
    ord: Any = "euclidean",
    axis: Any = None,
    keepdims: Any = None,
    name: str | None = None,
) -> Tensor:
    """Vector norm (euclidean/fro, 1 or inf) over ``axis`` (all elements when None)."""
    return bind(P.norm_p, tensor, ord=ord, axis=_axis(axis), keepdims=bool(keepdims))


def stack(values: Sequence[Any], axis: int = 0, name: str | None = None) -> Tensor:
    """Stack same-shaped tensors along a new axis."""
    if not isinstance(values, list | tuple) or not values:
        raise EngineTypeError("stack: expected a non-empty list of tensors", "stack")
    return bind(P.stack_p, *values, axis=int(axis))


def concat(values: Sequence[Any], axis: int, name: str | None = None) -> Tensor:
    """Concatenate tensors along an existing axis."""
    if not isinstance(values, list | tuple) or not values:
        raise EngineTypeError("concat: expected a non-empty list of tensors", "concat")
    return bind(P.concat_p, *values, axis=int(axis))


def _shape(shape: Any) -> tuple[int, ...]:
    if isinstance(shape, TensorLike):
        shape = np.asarray(shape._value).tolist()
    if isinstance(shape, int | np.integer):
        return (int(shape),)
    return tuple(int(s) for s in shape)


def _new_shape(shape: Any, what: str) -> tuple[int, ...]:
    """A shape for a tensor about to be created, checked against the size limit."""
    dims = _shape(shape)
    check_elements(shape_size(dims), what)
    return dims


def reshape(tensor: Any, shape: Any, name: str | None = None) -> Tensor:
    """Reshape (one dimension may be -1)."""
    return bind(P.reshape_p, tensor, shape=_shape(shape))


def transpose(a: Any, perm: Any = None, conjugate: bool = False, name: str | None = None) -> Tensor:
    """Permute dimensions (reverse them when ``perm`` is None)."""
    return bind(P.transpose_p, a, perm=None if perm is None else _shape(perm))


def broadcast_to(input: Any, shape: Any, name: str | None = None) -> Tensor:
    """Broadcast to ``shape``."""
    return bind(P.broadcast_to_p, input, shape=_shape(shape))


def expand_dims(input: Any, axis: int, name: str | None = None) -> Tensor:
    """Insert a length-1 dimension at ``axis`` (a reshape)."""
    t = convert_to_tensor(input) if not isinstance(input, TensorLike) else input
    return reshape(t, np.expand_dims(np.empty(t.shape, dtype=bool), int(axis)).shape)


def squeeze(input: Any, axis: Any = None, name: str | None = None) -> Tensor:
    """Remove length-1 dimensions (a reshape)."""
    t = convert_to_tensor(input) if not isinstance(input, TensorLike) else input
    return reshape(t, np.squeeze(np.empty(t.shape, dtype=bool), _axis(axis)).shape)


def _index_part(k: Any) -> Any:
    if isinstance(k, TensorLike):
        return np.asarray(k._value)
    if isinstance(k, list):
        return np.asarray(k)
    return k


def getitem(tensor: Any, key: Any) -> Tensor:
    """``tensor[key]``: integer, slice, Ellipsis, None and array indexing.

    A slice of a Variable can be assigned to, as in TensorFlow: ``v[1:3].assign(value)``.
    """
    key = tuple(_index_part(k) for k in key) if isinstance(key, tuple) else _index_part(key)
    out = bind(P.getitem_p, tensor, key=key)
    if isinstance(tensor, Variable):
        out._sliced = (tensor, key)
    return out


def cast(x: Any, dtype: Any, name: str | None = None) -> Tensor:
    """Convert to ``dtype``; the gradient flows only between float dtypes."""
    dt = dtypes.as_dtype(dtype)
    if dt.is_string:  # TensorFlow casts no number to a string (tf.strings.as_string does)
        return cast_to_string(x)
    return bind(P.cast_p, x, dtype=dt)


def identity(input: Any, name: str | None = None) -> Tensor:
    """Return a tensor with the same value (recorded as an op)."""
    return bind(P.identity_p, input)


def stop_gradient(input: Any, name: str | None = None) -> Tensor:
    """The same value, but no gradient flows back through it."""
    return bind(P.stop_gradient_p, input)


def add_n(inputs: Sequence[Any], name: str | None = None) -> Tensor:
    """Sum of a list of tensors (recorded as a chain of adds)."""
    if not inputs:
        raise EngineTypeError("add_n: expected a non-empty list of tensors", "add_n")
    total = inputs[0] if isinstance(inputs[0], Tensor) else identity(inputs[0])
    for t in inputs[1:]:
        total = bind(P.add_p, total, t)
    return total


def zeros(shape: Any, dtype: Any = dtypes.float32, name: str | None = None) -> Tensor:
    """A tensor of zeros."""
    return constant(np.zeros(_new_shape(shape, "zeros"), dtype=dtypes.as_dtype(dtype).np))


def ones(shape: Any, dtype: Any = dtypes.float32, name: str | None = None) -> Tensor:
    """A tensor of ones."""
    return constant(np.ones(_new_shape(shape, "ones"), dtype=dtypes.as_dtype(dtype).np))


def fill(dims: Any, value: Any, name: str | None = None) -> Tensor:
    """A tensor of shape ``dims`` filled with ``value``."""
    v = convert_to_tensor(value)
    if v.dtype.is_string:  # np.full would copy the string into each element
        return Tensor(filled(_new_shape(dims, "fill"), v._value), v.dtype)
    return constant(np.full(_new_shape(dims, "fill"), v._value, dtype=v.dtype.np))


def zeros_like(input: Any, dtype: Any = None, name: str | None = None) -> Tensor:
    """Zeros with the shape (and dtype) of ``input``."""
    t = input if isinstance(input, TensorLike) else convert_to_tensor(input)
    dt = dtypes.as_dtype(dtype) if dtype is not None else t.dtype
    return constant(np.zeros(np.shape(t._value), dtype=dt.np))


def ones_like(input: Any, dtype: Any = None, name: str | None = None) -> Tensor:
    """Ones with the shape (and dtype) of ``input``."""
    t = input if isinstance(input, TensorLike) else convert_to_tensor(input)
    dt = dtypes.as_dtype(dtype) if dtype is not None else t.dtype
    return constant(np.ones(np.shape(t._value), dtype=dt.np))


def range(
    start: Any, limit: Any = None, delta: Any = 1, dtype: Any = None, name: str | None = None
) -> Tensor:
    """Like Python's range as a tensor (int32 for ints, float32 if any bound is a float)."""
    if limit is None:
        start, limit = 0, start
    vals = [v._value.item() if isinstance(v, TensorLike) else v for v in (start, limit, delta)]
    if dtype is None:
        is_float = builtins.any(isinstance(v, float | np.floating) for v in vals)
        dtype = dtypes.float32 if is_float else dtypes.int32
    if vals[2] == 0:
        raise InvalidArgumentError("range: delta must not be 0", "range")
    check_elements(max(0, int(np.ceil((vals[1] - vals[0]) / vals[2]))), "range")
    return constant(np.arange(*vals, dtype=dtypes.as_dtype(dtype).np))


def linspace(start: Any, stop: Any, num: int, name: str | None = None) -> Tensor:
    """``num`` evenly spaced values from ``start`` to ``stop`` inclusive."""
    check_elements(int(num), "linspace")
    return constant(np.linspace(float(start), float(stop), int(num), dtype=np.float32))


def size(input: Any, out_type: Any = dtypes.int32, name: str | None = None) -> Tensor:
    """Number of elements as a scalar tensor."""
    return constant(np.size(convert_to_tensor(input)._value), dtype=out_type)


def shape(input: Any, out_type: Any = dtypes.int32, name: str | None = None) -> Tensor:
    """The shape as a 1-D int tensor."""
    return constant(np.array(np.shape(convert_to_tensor(input)._value)), dtype=out_type)


def rank(input: Any, name: str | None = None) -> Tensor:
    """Number of dimensions as a scalar tensor."""
    return constant(np.ndim(convert_to_tensor(input)._value))
