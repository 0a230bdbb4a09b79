"""Short, address-free text for values in messages: never builds a huge string first.

``short_repr(value)`` stops at ``limit`` characters while walking containers (``reprlib``), so
a message about a list holding a 10 MB string a hundred times costs a few hundred characters,
and functions read ``<function reduce_sum>``, never ``<function reduce_sum at 0x7f…>``.
"""

from __future__ import annotations

import re
import reprlib
from typing import Any

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


class _Short(reprlib.Repr):
    def __init__(self, limit: int) -> None:
        super().__init__()
        self.maxstring = max(limit, 10)
        self.maxother = max(limit, 10)
        self.maxlevel = 4
        for name in ("maxtuple", "maxlist", "maxarray", "maxdict", "maxset", "maxfrozenset",
                     "maxdeque"):  # fmt: skip
            setattr(self, name, 8)
        self.maxlong = 60

    def repr_instance(self, obj: Any, level: int) -> str:
        try:
            text = _safe(obj, self.maxother)
        except Exception:
            return f"<{type(obj).__name__}>"
        return _ADDRESS.sub("", text)


def _safe(obj: Any, limit: int) -> str:
    """``repr(obj)`` for objects whose repr is cheap; a type name for the rest."""
    if callable(obj) and not isinstance(obj, type):
        name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
        return f"<function {name}>" if isinstance(name, str) else f"<{type(obj).__name__}>"
    size = getattr(obj, "size", None)  # numpy arrays and tensors summarise themselves
    text = repr(obj) if size is None or isinstance(size, int) else f"<{type(obj).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def without_addresses(text: str) -> str:
    """``text`` with `` at 0x7f…`` memory addresses removed (they differ every run)."""
    return _ADDRESS.sub("", text) if " at 0x" in text else text


def short_repr(value: Any, limit: int = 200) -> str:
    """A repr of at most about ``limit`` characters, without memory addresses."""
    text = _Short(limit).repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def exception_text(exc: BaseException, limit: int = 500) -> str:
    """``str(exc)`` for a user's exception, capped before it is built."""
    args = getattr(exc, "args", ())
    try:
        if len(args) == 1 and isinstance(args[0], str):
            text = args[0]
        elif not args:
            text = ""
        elif type(exc).__str__ is BaseException.__str__:
            text = short_repr(args[0] if len(args) == 1 else tuple(args), limit)
        else:  # a class of ours with its own message (engine errors): short by construction
            text = str(exc)
    except Exception:
        return f"{type(exc).__name__} (its message cannot be shown)"
    text = _ADDRESS.sub("", text)
    return text if len(text) <= limit else text[: limit - 1] + "…"
