"""Why the studio cannot optimise a loss: :class:`ProblemError`, with its sentences as codes.

The sentences join the sandbox's catalogue (:mod:`tapeviz.sandbox.messages`), so the window
translates them like the sandbox's own; an error of the user's code inside a loss keeps the
sandbox's code. Python's and TensorFlow's texts stay as they are.
"""

from __future__ import annotations

from typing import Any

from tapeviz.sandbox import UserCodeError
from tapeviz.sandbox.messages import (
    QT_TRANSLATE_NOOP,
    Message,
    checked,
    register,
    say,
    text_of,
)

TEMPLATES = {
    "problem_mode": QT_TRANSLATE_NOOP(
        "UserCode", "mode must be 'expression' or 'script', got {mode}"
    ),
    "no_trainable_named": QT_TRANSLATE_NOOP("UserCode", "no trainable variable named {names}"),
    "no_trainable": QT_TRANSLATE_NOOP(
        "UserCode", "no trainable variable: mark at least one row as trainable"
    ),
    "trainable_dtype": QT_TRANSLATE_NOOP(
        "UserCode", "the trainable variable {name} must be float32 or float64"
    ),
    "loss_not_tensor": QT_TRANSLATE_NOOP(
        "UserCode", "the loss must be a tensor computed from the trainable variables"
    ),
    "loss_shape": QT_TRANSLATE_NOOP(
        "UserCode",
        "the loss must be a single number, but it has shape {shape}: wrap it in sum(...) or "
        "mean(...)",
    ),
    "loss_dtype": QT_TRANSLATE_NOOP("UserCode", "the loss must be a float, got {dtype}"),
    "script_needs_loss": QT_TRANSLATE_NOOP(
        "UserCode",
        "a script for the optimization studio must define `def loss():` (no parameters) "
        "returning the loss computed from the variables table",
    ),
    "script_assigns": QT_TRANSLATE_NOOP(
        "UserCode",
        "the script assigns {name} itself; leave the trainable variables to the variables table",
    ),
    "race_runs": QT_TRANSLATE_NOOP("UserCode", "a race has 1 to {cap} runs, got {count}"),
    "race_steps": QT_TRANSLATE_NOOP("UserCode", "steps must be between 1 and {cap}, got {steps}"),
    "race_method": QT_TRANSLATE_NOOP("UserCode", "method must be one of {methods}"),
    "loss_independent": QT_TRANSLATE_NOOP(
        "UserCode", "the loss does not depend on any trainable variable"
    ),
    "replay_refused": QT_TRANSLATE_NOOP("UserCode", "this loss cannot be replayed: {why}"),
    "replay_axis": QT_TRANSLATE_NOOP(
        "UserCode", "only scalar, elementwise losses replay with a run axis"
    ),
}
# Why a loss is re-traced every step instead of replayed from one trace (``script_check``,
# ``replay``): phrase forms, translated inside "re-traced every step ({why})" and "this loss
# cannot be replayed: {why}".
REFUSALS = {
    "outside": QT_TRANSLATE_NOOP("UserCode", "the script uses {name} outside loss()"),
    "statement": QT_TRANSLATE_NOOP("UserCode", "loss() contains {kind} statements"),
    "assigns": QT_TRANSLATE_NOOP("UserCode", "loss() assigns to something other than a plain name"),
    "calls": QT_TRANSLATE_NOOP("UserCode", "loss() calls {name}"),
    "uses": QT_TRANSLATE_NOOP("UserCode", "loss() uses {name}"),
    "attribute": QT_TRANSLATE_NOOP("UserCode", "loss() reads the attribute .{name}"),
    "key": QT_TRANSLATE_NOOP("UserCode", "loss() indexes with a computed key"),
    "independent": TEMPLATES["loss_independent"],
    "axis": QT_TRANSLATE_NOOP("UserCode", "only scalar, elementwise traces replay with a run axis"),
    "differ": QT_TRANSLATE_NOOP("UserCode", "{what} differs from the tape"),
}
DIFFERS = {  # what a replay got wrong ("differ"'s {what}: phrases, translated inside it)
    "loss": QT_TRANSLATE_NOOP("UserCode", "the replayed loss"),
    "gradient": QT_TRANSLATE_NOOP("UserCode", "a replayed gradient"),
    "batched": QT_TRANSLATE_NOOP("UserCode", "the batched replay"),
}
register(TEMPLATES, DIFFERS.values(), REFUSALS.values())


class ProblemError(ValueError):
    """The loss cannot be optimised as given; the message says why, for the status bar.

    ``msg`` is the reason as a :class:`~tapeviz.sandbox.messages.Message` when tapeviz worded
    it (None: Python's or TensorFlow's text), ``line`` the user's line if there is one.
    """

    def __init__(self, message: Message | str, line: int | None = None) -> None:
        text = str(text_of(message))
        super().__init__(f"line {line}: {text}" if line else text)
        self.message = text
        self.msg = message if isinstance(message, Message) else None
        self.line = line

    @classmethod
    def of(cls, err: UserCodeError) -> ProblemError:
        """The studio's view of an error in the loss's code (its code and line kept)."""
        return cls(err.msg or err.message, err.line)

    def to_doc(self) -> dict[str, Any]:
        """The error as plain data, for the answer of a worker process."""
        msg = self.msg
        return {
            "problem": self.message[:5000],
            "problem_line": self.line,
            "problem_code": msg.code if msg else None,
            "problem_fields": [list(pair) for pair in msg.fields] if msg else [],
        }

    @classmethod
    def from_doc(cls, doc: dict[str, Any]) -> ProblemError:
        """The error a worker sent (a code is used only if it is a known one with its fields)."""
        text = doc.get("problem")
        line = doc.get("problem_line")
        message = checked(doc.get("problem_code"), doc.get("problem_fields"))
        plain = text[:5000] if isinstance(text, str) else "the worker gave no reason"
        ok_line = line if type(line) is int and 0 < line < 10**9 else None
        return cls(message or plain, ok_line)


def problem_error(code: str, **fields: object) -> ProblemError:
    """A :class:`ProblemError` for the message ``code`` with ``fields``."""
    return ProblemError(say(code, **fields))


def refusal_doc(exc: ValueError) -> dict[str, Any]:
    """Why a worker's request failed, as data (a ProblemError with its code)."""
    if isinstance(exc, ProblemError):
        return exc.to_doc()
    return {"problem": str(exc)[:5000]}
