"""Compile expression nodes into Python closures ``fn(frame) -> value`` (no eval/exec).

Every value passes through the policy: attribute reads via ``get_attr``, calls via
``check_callable``, operators with size checks. Each closure that can fail attaches its source
position to the exception, so errors are reported at the right line and column.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any

from tapeviz.engine.tape import GradientTape
from tapeviz.sandbox.errors import locate, refused
from tapeviz.sandbox.language import notes
from tapeviz.sandbox.language.scopes import Scope
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.runtime import hints, modules
from tapeviz.sandbox.runtime.builtins import BUILTINS, FORBIDDEN
from tapeviz.sandbox.runtime.checks import budget, check_arguments, check_key, counted
from tapeviz.sandbox.runtime.classes import CELL, Super
from tapeviz.sandbox.runtime.frames import Frame
from tapeviz.sandbox.runtime.guards import checked, contains
from tapeviz.sandbox.runtime.policy import check_callable, get_attr

Fn = Callable[[Frame], Any]
MISSING = object()

_UNARY = {
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
    ast.Not: operator.not_,
    ast.Invert: operator.invert,
}
_COMPARE = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
    ast.In: contains,
    ast.NotIn: lambda a, b: not contains(a, b),
}


def _pos(node: ast.AST) -> tuple[int | None, int | None]:
    return getattr(node, "lineno", None), getattr(node, "col_offset", -1) + 1 or None


def unknown_name(name: str, frame: Frame) -> BaseException:
    """The error for a name that is not defined anywhere the script can see."""
    if name in FORBIDDEN:
        return refused(say("builtin", name=name), FORBIDDEN[name])
    visible: list[str] = list(BUILTINS)
    f: Frame | None = frame
    while f is not None:
        visible.extend(k for k in f.vars if isinstance(k, str) and k.isidentifier())
        f = f.parent
    return hints.unknown_name(name, visible, modules.has)


def _class_of(frame: Frame) -> Any:
    """The class a method was defined in (its definition's frame holds it)."""
    f: Frame | None = frame
    while f is not None:
        cls = f.vars.get(CELL, MISSING)
        if cls is not MISSING:
            return cls
        f = f.parent
    raise RuntimeError("super(): no class")  # pragma: no cover - methods always have one


class ExprCompiler:
    """Compiles expressions within the current :class:`Scope`."""

    def __init__(self) -> None:
        self.scope = Scope("module")
        self.method_self: str | None = None  # in a method's body: its first parameter

    def expr(self, node: ast.expr) -> Fn:
        """The closure computing ``node``'s value."""
        method = getattr(self, "e_" + type(node).__name__, None)
        if method is None:  # pragma: no cover - the validator refuses these first
            raise refused(say("not_supported", name=type(node).__name__))
        return method(node)

    # -- leaves ----------------------------------------------------------------------------
    def e_Constant(self, node: ast.Constant) -> Fn:
        value = node.value
        return lambda frame: value

    def e_Name(self, node: ast.Name) -> Fn:
        name, where = node.id, self.scope.where(node.id)
        line, col = _pos(node)

        def fail(frame: Frame) -> Any:
            raise locate(unknown_name(name, frame), line, col)

        def load_free(frame: Frame) -> Any:
            f = frame.parent
            while f is not None:
                v = f.vars.get(name, MISSING)
                if v is not MISSING:
                    return v
                f = f.parent
            v = BUILTINS.get(name, MISSING)
            if v is MISSING:
                fail(frame)
            return v

        if where == "module":

            def load_module(frame: Frame) -> Any:
                v = frame.vars.get(name, MISSING)
                if v is MISSING:
                    v = BUILTINS.get(name, MISSING)
                    if v is MISSING:
                        fail(frame)
                return v

            return load_module
        if where == "class":  # a class body: its namespace, then the enclosing scopes

            def load_class(frame: Frame) -> Any:
                v = frame.vars.get(name, MISSING)
                return v if v is not MISSING else load_free(frame)

            return load_class
        if where == "local":

            def load_local(frame: Frame) -> Any:
                v = frame.vars.get(name, MISSING)
                if v is MISSING:
                    raise locate(
                        UnboundLocalError(f"'{name}' is used before it is assigned"), line, col
                    )
                return v

            return load_local
        if where == "global":

            def load_global(frame: Frame) -> Any:
                v = frame.module.get(name, MISSING)
                if v is MISSING:
                    v = BUILTINS.get(name, MISSING)
                    if v is MISSING:
                        fail(frame)
                return v

            return load_global

        return load_free

    # -- operators -------------------------------------------------------------------------
    def e_BinOp(self, node: ast.BinOp) -> Fn:
        left, right = self.expr(node.left), self.expr(node.right)
        op_name = type(node.op).__name__
        apply = checked(op_name)
        line, col = _pos(node)
        xor = op_name == "BitXor"

        def binop(frame: Frame) -> Any:
            a = left(frame)
            b = right(frame)
            try:
                if xor:
                    notes.xor(frame.budget, a, b, line)
                return apply(a, b)
            except BaseException as exc:
                if xor and isinstance(exc, TypeError):
                    exc = TypeError("^ is bitwise xor in Python, not a power: write x**2")
                raise locate(exc, line, col) from None

        return binop

    def e_UnaryOp(self, node: ast.UnaryOp) -> Fn:
        operand, op = self.expr(node.operand), _UNARY[type(node.op)]
        line, col = _pos(node)

        def unary(frame: Frame) -> Any:
            v = operand(frame)
            try:
                return op(v)
            except BaseException as exc:
                raise locate(exc, line, col) from None

        return unary

    def e_BoolOp(self, node: ast.BoolOp) -> Fn:
        values = [self.expr(v) for v in node.values]
        is_and = isinstance(node.op, ast.And)

        def boolop(frame: Frame) -> Any:
            v: Any = None
            for fn in values:
                v = fn(frame)
                if (not v) if is_and else v:
                    return v
            return v

        return boolop

    def e_Compare(self, node: ast.Compare) -> Fn:
        left = self.expr(node.left)
        pairs = [
            (_COMPARE[type(op)], self.expr(c))
            for op, c in zip(node.ops, node.comparators, strict=True)
        ]
        line, col = _pos(node)

        def compare(frame: Frame) -> Any:
            a = left(frame)
            result: Any = True
            for op, fn in pairs:
                b = fn(frame)
                try:
                    result = op(a, b)
                except BaseException as exc:
                    raise locate(exc, line, col) from None
                if len(pairs) > 1 and not result:
                    return result
                a = b
            return result

        return compare

    def e_IfExp(self, node: ast.IfExp) -> Fn:
        test, body, orelse = self.expr(node.test), self.expr(node.body), self.expr(node.orelse)
        return lambda frame: body(frame) if test(frame) else orelse(frame)

    # -- attribute, subscript, call --------------------------------------------------------
    def e_Attribute(self, node: ast.Attribute) -> Fn:
        value, attr = self.expr(node.value), node.attr
        line, col = _pos(node)

        def attribute(frame: Frame) -> Any:
            obj = value(frame)
            try:
                return get_attr(obj, attr)
            except BaseException as exc:
                raise locate(exc, line, col) from None

        return attribute

    def e_Subscript(self, node: ast.Subscript) -> Fn:
        value, index = self.expr(node.value), self.expr(node.slice)
        line, col = _pos(node)

        def subscript(frame: Frame) -> Any:
            obj = value(frame)
            key = index(frame)
            try:
                if type(key) is tuple and isinstance(obj, dict):
                    check_key(key)
                return obj[key]
            except BaseException as exc:
                raise locate(exc, line, col) from None

        return subscript

    def e_Slice(self, node: ast.Slice) -> Fn:
        parts = [
            self.expr(p) if p is not None else None for p in (node.lower, node.upper, node.step)
        ]
        return lambda frame: slice(*(p(frame) if p is not None else None for p in parts))

    def _arguments(
        self, node: ast.Call
    ) -> Callable[[Frame], tuple[tuple[Any, ...], dict[str, Any]]]:
        args = [
            (isinstance(a, ast.Starred), self.expr(a.value if isinstance(a, ast.Starred) else a))
            for a in node.args
        ]
        kws = [(k.arg, self.expr(k.value)) for k in node.keywords]
        if not kws and not any(star for star, _ in args):
            fns = [fn for _, fn in args]
            return lambda frame: (tuple([fn(frame) for fn in fns]), {})

        def build(frame: Frame) -> tuple[tuple[Any, ...], dict[str, Any]]:
            out: list[Any] = []
            for star, fn in args:
                if star:
                    part = counted(fn(frame), "the * arguments")
                    budget().check_size(len(out) + len(part), "the * arguments")  # type: ignore[arg-type]
                    out.extend(part)
                else:
                    out.append(fn(frame))
            kwargs: dict[str, Any] = {}
            for key, fn in kws:
                if key is None:
                    more = fn(frame)
                    if not isinstance(more, dict):
                        raise TypeError("** needs a dict of keyword arguments")
                    if any(not isinstance(k, str) or k.startswith("__") for k in more):
                        raise refused(say("keyword_names"))
                    kwargs.update(more)
                else:
                    kwargs[key] = fn(frame)
            return tuple(out), kwargs

        return build

    def e_Call(self, node: ast.Call) -> Fn:
        arguments = self._arguments(node)
        line, col = _pos(node)
        if isinstance(node.func, ast.Attribute):
            owner, attr = self.expr(node.func.value), node.func.attr
            arg_texts = tuple(ast.unparse(a) for a in node.args[:2]) if attr == "gradient" else ()

            def method_call(frame: Frame) -> Any:
                obj = owner(frame)
                try:
                    method = get_attr(obj, attr)
                    check_callable(method)
                    args, kwargs = arguments(frame)
                    if (args or kwargs) and not getattr(method, "_tapeviz_user", False):
                        check_arguments(args, kwargs, f"{attr}()")
                    result = method(*args, **kwargs)
                except BaseException as exc:
                    raise locate(exc, line, col) from None
                if attr == "gradient" and type(obj) is GradientTape:
                    notes.after_gradient(frame.budget, obj, args, result, line, arg_texts)
                return result

            return method_call
        if _is_bare_super(node) and self.method_self is not None:
            return self._super(self.method_self)
        func = self.expr(node.func)

        def call(frame: Frame) -> Any:
            f = func(frame)
            try:
                args, kwargs = arguments(frame)
                check_callable(f)
                if (args or kwargs) and not getattr(f, "_tapeviz_user", False):  # C walks lists
                    check_arguments(args, kwargs, _callee(f))
                return f(*args, **kwargs)
            except BaseException as exc:
                raise locate(exc, line, col) from None

        return call

    def _super(self, first: str) -> Fn:
        """``super()`` in a method: its class and first argument, as Python's compiler does."""

        def super_(frame: Frame) -> Any:
            obj = frame.vars.get(first, MISSING)
            if obj is MISSING:
                raise RuntimeError("super(): no arguments")
            return Super(_class_of(frame), obj)

        return super_

    def store(self, target: ast.expr) -> Callable[[Frame, Any], None]:  # pragma: no cover
        """Implemented by the statement compiler."""
        raise NotImplementedError


def _is_bare_super(node: ast.Call) -> bool:
    return (
        isinstance(node.func, ast.Name)
        and node.func.id == "super"
        and not node.args
        and not node.keywords
    )


def _callee(f: Any) -> str:
    """A function's name for messages (``tf.constant``)."""
    name = getattr(f, "__name__", None)
    return f"{name}()" if isinstance(name, str) else "the call"
