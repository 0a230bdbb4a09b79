"""The checks every function of a script's numpy shares: operands, options, dtypes and sizes.

Operands become numeric arrays (lists and tuples sized first, text refused). Tensors become
numpy arrays as TensorFlow's and PyTorch's ``__array__`` make them: a numpy function of a
``tf.Tensor`` gives an ndarray, a numpy ufunc of a ``torch.Tensor`` gives a tensor again (torch's
``__array_wrap__``), and a torch tensor that requires grad is refused with torch's own error.
"""

from __future__ import annotations

import contextlib
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine.guard import shape_size
from tapeviz.engine.tensor import TensorLike
from tapeviz.sandbox.errors import refused
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.runtime.checks import budget, nested_size
from tapeviz.torch import Tensor as TorchTensor
from tapeviz.torch import from_numpy as torch_from_numpy


def check_dtype(dtype: Any) -> None:
    """Only bool, integer and float arrays."""
    if dtype is not None and np.dtype(dtype).kind not in "biuf":
        raise refused(say("numpy_dtype_array", dtype=np.dtype(dtype)))


def dims(shape: Any) -> tuple[int, ...]:
    """A shape argument (an int or a sequence of ints) as a tuple."""
    if isinstance(shape, int | np.integer):
        return (operator.index(shape),)
    return tuple(operator.index(d) for d in shape)


def check_size(count: int, what: str) -> None:
    """Refuse making more elements than the run allows."""
    budget().check_size(int(count), what)


def tensor_array(obj: Any) -> np.ndarray:
    """A tensor's values as numpy's ``__array__`` protocol gives them (torch's check first)."""
    if isinstance(obj, TorchTensor):
        return obj.numpy()  # torch: "Can't call numpy() on Tensor that requires grad. ..."
    arr = np.asarray(obj)
    check_dtype(arr.dtype)  # a tf.string tensor's bytes are no numpy data here
    return arr


def as_array(obj: Any, dtype: Any = None) -> Any:
    """An operand for numpy: numbers and numeric arrays pass; the rest is converted.

    Tensors become arrays; lists, tuples and anything else become a numeric array; strings,
    objects and huge ints are refused.
    """
    if isinstance(obj, np.ndarray | np.generic):
        check_dtype(obj.dtype)
        return obj
    if isinstance(obj, TensorLike | TorchTensor):
        return tensor_array(obj)
    no_text(obj)
    if isinstance(obj, bool | float):
        return obj
    if isinstance(obj, int):
        if obj.bit_length() > 63:
            raise refused(say("big_integer", value=f"{obj:.3g}"))
        return obj
    if isinstance(obj, list | tuple | range):
        budget().check_size(nested_size(obj, "np.array"), "the array")
        first = obj
        while isinstance(first, list | tuple) and first:
            first = first[0]
        no_text(first)
        if isinstance(first, TensorLike | TorchTensor):  # a list of tensors: torch's check too
            obj = [tensor_array(x) if isinstance(x, TensorLike | TorchTensor) else x for x in obj]
    arr = np.asarray(obj, dtype=dtype)
    check_dtype(arr.dtype)
    return arr


def no_text(obj: Any) -> None:
    """Refuse text as array data before numpy makes a (possibly huge) array of it."""
    if isinstance(obj, str | bytes):
        kind = "U" if isinstance(obj, str) else "S"
        raise refused(say("numpy_dtype_array", dtype=np.dtype(f"{kind}{max(len(obj), 1)}")))


def check_result(out: Any) -> Any:
    """Refuse a numpy result of a non-numeric dtype (also inside tuples and lists of arrays)."""
    if isinstance(out, np.ndarray | np.generic):
        check_dtype(out.dtype)
    elif isinstance(out, tuple | list):
        for item in out:
            if isinstance(item, np.ndarray | np.generic):
                check_dtype(item.dtype)
    return out


def option(value: Any) -> Any:
    """A non-data argument (axis, shape, decimals): ints, floats, strings, None, int tuples."""
    if isinstance(value, list | tuple):
        if not all(isinstance(v, int | np.integer) for v in value):
            raise refused(say("numpy_option"))
        return value
    if value is None or isinstance(value, int | float | str | np.integer | np.floating):
        return value
    return as_array(value)


def as_torch(out: Any) -> Any:
    """A ufunc's result as torch's ``Tensor.__array_wrap__`` gives it (bool as uint8)."""
    arr = np.asarray(out)
    return torch_from_numpy(arr.astype(np.uint8) if arr.dtype == np.bool_ else arr)


def checked(
    fn: Callable[..., Any], data_args: int | None = None, name: str = ""
) -> Callable[..., Any]:
    """Wrap a numpy function: checked operands and options, numeric results, no huge broadcasts.

    The first ``data_args`` positional arguments (default: all) are data; the rest options.
    """
    ufunc = isinstance(fn, np.ufunc)
    name = name or getattr(fn, "__name__", "function")

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        check_dtype(kwargs.get("dtype"))
        n = len(args) if data_args is None else data_args
        torch = ufunc and any(isinstance(a, TorchTensor) for a in args[:n])
        args = tuple(as_array(a) if i < n else option(a) for i, a in enumerate(args))
        kwargs = {k: option(v) if k != "out" else as_array(v) for k, v in kwargs.items()}
        shapes = [np.shape(a) for a in args[:n] if isinstance(a, np.ndarray)]
        if len(shapes) > 1:
            with contextlib.suppress(ValueError):  # numpy reports a mismatch itself
                budget().check_size(shape_size(np.broadcast_shapes(*shapes)), f"np.{name}")
        out = check_result(fn(*args, **kwargs))
        return as_torch(out) if torch else out

    wrapped.__name__ = name
    wrapped.__doc__ = f"``np.{name}`` with its operands and result size checked."
    return wrapped


def creating(fn: Callable[..., Any], shape_arg: int | None = 0) -> Callable[..., Any]:
    """Wrap a creation function: check its dtype and the size of its result first."""

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        check_dtype(kwargs.get("dtype"))
        if shape_arg is not None and len(args) > shape_arg:
            check_size(shape_size(dims(args[shape_arg])), f"np.{fn.__name__}")
        if kwargs.get("shape") is not None:
            check_size(shape_size(dims(kwargs["shape"])), f"np.{fn.__name__}")
        if shape_arg is None and args:
            args = (as_array(args[0]), *args[1:])
        if fn is np.full or fn is np.full_like:
            no_text(args[1] if len(args) > 1 else kwargs.get("fill_value"))
        out = fn(*args, **kwargs)
        if isinstance(out, np.ndarray):
            check_dtype(out.dtype)
        return out

    wrapped.__name__ = fn.__name__
    return wrapped


def joining(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a function that joins a sequence of arrays (its total size checked)."""

    def wrapped(arrays: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(arrays, np.ndarray | TensorLike | TorchTensor):
            arrays = list(as_array(arrays))  # numpy joins the rows of one array
        else:
            check_size(len(arrays), f"np.{fn.__name__}'s arrays")
        arrays = [as_array(a) for a in arrays]
        check_size(sum(int(np.size(a)) for a in arrays), f"np.{fn.__name__}")
        return check_result(fn(arrays, *args, **kwargs))

    wrapped.__name__ = fn.__name__
    return wrapped
