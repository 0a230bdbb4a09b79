"""``tf.nn`` convolution and pooling: ``conv2d``, ``conv2d_transpose``, ``max_pool2d``, ...

Arguments are read as TensorFlow reads them (``strides`` an int or a list of 1, 2 or 4 ints,
``padding`` ``"SAME"``, ``"VALID"`` or explicit ``[[0, 0], [top, bottom], [left, right], [0,
0]]``, NHWC only) and bound as one primitive each; the 1-D versions put a height of 1 in front,
as TensorFlow does (``expand_dims``, the 2-D op, ``squeeze``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tapeviz.engine import primitives as P
from tapeviz.engine.array_ops import expand_dims, reshape, squeeze
from tapeviz.engine.core import bind
from tapeviz.engine.errors import EngineTypeError, InvalidArgumentError, UnimplementedError
from tapeviz.engine.tensor import Tensor, TensorLike, convert_to_tensor

__all__ = [
    "avg_pool", "avg_pool1d", "avg_pool2d", "conv1d", "conv1d_transpose", "conv2d",
    "conv2d_backprop_filter_v2", "conv2d_backprop_input_v2", "conv2d_transpose", "conv_transpose",
    "convolution", "max_pool", "max_pool1d", "max_pool2d",
]  # fmt: skip


def _tensor(x: Any) -> TensorLike:
    return x if isinstance(x, TensorLike) else convert_to_tensor(x)


def _ints(value: Any, what: str, op: str) -> list[int]:
    raw = value.numpy() if isinstance(value, TensorLike) else value
    arr = np.asarray(raw)
    if arr.dtype.kind not in "iu" and not (arr.dtype.kind == "f" and np.all(arr == np.round(arr))):
        raise EngineTypeError(f"{op}: {what} must be integers, got {value!r}", op)
    return [int(v) for v in arr.reshape(-1)]


def _sequence(value: Any, n: int, what: str, op: str) -> tuple[int, ...]:
    """TensorFlow's ``_get_sequence``: an int or a list of 1, ``n`` or ``n + 2`` ints."""
    values = _ints(1 if value is None else value, what, op)
    if len(values) == 1:
        values = values * n
    elif len(values) == n + 2:
        if values[0] != 1 or values[-1] != 1:
            raise UnimplementedError(
                f"{op}: {what} in the batch and depth dimensions must be 1 (TensorFlow does not "
                f"support them either), got {values}",
                op,
            )
        values = values[1:-1]
    elif len(values) != n:
        raise InvalidArgumentError(
            f"{what} should be of length 1, {n} or {n + 2} but was {len(values)}", op
        )
    if any(v <= 0 for v in values):
        raise InvalidArgumentError(f"{op}: {what} must be positive, got {values}", op)
    return tuple(values)


def _padding(padding: Any, n: int, op: str, explicit: bool = True) -> Any:
    """``"SAME"``/``"VALID"``, or explicit padding as ``((top, bottom), (left, right))``."""
    if isinstance(padding, str):
        if padding == "EXPLICIT":
            raise InvalidArgumentError(
                "'EXPLICIT' is not a valid value for `padding`. To use explicit padding, "
                "`padding` must be a list.",
                op,
            )
        if padding not in ("SAME", "VALID"):
            raise InvalidArgumentError(
                f"Value for attr 'padding' of \"{padding}\" is not in the list of allowed "
                'values: "SAME", "VALID"' + (', "EXPLICIT"' if explicit else ""),
                op,
            )
        return padding
    if not explicit or not isinstance(padding, list | tuple):
        raise InvalidArgumentError(
            f"{op}: padding must be 'SAME' or 'VALID'"
            + (" or a list of [before, after] pairs" if explicit else "")
            + f", got {padding!r}",
            op,
        )
    pairs = []
    for i, pair in enumerate(padding):
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise InvalidArgumentError(
                "When `padding` is a list, each element of `padding` must be a list/tuple of "
                f"size 2. Received: padding={padding} with element at index {i}: {pair!r}",
                op,
            )
        pairs.append(tuple(_ints(list(pair), "padding", op)))
    if len(pairs) != n + 2:
        raise InvalidArgumentError(
            f"When padding is a list, it must be of size {n + 2}. Received: padding={padding} "
            f"of size {len(pairs)}",
            op,
        )
    if pairs[0] != (0, 0) or pairs[-1] != (0, 0):
        raise InvalidArgumentError(
            f"{op}: nonzero explicit padding in the batch or depth dimensions is not supported",
            op,
        )
    if any(v < 0 for pair in pairs for v in pair):
        raise InvalidArgumentError(f"{op}: explicit padding must be nonnegative, got {padding}", op)
    spatial = tuple(pairs[1:-1])
    return spatial if n == 2 else ((0, 0), *spatial)


def _layout(data_format: Any, allowed: Sequence[str | None], op: str) -> None:
    if data_format not in allowed:
        raise UnimplementedError(
            f"{op}: data_format {data_format!r} is not available: tapeviz runs on the CPU, where "
            f"TensorFlow supports only the channels-last layout ({allowed[0]})",
            op,
        )


def _rank(t: TensorLike, want: int, what: str, op: str) -> None:
    if len(t.shape) != want:
        raise InvalidArgumentError(
            f"{op}: {what} must be {want}-dimensional, got shape {list(t.shape)}", op
        )


# -- convolution ---------------------------------------------------------------------------
def conv2d(
    input: Any, filters: Any, strides: Any, padding: Any, data_format: str = "NHWC",
    dilations: Any = None, name: str | None = None,
) -> Tensor:  # fmt: skip
    """2-D convolution (cross-correlation) of NHWC ``input`` with HWIO ``filters``."""
    op = "conv2d"
    _layout(data_format, ("NHWC", None), op)
    x, w = _tensor(input), _tensor(filters)
    params = {"strides": _sequence(strides, 2, "strides", op), "padding": _padding(padding, 2, op),
              "dilations": _sequence(dilations, 2, "dilations", op)}  # fmt: skip
    _rank(w, 4, "filters", op)
    shape = tuple(x.shape)
    if len(shape) > 4:  # extra batch dimensions, as TensorFlow allows
        flat = bind(P.conv2d_p, reshape(x, (-1, *shape[-3:])), w, **params)
        return reshape(flat, (*shape[:-3], *flat.shape[1:]))
    if len(shape) != 4:
        raise InvalidArgumentError(
            f"{op}: input must be at least 4-dimensional (batch, height, width, channels), got "
            f"shape {list(shape)}",
            op,
        )
    return bind(P.conv2d_p, x, w, **params)


def _output_shape(output_shape: Any, x: TensorLike, w: TensorLike, n: int, op: str) -> tuple:
    dims = _ints(output_shape, "output_shape", op)
    if len(dims) == n:  # the spatial sizes only
        dims = [int(x.shape[0]), *dims, int(w.shape[-2])]
    if len(dims) != n + 2:
        raise InvalidArgumentError(
            f"{op}: output_shape must have {n + 2} elements (or {n}), got {dims}", op
        )
    return tuple(dims)


def conv2d_transpose(
    input: Any, filters: Any, output_shape: Any, strides: Any, padding: Any = "SAME",
    data_format: str = "NHWC", dilations: Any = None, name: str | None = None,
) -> Tensor:  # fmt: skip
    """The transpose (gradient) of ``conv2d``: ``filters`` are ``(h, w, out_channels, in)``."""
    op = "conv2d_transpose"
    _layout(data_format, ("NHWC", None), op)
    x, w = _tensor(input), _tensor(filters)
    _rank(x, 4, "input", op)
    _rank(w, 4, "filters", op)
    return bind(
        P.conv2d_backprop_input_p, w, x,
        input_shape=_output_shape(output_shape, x, w, 2, op),
        strides=_sequence(strides, 2, "strides", op), padding=_padding(padding, 2, op),
        dilations=_sequence(dilations, 2, "dilations", op),
    )  # fmt: skip


def conv2d_backprop_input_v2(
    input: Any, filter: Any, out_backprop: Any, strides: Any, padding: Any,
    data_format: str = "NHWC", dilations: Any = None, name: str | None = None,
) -> Tensor:  # fmt: skip
    """The gradient of ``conv2d`` with respect to its input (shaped like ``input``)."""
    x = _tensor(input)
    return conv2d_transpose(out_backprop, filter, tuple(x.shape), strides, padding, data_format,
                            dilations)  # fmt: skip


def conv2d_backprop_filter_v2(
    input: Any, filter: Any, out_backprop: Any, strides: Any, padding: Any,
    data_format: str = "NHWC", dilations: Any = None, name: str | None = None,
) -> Tensor:  # fmt: skip
    """The gradient of ``conv2d`` with respect to its filter (shaped like ``filter``)."""
    op = "conv2d_backprop_filter"
    _layout(data_format, ("NHWC", None), op)
    return bind(
        P.conv2d_backprop_filter_p, _tensor(input), _tensor(out_backprop),
        filter_shape=tuple(int(d) for d in _tensor(filter).shape),
        strides=_sequence(strides, 2, "strides", op), padding=_padding(padding, 2, op),
        dilations=_sequence(dilations, 2, "dilations", op),
    )  # fmt: skip


def conv1d(
    input: Any, filters: Any, stride: Any, padding: Any, data_format: str = "NWC",
    dilations: Any = None, name: str | None = None,
) -> Tensor:  # fmt: skip
    """1-D convolution of NWC ``input`` with ``(width, in, out)`` ``filters``."""
    op = "conv1d"
    _layout(data_format, ("NWC", None), op)
    x, w = _tensor(input), _tensor(filters)
    _rank(x, 3, "input", op)
    _rank(w, 3, "filters", op)
    out = bind(
        P.conv2d_p, expand_dims(x, 1), expand_dims(w, 0),
        strides=(1, _sequence(stride, 1, "stride", op)[0]), padding=_padding(padding, 1, op),
        dilations=(1, _sequence(dilations, 1, "dilations", op)[0]),
    )  # fmt: skip
    return squeeze(out, 1)


def conv1d_transpose(
    input: Any, filters: Any, output_shape: Any, strides: Any, padding: Any = "SAME",
    data_format: str = "NWC", dilations: Any = None, name: str | None = None,
) -> Tensor:  # fmt: skip
    """The transpose of ``conv1d``: ``filters`` are ``(width, out_channels, in_channels)``."""
    op = "conv1d_transpose"
    _layout(data_format, ("NWC", None), op)
    x, w = _tensor(input), _tensor(filters)
    _rank(x, 3, "input", op)
    _rank(w, 3, "filters", op)
    n, width, c = _output_shape(output_shape, x, w, 1, op)
    out = bind(
        P.conv2d_backprop_input_p, expand_dims(w, 0), expand_dims(x, 1),
        input_shape=(n, 1, width, c), strides=(1, _sequence(strides, 1, "strides", op)[0]),
        padding=_padding(padding, 1, op),
        dilations=(1, _sequence(dilations, 1, "dilations", op)[0]),
    )  # fmt: skip
    return squeeze(out, 1)


def convolution(
    input: Any, filters: Any, strides: Any = None, padding: str = "VALID",
    data_format: str | None = None, dilations: Any = None, name: str | None = None,
) -> Tensor:  # fmt: skip
    """N-D convolution: ``conv1d`` for 3-D inputs, ``conv2d`` for 4-D ones."""
    x = _tensor(input)
    if len(x.shape) == 3:
        return conv1d(x, filters, strides, padding, data_format or "NWC", dilations)
    if len(x.shape) == 4:
        return conv2d(x, filters, strides, padding, data_format or "NHWC", dilations)
    raise UnimplementedError(
        f"convolution: only 1-D and 2-D convolutions are available in tapeviz (input of rank "
        f"{len(x.shape)})",
        "convolution",
    )


def conv_transpose(
    input: Any, filters: Any, output_shape: Any, strides: Any, padding: str = "SAME",
    data_format: str | None = None, dilations: Any = None, name: str | None = None,
) -> Tensor:  # fmt: skip
    """N-D transposed convolution: ``conv1d_transpose`` or ``conv2d_transpose`` by rank."""
    x = _tensor(input)
    if len(x.shape) == 3:
        return conv1d_transpose(x, filters, output_shape, strides, padding, data_format or "NWC",
                                dilations)  # fmt: skip
    return conv2d_transpose(x, filters, output_shape, strides, padding, data_format or "NHWC",
                            dilations)  # fmt: skip


# -- pooling -------------------------------------------------------------------------------
def _pool(
    prim: Any, input: Any, ksize: Any, strides: Any, padding: Any, n: int, data_format: Any,
    op: str,
) -> Tensor:  # fmt: skip
    _layout(data_format, ("NHWC" if n == 2 else "NWC", None), op)
    x = _tensor(input)
    _rank(x, n + 2, "input", op)
    k = _sequence(ksize, n, "ksize", op)
    s = _sequence(strides, n, "strides", op)
    pad = _padding(padding, n, op, explicit=prim is P.max_pool_p)
    if n == 2:
        return bind(prim, x, ksize=k, strides=s, padding=pad)
    out = bind(prim, expand_dims(x, 1), ksize=(1, k[0]), strides=(1, s[0]), padding=pad)
    return squeeze(out, 1)


def max_pool2d(
    input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NHWC",
    name: str | None = None,
) -> Tensor:  # fmt: skip
    """The maximum of each ``ksize`` window of an NHWC input."""
    return _pool(P.max_pool_p, input, ksize, strides, padding, 2, data_format, "max_pool2d")


def avg_pool2d(
    input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NHWC",
    name: str | None = None,
) -> Tensor:  # fmt: skip
    """The mean of each ``ksize`` window (padding left out of the count, as in TensorFlow)."""
    return _pool(P.avg_pool_p, input, ksize, strides, padding, 2, data_format, "avg_pool2d")


def max_pool1d(
    input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NWC",
    name: str | None = None,
) -> Tensor:  # fmt: skip
    """The maximum of each ``ksize`` window of an NWC input."""
    return _pool(P.max_pool_p, input, ksize, strides, padding, 1, data_format, "max_pool1d")


def avg_pool1d(
    input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NWC",
    name: str | None = None,
) -> Tensor:  # fmt: skip
    """The mean of each ``ksize`` window of an NWC input."""
    return _pool(P.avg_pool_p, input, ksize, strides, padding, 1, data_format, "avg_pool1d")


def _pool_nd(prim: Any, input: Any, ksize: Any, strides: Any, padding: Any, data_format: Any,
             op: str) -> Tensor:  # fmt: skip
    rank = len(_tensor(input).shape)
    if rank not in (3, 4):
        raise UnimplementedError(
            f"{op}: only 1-D and 2-D pooling are available in tapeviz (input of rank {rank})", op
        )
    return _pool(prim, input, ksize, strides, padding, rank - 2, data_format, op)


def max_pool(
    input: Any, ksize: Any, strides: Any, padding: Any, data_format: str | None = None,
    name: str | None = None,
) -> Tensor:  # fmt: skip
    """Max pooling of a 3-D (NWC) or 4-D (NHWC) input."""
    return _pool_nd(P.max_pool_p, input, ksize, strides, padding, data_format, "max_pool")


def avg_pool(
    input: Any, ksize: Any, strides: Any, padding: Any, data_format: str | None = None,
    name: str | None = None,
) -> Tensor:  # fmt: skip
    """Average pooling of a 3-D (NWC) or 4-D (NHWC) input."""
    return _pool_nd(P.avg_pool_p, input, ksize, strides, padding, data_format, "avg_pool")
