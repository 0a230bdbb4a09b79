"""The worker reads each studio answer as the window will, before sending it.

Registered in ``server.CHECKS`` by :func:`tapeviz.models.descent.remote.register`: what the
window's reading refuses (a ProtocolError) becomes the studio's error saying what was too big,
never an answer the window calls malformed.
"""

from __future__ import annotations

from typing import Any

from tapeviz.models.descent.messages import ProblemError, refusal_doc
from tapeviz.models.descent.remote import _answer, _backdrop, _race, decode_problem
from tapeviz.sandbox.process import results_decode
from tapeviz.sandbox.process.wire import Frame, Writer, need


def _refused(args: Any, why: str, refused: Any) -> tuple[Any, Writer]:
    """An answer the window would refuse: the studio's error says what was too big."""
    from tapeviz.sandbox.messages import say

    return refusal_doc(ProblemError(say("answer_refused", why=why))), Writer()


def _checked_answer(answer: Frame) -> Any:
    """The answer's result as the window reads it; None for a refusal (it read that too)."""
    try:
        return _answer(answer)
    except ProblemError:
        return None


def _check_race(answer: Frame, args: Any, request: Frame) -> object:
    doc = _checked_answer(answer)
    if doc is None or doc.get("cancelled") is True:
        return None
    problem = decode_problem(need(args, "problem", dict), request)
    return _race(need(doc, "race", dict), answer, problem), _backdrop(
        need(doc, "backdrop", dict), answer
    )


def _check_backdrop(answer: Frame, args: Any, request: Frame) -> object:
    doc = _checked_answer(answer)
    return None if doc is None else _backdrop(need(doc, "backdrop", dict), answer)


def _check_tape(answer: Frame, args: Any, request: Frame) -> object:
    doc = _checked_answer(answer)
    return None if doc is None else results_decode.decode(answer.part(need(doc, "result", dict)))


CHECKS = {
    "race": (_check_race, _refused),
    "backdrop": (_check_backdrop, _refused),
    "tape_at": (_check_tape, _refused),
}
