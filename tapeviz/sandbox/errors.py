"""What goes wrong in user code, in the user's terms: ``UserCodeError(message, line, col)``."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class UserCodeError:
    """An error in user code: where it happened and what to do about it.

    ``kind`` is one of ``syntax``, ``name``, ``type``, ``value``, ``engine``, ``limit``,
    ``refused`` (a sandbox rule), ``cancelled`` or ``runtime``; ``limit`` names the limit hit.
    """

    message: str
    line: int | None = None
    col: int | None = None
    hint: str | None = None
    kind: str = "runtime"
    limit: str | None = None

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        tail = f" ({self.hint})" if self.hint else ""
        return f"{where}{self.message}{tail}"


class Stop(BaseException):
    """Ends a run: a refused operation, a limit or a cancellation.

    It derives from BaseException so ``except Exception:`` in user code cannot swallow it.
    """

    def __init__(
        self, message: str, kind: str, hint: str | None = None, limit: str | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.hint = hint
        self.limit = limit
        self.line: int | None = None
        self.col: int | None = None


def refused(message: str, hint: str | None = None) -> Stop:
    """A sandbox rule forbids this (imports, introspection, file access, ...)."""
    return Stop(message, "refused", hint)


def limit_hit(limit: str, message: str, hint: str | None = None) -> Stop:
    """A resource limit was reached; ``limit`` names it (time, steps, recursion, ...)."""
    return Stop(
        message, "limit", hint or "raise the limit in Preferences if this is intended", limit
    )


def locate(exc: BaseException, line: int | None, col: int | None) -> BaseException:
    """Attach a source position to ``exc`` unless an inner node already did."""
    if getattr(exc, "_tapeviz_line", None) is None:
        try:
            exc._tapeviz_line = line  # type: ignore[attr-defined]
            exc._tapeviz_col = col  # type: ignore[attr-defined]
        except AttributeError:
            pass
    return exc


def position(exc: BaseException) -> tuple[int | None, int | None]:
    """The position :func:`locate` attached, or (None, None)."""
    return getattr(exc, "_tapeviz_line", None), getattr(exc, "_tapeviz_col", None)


def suggest(name: str, candidates: Iterable[str]) -> str | None:
    """``did you mean 'x'?`` for a close match among ``candidates``."""
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None
