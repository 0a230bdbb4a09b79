"""What goes wrong in user code, in the user's terms: ``UserCodeError(message, line, col)``.

tapeviz's own sentences travel as :class:`~tapeviz.sandbox.messages.Message` codes with fields
(``code``/``fields`` and ``hint_code``/``hint_fields``) besides their English text, so the
window can translate them; Python's and TensorFlow's texts have no code.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tapeviz.sandbox.messages import Fields, Message, text_of


@dataclass(frozen=True)
class UserCodeError:
    """An error in user code: where it happened and what to do about it.

    ``kind`` is one of ``syntax``, ``name``, ``type``, ``value``, ``engine``, ``limit``,
    ``refused`` (a sandbox rule), ``cancelled`` or ``runtime``; ``limit`` names the limit hit.
    ``code``/``fields`` (and ``hint_code``/``hint_fields``) give the message as a
    :class:`~tapeviz.sandbox.messages.Message` when tapeviz worded it.
    """

    message: str
    line: int | None = None
    col: int | None = None
    hint: str | None = None
    kind: str = "runtime"
    limit: str | None = None
    code: str | None = None
    fields: Fields = ()
    hint_code: str | None = None
    hint_fields: Fields = ()

    @classmethod
    def of(
        cls,
        message: Message | str,
        line: int | None = None,
        col: int | None = None,
        hint: Message | str | None = None,
        kind: str = "runtime",
        limit: str | None = None,
    ) -> UserCodeError:
        """An error whose message (and hint) may be :class:`Message` s."""
        code, fields = (
            (message.code, message.fields) if isinstance(message, Message) else (None, ())
        )
        hint_code, hint_fields = (
            (hint.code, hint.fields) if isinstance(hint, Message) else (None, ())
        )
        return cls(str(text_of(message)), line, col, text_of(hint), kind, limit,
                   code, fields, hint_code, hint_fields)  # fmt: skip

    @property
    def msg(self) -> Message | None:
        """The message as a code with fields (None: Python's or TensorFlow's own text)."""
        return Message(self.code, self.fields) if self.code else None

    @property
    def hint_msg(self) -> Message | None:
        """The hint as a code with fields (None: no hint, or a plain one such as a caret)."""
        return Message(self.hint_code, self.hint_fields) if self.hint_code else None

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        tail = f" ({self.hint})" if self.hint else ""
        return f"{where}{self.message}{tail}"


class Stop(BaseException):
    """Ends a run: a refused operation, a limit or a cancellation.

    It derives from BaseException so ``except Exception:`` in user code cannot swallow it.
    """

    def __init__(
        self,
        message: Message | str,
        kind: str,
        hint: Message | str | None = None,
        limit: str | None = None,
    ) -> None:
        super().__init__(text_of(message))
        self.message = str(text_of(message))
        self.msg = message if isinstance(message, Message) else None
        self.kind = kind
        self.hint = text_of(hint)
        self.hint_msg = hint if isinstance(hint, Message) else None
        self.limit = limit
        self.line: int | None = None
        self.col: int | None = None

    def error(self, line: int | None, col: int | None) -> UserCodeError:
        """The user's view of this stop at ``line`` and ``col``."""
        return UserCodeError.of(self.msg or self.message, line, col, self.hint_msg or self.hint,
                                self.kind, self.limit)  # fmt: skip


def refused(message: Message | str, hint: Message | str | None = None) -> Stop:
    """A sandbox rule forbids this (imports, introspection, file access, ...)."""
    return Stop(message, "refused", hint)


RAISE_LIMIT = Message("hint_raise_limit")


def limit_hit(limit: str, message: Message | str, hint: Message | str | None = None) -> Stop:
    """A resource limit was reached; ``limit`` names it (time, steps, recursion, ...)."""
    return Stop(message, "limit", hint or RAISE_LIMIT, limit)


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


def suggest(name: str, candidates: Iterable[str]) -> Message | None:
    """``did you mean 'x'?`` for a close match among ``candidates``."""
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return Message("hint_did_you_mean", (("name", close[0]),)) if close else None


def with_message(exc: BaseException, message: Message, hint: Message | None = None) -> Any:
    """Mark a Python exception raised for the user's code with tapeviz's wording of it."""
    exc._tapeviz_message = (message, hint)  # type: ignore[attr-defined]
    return exc


def message_of(exc: BaseException) -> tuple[Message | None, Message | None]:
    """The (message, hint) :func:`with_message` attached, or (None, None)."""
    return getattr(exc, "_tapeviz_message", (None, None))
