"""A user-code error as the window shows it: where, what kind, the message, and the hint.

The frame (line, kind, tapeviz's own hints) is translated; the message itself stays as Python
or TensorFlow would word it, since that is what the lecturer will meet in the real tools.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from tapeviz.sandbox import UserCodeError

KINDS = {
    "syntax": QT_TRANSLATE_NOOP("ErrorText", "Syntax error"),
    "name": QT_TRANSLATE_NOOP("ErrorText", "Unknown name"),
    "type": QT_TRANSLATE_NOOP("ErrorText", "Type error"),
    "value": QT_TRANSLATE_NOOP("ErrorText", "Value error"),
    "engine": QT_TRANSLATE_NOOP("ErrorText", "Tensor error"),
    "limit": QT_TRANSLATE_NOOP("ErrorText", "Limit reached"),
    "refused": QT_TRANSLATE_NOOP("ErrorText", "Not available in tapeviz"),
    "cancelled": QT_TRANSLATE_NOOP("ErrorText", "Stopped"),
    "runtime": QT_TRANSLATE_NOOP("ErrorText", "Error"),
    "crash": QT_TRANSLATE_NOOP("ErrorText", "The worker crashed"),
    "internal": QT_TRANSLATE_NOOP("ErrorText", "Internal error"),
}
HINTS = (
    QT_TRANSLATE_NOOP("ErrorText", "raise the limit in Preferences if this is intended"),
    QT_TRANSLATE_NOOP("ErrorText", "did you mean '%1'?"),
)
DID_YOU_MEAN = re.compile(r"did you mean '([^']*)'\?")
translate = QCoreApplication.translate  # lupdate reads translate("ErrorText", "…")


def hint_text(hint: str | None) -> str:
    """Tapeviz's hint in the interface language (other hints as they are)."""
    if not hint:
        return ""
    match = DID_YOU_MEAN.fullmatch(hint)
    if match:
        return translate("ErrorText", "did you mean '%1'?").replace("%1", match.group(1))
    return translate("ErrorText", hint) if hint in HINTS else hint


def describe(err: UserCodeError) -> str:
    """``line 3 · Syntax error: invalid syntax`` and the hint on the next line."""
    label = KINDS.get(err.kind, KINDS["runtime"])
    kind = translate("ErrorText", label)
    where = translate("ErrorText", "line %1").replace("%1", str(err.line)) if err.line else ""
    head = f"{where} · {kind}" if where else kind
    message = err.message
    lower = message.lower()
    if lower.startswith(label.lower() + ": "):  # "syntax error: invalid syntax"
        message = message[len(label) + 2 :]
    elif err.kind == "name" and lower.startswith("unknown name '"):  # "unknown name 'x'"
        message = message[len("unknown name ") :]
    hint = hint_text(err.hint)
    return f"{head}: {message}" + (f"\n{hint}" if hint else "")
