"""Parse user text and check it against the allow-list of syntax and names, before anything runs."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from tapeviz.sandbox.errors import UserCodeError

_STATEMENTS: tuple[type[ast.AST], ...] = (
    ast.Module,
    ast.Expression,
    ast.Expr,
    ast.Assign,
    ast.AugAssign,
    ast.AnnAssign,
    ast.For,
    ast.While,
    ast.If,
    ast.With,
    ast.FunctionDef,
    ast.Return,
    ast.Pass,
    ast.Break,
    ast.Continue,
    ast.Import,
    ast.ImportFrom,
    ast.Global,
    ast.Nonlocal,
    ast.Assert,
    ast.Delete,
    ast.Try,
    ast.ExceptHandler,
    ast.Raise,
)
_EXPRESSIONS: tuple[type[ast.AST], ...] = (
    ast.BoolOp,
    ast.BinOp,
    ast.UnaryOp,
    ast.Lambda,
    ast.IfExp,
    ast.Dict,
    ast.Set,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
    ast.Compare,
    ast.Call,
    ast.FormattedValue,
    ast.JoinedStr,
    ast.Constant,
    ast.Attribute,
    ast.Subscript,
    ast.Starred,
    ast.Name,
    ast.List,
    ast.Tuple,
    ast.Slice,
    ast.keyword,
    ast.arguments,
    ast.arg,
    ast.comprehension,
    ast.alias,
    ast.withitem,
    ast.operator,
    ast.unaryop,
    ast.cmpop,
    ast.boolop,
    ast.expr_context,
)
ALLOWED = _STATEMENTS + _EXPRESSIONS

_NOT_SUPPORTED: dict[type[ast.AST], str] = {
    ast.ClassDef: "class definitions are not supported in tapeviz scripts",
    ast.AsyncFunctionDef: "async functions are not supported",
    ast.AsyncFor: "async loops are not supported",
    ast.AsyncWith: "async with is not supported",
    ast.Await: "await is not supported",
    ast.Yield: "generators (yield) are not supported; build a list instead",
    ast.YieldFrom: "generators (yield from) are not supported",
    ast.NamedExpr: "the walrus operator := is not supported; assign on its own line",
}


@dataclass(frozen=True)
class Parsed:
    """A parsed, validated program and what the validator wants the user to know."""

    tree: ast.AST
    source: str
    notes: tuple[str, ...] = ()


class Invalid(Exception):
    """The text cannot run; ``error`` says where and why."""

    def __init__(self, error: UserCodeError) -> None:
        super().__init__(str(error))
        self.error = error


def _caret(source: str, line: int | None, col: int | None) -> str | None:
    if not line:
        return None
    lines = source.splitlines()
    if not 0 < line <= len(lines):
        return None
    text = lines[line - 1].rstrip()
    return text + "\n" + " " * max(0, (col or 1) - 1) + "^"


def parse(source: str, mode: str = "exec") -> ast.AST:
    """``ast.parse`` with SyntaxError turned into an :class:`Invalid` with line, column, caret."""
    try:
        return ast.parse(source, filename="<script>", mode=mode)
    except SyntaxError as exc:
        msg = exc.msg
        if isinstance(exc, IndentationError):
            msg = f"indentation: {msg}"
        raise Invalid(
            UserCodeError(
                f"syntax error: {msg}",
                exc.lineno,
                exc.offset,
                _caret(source, exc.lineno, exc.offset),
                kind="syntax",
            )
        ) from None
    except (ValueError, RecursionError, MemoryError) as exc:
        what = "nested too deeply" if isinstance(exc, RecursionError | MemoryError) else str(exc)
        raise Invalid(UserCodeError(f"cannot read the code: {what}", kind="syntax")) from None


class _Checker(ast.NodeVisitor):
    def generic_visit(self, node: ast.AST) -> None:
        if not isinstance(node, ALLOWED):
            reason = _NOT_SUPPORTED.get(type(node), f"{type(node).__name__} is not supported")
            self._fail(node, reason)
        super().generic_visit(node)

    def _fail(self, node: ast.AST, message: str, hint: str | None = None) -> None:
        raise Invalid(
            UserCodeError(
                message,
                getattr(node, "lineno", None),
                getattr(node, "col_offset", -1) + 1 or None,
                hint,
                kind="refused",
            )
        )

    def _name(self, node: ast.AST, name: str | None, what: str) -> None:
        if name and name.startswith("__"):
            self._fail(node, f"{what} '{name}' is not available", "dunder names are off limits")

    def visit_Name(self, node: ast.Name) -> None:
        self._name(node, node.id, "the name")
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr.startswith("_"):
            self._fail(
                node,
                f"the attribute '{node.attr}' is not available",
                "private and dunder attributes are off limits in tapeviz scripts",
            )
        self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._name(node, node.name, "the function name")
        self.generic_visit(node)

    def visit_arg(self, node: ast.arg) -> None:
        self._name(node, node.arg, "the parameter")
        self.generic_visit(node)

    def visit_keyword(self, node: ast.keyword) -> None:
        self._name(node, node.arg, "the keyword")
        self.generic_visit(node)

    def visit_alias(self, node: ast.alias) -> None:
        if node.name == "*":
            self._fail(node, "import * is not supported", "import the names you need")
        self._name(node, node.asname, "the name")
        for part in node.name.split("."):
            self._name(node, part, "the module")
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            self._fail(node, "relative imports are not supported")
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        for name in node.names:
            self._name(node, name, "the name")

    visit_Nonlocal = visit_Global  # type: ignore[assignment]

    def visit_Try(self, node: ast.Try) -> None:
        if node.orelse and not node.handlers:  # pragma: no cover - invalid Python anyway
            self._fail(node, "try/else needs an except clause")
        self.generic_visit(node)


def validate(tree: ast.AST) -> None:
    """Raise :class:`Invalid` at the first node outside the allow-list."""
    _Checker().visit(tree)


# -- expression mode: what a lecturer types in a box ----------------------------------------
_REPLACEMENTS = (("·", "*"), ("×", "*"), ("÷", "/"), ("−", "-"), ("²", "**2"), ("³", "**3"))


def normalize_expression(text: str) -> tuple[str, tuple[str, ...]]:
    """Accept ``^`` as power and ``·``/``×`` as multiplication; return the text and notes."""
    notes = []
    if "^" in text:
        text = text.replace("^", "**")
        notes.append("^ was read as ** (power); in Python code write x**2")
    for old, new in _REPLACEMENTS:
        if old in text:
            text = text.replace(old, new)
            notes.append(f"{old} was read as {new}")
    return text, tuple(notes)
