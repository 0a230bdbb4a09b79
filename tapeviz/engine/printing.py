"""``tf.print``: TensorFlow's number format, and a per-thread sink the sandbox can capture."""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine import tracelog
from tapeviz.engine.guard import checkpoint
from tapeviz.engine.scoped import Pushed
from tapeviz.engine.state import STATE
from tapeviz.engine.tensor import TensorLike


def format_number(v: Any) -> str:
    """Format one element as TensorFlow does: float32 ``%.6g`` or ``%.9g``, ints plainly."""
    if isinstance(v, bytes):  # a string: quoted, control bytes escaped (UTF-8 kept)
        return '"' + _escaped(v) + '"'
    v = np.asarray(v)[()]
    kind = v.dtype.kind
    if kind == "b":
        return "1" if v else "0"
    if kind in "iu":
        return str(int(v))
    if np.isnan(v):
        return "-nan" if np.signbit(v) else "nan"
    if np.isinf(v):
        return "-inf" if v < 0 else "inf"
    if v.dtype == np.float64:
        text = f"{float(v):.15g}"
        return text if float(text) == v else f"{float(v):.17g}"
    text = f"{float(v):.6g}"
    return text if np.float32(text) == np.float32(v) else f"{float(v):.9g}"


_ESCAPES = {b"\n": b"\\n", b"\r": b"\\r", b"\t": b"\\t", b'"': b'\\"', b"'": b"\\'", b"\\": b"\\\\"}
_TO_ESCAPE = re.compile(rb"[\x00-\x1f\x7f\"'\\]")


def _escape(m: re.Match[bytes]) -> bytes:
    c = m.group()
    return _ESCAPES.get(c) or b"\\%03o" % c[0]


def _escaped(b: bytes) -> str:
    """TensorFlow's ``Utf8SafeCEscape``: C escapes (octal) for control bytes, UTF-8 kept."""
    return _TO_ESCAPE.sub(_escape, b).decode("utf-8", "backslashreplace")


def format_array(value: Any, summarize: int = 3) -> str:
    """Format a tensor value like ``tf.print``: ``[1 2 3]``, nested rows, ``...`` past 2×3."""
    if type(value) is bytes:
        return format_number(value)
    arr = np.asarray(value)
    if arr.ndim == 0:
        return format_number(arr)
    return _dim(arr, 0, arr.ndim, summarize)


def _dim(arr: np.ndarray, level: int, ndim: int, summarize: int) -> str:
    checkpoint()
    n = arr.shape[0]
    if level == ndim - 1:
        parts = ["..." if x is None else format_number(x) for x in _summarized(arr, n, summarize)]
        return "[" + " ".join(parts) + "]"
    sep = "\n" * (ndim - level - 1) + " " * (level + 1)
    parts = [
        "..." if x is None else _dim(x, level + 1, ndim, summarize)
        for x in _summarized(arr, n, summarize)
    ]
    return "[" + sep.join(parts) + "]"


def _summarized(arr: np.ndarray, n: int, summarize: int) -> list[Any]:
    if summarize < 0 or n <= 2 * summarize:
        return list(arr)
    return [*arr[:summarize], None, *arr[n - summarize :]]


def format_value(x: Any, summarize: int = 3, top: bool = True) -> str:
    """Format one ``tf.print`` argument: tensors in TF style, containers like pprint."""
    if isinstance(x, TensorLike):
        return format_array(x._value, summarize)
    if isinstance(x, str):
        return x if top else repr(x)
    if isinstance(x, np.ndarray | np.generic):
        return format_array(x, summarize)
    if isinstance(x, tuple):
        inner = ", ".join(format_value(v, summarize, False) for v in x)
        return f"({inner},)" if len(x) == 1 else f"({inner})"
    if isinstance(x, list):
        return "[" + ", ".join(format_value(v, summarize, False) for v in x) + "]"
    if isinstance(x, dict):
        items = sorted(x.items(), key=lambda kv: repr(kv[0]))
        return (
            "{" + ", ".join(f"{k!r}: {format_value(v, summarize, False)}" for k, v in items) + "}"
        )
    return repr(x)


class _Sink(threading.local):
    def __init__(self) -> None:
        self.stack: list[Callable[[str], None]] = []


_SINK = _Sink()


def capture(write: Callable[[str], None]) -> Pushed:
    """Send this thread's ``tf.print`` (and sandbox ``print``) output to ``write``."""
    return Pushed(_SINK, write)


def emit(text: str, stream: Any = None) -> None:
    """Write ``text`` to the innermost capture, else to ``stream`` (stderr by default)."""
    if _SINK.stack:
        _SINK.stack[-1](text)
    else:
        (stream or sys.stderr).write(text)


def tf_print(
    *inputs: Any,
    output_stream: Any = None,
    summarize: int = 3,
    sep: str = " ",
    end: str = "\n",
    name: str | None = None,
) -> None:
    """Print tensors the way ``tf.print`` does (stderr by default)."""
    state = STATE
    if state.trace_logs:  # inside a tf.function: the graph keeps the print
        kwargs = {"output_stream": output_stream, "summarize": summarize, "sep": sep, "end": end}
        tracelog.event("print", None, inputs, kwargs)
    state.trace_quiet += 1  # formatting reads values: no reason not to replay the call
    try:
        only = inputs[0] if len(inputs) == 1 else None
        if isinstance(only, TensorLike) and type(only._value) is bytes:  # printed as it is
            text = only._value.decode("utf-8", "backslashreplace") + end
        else:
            text = sep.join(format_value(x, summarize) for x in inputs) + end
    finally:
        state.trace_quiet -= 1
    emit(text, output_stream)
