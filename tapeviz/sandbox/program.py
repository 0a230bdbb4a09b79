"""A script checked and compiled once (:class:`Program`), and a session's kept ones.

The worker keeps the last scripts' programs between runs, so a live re-run of unchanged text
(each keystroke elsewhere, Run again) skips parsing, checking and compiling it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from tapeviz.sandbox.errors import UserCodeError
from tapeviz.sandbox.language.expr import Fn
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


def compile_program(
    source: str,
    note: Callable[[str], None] = lambda text: None,
    statements: Statements | None = None,
) -> Program:
    """Parse, check and compile ``source`` (raises :class:`Invalid` with the user's error).

    ``note`` hears what reading the text noted as it is noted (an error may follow).
    ``statements``: a session's statements checked and compiled before, reused where the same
    text stands at the same place (a keystroke re-checks and re-compiles one statement).
    """
    notes: list[str] = []
    shifts: Mapping[int, int] = {}
    source, skipped = without_magics(source)
    for text in skipped:
        note(text)
    notes += skipped
    parsed = source
    try:
        tree = parse(source)
    except Invalid:  # pasted: prompts, look-alike characters? (else the error stands)
        readable_source, shifts, fixed = readable(source)
        if readable_source == source:
            raise
        try:
            tree = parse(readable_source)
            parsed = readable_source
        except Invalid as exc:
            raise Invalid(_shifted(exc.error, shifts)) from None
        for text in fixed:
            note(text)
        notes += fixed
    try:
        body = tree.body  # type: ignore[attr-defined]
        compiler = Compiler()
        if statements is None or len(source) > KEPT_CHARS:
            validate(tree)
            last = body.pop() if body and isinstance(body[-1], ast.Expr) else None
            code = compiler.block(body)
        else:
            lines = _LINES.split(parsed)  # (the parser's line ends only, not str.splitlines')
            code, last = statements.block(tree, lines, compiler)  # type: ignore[arg-type]
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


_LINES = re.compile(r"\r\n|\r|\n")
KEPT_CHARS = 200_000  # a longer script is compiled each run (a worker keeps no huge programs)


class Statements:
    """The statements of the last two texts compiled, checked and compiled, by place and text.

    A top-level statement compiles alone (the module scope resolves every name at run time),
    so one with the same text (decorators included) at the same line and column is the same
    closure. A keystroke's text shares all but a statement or two with the text before, so
    only the last two texts' statements are kept (memory: at most two texts' worth). Only
    checks that passed are kept; any refusal is made by checking the whole tree again, so the
    error the user sees is the one a fresh compile reports.
    """

    def __init__(self) -> None:
        # key -> its closure (None: checked, not compiled: a statement after one that failed)
        self._before: dict[tuple[int, int, str], Fn | None] = {}
        self._last: dict[tuple[int, int, str], Fn | None] = {}

    @staticmethod
    def _key(node: ast.stmt, lines: list[str]) -> tuple[int, int, str]:
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
        end = node.end_lineno or node.lineno
        return node.lineno, node.col_offset, "\n".join(lines[first - 1 : end])

    def block(
        self, tree: ast.Module, lines: list[str], compiler: Compiler
    ) -> tuple[Fn, ast.Expr | None]:
        """``tree``'s statements checked and compiled (kept ones reused), its last expression.

        The last bare expression is taken out of the body checked, not compiled (the run's value).
        """
        body = tree.body
        keys = [self._key(node, lines) for node in body]
        now: dict[tuple[int, int, str], Fn | None] = {}
        try:
            for node, key in zip(body, keys, strict=True):  # (every check before any compile)
                if key in self._last:
                    now[key] = self._last[key]
                elif key in self._before:
                    now[key] = self._before[key]
                else:
                    try:
                        validate(node)
                    except Invalid:
                        validate(tree)  # the first refusal in the whole text's order
                        raise
                    now[key] = None
            last = body.pop() if body and isinstance(body[-1], ast.Expr) else None
            stmts = []
            for node, key in zip(body, keys, strict=False):  # (the last expression: popped)
                fn = now[key]
                if fn is None:
                    fn = now[key] = compiler.stmt(node)
                stmts.append((fn, node.lineno, node.col_offset + 1))
        finally:
            self._before, self._last = self._last, now
        return compiler.sequence(stmts), last


class Programs:
    """The last few scripts' compiled programs, by their text (a worker keeps one per session)."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self._kept: dict[str, Program] = {}
        self.statements = Statements()  # what an edited text shares with the texts before

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
