"""Expression mode: ``a*x**2 + b*x + c`` over a variables table, compiled once, run many times."""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tapeviz import engine as tv
from tapeviz.engine.tensor import TensorLike
from tapeviz.sandbox.errors import UserCodeError, suggest
from tapeviz.sandbox.language.validate import Invalid, normalize_expression, parse
from tapeviz.sandbox.messages import Message, say

Env = Mapping[str, Any]
EvalFn = Callable[[Env], Any]


def _max(*xs: Any) -> Any:
    return tv.reduce_max(xs[0]) if len(xs) == 1 else tv.maximum(*xs)


def _min(*xs: Any) -> Any:
    return tv.reduce_min(xs[0]) if len(xs) == 1 else tv.minimum(*xs)


FUNCTIONS: dict[str, Callable[..., Any]] = {
    **{
        n: getattr(tv, n)
        for n in [
            "sin",
            "cos",
            "tan",
            "exp",
            "log",
            "sqrt",
            "tanh",
            "sigmoid",
            "relu",
            "abs",
            "sign",
            "floor",
            "round",
            "square",
            "softplus",
            "log1p",
            "expm1",
            "rsqrt",
            "reciprocal",
            "leaky_relu",
            "maximum",
            "minimum",
            "norm",
            "matmul",
            "transpose",
            "pow",
            "where",
        ]
    },
    "sum": tv.reduce_sum,
    "mean": tv.reduce_mean,
    "max": _max,
    "min": _min,
    "clip": tv.clip_by_value,
    "dot": lambda a, b: tv.reduce_sum(a * b),
    "ln": tv.log,
}
CONSTANTS: dict[str, float] = {"pi": math.pi, "e": math.e}
_BINARY = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.MatMult: operator.matmul,
}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos}
_COMPARE = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}


class CompiledExpression:
    """A checked expression as closures; calling it with tensors records onto the active tape."""

    def __init__(
        self, text: str, source: str, fn: EvalFn, names: tuple[str, ...], notes: tuple[str, ...]
    ) -> None:
        self.text = text  # what the user typed
        self.source = source  # after ^ -> ** and similar
        self.names = names  # the variables it uses, in order of first appearance
        self.notes = notes
        self._fn = fn

    def __call__(self, env: Env | None = None, **tensors: Any) -> Any:
        """Evaluate with ``env`` (name -> tensor); a Tensor is returned."""
        value = self._fn({**(env or {}), **tensors})
        return value if isinstance(value, TensorLike) else tv.constant(value)

    def __repr__(self) -> str:
        return f"CompiledExpression({self.source!r})"


class _ExprCompiler:
    def __init__(self, text: str, known: Sequence[str] | None) -> None:
        self.text = text
        self.known = list(known) if known is not None else None
        self.names: list[str] = []
        self._folded: dict[int, int | float | None] = {}  # id(ast node) -> its folded value

    def fail(
        self, node: ast.AST, message: Message, hint: Message | None = None, kind: str = "name"
    ) -> None:
        col = getattr(node, "col_offset", -1) + 1 or None
        raise Invalid(UserCodeError.of(message, 1, col, hint, kind))

    def compile(self, node: ast.AST) -> EvalFn:
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, int | float)
            and not isinstance(node.value, bool)
        ):
            value = node.value
            return lambda env: value
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            folded = self.fold(node)
            if folded is not None:
                return lambda env: folded
            op, a, b = _BINARY[type(node.op)], self.compile(node.left), self.compile(node.right)
            return lambda env: op(a(env), b(env))
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            op1, a = _UNARY[type(node.op)], self.compile(node.operand)
            return lambda env: op1(a(env))
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
            cmp, a, b = (
                _COMPARE[type(node.ops[0])],
                self.compile(node.left),
                self.compile(node.comparators[0]),
            )
            return lambda env: cmp(a(env), b(env))
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.List | ast.Tuple):
            items = [self.compile(e) for e in node.elts]
            return lambda env: tv.stack([i(env) for i in items])
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            base, key = self.compile(node.value), node.slice.value
            return lambda env: base(env)[key]
        what = type(node).__name__.lower()
        self.fail(
            node, say("expression_not_allowed", what=what), say("hint_script_mode"), "refused"
        )
        raise AssertionError  # pragma: no cover

    def fold(self, node: ast.AST) -> int | float | None:
        """The value of a constant subexpression like ``2**10``, computed once with checks.

        Remembered per node: compiling a long chain ``a + b + c + …`` asks for every prefix.
        """
        key = id(node)
        if key not in self._folded:
            self._folded[key] = self._fold(node)
        return self._folded[key]

    def _fold(self, node: ast.AST) -> int | float | None:
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            return node.value
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            inner = self.fold(node.operand)
            return None if inner is None else _UNARY[type(node.op)](inner)
        if not (isinstance(node, ast.BinOp) and type(node.op) in _BINARY):
            return None
        a, b = self.fold(node.left), self.fold(node.right)
        if a is None or b is None:
            return None
        huge_power = isinstance(node.op, ast.Pow) and type(a) is int and type(b) is int
        if huge_power and abs(a) > 1 and b > 0 and b * math.log2(abs(a)) > 100_000:
            self.fail(node, say("big_constant"), kind="limit")
        try:
            return _BINARY[type(node.op)](a, b)
        except (OverflowError, ZeroDivisionError) as exc:
            self.fail(node, say("expression_constant", python=exc), kind="value")
        return None

    def name(self, node: ast.Name) -> EvalFn:
        name = node.id
        if name in CONSTANTS:
            value = CONSTANTS[name]
            return lambda env: value
        if name in FUNCTIONS:
            self.fail(node, say("expression_function_name", name=name), kind="type")
        if self.known is not None and name not in self.known:
            hint = suggest(name, self.known + list(CONSTANTS))
            self.fail(node, say("expression_unknown_name", name=name), hint)
        if name not in self.names:
            self.names.append(name)
        return lambda env: env[name]

    def call(self, node: ast.Call) -> EvalFn:
        if not isinstance(node.func, ast.Name):
            self.fail(node, say("expression_call"), kind="refused")
        fname = node.func.id  # type: ignore[attr-defined]
        fn = FUNCTIONS.get(fname)
        if fn is None:
            hint = suggest(fname, FUNCTIONS)
            known = say("hint_known_functions", names=", ".join(FUNCTIONS))
            self.fail(node, say("expression_function", name=fname), hint or known)
        if node.keywords and any(k.arg != "alpha" for k in node.keywords):
            self.fail(node, say("expression_positional", name=fname), kind="type")
        args = [self.compile(a) for a in node.args]
        kw = {k.arg: k.value.value for k in node.keywords if isinstance(k.value, ast.Constant)}
        if len(args) == 1 and not kw:
            a0 = args[0]
            return lambda env: fn(a0(env))  # type: ignore[misc]
        return lambda env: fn(*[a(env) for a in args], **kw)  # type: ignore[misc]


def compile_expression(text: str, names: Sequence[str] | None = None) -> CompiledExpression:
    """Check and compile an expression; ``names`` are the known variables (None: any)."""
    source, notes = normalize_expression(text)
    if not source.strip():
        raise Invalid(UserCodeError.of(say("empty_expression"), 1, 1, kind="syntax"))
    tree = parse(source.strip(), mode="eval")
    compiler = _ExprCompiler(source, names)
    fn = compiler.compile(tree.body)  # type: ignore[attr-defined]
    return CompiledExpression(text, source.strip(), fn, tuple(compiler.names), notes)
