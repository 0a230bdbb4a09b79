"""The window's public names that are its parts' own: a method or a value forwarded to a part."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QMainWindow


def forward(method: Callable[..., Any], part: str) -> Any:
    """A window method that calls ``method`` on the window's part ``part`` (with its doc).

    Signals connect to the part's own method: this one takes any arguments.
    """

    @functools.wraps(method)
    def call(self: QMainWindow, *args: Any, **kwargs: Any) -> Any:
        return getattr(getattr(self, part), method.__name__)(*args, **kwargs)

    return call


def forward_value(part: str, name: str, doc: str, settable: bool = False) -> property:
    """A window property that reads (and, if ``settable``, writes) ``name`` of its ``part``."""

    def get(self: QMainWindow) -> Any:
        return getattr(getattr(self, part), name)

    def put(self: QMainWindow, value: Any) -> None:
        setattr(getattr(self, part), name, value)

    return property(get, put if settable else None, doc=doc)
