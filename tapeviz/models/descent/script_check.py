"""Which ``def loss():`` scripts may be replayed from one trace (a static check, no Qt).

Replaying records is valid when the values of the tensors cannot reach Python: no branches or
loops, no ``float(x)``/``x.numpy()``, no new constants made from tensors, nothing random. The
check reads the script's syntax tree and accepts only straight-line code made of arithmetic,
constant subscripts and the engine's recorded ops.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from tapeviz.engine.ops import __all__ as OP_NAMES
from tapeviz.models.descent.messages import REFUSALS


def is_loss_def(node: ast.AST) -> bool:
    """Whether ``node`` is ``def loss():`` (no parameters, no decorators)."""
    if not isinstance(node, ast.FunctionDef) or node.name != "loss" or node.decorator_list:
        return False
    a = node.args
    return not (a.args or a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg)


_TF_MODULES = ("tensorflow", "tapeviz", "tapeviz.tf")
_PURE = (frozenset(OP_NAMES) | {"print", "truediv", "floormod", "add_n"}) - {
    "range",
    "linspace",
    "fill",
    "ones",
    "zeros",
    "shape",
    "size",
    "rank",
    "getitem",
}
_NAMESPACES = frozenset({"math", "nn", "linalg"})
_DTYPES = frozenset({"float16", "float32", "float64", "double", "half", "int32", "int64", "bool"})
_STATEMENTS = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Expr)
_EXPRS = (
    ast.BinOp,
    ast.UnaryOp,
    ast.Name,
    ast.Constant,
    ast.Tuple,
    ast.List,
    ast.Compare,
    ast.Slice,
    ast.operator,
    ast.unaryop,
    ast.cmpop,
    ast.keyword,
    ast.expr_context,
)


def replay_refusal(tree: ast.Module, params: Sequence[str]) -> str | None:
    """Why ``loss()`` may not be replayed from one trace (None: it is straight-line code).

    Replay is valid when nothing in ``loss()`` can turn a tensor's value into Python control
    flow or a new constant: only assignments and ``return``, arithmetic, calls of the engine's
    recorded ops (``tf.square``, ``tf.math.exp``, ...), constant subscripts; and the parameters
    are used nowhere else in the script.
    """
    aliases = {"tf"}  # the sandbox binds tf before the script's first line
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            aliases |= {a.asname or a.name for a in node.names if a.name in _TF_MODULES}
        elif isinstance(node, ast.ImportFrom) and node.module == "tapeviz":
            aliases |= {a.asname or a.name for a in node.names if a.name == "tf"}
    loss = next(n for n in tree.body if is_loss_def(n))
    for node in tree.body:
        if node is loss:
            continue
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and sub.id in params:
                return REFUSALS["outside"].format(name=sub.id)
    for stmt in loss.body:  # type: ignore[attr-defined]
        if not isinstance(stmt, _STATEMENTS):
            return REFUSALS["statement"].format(kind=type(stmt).__name__.lower())
        if isinstance(stmt, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if not all(isinstance(t, ast.Name) for t in targets):
                return REFUSALS["assigns"]
        for sub in ast.walk(stmt):
            reason = _refused(sub, aliases)
            if reason is not None:
                return reason
    return None


def _chain(node: ast.AST) -> list[str] | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def _refused(node: ast.AST, aliases: set[str]) -> str | None:
    if isinstance(node, _STATEMENTS + _EXPRS):
        return None
    if isinstance(node, ast.Call):
        chain = _chain(node.func)
        ok = (
            chain is not None
            and chain[0] in aliases
            and set(chain[1:-1]) <= _NAMESPACES
            and chain[-1] in _PURE
            and not any(isinstance(a, ast.Starred) for a in node.args)
        )
        return None if ok else REFUSALS["calls"].format(name=ast.unparse(node.func))
    if isinstance(node, ast.Attribute):
        chain = _chain(node)
        if chain is not None and chain[0] in aliases and set(chain[1:-1]) <= _NAMESPACES:
            last = chain[-1]
            known = last in _PURE | _DTYPES | _NAMESPACES
            return None if known else REFUSALS["uses"].format(name=last)
        return REFUSALS["attribute"].format(name=node.attr)
    if isinstance(node, ast.Subscript):
        return None if _constant_key(node.slice) else REFUSALS["key"]
    return REFUSALS["uses"].format(name=type(node).__name__)


def _constant_key(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        return True
    if isinstance(node, ast.Slice):
        return all(p is None or _constant_key(p) for p in (node.lower, node.upper, node.step))
    if isinstance(node, ast.Tuple):
        return all(_constant_key(e) for e in node.elts)
    return False
