"""A user-code error as the window shows it: where, what kind, the message, and the hint.

All of it is in the interface language: tapeviz's own sentences come as message codes with
fields (:mod:`tapeviz.ui.messages`). Python's and TensorFlow's own texts stay as the real tools
word them, since that is what the lecturer will meet there.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from tapeviz.sandbox import UserCodeError
from tapeviz.ui.messages import error_hint, error_message

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
# Messages that begin by naming their kind ("syntax error: …", "unknown name 'x'"): the head
# says the kind already, so these shorter sentences follow it.
AFTER_KIND = {
    "syntax": QT_TRANSLATE_NOOP("ErrorText", "{python}"),
    "syntax_indent": QT_TRANSLATE_NOOP("ErrorText", "indentation: {python}"),
    "syntax_early_end": QT_TRANSLATE_NOOP("ErrorText", "{python} (the code ends too early)"),
    "syntax_indent_early_end": QT_TRANSLATE_NOOP(
        "ErrorText", "indentation: {python} (the code ends too early)"
    ),
    "unknown_name": QT_TRANSLATE_NOOP("ErrorText", "'{name}'"),
    "expression_unknown_name": QT_TRANSLATE_NOOP("ErrorText", "'{name}' — add it as a variable?"),
}
translate = QCoreApplication.translate  # lupdate reads translate("ErrorText", "…")


def unknown_name(err: UserCodeError) -> str | None:
    """The name an expression used but the variables table lacks (offered as a new row)."""
    if err.code == "expression_unknown_name" and err.msg is not None:
        return err.msg.field("name")
    return None


def _message(err: UserCodeError) -> str:
    msg = err.msg
    if msg is not None and msg.code in AFTER_KIND:
        return translate("ErrorText", AFTER_KIND[msg.code]).format_map(dict(msg.fields))
    text = error_message(err)
    label = KINDS.get(err.kind, KINDS["runtime"])
    if msg is None and text.lower().startswith(label.lower() + ": "):  # a plain-text message
        text = text[len(label) + 2 :]
    return text


def describe(err: UserCodeError) -> str:
    """``line 3 · Syntax error: invalid syntax`` and the hint on the next line."""
    if err.kind == "cancelled" and err.msg is not None and err.msg.code == "stopped":
        if err.line:  # not "Stopped: stopped by the user"
            return translate("ErrorText", "Stopped by the user at line %1").replace(
                "%1", str(err.line)
            )
        return translate("ErrorText", "Stopped by the user")
    label = KINDS.get(err.kind, KINDS["runtime"])
    kind = translate("ErrorText", label)
    where = translate("ErrorText", "line %1").replace("%1", str(err.line)) if err.line else ""
    head = f"{where} · {kind}" if where else kind
    hint = error_hint(err)
    return f"{head}: {_message(err)}" + (f"\n{hint}" if hint else "")
