"""The ops of ``tf.strings`` (and ``tf.io.decode_raw``) on string tensors, elementwise.

Each reads its inputs' values and makes a new tensor; none is recorded on a tape (TensorFlow
has no gradient for any of them), and inside a ``tf.function`` each marks the call as one
whose Python must run again (the engine has no primitive to replay it). Ops whose result has a
different number of parts per string (``split``, ``bytes_split``, ``unicode_split``,
``unicode_decode``) give, per string, a list: :func:`parts` returns them with the input's
shape, and ``tapeviz.tf.strings`` makes a tensor (one string) or a ``RaggedTensor`` of them.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine import dtypes, strings, tracelog
from tapeviz.engine.errors import EngineTypeError, InvalidArgumentError
from tapeviz.engine.guard import check_elements
from tapeviz.engine.state import STATE
from tapeviz.engine.tensor import Tensor, TensorLike, convert_to_tensor
from tapeviz.engine.values import freeze

__all__ = [
    "as_string",
    "decode_raw",
    "join",
    "length",
    "lower",
    "map_strings",
    "parts",
    "reading",
    "reduce_join",
    "split_parts",
    "strip",
    "to_number",
    "upper",
]


def reading() -> None:
    """Inside a tf.function: the op reads values its trace does not record (Python reruns)."""
    if STATE.trace_logs:
        tracelog.touch()


def string_input(value: Any, op: str) -> Tensor:
    """``value`` as a string tensor (text converted), else TensorFlow's dtype error."""
    reading()
    t = value if isinstance(value, TensorLike) else convert_to_tensor(value, dtypes.string)
    if not t.dtype.is_string:
        raise InvalidArgumentError(
            f"cannot compute {op} as input #0(zero-based) was expected to be a string tensor "
            f"but is a {t.dtype.name} tensor [Op:{op}]",
            op,
        )
    return t


def _text(value: Any, what: str) -> bytes:
    """A separator or similar argument as bytes."""
    if isinstance(value, TensorLike):
        value = value._value
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, bytes):
        return bytes(value)
    raise EngineTypeError(f"{what} must be a string, got {value!r:.40}", what)


def new_strings(items: list[bytes] | Any, shape: tuple[int, ...], op: str) -> Tensor:
    """A string tensor of ``items`` (flat) in ``shape``, within the size limit."""
    strings.check_bytes(sum(map(len, items)), op)
    if not shape:
        return Tensor(items[0], dtypes.string)
    arr = np.empty(len(items), dtype=object)
    arr[:] = list(items)
    return Tensor(freeze(arr.reshape(shape)), dtypes.string)


def sized(t: Tensor, op: str, factor: int = 1) -> Tensor:
    """``t``, if a result ``factor`` times its bytes keeps within the size limit.

    (Elements may share one ``bytes`` object, as after ``fill`` or ``tile``: a result that
    makes a new string per element would not.)
    """
    strings.check_bytes(strings.total_bytes(t._value) * factor, op)
    return t


def map_strings(fn: Callable[[bytes], bytes], value: Any, op: str) -> Tensor:
    """``fn`` on each string of ``value``, same shape."""
    t = sized(string_input(value, op), op, 2)  # (a case change may lengthen UTF-8 text)
    flat = _flat(t)
    return new_strings([fn(s) for s in flat], t.shape, op)


def _flat(t: Tensor) -> list[bytes]:
    v = t._value
    return [v] if type(v) is bytes else list(v.flat)


def _numbers(values: list[Any], shape: tuple[int, ...], dtype: dtypes.DType) -> Tensor:
    arr = np.array(values, dtype=dtype.np).reshape(shape)
    return Tensor(freeze(arr), dtype)


# -- elementwise ---------------------------------------------------------------------------
def lower(input: Any, encoding: str = "", name: str | None = None) -> Tensor:
    """Each string in lower case (ASCII letters; all letters with ``encoding="utf-8"``)."""
    if encoding.lower().replace("-", "") == "utf8":
        return map_strings(lambda s: s.decode("utf-8").lower().encode(), input, "StringLower")
    return map_strings(bytes.lower, input, "StringLower")


def upper(input: Any, encoding: str = "", name: str | None = None) -> Tensor:
    """Each string in upper case (ASCII letters; all letters with ``encoding="utf-8"``)."""
    if encoding.lower().replace("-", "") == "utf8":
        return map_strings(lambda s: s.decode("utf-8").upper().encode(), input, "StringUpper")
    return map_strings(bytes.upper, input, "StringUpper")


def strip(input: Any, name: str | None = None) -> Tensor:
    """Each string without leading and trailing whitespace."""
    return map_strings(bytes.strip, input, "StringStrip")


def length(input: Any, unit: str = "BYTE", name: str | None = None) -> Tensor:
    """The length of each string (int32): in bytes, or in characters with ``"UTF8_CHAR"``."""
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise InvalidArgumentError(f'unit must be "BYTE" or "UTF8_CHAR", got {unit!r}', "length")
    t = string_input(input, "StringLength")
    if unit != "BYTE":
        sized(t, "StringLength")
    if unit == "BYTE":
        counts = [len(s) for s in _flat(t)]
    else:  # bytes that do not continue a character (10xxxxxx), as TensorFlow counts them
        counts = [sum(1 for c in s if c & 0xC0 != 0x80) for s in _flat(t)]
    return _numbers(counts, t.shape, dtypes.int32)


def to_number(string_tensor: Any, out_type: Any = dtypes.float32, name: str | None = None) -> Any:
    """Each string parsed as a number of ``out_type`` (float32 unless told)."""
    dt = dtypes.as_dtype(out_type)
    if not (dt.is_floating or dt in (dtypes.int32, dtypes.int64)):
        raise InvalidArgumentError(f"to_number cannot make {dt.name} numbers", "StringToNumber")
    t = sized(string_input(string_tensor, "StringToNumber"), "StringToNumber")
    values = [_parse(s, dt) for s in _flat(t)]
    return _numbers(values, t.shape, dt)


def _parse(s: bytes, dt: dtypes.DType) -> Any:
    text = s.decode("utf-8", "replace").strip()
    try:
        if dt.is_floating:
            return float(text)
        value = int(text)
        info = np.iinfo(dt.np)
        if info.min <= value <= info.max:
            return value
    except ValueError:
        pass
    raise InvalidArgumentError(
        f"StringToNumberOp could not correctly convert string: {text} [Op:StringToNumber]",
        "StringToNumber",
    )


def as_string(
    input: Any,
    precision: int = -1,
    scientific: bool = False,
    shortest: bool = False,
    width: int = -1,
    fill: str = "",
    name: str | None = None,
) -> Tensor:
    """Each number as text, formatted as TensorFlow's ``AsString`` does (``%f`` for floats)."""
    reading()
    t = input if isinstance(input, TensorLike) else convert_to_tensor(input)
    if t.dtype.is_string:  # (TensorFlow's AsString takes strings too: as they are)
        return t
    spec = "%" + ("0" if fill == "0" else "") + (str(width) if width > -1 else "")
    if t.dtype.is_floating:
        spec += f".{precision}" if precision > -1 else ""
        spec += "e" if scientific else "g" if shortest else "f"
    else:
        spec += "d"
    strings.check_bytes(t.size * max(width + 1, 32), "AsString")
    v = t._value
    flat = [v] if np.ndim(v) == 0 else list(np.asarray(v).flat)
    if t.dtype.is_bool:
        texts = [b"true" if x else b"false" for x in flat]
    else:
        texts = [(spec % (x if t.dtype.is_floating else int(x))).encode() for x in flat]
    return new_strings(texts, t.shape, "AsString")


# -- many strings into one -----------------------------------------------------------------
def join(inputs: Any, separator: str = "", name: str | None = None) -> Tensor:
    """The strings of ``inputs`` joined elementwise with ``separator`` (shapes broadcast)."""
    if isinstance(inputs, TensorLike) or not isinstance(inputs, list | tuple):
        raise EngineTypeError("tf.strings.join needs a list of string tensors", "StringJoin")
    ts = [string_input(x, "StringJoin") for x in inputs]
    sep = _text(separator, "separator")
    try:
        shape = np.broadcast_shapes(*(x.shape for x in ts)) if ts else ()
    except ValueError:
        shapes = ", ".join(str(list(x.shape)) for x in ts)
        raise InvalidArgumentError(
            f"Input shapes do not match: {shapes} [Op:StringJoin]", "StringJoin"
        ) from None
    n = int(np.prod(shape, dtype=np.int64))
    check_elements(n, "StringJoin")
    strings.check_bytes(n * sum(strings.longest(x._value) + len(sep) for x in ts), "StringJoin")
    cols = [np.broadcast_to(np.asarray(x._value, dtype=object), shape).ravel() for x in ts]
    items = [sep.join(row) for row in zip(*cols, strict=True)] if cols else [b""]
    return new_strings(items, tuple(shape), "StringJoin")


def reduce_join(
    inputs: Any,
    axis: Any = None,
    keepdims: bool = False,
    separator: str = "",
    name: str | None = None,
) -> Tensor:
    """The strings along ``axis`` (all of them when None) joined with ``separator``."""
    t = sized(string_input(inputs, "ReduceJoin"), "ReduceJoin")
    sep = _text(separator, "separator")
    strings.check_bytes(strings.total_bytes(t._value) + len(sep) * t.size, "ReduceJoin")
    arr = np.asarray(t._value, dtype=object)
    if axis is None:
        arr, axis = arr.reshape(-1), 0
    axis = int(axis) % max(arr.ndim, 1)
    moved = np.moveaxis(arr, axis, -1)
    rows = moved.reshape(-1, moved.shape[-1]) if moved.ndim else moved.reshape(1, 1)
    items = [sep.join(row) for row in rows]
    shape = list(moved.shape[:-1])
    if keepdims:
        shape.insert(axis, 1)
    return new_strings(items, tuple(shape), "ReduceJoin")


# -- one string into many parts (tensors or ragged rows) -----------------------------------
def parts(value: Any, fn: Callable[[bytes], list[Any]], op: str) -> tuple[Tensor, list[list[Any]]]:
    """``fn`` on each string of ``value``: the input tensor and each string's list of parts."""
    t = sized(string_input(value, op), op, 4)  # (a character's bytes become its own string)
    flat = _flat(t)
    rows = [fn(s) for s in flat]
    check_elements(sum(map(len, rows)), op)
    return t, rows


def split_parts(sep: Any, maxsplit: int) -> Callable[[bytes], list[bytes]]:
    """``bytes.split`` as ``tf.strings.split`` does it (whitespace runs when ``sep`` is empty)."""
    s = None if sep is None else _text(sep, "sep") or None
    n = int(maxsplit) if int(maxsplit) > 0 else -1  # TensorFlow: 0 or less is no limit
    return lambda b: b.split(s, n)


def unicode_chars(encoding: str, errors: str, replacement: int) -> Callable[[bytes], list[str]]:
    """Decode a string to its characters (TensorFlow's ``errors``: strict, replace, ignore)."""
    codec = _codec(encoding)
    if errors not in ("strict", "replace", "ignore"):
        raise InvalidArgumentError(f"errors must be strict, replace or ignore, got {errors!r}")
    handler = "strict" if errors == "strict" else "ignore" if errors == "ignore" else "replace"

    def decode(b: bytes) -> list[str]:
        try:
            text = b.decode(codec, handler)
        except UnicodeDecodeError:
            raise InvalidArgumentError(
                "Invalid formatting on input string [Op:UnicodeDecodeWithOffsets]"
            ) from None
        if handler == "replace" and replacement != 0xFFFD:
            text = text.replace("\ufffd", chr(replacement))
        return list(text)

    return decode


def _codec(encoding: str) -> str:
    name = encoding.upper()
    if name not in ("UTF-8", "UTF-16-BE", "UTF-32-BE"):
        raise InvalidArgumentError(
            f"input_encoding must be UTF-8, UTF-16-BE or UTF-32-BE, got {encoding!r}"
        )
    return codecs.lookup(name).name


def encoder(encoding: str) -> Callable[[str], bytes]:
    """A character back to bytes in ``encoding``."""
    codec = _codec(encoding)
    return lambda ch: ch.encode(codec)


def decode_raw(
    input_bytes: Any,
    out_type: Any,
    little_endian: bool = True,
    fixed_length: int | None = None,
    name: str | None = None,
) -> Tensor:
    """Each string's bytes read as numbers of ``out_type`` (one more dimension)."""
    dt = dtypes.as_dtype(out_type)
    if dt.is_string or dt.is_bool:
        raise InvalidArgumentError(f"decode_raw cannot make {dt.name} values", "DecodeRaw")
    t = sized(string_input(input_bytes, "DecodeRaw"), "DecodeRaw")
    flat = _flat(t)
    width = dt.np.itemsize
    if fixed_length is not None:
        size = max(int(fixed_length), 0)
        strings.check_bytes(len(flat) * size, "DecodeRaw")
        flat = [s[:size].ljust(size, b"\0") for s in flat]
    else:
        size = len(flat[0]) if flat else 0
        for i, s in enumerate(flat):
            if len(s) != size:
                raise InvalidArgumentError(
                    "DecodeRaw requires input strings to all be the same size, but element "
                    f"{i} has size {len(s)} != {size} [Op:DecodeRaw]",
                    "DecodeRaw",
                )
    if size % width:
        raise InvalidArgumentError(
            f"Input to DecodeRaw has length {size} that is not a multiple of {width}, the "
            f"size of {dt.name} [Op:DecodeRaw]",
            "DecodeRaw",
        )
    check_elements(len(flat) * (size // width), "DecodeRaw")
    order = "<" if little_endian else ">"
    kind = dt.np.newbyteorder(order) if width > 1 else dt.np
    arr = np.frombuffer(b"".join(flat), dtype=kind).astype(dt.np)
    return Tensor(freeze(arr.reshape((*t.shape, size // width))), dt)
