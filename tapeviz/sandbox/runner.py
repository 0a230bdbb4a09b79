"""``run()``: user text in, a :class:`RunResult` out; no exception ever escapes."""

from __future__ import annotations

import ast
import contextlib
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from tapeviz.engine import core, diagnostics, printing
from tapeviz.engine.errors import EngineError
from tapeviz.engine.guard import ResourceLimitError, checkpoints, size_limits
from tapeviz.engine.namespace import Namespace
from tapeviz.engine.reprs import exception_text
from tapeviz.engine.tape import GradientTape
from tapeviz.sandbox.errors import Stop, UserCodeError, locate, position
from tapeviz.sandbox.language.expr import _pos
from tapeviz.sandbox.language.expression import compile_expression
from tapeviz.sandbox.language.stmt import Compiler
from tapeviz.sandbox.language.validate import Invalid, parse, validate
from tapeviz.sandbox.result import RunResult, TapeInfo
from tapeviz.sandbox.runtime.checks import CURRENT
from tapeviz.sandbox.runtime.frames import Frame
from tapeviz.sandbox.runtime.limits import Budget, CancelToken, Limits
from tapeviz.sandbox.runtime.numpy_ns import reset_random
from tapeviz.sandbox.variables import VariableSpec, make_tensor, make_variables, specs


def _text_of(exc: BaseException, limit: int = 500) -> str:
    """``str(exc)``, safely: a user's exception may carry a giant or unprintable value."""
    return exception_text(exc, limit)


def translate(exc: BaseException, limits: Limits | None = None) -> UserCodeError:
    """Turn anything raised while running user code into a :class:`UserCodeError`."""
    line, col = position(exc)
    if isinstance(exc, Stop):
        return UserCodeError(
            exc.message, line or exc.line, col or exc.col, exc.hint, exc.kind, exc.limit
        )
    if isinstance(exc, ResourceLimitError):
        return UserCodeError(
            exc.message,
            line,
            col,
            "raise the limit in Preferences if this is intended",
            "limit",
            exc.limit,
        )
    if isinstance(exc, EngineError):
        return UserCodeError(exc.message, line, col, kind="engine")
    if isinstance(exc, RecursionError):
        return UserCodeError(
            "the code is nested or recursive too deeply", line, col, kind="limit", limit="recursion"
        )
    if isinstance(exc, MemoryError):  # in the worker process: its address-space limit
        mb = (limits or Limits()).max_memory_mb
        return UserCodeError(
            f"more than {mb:,} MB of memory", line, col,
            "raise the limit in Preferences if this is intended", "limit", "memory",
        )  # fmt: skip
    kinds = {NameError: "name", TypeError: "type", ValueError: "value"}
    kind = next((k for t, k in kinds.items() if isinstance(exc, t)), "runtime")
    text = _text_of(exc)
    if isinstance(exc, ZeroDivisionError):
        text = "division by zero"
    elif isinstance(exc, AssertionError):
        text = f"assertion failed{': ' + text if text else ''}"
    elif isinstance(exc, KeyError):
        text = f"no key {text} in the dict"
    elif not isinstance(exc, NameError | TypeError | ValueError | RuntimeError) or not text:
        text = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return UserCodeError(text, line, col, kind=kind)


@contextlib.contextmanager
def _running(budget: Budget, created: list[Any]) -> Iterator[None]:
    """Route prints, warnings and new tapes into ``budget``; restore everything afterwards."""
    saved_budget, saved_created = CURRENT.budget, core.STATE.created
    saved_entered, saved_active = list(core.STATE.entered), list(core.STATE.active)
    CURRENT.budget, core.STATE.created = budget, created
    budget.tapes = created  # each write notes how many tapes exist by then
    reset_random()
    limits = budget.limits
    try:
        with (
            printing.capture(budget.write),
            diagnostics.collect(budget.note),
            size_limits(limits.max_elements, limits.max_flops),
            checkpoints(budget.check),
            np.errstate(all="ignore"),
        ):
            yield
    finally:
        CURRENT.budget, core.STATE.created = saved_budget, saved_created
        core.STATE.entered[:], core.STATE.active[:] = saved_entered, saved_active


def _tape_infos(budget: Budget, created: list[Any]) -> tuple[tuple[TapeInfo, ...], int]:
    keep = created[: budget.limits.max_tapes]
    infos = tuple(
        TapeInfo(t, tuple(budget.tape_names.get(id(t), ())), i) for i, t in enumerate(keep)
    )
    return infos, len(created) - len(keep)


def run(
    source: str,
    *,
    mode: str = "script",
    variables: Mapping[str, Any] | Sequence[VariableSpec] | None = None,
    limits: Limits | None = None,
    cancel: CancelToken | None = None,
) -> RunResult:
    """Run user code safely: ``mode`` is ``"script"`` (a Python subset) or ``"expression"``."""
    started = time.perf_counter()
    limits = limits or Limits()
    budget = Budget(limits, cancel or CancelToken())
    if mode == "expression":
        return run_expression(source, specs(variables), budget, started)
    if mode != "script":
        err = UserCodeError(f"unknown mode {mode!r}: use 'script' or 'expression'", kind="value")
        return RunResult("", (), {}, None, 0.0, err)
    created: list[Any] = []
    module: dict[str, Any] = {}
    value: Any = None
    error: UserCodeError | None = None
    try:
        with _running(budget, created):
            tree = parse(source)
            validate(tree)
            body = tree.body  # type: ignore[attr-defined]
            last = body.pop() if body and isinstance(body[-1], ast.Expr) else None
            compiler = Compiler()
            code = compiler.block(body)
            tail = compiler.expr(last.value) if last is not None else None
            module.update(make_variables(specs(variables)))
            frame = Frame(module, None, module, budget)
            code(frame)
            if tail is not None and last is not None:
                budget.steps += 1
                if budget.where is not None:  # the worker's crash report names this line
                    budget.where.value = last.lineno
                try:
                    value = tail(frame)
                except BaseException as exc:
                    raise locate(exc, *_pos(last)) from None
    except Invalid as exc:
        error = exc.error
    except BaseException as exc:
        error = translate(exc, budget.limits)
    tapes, dropped = _tape_infos(budget, created)
    names = {k: v for k, v in module.items() if type(v) is not Namespace}
    # The script's functions hold the frame that holds them: a reference cycle that would keep
    # every value of the run (arrays included) alive until a garbage collection. The run is
    # over, so empty the frame; the result keeps its own copy of the names.
    module.clear()
    return RunResult(
        "".join(budget.output),
        tapes,
        names,
        value,
        time.perf_counter() - started,
        error,
        tuple(budget.notes),
        {},
        dropped,
        tuple(budget.output_marks),
    )


def run_expression(text: str, table: Sequence[VariableSpec], budget: Budget, started: float) -> Any:
    """Expression mode of :func:`tapeviz.sandbox.run`: evaluate on a tape, take the gradients."""
    created: list[Any] = []
    env: dict[str, Any] = {}
    value = None
    grads: dict[str, Any] = {}
    error: UserCodeError | None = None
    tape: GradientTape | None = None
    try:
        with _running(budget, created):
            compiled = compile_expression(text, [s.name for s in table])
            for note in compiled.notes:
                budget.note(note)
            env = {s.name: make_tensor(s) for s in table}
            sources = [s.name for s in table if s.kind != "constant"]
            with GradientTape(persistent=True) as tape:
                tape.watch([env[s.name] for s in table if s.kind == "watched"])
                value = compiled(env)
            result = tape.gradient(value, [env[n] for n in sources])
            grads = dict(zip(sources, result, strict=True))
            if np.ndim(value._value):
                budget.note(
                    f"the expression has shape {tuple(value.shape)}: gradients are of its sum"
                )
    except Invalid as exc:
        error = exc.error
    except BaseException as exc:
        error = translate(exc, budget.limits)
        if error.line is None:
            error = UserCodeError(error.message, 1, error.col, error.hint, error.kind, error.limit)
    tapes = (TapeInfo(tape, ("tape",), 0),) if tape is not None else ()
    return RunResult(
        "".join(budget.output),
        tapes,
        dict(env),
        value,
        time.perf_counter() - started,
        error,
        tuple(budget.notes),
        grads,
        output_marks=tuple(budget.output_marks),
    )
