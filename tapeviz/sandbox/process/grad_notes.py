"""A torch tape's notes of arrays per tensor, both sides of the process wall.

- ``grad_before``: torch's ``backward()`` adds each pass into the leaves' ``.grad`` until
  ``zero_grad()``; its tape keeps what they held before (engine id → array), so the stepper can
  show ``w.grad = before + this pass = after``.
- ``hooked``: what a tensor's ``register_hook`` functions made of its gradient (engine id →
  array); the window's walk gives these back at the same point (it never runs script code).

The worker sends those arrays; the window checks them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tapeviz.sandbox.process.wire import ProtocolError, Writer, need

MAX_ELEMENTS = 1_000_000  # a .grad bigger than this is not sent (the stepper says the pass only)
MAX_ENTRIES = 10_000


NOTES = ("grad_before", "hooked")


def encode(tapes: Sequence[Any], writer: Writer) -> dict[str, Any]:
    """Each tape's notes (nothing for a note no tape has)."""
    out: dict[str, Any] = {}
    for note in NOTES:
        out.update(_encode(tapes, writer, note))
    return out


def _encode(tapes: Sequence[Any], writer: Writer, note: str) -> dict[str, Any]:
    out = []
    for k, info in enumerate(tapes):
        before = getattr(info.tape, note, None)
        if not isinstance(before, dict) or not before:
            continue
        ids, values = [], []
        for tid, value in list(before.items())[:MAX_ENTRIES]:
            arr = np.asarray(value)
            if arr.size <= MAX_ELEMENTS and arr.dtype.kind in "biuf":
                ids.append(int(tid))
                values.append(writer.array(np.ascontiguousarray(arr)))
        if ids:
            out.append({"tape": k, "ids": ids, "values": values})
    return {note: out} if out else {}


def decode(
    doc: Any, frame: Any, n_tapes: int, note: str = "grad_before"
) -> dict[int, dict[int, np.ndarray]]:
    """Tape → {engine id → array} of one note (the .grad before its pass), checked."""
    if note not in doc:
        return {}
    raw = need(doc, note, list)
    out: dict[int, dict[int, np.ndarray]] = {}
    for entry in raw:
        tape = need(entry, "tape", int)
        ids, values = need(entry, "ids", list), need(entry, "values", list)
        if not 0 <= tape < n_tapes or tape in out or len(ids) != len(values):
            raise ProtocolError(f"a tape's {note} is out of range")
        if len(ids) > MAX_ENTRIES or any(type(i) is not int or i < 0 for i in ids):
            raise ProtocolError(f"a tape's {note} has a bad tensor id")
        arrays = [frame.array(v) for v in values]
        if any(a.size > MAX_ELEMENTS for a in arrays):
            raise ProtocolError(f"a tape's {note} is too big")
        out[tape] = dict(zip(ids, arrays, strict=True))
    return out
