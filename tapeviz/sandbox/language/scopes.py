"""Compile-time scopes: which names a function body makes local (Python's rules)."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass
class Scope:
    """One scope being compiled: the module, a function, a lambda or a comprehension."""

    kind: str  # "module" | "function" | "comprehension" | "class"
    locals: set[str] = field(default_factory=set)
    globals: set[str] = field(default_factory=set)
    nonlocals: set[str] = field(default_factory=set)

    def where(self, name: str) -> str:
        """How to resolve ``name`` here: ``module``, ``global``, ``local`` or ``free``."""
        if self.kind in ("module", "class"):
            return self.kind  # a class body: its namespace first, then the enclosing scopes
        if name in self.globals:
            return "global"
        if name in self.nonlocals:
            return "free"
        if name in self.locals:
            return "local"
        return "free"


def _targets(node: ast.AST) -> Iterable[str]:
    if isinstance(node, ast.Name):
        yield node.id
    elif isinstance(node, ast.Tuple | ast.List):
        for elt in node.elts:
            yield from _targets(elt)
    elif isinstance(node, ast.Starred):
        yield from _targets(node.value)


class _Assigned(ast.NodeVisitor):
    """Collect the names a function body binds, without entering nested scopes."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.globals: set[str] = set()
        self.nonlocals: set[str] = set()

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Store | ast.Del):
            self.names.add(node.id)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.names.add(node.name)
        for base in node.bases:
            self.visit(base)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.names.add(node.name)
        for deco in node.decorator_list:
            self.visit(deco)
        for default in [*node.args.defaults, *node.args.kw_defaults]:
            if default is not None:
                self.visit(default)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        for default in [*node.args.defaults, *node.args.kw_defaults]:
            if default is not None:
                self.visit(default)

    def _comprehension(self, node: ast.AST) -> None:
        generators = node.generators  # type: ignore[attr-defined]
        self.visit(generators[0].iter)  # only the first iterable runs in the enclosing scope

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.names.add(alias.asname or alias.name.split(".")[0])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            self.names.add(alias.asname or alias.name)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name:
            self.names.add(node.name)
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        self.globals.update(node.names)

    def visit_Nonlocal(self, node: ast.Nonlocal) -> None:
        self.nonlocals.update(node.names)


def function_scope(args: ast.arguments, body: list[ast.stmt] | ast.expr) -> Scope:
    """The scope of a ``def`` or ``lambda``: its parameters and the names its body assigns."""
    finder = _Assigned()
    for stmt in body if isinstance(body, list) else [body]:
        finder.visit(stmt)
    params = [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]
    params += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    local = (finder.names | set(params)) - finder.globals - finder.nonlocals
    return Scope("function", local, finder.globals, finder.nonlocals)


def comprehension_scope(generators: list[ast.comprehension]) -> Scope:
    """The scope of a comprehension: its loop targets."""
    names: set[str] = set()
    for gen in generators:
        names.update(_targets(gen.target))
    return Scope("comprehension", names)
