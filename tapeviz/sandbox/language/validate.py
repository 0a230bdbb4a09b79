"""Parse user text and check it against the allow-list of syntax and names, before anything runs."""

from __future__ import annotations

import ast
import io
import re
import tokenize
import warnings
from dataclasses import dataclass

from tapeviz.sandbox.errors import UserCodeError
from tapeviz.sandbox.language.parsing import parse_text
from tapeviz.sandbox.messages import Message, Note, say

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
    ast.ClassDef,
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


def _with_subclasses(types: tuple[type[ast.AST], ...]) -> frozenset[type[ast.AST]]:
    out: set[type[ast.AST]] = set()
    todo = list(types)
    while todo:
        t = todo.pop()
        if t not in out:
            out.add(t)
            todo.extend(t.__subclasses__())
    return frozenset(out)


_ALLOWED_TYPES = _with_subclasses(ALLOWED)  # exact-type lookups are much faster than isinstance

_NOT_SUPPORTED: dict[type[ast.AST], Message] = {
    ast.AsyncFunctionDef: say("async_def"),
    ast.AsyncFor: say("async_for"),
    ast.AsyncWith: say("async_with"),
    ast.Await: say("await"),
    ast.Yield: say("yield"),
    ast.YieldFrom: say("yield_from"),
    ast.NamedExpr: say("walrus"),
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


# Python's compile-time SyntaxWarnings about user code ("is" with a literal, ...) must not reach
# the app's stderr; they are attributed to the pseudo-module of the code's filename.
warnings.filterwarnings("ignore", category=SyntaxWarning, module="<script>")


def _caret(source: str, line: int | None, col: int | None) -> str | None:
    if not line:
        return None
    lines = source.splitlines()
    if not 0 < line <= len(lines):
        return None
    text = lines[line - 1].rstrip()
    return text + "\n" + " " * max(0, (col or 1) - 1) + "^"


# Characters ``str.splitlines`` (editors, other tools) treat as line breaks but Python's tokenizer
# does not: a comment holding one would be one line here and two lines in an exported file.
SEPARATORS = {"\x0b": "U+000B", "\x0c": "U+000C (form feed)", "\x1c": "U+001C",
              "\x1d": "U+001D", "\x1e": "U+001E", "\x85": "U+0085", "\u2028": "U+2028",
              "\u2029": "U+2029"}  # fmt: skip
_COOKIE = re.compile(r"^[ \t\f]*#.*?coding[:=]", re.M)


def check_text(source: str) -> None:
    """Refuse text that would read differently elsewhere: odd line breaks, a coding cookie."""
    for ch, name in SEPARATORS.items():
        at = source.find(ch)
        if at >= 0:
            line = source.count("\n", 0, at) + 1
            col = at - (source.rfind("\n", 0, at) + 1) + 1
            raise Invalid(UserCodeError.of(
                say("line_break", name=name), line, col, say("hint_line_break"), "syntax",
            ))  # fmt: skip
    first_two = "\n".join(source.split("\n", 2)[:2])
    match = _COOKIE.search(first_two)
    if match:
        line = first_two.count("\n", 0, match.start()) + 1
        raise Invalid(UserCodeError.of(say("coding"), line, 1, say("hint_coding"), "syntax"))


_MAGIC = re.compile(r"^[ \t]*[%!]", re.M)


def _magic_lines(source: str) -> list[int]:
    """Lines (0-based) that start a statement with ``%`` or ``!`` (not inside brackets)."""
    depth, seen, out = 0, set(), []
    skip = (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT)
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type in skip:
                continue
            row = tok.start[0]
            if row not in seen:
                seen.add(row)
                if depth == 0 and tok.string[:1] in ("%", "!"):
                    out.append(row - 1)
            if tok.string in ("(", "[", "{"):
                depth += 1
            elif tok.string in (")", "]", "}"):
                depth = max(depth - 1, 0)
    except (tokenize.TokenError, SyntaxError, ValueError):
        return out  # the lines before the text stops tokenizing (an unclosed bracket below)
    return out


def without_magics(source: str) -> tuple[str, tuple[str, ...]]:
    """A notebook cell's IPython lines (``%matplotlib inline``, ``!pip install``) blanked.

    Only lines that start a statement, only when the text does not parse as it is, and with the
    line count kept, so every position still points at the user's text. Returns the text and a
    note per line skipped.
    """
    if not _MAGIC.search(source):
        return source, ()
    try:
        parse_text(source)
        return source, ()
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        pass
    lines = source.split("\n")
    notes = []
    for i in _magic_lines(source):
        if i < len(lines):
            command = lines[i].strip()
            notes.append(Note(say("note_ipython", line=i + 1, command=command[:60])))
            lines[i] = ""
    return "\n".join(lines), tuple(notes)


def parse(source: str, mode: str = "exec") -> ast.AST:
    """``ast.parse`` with SyntaxError turned into an :class:`Invalid` with line, column, caret."""
    check_text(source)
    try:
        return parse_text(source, mode=mode)
    except SyntaxError as exc:
        code = "syntax_indent" if isinstance(exc, IndentationError) else "syntax"
        line, col = exc.lineno, exc.offset
        lines = source.splitlines()
        if line and 0 < line <= len(lines) and not col:  # Python says 0 at an unexpected end
            col = len(lines[line - 1].rstrip()) + 1
            code += "_early_end"
        message = say(code, python=exc.msg)  # Python's own words stay as they are
        raise Invalid(
            UserCodeError.of(message, line, col, _caret(source, line, col), kind="syntax")
        ) from None
    except (ValueError, RecursionError, MemoryError) as exc:
        deep = isinstance(exc, RecursionError | MemoryError)
        message = say("unreadable_deep") if deep else say("unreadable", python=str(exc))
        raise Invalid(UserCodeError.of(message, kind="syntax")) from None


def _fail(node: ast.AST, message: Message, hint: Message | None = None) -> Invalid:
    col = getattr(node, "col_offset", -1) + 1 or None
    return Invalid(UserCodeError.of(message, getattr(node, "lineno", None), col, hint, "refused"))


def _check_name(node: ast.AST, name: str | None, what: str) -> None:
    if name and name.startswith("__"):
        raise _fail(node, say("dunder", what=what, name=name), say("hint_dunder"))


# The dunder attributes a script may read; and the special methods a class may define (the
# language calls them to make and to call an object) and reach through super().
DUNDER_READS = ("__name__", "__version__", "__class__")  # (__class__: type(x), runtime/policy.py)
SPECIAL_METHODS = (
    "__init__", "__call__", "__len__", "__getitem__", "__repr__",
    "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
    "__rtruediv__", "__pow__", "__rpow__", "__matmul__", "__rmatmul__", "__neg__", "__pos__",
)  # fmt: skip


def _dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def _special_alias(stmt: ast.stmt) -> bool:
    """``__rmul__ = __mul__`` in a class body: one special method named as another."""
    return (
        isinstance(stmt, ast.Assign)
        and all(isinstance(t, ast.Name) and t.id in SPECIAL_METHODS for t in stmt.targets)
        and isinstance(stmt.value, ast.Name)
        and stmt.value.id in SPECIAL_METHODS
    )


def _is_super_call(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "super"
        and not node.keywords
    )


def _check_class(node: ast.ClassDef, exempt: set[int]) -> None:
    """A class statement: plain bases, no keywords, public names in its body.

    Decorators are checked when they run: only library ones made for classes are applied
    (``@keras.saving.register_keras_serializable()``), see ``flow.s_ClassDef``.
    """
    _check_name(node, node.name, "the class name")
    if node.keywords:
        raise _fail(node, say("class_keywords"))
    if any(isinstance(b, ast.Starred) for b in node.bases):
        raise _fail(node, say("class_bases"))
    for stmt in node.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name in SPECIAL_METHODS:
            exempt.add(id(stmt))
            continue
        if _special_alias(stmt):  # __rmul__ = __mul__ (the value is checked when the class is made)
            exempt.update(id(n) for n in (*stmt.targets, stmt.value))  # type: ignore[attr-defined]
            continue
        names = []
        if isinstance(stmt, ast.FunctionDef):
            names = [stmt.name]
        elif isinstance(stmt, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
        for name in names:  # (a _name is checked when the class is made: its bases decide)
            if name.startswith("__") and name not in SPECIAL_METHODS:  # (__rmul__ = __mul__)
                hint = say("hint_class_dunder") if _dunder(name) else say("hint_class_private")
                raise _fail(stmt, say("class_attribute", name=name), hint)


def _check_node(node: ast.AST, exempt: set[int]) -> None:
    """Refuse one node outside the allow-list (names, attributes, imports)."""
    if type(node) not in _ALLOWED_TYPES:
        reason = _NOT_SUPPORTED.get(type(node)) or say("not_supported", name=type(node).__name__)
        raise _fail(node, reason)
    if isinstance(node, ast.Name):
        if id(node) not in exempt:
            _check_name(node, node.id, "the name")
    elif isinstance(node, ast.Attribute):
        if node.attr.startswith("__"):  # (a _name is checked where it is read: runtime/policy)
            loading = isinstance(node.ctx, ast.Load)
            if loading and (node.attr in DUNDER_READS or (
                node.attr in SPECIAL_METHODS and _is_super_call(node.value)
            )):  # fmt: skip
                return
            raise _fail(node, say("private_attribute", name=node.attr), say("hint_private"))
    elif isinstance(node, ast.FunctionDef):
        if id(node) not in exempt:
            _check_name(node, node.name, "the function name")
    elif isinstance(node, ast.ClassDef):
        _check_class(node, exempt)
    elif isinstance(node, ast.arg):
        _check_name(node, node.arg, "the parameter")
    elif isinstance(node, ast.keyword):
        _check_name(node, node.arg, "the keyword")
    elif isinstance(node, ast.alias):
        if node.name == "*":
            raise _fail(node, say("import_star"), say("hint_import_names"))
        _check_name(node, node.asname, "the name")
        for part in node.name.split("."):
            _check_name(node, part, "the module")
    elif isinstance(node, ast.ImportFrom) and node.level:
        raise _fail(node, say("relative_import"))
    elif isinstance(node, ast.Global | ast.Nonlocal):
        for name in node.names:
            _check_name(node, name, "the name")


_CHECKED = frozenset((ast.Name, ast.Attribute, ast.FunctionDef, ast.ClassDef, ast.arg,
            ast.keyword, ast.alias, ast.ImportFrom, ast.Global, ast.Nonlocal))  # fmt: skip


def validate(tree: ast.AST) -> None:
    """Raise :class:`Invalid` at the first node outside the allow-list."""
    checked = _CHECKED
    allowed = _ALLOWED_TYPES
    exempt: set[int] = set()  # the special methods of classes (a class comes before its body)
    for n in ast.walk(tree):  # ``yield x`` as a statement (in a def: Python's parser checks)
        if isinstance(n, ast.Expr) and isinstance(n.value, ast.Yield | ast.YieldFrom):
            exempt.add(id(n.value))
    for node in ast.walk(tree):
        tp = type(node)
        if tp not in allowed or tp in checked:
            if id(node) in exempt and tp in (ast.Yield, ast.YieldFrom):
                continue
            _check_node(node, exempt)


# -- expression mode: what a lecturer types in a box ----------------------------------------
_REPLACEMENTS = (("·", "*"), ("×", "*"), ("÷", "/"), ("−", "-"), ("²", "**2"), ("³", "**3"))


def normalize_expression(text: str) -> tuple[str, tuple[str, ...]]:
    """Accept ``^`` as power and ``·``/``×`` as multiplication; return the text and notes."""
    notes = []
    if "^" in text:
        text = text.replace("^", "**")
        notes.append(Note(say("note_caret")))
    for old, new in _REPLACEMENTS:
        if old in text:
            text = text.replace(old, new)
            notes.append(Note(say("note_read_as", old=old, new=new)))
    return text, tuple(notes)
