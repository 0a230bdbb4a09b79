"""Compile ``with``, ``try``, functions (``def``, ``lambda``, decorators) and classes."""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Callable
from typing import Any

from tapeviz.engine import custom_gradient as tv_custom_gradient
from tapeviz.engine import function as tv_function
from tapeviz.engine.guard import ResourceLimitError
from tapeviz.engine.state import NameScope
from tapeviz.engine.tape import GradientTape
from tapeviz.sandbox.errors import refused
from tapeviz.sandbox.language.display import DisplayCompiler
from tapeviz.sandbox.language.expr import Fn
from tapeviz.sandbox.language.scopes import Scope, function_scope
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.runtime.builtins import BUILTINS
from tapeviz.sandbox.runtime.classes import CELL, UserProperty, make_class
from tapeviz.sandbox.runtime.frames import Frame, Return, Signature, UserFunction
from tapeviz.sandbox.runtime.tqdm_ns import tqdm
from tapeviz.tf.runtime import _Block as TFBlock
from tapeviz.torch._autograd import no_grad as torch_grad_mode

# Context managers a ``with`` may enter: tapes, torch's grad modes, tf.device / tf.init_scope
# blocks (``_Block``), name scopes, and tapeviz's own generator-based managers.
_CONTEXT_MANAGERS = (GradientTape, contextlib._GeneratorContextManager, torch_grad_mode, TFBlock,
                     NameScope, tqdm)  # fmt: skip


def _yields(body: list[ast.stmt]) -> bool:
    """Whether a function body yields (its own statements, not a nested def's or class's)."""
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Yield | ast.YieldFrom):
            return True
        if not isinstance(node, ast.FunctionDef | ast.Lambda | ast.ClassDef):
            todo.extend(ast.iter_child_nodes(node))
    return False


class FlowCompiler(DisplayCompiler):
    """Adds ``with``, ``try`` and functions; statement blocks come from the subclass."""

    def block(self, body: list[ast.stmt]) -> Fn:  # pragma: no cover - see Compiler
        """Implemented by the statement compiler."""
        raise NotImplementedError

    def _store_name(self, name: str) -> Callable[[Frame, Any], None]:  # pragma: no cover
        """Implemented by the statement compiler."""
        raise NotImplementedError

    def s_With(self, node: ast.With) -> Fn:
        body = self.block(node.body)
        for item in reversed(node.items):
            body = self._with_item(item, body)
        return body

    def _with_item(self, item: ast.withitem, body: Fn) -> Fn:
        manager_fn = self.expr(item.context_expr)
        store = self.store(item.optional_vars) if item.optional_vars is not None else None

        def with_(frame: Frame) -> Any:
            manager = manager_fn(frame)
            if not isinstance(manager, _CONTEXT_MANAGERS):
                raise refused(say("with_manager", name=type(manager).__name__), say("hint_with"))
            value = manager.__enter__()
            try:
                if store is not None:
                    store(frame, value)
                signal = body(frame)
            except BaseException as exc:
                if not manager.__exit__(type(exc), exc, exc.__traceback__):
                    raise
                return None
            manager.__exit__(None, None, None)
            return signal

        return with_

    def s_Try(self, node: ast.Try) -> Fn:
        body = self.block(node.body)
        handlers = [
            (
                self.expr(h.type) if h.type is not None else None,
                self._store_name(h.name) if h.name else None,
                self.block(h.body),
            )
            for h in node.handlers
        ]
        orelse = self.block(node.orelse) if node.orelse else None
        final = self.block(node.finalbody) if node.finalbody else None

        def try_(frame: Frame) -> Any:
            try:
                try:
                    signal = body(frame)
                except Exception as exc:  # Stop (limits, refusals) is not an Exception
                    if isinstance(exc, _UNCATCHABLE):
                        raise
                    for kind_fn, store, handler in handlers:
                        kinds = kind_fn(frame) if kind_fn is not None else Exception
                        if not _exception_classes(kinds):
                            raise TypeError("except needs Exception classes") from None
                        if isinstance(exc, kinds):
                            if store is not None:
                                store(frame, exc)
                            saved, frame.handling = frame.handling, exc
                            try:
                                return handler(frame)
                            finally:
                                frame.handling = saved
                    raise
                if orelse is not None and signal is None:
                    signal = orelse(frame)
                return signal
            finally:
                if final is not None:
                    final(frame)

        return try_

    # -- functions -------------------------------------------------------------------------
    def _function(
        self,
        args: ast.arguments,
        body: list[ast.stmt] | ast.expr,
        name: str,
        decorators: list[ast.expr] | None = None,
    ) -> Callable[[Frame], UserFunction]:
        defaults = [self.expr(d) for d in args.defaults]
        kwdefaults = [
            (a.arg, self.expr(d))
            for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)
            if d is not None
        ]
        signature = Signature(
            name,
            [a.arg for a in [*args.posonlyargs, *args.args]],
            args.vararg.arg if args.vararg else None,
            [a.arg for a in args.kwonlyargs],
            args.kwarg.arg if args.kwarg else None,
        )
        # A method (a def in a class body) sees the enclosing scopes, not the class's names;
        # super() in its body means its class and its first argument.
        method = self.scope.kind == "class" and isinstance(body, list)
        static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in decorators or [])
        first = signature.positional[0] if method and signature.positional and not static else None
        outer, self.scope = self.scope, function_scope(args, body)
        saved, self.method_self = self.method_self, first
        try:
            if isinstance(body, list):
                code = self.block(body)
            else:
                value = self.expr(body)
                code = lambda frame: Return(value(frame))  # noqa: E731
        finally:
            self.scope, self.method_self = outer, saved
        line = getattr(body[0] if isinstance(body, list) else body, "lineno", None)

        generator = isinstance(body, list) and _yields(body)

        def make(frame: Frame) -> UserFunction:
            kw = {k: fn(frame) for k, fn in kwdefaults}
            closure = frame.parent if method and frame.parent is not None else frame
            fn = UserFunction(signature, code, closure, tuple(d(frame) for d in defaults), kw, line)
            fn.generator = generator
            return fn

        return make

    def e_Lambda(self, node: ast.Lambda) -> Fn:
        return self._function(node.args, node.body, "<lambda>")

    def s_FunctionDef(self, node: ast.FunctionDef) -> Fn:
        make = self._function(node.args, node.body, node.name, node.decorator_list)
        decorators = [self._decorator(d) for d in reversed(node.decorator_list)]
        store = self._store_name(node.name)

        def define(frame: Frame) -> None:
            fn: Any = make(frame)
            for deco in decorators:
                fn = deco(frame)(fn)
            store(frame, fn)

        return define

    def _decorator(self, node: ast.expr) -> Callable[[Frame], Callable[[Any], Any]]:
        is_call = isinstance(node, ast.Call)
        target = self.expr(node.func if is_call else node)  # type: ignore[attr-defined]
        arguments = self._arguments(node) if is_call else None  # type: ignore[arg-type]

        def decorator(frame: Frame) -> Callable[[Any], Any]:
            deco = target(frame)
            if not (
                deco is tv_function
                or deco is tv_custom_gradient
                or _class_decorator(deco)
                or _grad_mode(deco)
                or getattr(deco, "_tapeviz_decorator_factory", False) is True  # keras registration
            ):
                raise refused(say("decorator"))
            if arguments is None:
                return deco
            args, kwargs = arguments(frame)
            return deco(*args, **kwargs)

        return decorator

    # -- classes ---------------------------------------------------------------------------
    def s_ClassDef(self, node: ast.ClassDef) -> Fn:
        decorators = [self.expr(d) for d in node.decorator_list]
        bases = [self.expr(b) for b in node.bases]
        outer, self.scope = self.scope, Scope("class")
        saved, self.method_self = self.method_self, None
        try:
            body = self.block(node.body)
        finally:
            self.scope, self.method_self = outer, saved
        store = self._store_name(node.name)
        name = node.name

        def define(frame: Frame) -> None:
            decos = [d(frame) for d in decorators]
            for deco in decos:  # only library decorators made for classes (keras registration)
                if getattr(deco, "_tapeviz_class_decorator", False) is not True:
                    raise refused(say("class_decorators"))
            values = tuple(b(frame) for b in bases)
            # The methods' closure: it holds the class once made (for super()), then the scope
            # the class statement runs in; the class body's own names sit above it.
            cell = Frame({CELL: None}, frame, frame.module, frame.budget)
            namespace: dict[str, Any] = {}
            body(Frame(namespace, cell, frame.module, frame.budget))
            cls = made = make_class(name, values, namespace)
            for deco in reversed(decos):
                made = deco(made)
            cell.vars[CELL] = cls
            store(frame, made)

        return define


_CLASS_DECORATORS = tuple(BUILTINS[n] for n in ("property", "staticmethod", "classmethod"))


def _grad_mode(deco: Any) -> bool:
    """``@torch.no_grad()``, ``@torch.no_grad``, ``@torch.enable_grad()``, ..."""
    return isinstance(deco, torch_grad_mode) or (
        isinstance(deco, type) and issubclass(deco, torch_grad_mode)
    )


def _class_decorator(deco: Any) -> bool:
    if any(deco is d for d in _CLASS_DECORATORS):
        return True
    owner = getattr(deco, "__self__", None)
    return type(owner) is UserProperty and getattr(deco, "__name__", None) == "setter"


# Limits hit inside C code or the engine: user code may not catch these and carry on.
_UNCATCHABLE = (RecursionError, MemoryError, ResourceLimitError)


def _exception_classes(kinds: Any) -> bool:
    group = kinds if isinstance(kinds, tuple) else (kinds,)
    return all(isinstance(k, type) and issubclass(k, Exception) for k in group)
