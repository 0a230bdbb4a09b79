"""Compile statements, assignments and functions into closures; see :mod:`compile_expr`."""

from __future__ import annotations
import __future__

import ast
import contextlib
from collections.abc import Callable
from typing import Any

from tapeviz.engine.tape import GradientTape
from tapeviz.engine.tensor import TensorLike
from tapeviz.sandbox.errors import Stop, locate, refused
from tapeviz.sandbox.language.expr import MISSING, Fn, _pos
from tapeviz.sandbox.language.flow import FlowCompiler
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.runtime import modules
from tapeviz.sandbox.runtime.checks import budget, check_key, counted
from tapeviz.sandbox.runtime.frames import BREAK, CONTINUE, YIELDED, Frame, Return
from tapeviz.sandbox.runtime.guards import checked
from tapeviz.sandbox.runtime.hints import missing_attribute
from tapeviz.sandbox.runtime.known import API
from tapeviz.sandbox.runtime.policy import del_attr, get_attr, item_assignable, set_attr

Store = Callable[[Frame, Any], None]
_CONTEXT_MANAGERS = (GradientTape, contextlib._GeneratorContextManager)


def _remember_tape(frame: Frame, name: str, value: Any) -> None:
    names = frame.budget.tape_names.setdefault(id(value), [])
    if name not in names:
        names.append(name)


def backward_title(node: ast.expr) -> str | None:
    """``loss.backward()`` or ``torch.autograd.grad(y, x)``: what the tapes it makes are called.

    A PyTorch backward pass is a tape no ``with`` names; the statement that ran it does.
    """
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return None
    func = node.func
    if func.attr == "backward":
        receiver = ast.unparse(func.value)[:40]
        if not isinstance(func.value, ast.Name | ast.Attribute | ast.Subscript | ast.Call):
            receiver = f"({receiver})"
        return f"{receiver}.backward()"
    if func.attr == "grad" and ast.unparse(func.value).endswith("autograd"):
        text = ast.unparse(node)
        return text if len(text) <= 48 else text[:47] + "…"
    return None


def naming_tapes(value: Fn, title: str) -> Fn:
    """``value`` naming the tapes it makes ``title``."""

    def named(frame: Frame) -> Any:
        tapes = frame.budget.tapes
        before = len(tapes) if tapes is not None else 0
        out = value(frame)
        if tapes is not None:
            for t in tapes[before:]:
                _remember_tape(frame, title, t)
        return out

    return named


class Compiler(FlowCompiler):
    """Compiles a module (or function body) of statements."""

    def block(self, body: list[ast.stmt]) -> Fn:
        """A statement list; each statement costs one step and is checked against the limits."""
        return self.sequence([(self.stmt(s), s.lineno, s.col_offset + 1) for s in body])

    def sequence(self, stmts: list[tuple[Fn, int, int]]) -> Fn:
        """Compiled statements (closure, line, column) run as :meth:`block` runs them."""

        def run(frame: Frame) -> Any:
            budget = frame.budget
            where = budget.where  # the worker process leaves the line behind if it crashes
            for fn, line, col in stmts:
                if where is not None:
                    where.value = line
                budget.steps += 1
                if budget.steps >= budget.next_check:
                    budget.check(line)
                try:
                    signal = fn(frame)
                except Stop as exc:  # a limit or refusal ends the run, even inside try/finally
                    budget.trip(exc, line)
                    raise locate(exc, line, col) from None
                except BaseException as exc:
                    raise locate(exc, line, col) from None
                if signal is not None:
                    return signal
            return None

        return run

    def stmt(self, node: ast.stmt) -> Fn:
        """The closure executing ``node``; returns a control signal or None."""
        try:
            return getattr(self, "s_" + type(node).__name__)(node)
        except BaseException as exc:  # compile-time refusals (imports) get the statement's line
            raise locate(exc, node.lineno, node.col_offset + 1) from None

    # -- assignment ------------------------------------------------------------------------
    def store(self, target: ast.expr) -> Store:
        """A closure assigning a value to ``target``."""
        if isinstance(target, ast.Name):
            return self._store_name(target.id)
        if isinstance(target, ast.Tuple | ast.List):
            return self._store_unpack(target)
        line, col = _pos(target)
        if isinstance(target, ast.Attribute):
            owner, attr = self.expr(target.value), target.attr

            def store_attr(frame: Frame, value: Any) -> None:
                obj = owner(frame)
                try:
                    set_attr(obj, attr, value)
                except BaseException as exc:
                    raise locate(exc, line, col) from None

            return store_attr
        if isinstance(target, ast.Subscript):
            owner, index = self.expr(target.value), self.expr(target.slice)

            def store_item(frame: Frame, value: Any) -> None:
                obj = owner(frame)
                key = index(frame)
                try:
                    if isinstance(obj, TensorLike):
                        raise TypeError(
                            "tensors are immutable: build a new tensor (e.g. with tf.where) or "
                            "use a tf.Variable's assign()"
                        )
                    if not item_assignable(obj):
                        raise refused(say("item_assignment", name=type(obj).__name__))
                    if isinstance(obj, dict):
                        check_key(key)
                    elif isinstance(obj, list) and isinstance(key, slice):
                        value = list(counted(value, "the slice"))
                        budget().check_size(len(obj) + len(value), "the list")
                    obj[key] = value
                except BaseException as exc:
                    raise locate(exc, line, col) from None

            return store_item
        raise refused(say("assign_target", name=type(target).__name__))  # pragma: no cover

    def _store_name(self, name: str) -> Store:
        where = self.scope.where(name)

        def store_vars(frame: Frame, value: Any) -> None:
            frame.vars[name] = value
            if type(value) is GradientTape:
                _remember_tape(frame, name, value)

        if where in ("module", "local", "class"):
            return store_vars
        if where == "global":

            def store_global(frame: Frame, value: Any) -> None:
                frame.module[name] = value

            return store_global

        def store_nonlocal(frame: Frame, value: Any) -> None:
            f = frame.parent
            while f is not None and f.vars is not frame.module:
                if name in f.vars:
                    f.vars[name] = value
                    return
                f = f.parent
            raise SyntaxError(f"no binding for nonlocal '{name}' found")

        return store_nonlocal

    def _store_unpack(self, target: ast.Tuple | ast.List) -> Store:
        stores = [self.store(e.value if isinstance(e, ast.Starred) else e) for e in target.elts]
        star = next((i for i, e in enumerate(target.elts) if isinstance(e, ast.Starred)), None)
        n = len(stores)

        def unpack(frame: Frame, value: Any) -> None:
            items = list(counted(value, "the unpacked value"))
            if star is None:
                if len(items) != n:
                    raise ValueError(f"cannot unpack {len(items)} values into {n} names")
                for store, item in zip(stores, items, strict=True):
                    store(frame, item)
                return
            if len(items) < n - 1:
                raise ValueError(f"not enough values to unpack: {len(items)} for {n - 1} names")
            after = len(items) - (n - 1 - star)
            parts = [*items[:star], items[star:after], *items[after:]]
            for store, item in zip(stores, parts, strict=True):
                store(frame, item)

        return unpack

    def s_Assign(self, node: ast.Assign) -> Fn:
        value, stores = self.expr(node.value), [self.store(t) for t in node.targets]
        title = backward_title(node.value)
        if title is not None:
            value = naming_tapes(value, title)

        def assign(frame: Frame) -> None:
            v = value(frame)
            for store in stores:
                store(frame, v)

        return assign

    def s_AnnAssign(self, node: ast.AnnAssign) -> Fn:
        if node.value is None:
            return lambda frame: None
        value, store = self.expr(node.value), self.store(node.target)
        return lambda frame: store(frame, value(frame))

    def s_AugAssign(self, node: ast.AugAssign) -> Fn:
        target = node.target
        load_node = ast.copy_location(
            type(target)(**{**{f: getattr(target, f) for f in target._fields}, "ctx": ast.Load()}),
            target,
        )
        load, store = self.expr(load_node), self.store(target)
        apply = checked(type(node.op).__name__, inplace=True)
        value = self.expr(node.value)
        line, col = _pos(node)

        def augassign(frame: Frame) -> None:
            current = load(frame)
            operand = value(frame)
            try:
                result = apply(current, operand)
            except BaseException as exc:
                raise locate(exc, line, col) from None
            store(frame, result)

        return augassign

    def s_Delete(self, node: ast.Delete) -> Fn:
        deleters = [self._deleter(t) for t in node.targets]

        def delete(frame: Frame) -> None:
            for d in deleters:
                d(frame)

        return delete

    def _deleter(self, target: ast.expr) -> Callable[[Frame], None]:
        line, col = _pos(target)
        if isinstance(target, ast.Name):
            name = target.id
            where = self.scope.where(name)

            def delete_name(frame: Frame) -> None:
                names = frame.module if where == "global" else frame.vars
                if names.pop(name, MISSING) is MISSING:
                    exc = NameError(f"cannot delete '{name}': it is not defined")
                    raise locate(exc, line, col)

            return delete_name
        if isinstance(target, ast.Attribute):
            owner, attr = self.expr(target.value), target.attr

            def delete_attr(frame: Frame) -> None:
                obj = owner(frame)
                try:
                    del_attr(obj, attr)
                except BaseException as exc:
                    raise locate(exc, line, col) from None

            return delete_attr
        if isinstance(target, ast.Subscript):
            owner, index = self.expr(target.value), self.expr(target.slice)

            def delete_item(frame: Frame) -> None:
                obj = owner(frame)
                if not isinstance(obj, list | dict):
                    raise refused(say("del_items", name=type(obj).__name__))
                key = index(frame)
                try:
                    del obj[key]
                except BaseException as exc:
                    raise locate(exc, line, col) from None

            return delete_item
        if isinstance(target, ast.Tuple | ast.List):
            parts = [self._deleter(e) for e in target.elts]

            def delete_all(frame: Frame) -> None:
                for d in parts:
                    d(frame)

            return delete_all
        raise refused(say("del_target"))

    # -- simple statements -----------------------------------------------------------------
    def s_Expr(self, node: ast.Expr) -> Fn:
        if isinstance(node.value, ast.Yield | ast.YieldFrom):
            return self._yield(node.value)
        value = self.expr(node.value)
        title = backward_title(node.value)
        if title is not None:
            value = naming_tapes(value, title)

        def expression(frame: Frame) -> None:
            value(frame)

        return expression

    def _yield(self, node: ast.Yield | ast.YieldFrom) -> Fn:
        """``yield v``: the value joins the generator's list (a generator runs to its end)."""
        value = self.expr(node.value) if node.value is not None else None
        many = isinstance(node, ast.YieldFrom)

        def yield_(frame: Frame) -> None:
            out = frame.vars[YIELDED]
            v = value(frame) if value is not None else None
            if not many:
                out.append(v)
                return
            budget = frame.budget
            for item in v:
                budget.steps += 1
                if budget.steps >= budget.next_check:
                    budget.check(None)
                out.append(item)

        return yield_

    def s_Pass(self, node: ast.Pass) -> Fn:
        return lambda frame: None

    def s_Break(self, node: ast.Break) -> Fn:
        return lambda frame: BREAK

    def s_Continue(self, node: ast.Continue) -> Fn:
        return lambda frame: CONTINUE

    def s_Return(self, node: ast.Return) -> Fn:
        if node.value is None:
            return lambda frame: Return(None)
        value = self.expr(node.value)
        return lambda frame: Return(value(frame))

    def s_Global(self, node: ast.Global) -> Fn:
        return lambda frame: None

    s_Nonlocal = s_Global  # type: ignore[assignment]

    def s_Assert(self, node: ast.Assert) -> Fn:
        test = self.expr(node.test)
        msg = self.expr(node.msg) if node.msg is not None else None

        def assertion(frame: Frame) -> None:
            if not test(frame):
                raise AssertionError(msg(frame)) if msg is not None else AssertionError()

        return assertion

    def s_Raise(self, node: ast.Raise) -> Fn:
        exc = self.expr(node.exc) if node.exc is not None else None

        def raise_(frame: Frame) -> None:
            if exc is None:
                if frame.handling is None:
                    raise RuntimeError("no active exception to re-raise")
                raise frame.handling
            err = exc(frame)
            if isinstance(err, type) and issubclass(err, Exception):
                err = err()
            if not isinstance(err, Exception):
                raise TypeError("exceptions must be Exception classes or instances")
            raise err

        return raise_

    def s_Import(self, node: ast.Import) -> Fn:
        binds = []
        for alias in node.names:
            name = alias.asname or alias.name.split(".")[0]
            path = alias.name if alias.asname else alias.name.split(".")[0]
            modules.resolve(alias.name)  # refuse at compile time, before anything runs
            binds.append((self._store_name(name), path))

        def import_(frame: Frame) -> None:
            for store, path in binds:
                store(frame, modules.resolve(path))

        return import_

    def s_ImportFrom(self, node: ast.ImportFrom) -> Fn:
        if node.module == "__future__":  # older tutorials' first line: Python 3 has them all
            unknown = [a.name for a in node.names if a.name not in __future__.all_feature_names]
            if unknown:
                raise SyntaxError(f"future feature {unknown[0]} is not defined")
            return lambda frame: None
        module = modules.resolve(node.module or "")
        binds = [(self._store_name(a.asname or a.name), a.name) for a in node.names]
        for _, name in binds:
            if name not in module:
                ns = repr(module).split("'")[1]
                if name in API.get(ns, ()):
                    raise missing_attribute(ns, name, module)
                raise ImportError(f"cannot import name '{name}' from '{node.module}'")

        def import_from(frame: Frame) -> None:
            for store, name in binds:
                store(frame, get_attr(module, name))

        return import_from

    # -- compound statements ---------------------------------------------------------------
    def s_If(self, node: ast.If) -> Fn:
        test, body = self.expr(node.test), self.block(node.body)
        orelse = self.block(node.orelse) if node.orelse else None

        def if_(frame: Frame) -> Any:
            if test(frame):
                return body(frame)
            return orelse(frame) if orelse is not None else None

        return if_

    def s_While(self, node: ast.While) -> Fn:
        test, body = self.expr(node.test), self.block(node.body)
        orelse = self.block(node.orelse) if node.orelse else None
        line = node.lineno

        def while_(frame: Frame) -> Any:
            budget = frame.budget
            while test(frame):
                budget.steps += 1
                if budget.steps >= budget.next_check:
                    budget.check(line)
                signal = body(frame)
                if signal is BREAK:
                    return None
                if signal is not None and signal is not CONTINUE:
                    return signal
            return orelse(frame) if orelse is not None else None

        return while_

    def s_For(self, node: ast.For) -> Fn:
        iterable, store = self.expr(node.iter), self.store(node.target)
        body = self.block(node.body)
        orelse = self.block(node.orelse) if node.orelse else None
        line = node.lineno

        def for_(frame: Frame) -> Any:
            budget = frame.budget
            for item in iterable(frame):
                budget.steps += 1
                if budget.steps >= budget.next_check:
                    budget.check(line)
                store(frame, item)
                signal = body(frame)
                if signal is BREAK:
                    return None
                if signal is not None and signal is not CONTINUE:
                    return signal
            return orelse(frame) if orelse is not None else None

        return for_


__all__ = ["MISSING", "Compiler"]
