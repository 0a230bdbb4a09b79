"""A tiny observer: models announce changes; views subscribe (and unsubscribe on close)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Event:
    """Callbacks run, in connection order, each time the event is emitted."""

    def __init__(self) -> None:
        self._callbacks: list[Callable[..., Any]] = []

    def connect(self, callback: Callable[..., Any]) -> Callable[..., Any]:
        """Call ``callback`` on every emit; returns it (usable as a decorator)."""
        if callback not in self._callbacks:
            self._callbacks.append(callback)
        return callback

    def disconnect(self, callback: Callable[..., Any]) -> None:
        """Stop calling ``callback``; unknown callbacks are ignored."""
        if callback in self._callbacks:
            self._callbacks.remove(callback)

    def emit(self, *args: Any) -> None:
        """Call every connected callback with ``args``."""
        for callback in list(self._callbacks):
            callback(*args)

    def __len__(self) -> int:
        return len(self._callbacks)
