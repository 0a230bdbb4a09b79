"""Warnings the engine gives the user (TensorFlow logs these); a sandbox can collect them."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable

from tapeviz.engine.scoped import Pushed


class _Sinks(threading.local):
    def __init__(self) -> None:
        self.stack: list[Callable[[str], None]] = []


_SINKS = _Sinks()


def warn(message: str, stacklevel: int = 2) -> None:
    """Issue a UserWarning, or hand it to this thread's innermost collector."""
    if _SINKS.stack:
        _SINKS.stack[-1](message)
    else:
        warnings.warn(message, UserWarning, stacklevel=stacklevel + 1)


def collect(sink: Callable[[str], None]) -> Pushed:
    """Send this thread's engine warnings to ``sink`` instead of the warnings module."""
    return Pushed(_SINKS, sink)
