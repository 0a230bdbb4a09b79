"""A loss to minimise: expression or script text over a variables table (no Qt).

Expression mode: the text is a function of the table's names (``(1 - x)**2 + 100*(y - x**2)**2``),
compiled once by :func:`tapeviz.sandbox.compile_expression`.

Script mode, the convention: the script prepares its data and defines ``def loss():`` with no
parameters, returning the loss (a scalar tensor) computed from the variables table's names;
it must not assign those names itself. Every evaluation runs the script through the sandbox
with :data:`DRIVER` appended, which calls ``loss()`` under a GradientTape::

    import tensorflow as tf
    import numpy as np

    X = tf.constant(np.array([2013, 2014, 2015, 2016, 2017], dtype=np.float32))
    y = tf.constant(np.array([12000, 14000, 15000, 16500, 17500], dtype=np.float32))


    def loss():
        return tf.reduce_sum(tf.square(a * X + b - y))  # a, b: trainable rows of the table

The trainable rows of the table are the parameters; the other rows are constants.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

import tapeviz.sandbox as sandbox  # its interpreter loads on first use (not at the window's start)
from tapeviz.engine import diagnostics
from tapeviz.engine.errors import EngineError
from tapeviz.engine.tape import GradientTape
from tapeviz.engine.tensor import TensorLike, Variable
from tapeviz.models.descent.messages import ProblemError, problem_error
from tapeviz.models.descent.replay import Trace
from tapeviz.models.descent.script_check import is_loss_def, replay_refusal
from tapeviz.sandbox import Limits, RunResult, VariableSpec
from tapeviz.sandbox.language.parsing import parse_text
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.variables import make_tensor

MODES = ("expression", "script")
DRIVER = """
import tensorflow as tapeviz_tf
with tapeviz_tf.GradientTape() as tapeviz_tape:
    tapeviz_loss = loss()
tapeviz_grads = tapeviz_tape.gradient(tapeviz_loss, [{names}])
"""
HESSIAN_DRIVER = """
import tensorflow as tapeviz_tf
with tapeviz_tf.GradientTape(persistent=True) as tapeviz_outer:
    with tapeviz_tf.GradientTape() as tapeviz_inner:
        tapeviz_loss = loss()
    tapeviz_grads = tapeviz_inner.gradient(tapeviz_loss, [{names}])
tapeviz_hessian = [tapeviz_outer.jacobian(g, [{names}]) for g in tapeviz_grads]
"""
SCRIPT_LIMITS = Limits(wall_time=10.0)
MAX_HESSIAN = 64  # parameters (scalars) for a dense Hessian


@dataclass(frozen=True)
class Problem:
    """A loss (expression or ``def loss():`` script) over a variables table."""

    source: str
    variables: tuple[VariableSpec, ...] = field(default_factory=tuple)
    mode: str = "expression"

    def __post_init__(self) -> None:
        object.__setattr__(self, "variables", tuple(self.variables))
        if self.mode not in MODES:
            raise problem_error("problem_mode", mode=repr(self.mode))

    @property
    def parameters(self) -> tuple[VariableSpec, ...]:
        """The trainable rows: what the optimizer moves."""
        return tuple(v for v in self.variables if v.kind == "trainable")

    @property
    def parameter_names(self) -> tuple[str, ...]:
        """Names of the trainable rows, in table order."""
        return tuple(v.name for v in self.parameters)

    def start(self) -> list[Any]:
        """The trainable rows' values as the engine holds them (numpy scalars for 0-d)."""
        return [np.asarray(v.value, dtype=v.dtype)[()] for v in self.parameters]

    def with_start(self, values: Mapping[str, Any]) -> Problem:
        """The same problem starting from other parameter values (by name)."""
        unknown = set(values) - set(self.parameter_names)
        if unknown:
            raise problem_error("no_trainable_named", names=", ".join(sorted(unknown)))
        rows = tuple(
            replace(v, value=_plain(values[v.name])) if v.name in values else v
            for v in self.variables
        )
        return replace(self, variables=rows)

    def compile(self) -> Loss:
        """Check the text and the table; the compiled loss evaluates, traces and replays."""
        if not self.parameters:
            raise problem_error("no_trainable")
        for v in self.parameters:
            if not np.issubdtype(np.dtype(v.dtype), np.floating):
                raise problem_error("trainable_dtype", name=v.name)
        return ExpressionLoss(self) if self.mode == "expression" else ScriptLoss(self)


def _plain(value: Any) -> Any:
    """A number or nested list (JSON-safe) for a variables-table value."""
    arr = np.asarray(value)
    return arr.item() if arr.ndim == 0 else arr.tolist()


class Loss:
    """A compiled problem: one eager evaluation (a fresh tape), traces, tapes for the graph."""

    replay_refusal: str | None = None  # why the loss must be re-traced every step (None: replay)

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.names = problem.parameter_names
        self.dtypes = [np.dtype(v.dtype) for v in problem.parameters]

    def variables(self, values: Sequence[Any]) -> list[Variable]:
        """Fresh Variables holding ``values`` (named like the table rows)."""
        return [
            Variable(np.asarray(v, dtype=d)[()], name=n)
            for v, d, n in zip(values, self.dtypes, self.names, strict=True)
        ]

    def gradient(self, variables: Sequence[Variable]) -> tuple[Any, list[Any], Any]:
        """Loss value, gradients (Tensors or None) and the tape, at the variables' values."""
        raise NotImplementedError

    def trace(self, values: Sequence[Any]) -> Trace:
        """Record one evaluation at ``values`` for :class:`tapeviz.models.descent.replay.Replay`."""
        variables = self.variables(values)
        loss, grads, tape = self.gradient(variables)
        return Trace(
            tuple(tape.records),
            tuple(v.id for v in variables),
            tuple(v._value for v in variables),
            loss.id,
            loss._value,
            tuple(None if g is None else g._value for g in grads),
        )

    def result_at(self, values: Sequence[Any]) -> RunResult:
        """What the sandbox gives for the loss at ``values``: tapes, gradients, names."""
        raise NotImplementedError

    def hessian(self, values: Sequence[Any]) -> np.ndarray | None:
        """The Hessian at ``values`` by nested tapes (float64), or None if not available."""
        raise NotImplementedError

    def table(self, values: Sequence[Any]) -> list[VariableSpec]:
        """The variables table with the trainable rows set to ``values``."""
        by_name = dict(zip(self.names, values, strict=True))
        return [
            replace(v, value=by_name[v.name]) if v.name in by_name else v
            for v in self.problem.variables
        ]


def _check_scalar(value: Any) -> None:
    if not isinstance(value, TensorLike):
        raise problem_error("loss_not_tensor")
    if np.ndim(value._value) != 0:
        raise problem_error("loss_shape", shape=tuple(value.shape))
    if not value.dtype.is_floating:
        raise problem_error("loss_dtype", dtype=value.dtype.name)


def _hessian_blocks(rows: Sequence[Any], sizes: Sequence[int]) -> np.ndarray:
    n = sum(sizes)
    out = np.zeros((n, n))
    r0 = 0
    for i, row in enumerate(rows):
        c0 = 0
        for j, block in enumerate(row):
            if block is not None:
                value = block._value if isinstance(block, TensorLike) else block
                out[r0 : r0 + sizes[i], c0 : c0 + sizes[j]] = np.reshape(
                    np.asarray(value, dtype=np.float64), (sizes[i], sizes[j])
                )
            c0 += sizes[j]
        r0 += sizes[i]
    return out


class ExpressionLoss(Loss):
    """An expression over the table, compiled once; every op is recorded, so it replays."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem)
        try:
            names = [v.name for v in problem.variables]
            self.compiled = sandbox.compile_expression(problem.source, names)
        except sandbox.Invalid as exc:
            raise ProblemError.of(exc.error) from None
        self.constants = {
            v.name: make_tensor(replace(v, kind="constant"))
            for v in problem.variables
            if v.kind != "trainable"
        }

    def gradient(self, variables: Sequence[Variable]) -> tuple[Any, list[Any], Any]:
        """One fresh tape over the expression."""
        env = {**self.constants, **dict(zip(self.names, variables, strict=True))}
        try:
            with np.errstate(all="ignore"), GradientTape() as tape:
                loss = self.compiled(env)
        except EngineError as exc:
            raise ProblemError(exc.message) from None
        except (TypeError, ValueError, ArithmeticError) as exc:
            raise ProblemError(str(exc)) from None
        _check_scalar(loss)
        with diagnostics.collect(lambda _: None):
            grads = tape.gradient(loss, list(variables))
        return loss, list(grads), tape

    def result_at(self, values: Sequence[Any]) -> RunResult:
        """The expression run by the sandbox, exactly as the expression panel runs it."""
        return sandbox.run(self.problem.source, mode="expression", variables=self.table(values))

    def hessian(self, values: Sequence[Any]) -> np.ndarray | None:
        """Nested tapes: the inner one gives the gradient, the outer one its Jacobian."""
        variables = self.variables(values)
        sizes = [int(np.size(v._value)) for v in variables]
        if sum(sizes) > MAX_HESSIAN:
            return None
        env = {**self.constants, **dict(zip(self.names, variables, strict=True))}
        with np.errstate(all="ignore"), diagnostics.collect(lambda _: None):
            with GradientTape(persistent=True) as outer:
                with GradientTape() as inner:
                    loss = self.compiled(env)
                grads = inner.gradient(loss, variables)
            rows = [
                outer.jacobian(g, variables) if g is not None else [None] * len(variables)
                for g in grads
            ]
        return _hessian_blocks(rows, sizes)


class ScriptLoss(Loss):
    """A script defining ``def loss():``; each evaluation runs it in the sandbox."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem)
        try:
            tree = parse_text(problem.source)
        except SyntaxError as exc:
            raise ProblemError(exc.msg, exc.lineno) from None  # Python's words
        except (ValueError, RecursionError, MemoryError) as exc:  # NUL bytes, too deep
            deep = not isinstance(exc, ValueError)
            raise ProblemError(say("unreadable_deep") if deep else str(exc)) from None
        if not any(is_loss_def(node) for node in tree.body):
            raise problem_error("script_needs_loss")
        for node in ast.walk(tree):
            targets: list[ast.AST] = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AugAssign | ast.AnnAssign | ast.For):
                targets = [node.target]
            elif isinstance(node, ast.Global):
                targets = [ast.Name(n) for n in node.names]
            for t in targets:
                for sub in ast.walk(t):
                    if (
                        isinstance(sub, ast.Name)
                        and sub.id in self.names
                        and (node in tree.body or isinstance(node, ast.Global))
                    ):
                        raise problem_error("script_assigns", name=sub.id)
        self.replay_refusal = replay_refusal(tree, self.names)
        self.driver = DRIVER.format(names=", ".join(self.names))

    def _run(self, values: Sequence[Any], driver: str) -> RunResult:
        result = sandbox.run(
            self.problem.source + "\n" + driver,
            variables=self.table(values),
            limits=SCRIPT_LIMITS,
        )
        if result.error is not None:
            raise ProblemError.of(result.error)
        for name, value in zip(self.names, values, strict=True):
            held = result.namespace.get(name)
            if not isinstance(held, Variable) or not np.array_equal(
                held._value, value, equal_nan=True
            ):
                raise problem_error("script_assigns", name=name)
        return result

    def _evaluate(self, values: Sequence[Any]) -> tuple[Any, list[Any], Any, list[int]]:
        result = self._run(values, self.driver)
        loss = result.namespace["tapeviz_loss"]
        _check_scalar(loss)
        tape = next(t.tape for t in result.tapes if "tapeviz_tape" in t.names)
        ids = [result.namespace[n].id for n in self.names]
        return loss, list(result.namespace["tapeviz_grads"]), tape, ids

    def gradient(self, variables: Sequence[Variable]) -> tuple[Any, list[Any], Any]:
        """The script run once at the variables' values, ``loss()`` on the driver's tape."""
        loss, grads, tape, _ = self._evaluate([v._value for v in variables])
        return loss, grads, tape

    def trace(self, values: Sequence[Any]) -> Trace:
        """Record one evaluation; the parameters are the sandbox's variables."""
        values = [np.asarray(v, dtype=d)[()] for v, d in zip(values, self.dtypes, strict=True)]
        loss, grads, tape, ids = self._evaluate(values)
        return Trace(
            tuple(tape.records),
            tuple(ids),
            tuple(values),
            loss.id,
            loss._value,
            tuple(None if g is None else g._value for g in grads),
        )

    def result_at(self, values: Sequence[Any]) -> RunResult:
        """The script with the driver: its last tape is ``loss()`` at ``values``."""
        return self._run(values, self.driver)

    def hessian(self, values: Sequence[Any]) -> np.ndarray | None:
        """Nested tapes in the sandbox (HESSIAN_DRIVER)."""
        sizes = [int(np.size(v)) for v in values]
        if sum(sizes) > MAX_HESSIAN:
            return None
        try:
            result = self._run(values, HESSIAN_DRIVER.format(names=", ".join(self.names)))
        except ProblemError:
            return None
        return _hessian_blocks(result.namespace["tapeviz_hessian"], sizes)
