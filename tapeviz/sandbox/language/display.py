"""Compile displays, f-strings and comprehensions (lists, sets, dicts, generators)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from typing import Any

from tapeviz.sandbox.errors import locate
from tapeviz.sandbox.language.expr import ExprCompiler, Fn, _pos
from tapeviz.sandbox.language.scopes import comprehension_scope
from tapeviz.sandbox.runtime.checks import (
    budget,
    check_key,
    check_keys,
    counted,
)
from tapeviz.sandbox.runtime.frames import Frame
from tapeviz.sandbox.runtime.text import format_field, joined


class DisplayCompiler(ExprCompiler):
    """Adds container displays, f-strings and comprehensions to :class:`ExprCompiler`."""

    # -- displays and strings --------------------------------------------------------------
    def _elements(self, elts: list[ast.expr]) -> Callable[[Frame], list[Any]]:
        parts = [
            (isinstance(e, ast.Starred), self.expr(e.value if isinstance(e, ast.Starred) else e))
            for e in elts
        ]
        if not any(star for star, _ in parts):
            fns = [fn for _, fn in parts]
            return lambda frame: [fn(frame) for fn in fns]

        def build(frame: Frame) -> list[Any]:
            out: list[Any] = []
            for star, fn in parts:
                if star:
                    part = counted(fn(frame), "the * items")
                    budget().check_size(len(out) + len(part), "the display")  # type: ignore[arg-type]
                    out.extend(part)
                else:
                    out.append(fn(frame))
            return out

        return build

    def e_List(self, node: ast.List) -> Fn:
        return self._elements(node.elts)

    def e_Tuple(self, node: ast.Tuple) -> Fn:
        items = self._elements(node.elts)
        return lambda frame: tuple(items(frame))

    def e_Set(self, node: ast.Set) -> Fn:
        items = self._elements(node.elts)

        def build(frame: Frame) -> set[Any]:
            values = items(frame)
            check_keys(values)
            return set(values)

        return build

    def e_Dict(self, node: ast.Dict) -> Fn:
        pairs = [
            (None if k is None else self.expr(k), self.expr(v))
            for k, v in zip(node.keys, node.values, strict=True)
        ]

        def build(frame: Frame) -> dict[Any, Any]:
            out: dict[Any, Any] = {}
            for key, value in pairs:
                if key is None:
                    more = value(frame)
                    if not isinstance(more, dict):
                        raise TypeError(f"'{type(more).__name__}' object is not a mapping")
                    budget().check_size(len(out) + len(more), "the dict")
                    out.update(more)
                else:
                    k = key(frame)
                    if type(k) is tuple:
                        check_key(k)
                    out[k] = value(frame)
            return out

        return build

    def e_JoinedStr(self, node: ast.JoinedStr) -> Fn:
        parts = [self.expr(v) for v in node.values]
        return lambda frame: joined(parts, frame)

    def e_FormattedValue(self, node: ast.FormattedValue) -> Fn:
        value = self.expr(node.value)
        spec = self.expr(node.format_spec) if node.format_spec is not None else None
        conv = chr(node.conversion) if node.conversion >= 0 else None
        line, col = _pos(node)

        def formatted(frame: Frame) -> str:
            v = value(frame)
            try:
                return format_field(v, conv, "" if spec is None else spec(frame), "the f-string")
            except BaseException as exc:
                raise locate(exc, line, col) from None

        return formatted

    # -- comprehensions --------------------------------------------------------------------
    def _comprehension(self, node: Any, kind: str) -> Fn:
        first_iter = self.expr(node.generators[0].iter)
        outer, self.scope = self.scope, comprehension_scope(node.generators)
        try:
            gens = []
            for i, gen in enumerate(node.generators):
                it = None if i == 0 else self.expr(gen.iter)
                gens.append((self.store(gen.target), it, [self.expr(c) for c in gen.ifs]))
            if kind == "dict":
                key, val = self.expr(node.key), self.expr(node.value)
                element: Fn = lambda f: (key(f), val(f))  # noqa: E731
            else:
                element = self.expr(node.elt)
        finally:
            self.scope = outer
        line = node.lineno

        def items(frame: Frame, source: Any) -> Iterator[Any]:
            inner = Frame({}, frame, frame.module, frame.budget)
            yield from _loop(gens, 0, inner, source, element, line)

        if kind == "generator":
            return lambda frame: items(frame, first_iter(frame))
        collect = {"list": list, "set": set, "dict": dict}[kind]

        def comprehension(frame: Frame) -> Any:
            values = list(items(frame, first_iter(frame)))
            if kind != "list":
                check_keys(v[0] if kind == "dict" else v for v in values)
            return collect(values)

        return comprehension

    def e_ListComp(self, node: ast.ListComp) -> Fn:
        return self._comprehension(node, "list")

    def e_SetComp(self, node: ast.SetComp) -> Fn:
        return self._comprehension(node, "set")

    def e_DictComp(self, node: ast.DictComp) -> Fn:
        return self._comprehension(node, "dict")

    def e_GeneratorExp(self, node: ast.GeneratorExp) -> Fn:
        return self._comprehension(node, "generator")


def _loop(
    gens: list[Any], level: int, frame: Frame, source: Any, element: Fn, line: int
) -> Iterator[Any]:
    store, _, conditions = gens[level]
    budget = frame.budget
    count = 0
    for item in source:
        budget.steps += 1
        if budget.steps >= budget.next_check:
            budget.check(line)
        store(frame, item)
        if all(c(frame) for c in conditions):
            if level + 1 == len(gens):
                count += 1
                if count & 4095 == 0:
                    budget.check_size(count, "the comprehension")
                yield element(frame)
            else:
                yield from _loop(gens, level + 1, frame, gens[level + 1][1](frame), element, line)
