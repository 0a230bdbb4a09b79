"""Messages between the window and the worker: JSON plus raw array bytes, never pickle.

A frame is ``<u32 json length><u32 blob count><json>`` followed by each blob as ``<u64 length>
<bytes>``. Arrays travel as blobs; in the JSON an array is ``{"$a": [blob, dtype, shape]}``.
Decoding checks every length against the caps before reading, accepts only the dtypes in
:data:`DTYPES`, and turns anything malformed into :class:`ProtocolError`: a compromised or
crashed worker can make a request fail, never run code in the window or crash it.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import struct
import time
from collections.abc import Callable
from typing import Any, BinaryIO

import numpy as np

DTYPES = ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool")
_NP = {name: np.dtype(name) for name in DTYPES}
_NAMES = {dt: name for name, dt in _NP.items()}  # (dtype.name is slow: a Python property)
MAX_JSON = 256 * 2**20  # bytes of JSON in one frame
MAX_BLOBS = 1_000_000
MAX_BYTES = 4 * 2**30  # every blob of one frame together
MAX_RANK = 32  # dimensions of one array (numpy 2 allows 64)
SMALL_SHARED = 1 << 16  # bytes of blobs below which a received frame's parts are not copied
_HEAD = struct.Struct("<II")
_BLOB = struct.Struct("<Q")


class ProtocolError(Exception):
    """A frame that does not follow the protocol (truncated, oversized, wrong types)."""


class Closed(ProtocolError):
    """The other side closed the pipe (the worker exited or was killed)."""


_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1


def _read_exact(stream: BinaryIO, n: int) -> bytes:
    chunks, left = [], n
    while left:
        chunk = stream.read(left)
        if not chunk:
            raise Closed("the pipe closed in the middle of a message" if chunks or n else "closed")
        chunks.append(chunk)
        left -= len(chunk)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


class Writer:
    """Collects the blobs of one frame while the JSON document is built."""

    def __init__(self) -> None:
        self.blobs: list[bytes | memoryview] = []
        # Per pack: its parts (short columns merged into one Python list, made an array once
        # by finish(): a small result's ~30 columns cost one numpy conversion, not 30).
        self._ints: dict[str, list[Any]] = {"int64": [], "int32": []}
        self._n_ints = {"int64": 0, "int32": 0}

    def ints(self, values: Any) -> dict[str, Any]:
        """Integers packed with the frame's other integers into one blob: ``{"$i": [a, b]}``.

        Tapes are many small integer columns; one blob for all of them keeps a small result's
        frame small and its decoding to one ``frombuffer``. A column whose values fit in 32
        bits goes in a 32-bit pack (``{"$i": [a, b, 4]}``): half the bytes on the pipe and in
        the window, which keeps the received frame.
        """
        kind = type(values)
        if not len(values) and (kind is list or kind is np.ndarray):  # (many columns are empty)
            if not self._ints["int32"]:
                self._ints["int32"].append([])  # (the pack exists, as empty as the column)
            n = self._n_ints["int32"]
            return {"$i": [n, n, 4]}
        if (kind is list or (kind is np.ndarray and values.ndim == 1)) and len(values) < 256:
            small = values.tolist() if kind is np.ndarray else values
            if small and type(small[0]) is not int:  # (bools, numpy integers: as ints)
                small = np.asarray(small, dtype=np.int64).tolist()
            fits = not small or (min(small) >= _INT32_MIN and max(small) <= _INT32_MAX)
            arr: Any = small
        else:
            arr = np.asarray(values, dtype=np.int64).reshape(-1)
            fits = not len(arr) or (arr.min() >= _INT32_MIN and arr.max() <= _INT32_MAX)
            if fits:
                arr = arr.astype(np.int32)
        pack = "int32" if fits else "int64"
        start = self._n_ints[pack]
        parts = self._ints[pack]
        if type(arr) is list:
            if parts and type(parts[-1]) is list:
                parts[-1].extend(arr)
            else:
                parts.append(list(arr))
        else:
            parts.append(arr)
        self._n_ints[pack] += len(arr)
        return {
            "$i": [start, self._n_ints[pack], 4] if pack == "int32" else [start, start + len(arr)]
        }

    def finish(self, doc: Any) -> None:
        """Add the packed integers to the frame (``write`` calls it)."""
        if isinstance(doc, dict):
            for pack, key in (("int64", "$ints"), ("int32", "$ints32")):
                parts = [np.array(p, pack) if type(p) is list else p for p in self._ints[pack]]
                if parts:
                    packed = np.concatenate(parts) if len(parts) > 1 else parts[0]
                    doc[key] = self.array(packed)["$a"][0]
            self._ints = {"int64": [], "int32": []}
            self._n_ints = {"int64": 0, "int32": 0}

    def array(self, value: Any) -> dict[str, Any]:
        """The JSON stand-in for a numpy array (its bytes become a blob)."""
        arr = np.asarray(value)
        name = _NAMES.get(arr.dtype)
        if name is None:
            raise ProtocolError(f"arrays of dtype {arr.dtype} cannot be sent")
        if not arr.flags.c_contiguous:
            arr = arr.copy(order="C")  # (np.ascontiguousarray would make a 0-d array 1-d)
        self.blobs.append(memoryview(arr).cast("B") if arr.size else b"")
        return {"$a": [len(self.blobs) - 1, name, list(arr.shape)]}

    def blob(self, data: bytes | memoryview) -> int:
        """Add raw bytes; returns the blob's index."""
        self.blobs.append(data)
        return len(self.blobs) - 1


Blobs = list[bytes | memoryview]


def encode(doc: Any, writer: Writer | None = None) -> tuple[bytes, Blobs]:
    """A frame's JSON body and blobs, as :func:`send` writes them (``doc`` gets its ints)."""
    if writer is not None:
        writer.finish(doc)
    blobs = writer.blobs if writer is not None else []
    return json.dumps(doc, separators=(",", ":"), allow_nan=True).encode("utf-8"), blobs


def loopback(body: bytes, blobs: Blobs, max_bytes: int = MAX_BYTES) -> Frame:
    """The frame the other side's :func:`read` makes of ``body`` and ``blobs``, same checks.

    The worker reads its own answer back before sending it, so what the window would refuse
    is refused where it is made, as the user's error, never as a malformed answer.
    """
    if len(body) > MAX_JSON or len(blobs) > MAX_BLOBS:
        raise ProtocolError(
            f"a frame of {len(body):,} JSON bytes and {len(blobs):,} blobs is too large"
        )
    total = sum(len(b) if isinstance(b, bytes) else b.nbytes for b in blobs)
    if total > max_bytes:
        raise ProtocolError(f"a frame of more than {max_bytes:,} bytes")
    try:
        doc = json.loads(body.decode("utf-8"))
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"the message is not valid JSON ({type(exc).__name__})") from None
    return Frame(doc, blobs)  # type: ignore[arg-type]  # (memoryviews read as bytes do)


def write(stream: BinaryIO, doc: Any, writer: Writer | None = None) -> None:
    """Send one frame: ``doc`` (JSON-able, arrays made with ``writer.array``) and its blobs."""
    send(stream, *encode(doc, writer))


def send(stream: BinaryIO, body: bytes, blobs: Blobs) -> None:
    """Send a frame :func:`encode` made."""
    parts: list[bytes | memoryview] = [_HEAD.pack(len(body), len(blobs)), body]
    for b in blobs:
        parts.append(_BLOB.pack(len(b) if isinstance(b, bytes) else b.nbytes))
        parts.append(b)
    if sum(len(p) for p in parts) < 1 << 20:  # one write: each write to a pipe wakes the reader
        stream.write(b"".join(parts))
    else:
        for p in parts:
            stream.write(p)
    stream.flush()


class Frame:
    """A received frame: the JSON document and the blobs it refers to."""

    def __init__(
        self, doc: Any, blobs: list[bytes], ints: Any = None, size: int | None = None
    ) -> None:
        self.doc = doc
        self.blobs = blobs
        self._packs: dict[int, np.ndarray] = {}
        # Blobs that are views of one received buffer of ``size`` bytes (:func:`_parse`): a
        # part read from it is copied unless it is at least half the buffer, so what a result
        # keeps never holds the buffer alive for more than twice its own bytes (a loop's
        # columns kept the whole 17 MB answer of a 100,000-tape run for 1 MB of values).
        # A small buffer (under SMALL_SHARED) is kept whole: copying its ~30 columns one by one
        # would cost more than the bytes it holds.
        if size is None:
            size = sum(len(b) for b in blobs) if blobs and type(blobs[0]) is memoryview else 0
        self._size = size
        self._shared = size if size >= SMALL_SHARED else 0
        if ints is None:
            d = doc if isinstance(doc, dict) else {}
            ints = (d.get("$ints"), d.get("$ints32"))
        self._ints_blobs = ints

    def part(self, doc: Any) -> Frame:
        """A frame for a part of this one's document (same blobs and packed integers)."""
        return Frame(doc, self.blobs, self._ints_blobs, self._size)

    def ints(self, ref: Any) -> np.ndarray:
        """The packed integers a ``{"$i": [a, b]}`` stand-in refers to (an int64 view).

        ``{"$i": [a, b, 4]}``: an int32 view.
        """
        got = ref.get("$i") if type(ref) is dict else None
        if type(got) is not list or not (len(got) == 2 or (len(got) == 3 and got[2] == 4)):
            raise ProtocolError("expected packed integers")
        a, b = got[0], got[1]
        width = 8 if len(got) == 2 else 4
        packed = self._packs.get(width)
        if packed is None:
            index = self._ints_blobs[0 if width == 8 else 1]
            if type(index) is not int:
                raise ProtocolError("the frame has no packed integers")
            name = "int64" if width == 8 else "int32"
            if not 0 <= index < len(self.blobs):
                raise ProtocolError("a reference to a missing blob")
            count = len(self.blobs[index]) // width
            # a view of the whole pack (never copied): each column is copied out by _own
            packed = self._packs[width] = self._view({"$a": [index, name, [count]]})
        if type(a) is not int or type(b) is not int or not 0 <= a <= b <= len(packed):
            raise ProtocolError("packed integers out of range")
        return self._own(packed[a:b]) if self._shared else packed[a:b]

    def array(self, ref: Any, dtype: str | None = None, ndim: int | None = None) -> np.ndarray:
        """The array an ``{"$a": ...}`` stand-in refers to (read-only), checked."""
        return self._own(self._view(ref, dtype, ndim))

    def _view(self, ref: Any, dtype: str | None = None, ndim: int | None = None) -> np.ndarray:
        """:meth:`array` as a view of its blob (a received buffer's bytes, not copied)."""
        if not (isinstance(ref, dict) and isinstance(ref.get("$a"), list) and len(ref["$a"]) == 3):
            raise ProtocolError("expected an array")
        index, name, shape = ref["$a"]
        if type(index) is not int or not 0 <= index < len(self.blobs):
            raise ProtocolError("an array refers to a missing blob")
        if not isinstance(name, str) or name not in _NP or (dtype is not None and name != dtype):
            raise ProtocolError(f"unexpected array dtype {str(name)[:40]!r}")
        if not isinstance(shape, list) or len(shape) > MAX_RANK:
            raise ProtocolError("bad array shape")
        if any(type(d) is not int or d < 0 for d in shape):
            raise ProtocolError("bad array shape")
        if ndim is not None and len(shape) != ndim:
            raise ProtocolError(f"expected a {ndim}-d array")
        dt = _NP[name]
        count = math.prod(shape)
        data = self.blobs[index]
        if count * dt.itemsize != len(data):
            raise ProtocolError("an array's bytes do not match its shape")
        if not count:
            return np.zeros(shape, dtype=dt)
        return np.frombuffer(data, dtype=dt, count=count).reshape(shape)

    def blob(self, index: Any) -> bytes:
        """Raw blob ``index``, checked."""
        if type(index) is not int or not 0 <= index < len(self.blobs):
            raise ProtocolError("a reference to a missing blob")
        data = self.blobs[index]
        return bytes(data) if self._shared and 2 * len(data) < self._shared else data

    def _own(self, arr: np.ndarray) -> np.ndarray:
        """``arr`` (read-only), copied if it is a small view of the shared buffer."""
        if self._shared and 2 * arr.nbytes < self._shared:
            arr = arr.copy()
            arr.flags.writeable = False
        return arr


def read(stream: BinaryIO, max_bytes: int = MAX_BYTES) -> Frame:
    """Receive one frame (blocking); :class:`Closed` at the end of the stream."""
    head = _read_exact(stream, _HEAD.size)
    size, count = _HEAD.unpack(head)
    if size > MAX_JSON or count > MAX_BLOBS:
        raise ProtocolError(f"a frame of {size:,} JSON bytes and {count:,} blobs is too large")
    body = _read_exact(stream, size)
    blobs: list[bytes] = []
    total = 0
    for _ in range(count):
        (n,) = _BLOB.unpack(_read_exact(stream, _BLOB.size))
        total += n
        if total > max_bytes:
            raise ProtocolError(f"a frame of more than {max_bytes:,} bytes")
        blobs.append(_read_exact(stream, n) if n else b"")
    try:
        doc = json.loads(body.decode("utf-8"))
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"the message is not valid JSON ({type(exc).__name__})") from None
    return Frame(doc, blobs)


def _parse(data: bytearray) -> Frame:
    """A whole frame already in memory (its sizes checked by ``Inbox``), blobs not copied.

    The blobs are read-only views of ``data``: a big answer costs the window its size once.
    """
    view = memoryview(data).toreadonly()
    size, count = _HEAD.unpack_from(data, 0)
    pos = _HEAD.size + size
    body = view[_HEAD.size : pos]
    blobs = []
    for _ in range(count):
        (n,) = _BLOB.unpack_from(data, pos)
        pos += _BLOB.size
        blobs.append(view[pos : pos + n])
        pos += n
    try:
        doc = json.loads(bytes(body).decode("utf-8"))
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"the message is not valid JSON ({type(exc).__name__})") from None
    return Frame(doc, blobs, size=len(data))  # type: ignore[arg-type]  # (views read as bytes)


class Inbox:
    """Frames from a pipe's descriptor, with a timeout (for the caller's own thread).

    Bytes are buffered until a whole frame has arrived, so a timeout never splits one.
    """

    def __init__(self, fd: int, max_bytes: int = MAX_BYTES) -> None:
        self.fd = fd
        self.max_bytes = max_bytes
        self.buf = bytearray()
        self.eof = False

    def _whole(self) -> int | None:
        b = self.buf
        if len(b) < _HEAD.size:
            return None
        size, count = _HEAD.unpack_from(b, 0)
        if size > MAX_JSON or count > MAX_BLOBS:
            raise ProtocolError(f"a frame of {size:,} JSON bytes and {count:,} blobs is too large")
        pos, total = _HEAD.size + size, 0
        for _ in range(count):
            if len(b) < pos + _BLOB.size:
                return None
            (n,) = _BLOB.unpack_from(b, pos)
            total += n
            if total > self.max_bytes:
                raise ProtocolError(f"a frame of more than {self.max_bytes:,} bytes")
            pos += _BLOB.size + n
        return pos if len(b) >= pos else None

    def recv(self, timeout: float) -> Frame | None:
        """The next frame, or None if none arrived within ``timeout`` seconds."""
        import select

        deadline = time.monotonic() + timeout
        while True:
            n = self._whole()
            if n is not None:
                if n == len(self.buf):  # the usual case: the buffer is this frame, taken whole
                    data, self.buf = self.buf, bytearray()
                else:
                    data = self.buf[:n]
                    del self.buf[:n]
                return _parse(data)
            if self.eof:
                raise Closed("closed")
            wait = deadline - time.monotonic()
            if wait <= 0:
                return None
            ready, _, _ = select.select([self.fd], [], [], wait)
            if ready:
                chunk = os.read(self.fd, 1 << 20)
                if chunk:
                    self.buf += chunk
                else:
                    self.eof = True


# -- checked reading of a decoded document ------------------------------------------------
def span(column: np.ndarray) -> tuple[int, int]:
    """``(min, max)`` of a non-empty integer column (short ones in Python: ~10x numpy's cost)."""
    if len(column) < 64:
        values = column.tolist()
        return min(values), max(values)
    return int(column.min()), int(column.max())


def rising(column: np.ndarray, strictly: bool = False) -> bool:
    """Whether an integer column never falls (``strictly``: always rises)."""
    if len(column) < 64:
        v = column.tolist()
        if strictly:
            return all(a < b for a, b in itertools.pairwise(v))
        return all(a <= b for a, b in itertools.pairwise(v))
    step = np.diff(column)
    return bool(np.all(step > 0)) if strictly else bool(np.all(step >= 0))


def total(column: np.ndarray) -> int:
    """The sum of an integer column, exact: numpy's int64 sum only where it cannot overflow.

    A hostile worker could send counts whose int64 sum wraps round to the length it claims.
    """
    n = len(column)
    if n < 64:
        return sum(column.tolist())
    low, high = span(column)
    if max(high, -low) <= (2**63 - 1) // n:
        return int(column.sum(dtype=np.int64))
    return sum(column.tolist())


def need(doc: Any, key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
    """``doc[key]`` if it has the expected type, else :class:`ProtocolError`."""
    if not isinstance(doc, dict):
        raise ProtocolError("expected an object")
    if key not in doc:
        if default is not ...:
            return default
        raise ProtocolError(f"missing field {key!r}")
    value = doc[key]
    if kind is float and type(value) is int:
        return float(value)
    if isinstance(value, bool) and kind in (int, float):
        raise ProtocolError(f"field {key!r} has the wrong type")
    if not isinstance(value, kind):
        raise ProtocolError(f"field {key!r} has the wrong type")
    return value


def text(doc: Any, key: str, limit: int = 1_000_000, default: Any = ...) -> Any:
    """A string field of at most ``limit`` characters."""
    value = need(doc, key, (str, type(None)) if default is None else str, default)
    if isinstance(value, str) and len(value) > limit:
        raise ProtocolError(f"field {key!r} is too long")
    return value


def items(doc: Any, key: str, check: Callable[[Any], Any], limit: int = 10_000_000) -> list[Any]:
    """A list field, each element passed through ``check``."""
    value = need(doc, key, list)
    if len(value) > limit:
        raise ProtocolError(f"field {key!r} has too many elements")
    return [check(v) for v in value]
