"""``tf.strings``: TensorFlow's string ops over ``tf.string`` tensors (byte strings).

Elementwise ops (``length``, ``lower``, ``upper``, ``strip``, ``to_number``, ``as_string``)
keep the input's shape, and take a ``RaggedTensor`` too (its values are mapped). Ops that cut
each string into parts (``split``, ``bytes_split``, ``unicode_split``, ``unicode_decode``) give
a tensor for one string and a ``RaggedTensor`` for a vector of them, as TensorFlow does::

    tf.strings.split(tf.constant("Gray wolf"))          # tf.Tensor([b'Gray' b'wolf'], ...)
    tf.strings.split(tf.constant(["a b", "c"]))          # <tf.RaggedTensor [[b'a', b'b'], [b'c']]>
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine import dtypes
from tapeviz.engine import string_ops as S
from tapeviz.engine.errors import InvalidArgumentError, UnimplementedError
from tapeviz.engine.namespace import Namespace
from tapeviz.engine.tensor import Tensor
from tapeviz.engine.values import freeze
from tapeviz.tf.composite import RaggedTensor

__all__ = ["STRINGS"]


def _elementwise(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` also on a RaggedTensor: on its values, the rows kept."""

    def op(input: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(input, RaggedTensor):
            return RaggedTensor(fn(input.flat_values, *args, **kwargs), input._lengths)
        return fn(input, *args, **kwargs)

    op.__name__ = op.__qualname__ = fn.__name__
    op.__doc__ = fn.__doc__
    return op


def _ragged(t: Tensor, rows: list[list[Any]], make: Callable[[list[Any]], Tensor], op: str) -> Any:
    """One string's parts as a tensor; a vector's as a RaggedTensor of rows."""
    if t.ndim == 0:
        return make(rows[0])
    if t.ndim > 1:
        raise UnimplementedError(
            f"tf.strings.{op} of a rank-{t.ndim} tensor: tapeviz's RaggedTensor has one ragged "
            "dimension; reshape the strings to a vector first",
            op,
        )
    return RaggedTensor(make([p for row in rows for p in row]), [len(row) for row in rows])


def _strings(items: list[bytes]) -> Tensor:
    return S.new_strings(items, (len(items),), "split")


def _ints(items: list[int]) -> Tensor:
    return Tensor(freeze(np.array(items, dtype=np.int32)), dtypes.int32)


def split(input: Any, sep: Any = None, maxsplit: int = -1, name: str | None = None) -> Any:
    """Each string split at ``sep`` (at runs of whitespace when None), as Python splits."""
    t, rows = S.parts(input, S.split_parts(sep, maxsplit), "StringSplit")
    return _ragged(t, rows, _strings, "split")


def bytes_split(input: Any, name: str | None = None) -> Any:
    """Each string as its single bytes."""
    t, rows = S.parts(input, lambda b: [b[i : i + 1] for i in range(len(b))], "bytes_split")
    return _ragged(t, rows, _strings, "bytes_split")


def unicode_split(
    input: Any,
    input_encoding: str,
    errors: str = "replace",
    replacement_char: int = 65533,
    name: str | None = None,
) -> Any:
    """Each string as its characters, each character's bytes in ``input_encoding``."""
    chars = S.unicode_chars(input_encoding, errors, replacement_char)
    enc = S.encoder(input_encoding)
    t, rows = S.parts(input, lambda b: [enc(c) for c in chars(b)], "UnicodeSplit")
    return _ragged(t, rows, _strings, "unicode_split")


def unicode_decode(
    input: Any,
    input_encoding: str,
    errors: str = "replace",
    replacement_char: int = 65533,
    replace_control_characters: bool = False,
    name: str | None = None,
) -> Any:
    """Each string as its Unicode code points (int32)."""
    chars = S.unicode_chars(input_encoding, errors, replacement_char)

    def points(b: bytes) -> list[int]:
        out = [ord(c) for c in chars(b)]
        if replace_control_characters:
            out = [replacement_char if p < 0x20 else p for p in out]
        return out

    t, rows = S.parts(input, points, "UnicodeDecode")
    return _ragged(t, rows, _ints, "unicode_decode")


def unicode_encode(
    input: Any,
    output_encoding: str,
    errors: str = "replace",
    replacement_char: int = 65533,
    name: str | None = None,
) -> Any:
    """Code points (int32; a vector, a matrix or ragged rows) as strings in ``output_encoding``."""
    enc = S.encoder(output_encoding)
    S.reading()

    def char(p: int) -> str:  # (surrogates and numbers past U+10FFFF are no characters)
        ok = 0 <= p <= 0x10FFFF and not 0xD800 <= p <= 0xDFFF
        if not ok and errors == "strict":
            raise InvalidArgumentError(f"Invalid code point {p} [Op:UnicodeEncode]")
        return chr(p) if ok else "" if errors == "ignore" else chr(replacement_char)

    def text(points: Any) -> bytes:
        return b"".join(enc(char(int(p))) for p in np.asarray(points).reshape(-1))

    if isinstance(input, RaggedTensor):
        rows = input._split()
        return S.new_strings([text(r) for r in rows], (len(rows),), "UnicodeEncode")
    arr = np.asarray(getattr(input, "_value", input))
    if arr.ndim <= 1:
        return S.new_strings([text(arr)], (), "UnicodeEncode")
    flat = arr.reshape(-1, arr.shape[-1])
    return S.new_strings([text(r) for r in flat], arr.shape[:-1], "UnicodeEncode")


STRINGS = Namespace(
    "tf.strings",
    {
        "split": split,
        "bytes_split": bytes_split,
        "unicode_split": unicode_split,
        "unicode_decode": unicode_decode,
        "unicode_encode": unicode_encode,
        "join": S.join,
        "reduce_join": S.reduce_join,
        "length": _elementwise(S.length),
        "lower": _elementwise(S.lower),
        "upper": _elementwise(S.upper),
        "strip": _elementwise(S.strip),
        "to_number": _elementwise(S.to_number),
        "as_string": _elementwise(S.as_string),
    },
)
