"""tapeviz's messages in the interface language: a code's template translated, then filled in.

The headless layers give their sentences as :class:`~tapeviz.sandbox.messages.Message` codes
with fields; Python's and TensorFlow's own texts have no code and stay as they are.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from tapeviz.models.descent.messages import ProblemError
from tapeviz.sandbox import UserCodeError
from tapeviz.sandbox.messages import CONTEXT, Message, Note, render


def _translate(text: str) -> str:
    return QCoreApplication.translate(CONTEXT, text)


def translated(message: Message | str | None) -> str:
    """A message in the interface language ('' for None; a note by its message; text as it is)."""
    if message is None:
        return ""
    if isinstance(message, Note) and message.msg is not None:
        message = message.msg
    if isinstance(message, Message):
        return render(message, _translate)
    return message


def error_message(err: UserCodeError) -> str:
    """An error's message in the interface language (Python's own words kept)."""
    return translated(err.msg or err.message)


def error_hint(err: UserCodeError) -> str:
    """An error's hint in the interface language ('' without one)."""
    return translated(err.hint_msg or err.hint)


def problem_text(exc: ProblemError | str) -> str:
    """Why the studio cannot optimise, in the interface language (``line 3: …``)."""
    if isinstance(exc, str):
        return exc
    text = translated(exc.msg or exc.message)
    if exc.line:
        where = QCoreApplication.translate("Messages", "line %1: %2")
        return where.replace("%1", str(exc.line)).replace("%2", text)
    return text
