"""A script checked and compiled once (:class:`Program`), and a session's kept ones.

The worker keeps the last scripts' programs between runs, so a live re-run of unchanged text
(each keystroke elsewhere, Run again) skips parsing, checking and compiling it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from tapeviz.sandbox.errors import UserCodeError
from tapeviz.sandbox.language.pasted import readable
from tapeviz.sandbox.language.stmt import Compiler, backward_title, naming_tapes
from tapeviz.sandbox.language.validate import Invalid, parse, validate, without_magics
from tapeviz.sandbox.runtime.frames import Frame


@dataclass(frozen=True)
class Program:
    """A script checked and compiled: what a run executes (re-runnable: no state of its own)."""

    code: Callable[[Frame], Any]
    tail: Callable[[Frame], Any] | None  # a last bare expression: the run's value
    last: ast.Expr | None
    shifts: Mapping[int, int]  # per line: columns the pasted-text reading moved
    notes: tuple[str, ...]  # what reading the text noted (magics skipped, characters read)


def compile_program(source: str, note: Callable[[str], None] = lambda text: None) -> Program:
    """Parse, check and compile ``source`` (raises :class:`Invalid` with the user's error).

    ``note`` hears what reading the text noted as it is noted (an error may follow).
    """
    notes: list[str] = []
    shifts: Mapping[int, int] = {}
    source, skipped = without_magics(source)
    for text in skipped:
        note(text)
    notes += skipped
    try:
        tree = parse(source)
    except Invalid:  # pasted: prompts, look-alike characters? (else the error stands)
        readable_source, shifts, fixed = readable(source)
        if readable_source == source:
            raise
        try:
            tree = parse(readable_source)
        except Invalid as exc:
            raise Invalid(_shifted(exc.error, shifts)) from None
        for text in fixed:
            note(text)
        notes += fixed
    try:
        validate(tree)
        body = tree.body  # type: ignore[attr-defined]
        last = body.pop() if body and isinstance(body[-1], ast.Expr) else None
        compiler = Compiler()
        code = compiler.block(body)
        tail = compiler.expr(last.value) if last is not None else None
    except Invalid as exc:
        raise Invalid(_shifted(exc.error, shifts)) from None
    title = backward_title(last.value) if last is not None else None
    if tail is not None and title is not None:
        tail = naming_tapes(tail, title)
    return Program(code, tail, last, shifts, tuple(notes))


def _shifted(error: UserCodeError, shifts: Mapping[int, int]) -> UserCodeError:
    """``error`` at the columns the editor shows (reading pasted text moved some)."""
    moved = shifts.get(error.line or 0)
    return replace(error, col=error.col + moved) if error.col and moved else error


KEPT_CHARS = 200_000  # a longer script is compiled each run (a worker keeps no huge programs)


class Programs:
    """The last few scripts' compiled programs, by their text (a worker keeps one per session)."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self._kept: dict[str, Program] = {}

    def get(self, source: str) -> Program | None:
        """The program compiled from exactly ``source`` (None: not kept)."""
        program = self._kept.pop(source, None)
        if program is not None:
            self._kept[source] = program  # the most recent last
        return program

    def put(self, source: str, program: Program) -> None:
        """Keep ``program``; the least recently used goes beyond ``size`` (huge texts: never)."""
        if len(source) > KEPT_CHARS:
            return
        self._kept[source] = program
        while len(self._kept) > self.size:
            del self._kept[next(iter(self._kept))]
