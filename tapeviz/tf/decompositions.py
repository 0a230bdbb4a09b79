"""``tf.linalg.qr``'s result type, defined here so scripts may read its ``q`` and ``r``."""

from __future__ import annotations

from typing import Any, NamedTuple

from tapeviz import engine as _e

__all__ = ["Qr", "qr"]


class Qr(NamedTuple):
    """What ``tf.linalg.qr`` returns: ``q`` (orthonormal columns) and ``r`` (upper triangular)."""

    q: Any
    r: Any


def qr(input: Any, full_matrices: bool = False, name: str | None = None) -> Qr:
    """The QR decomposition ``input = q · r`` (``full_matrices``: ``q`` square)."""
    q, r = _e.qr(input, full_matrices=full_matrices)
    return Qr(q, r)
