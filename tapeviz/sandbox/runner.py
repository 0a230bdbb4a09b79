"""``run()``: user text in, a :class:`RunResult` out; no exception ever escapes."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from tapeviz.engine import core, diagnostics, printing
from tapeviz.engine.errors import EngineError
from tapeviz.engine.guard import ResourceLimitError, checkpoints, size_limits
from tapeviz.engine.namespace import Namespace
from tapeviz.engine.reprs import exception_text
from tapeviz.engine.tape import GradientTape
from tapeviz.engine.tensor import TensorLike
from tapeviz.sandbox.errors import RAISE_LIMIT, Stop, UserCodeError, locate, message_of, position
from tapeviz.sandbox.figures import Figure
from tapeviz.sandbox.language.expr import _pos
from tapeviz.sandbox.language.expression import compile_expression
from tapeviz.sandbox.language.validate import Invalid
from tapeviz.sandbox.messages import Message, say
from tapeviz.sandbox.program import Programs, compile_program
from tapeviz.sandbox.result import RunResult, TapeInfo
from tapeviz.sandbox.runtime.checks import CURRENT
from tapeviz.sandbox.runtime.classes import is_user_instance
from tapeviz.sandbox.runtime.frames import Frame
from tapeviz.sandbox.runtime.kept_tapes import KeptTapes
from tapeviz.sandbox.runtime.limits import (
    SNAPSHOT_FIRST_S,
    Budget,
    CancelToken,
    Limits,
    hard_deadline,
)
from tapeviz.sandbox.runtime.modules import PRELUDE, TF, TV
from tapeviz.sandbox.runtime.plotting.recorder import Recorder, recording
from tapeviz.sandbox.runtime.policy import public_api
from tapeviz.sandbox.variables import VariableSpec, make_tensor, make_variables, specs
from tapeviz.tf.run_state import fresh_run_state
from tapeviz.torch import Tensor as TorchTensor
from tapeviz.torch._tensor import refresh_leaf_variables


def _text_of(exc: BaseException, limit: int = 500) -> str:
    """``str(exc)``, safely: a user's exception may carry a giant or unprintable value."""
    return exception_text(exc, limit)


def translate(exc: BaseException, limits: Limits | None = None, alias: str = "tf") -> UserCodeError:
    """Turn anything raised while running user code into a :class:`UserCodeError`.

    ``alias`` is the name the code gave the library (``tf``, ``tv``), for advice such as
    ``use tf.cast(x, tf.float32)``.
    """
    line, col = position(exc)
    if isinstance(exc, Stop):
        return exc.error(line or exc.line, col or exc.col)
    if isinstance(exc, ResourceLimitError):
        return UserCodeError.of(_limit_message(exc), line, col, RAISE_LIMIT, "limit", exc.limit)
    if isinstance(exc, EngineError):
        return UserCodeError.of(exc.message, line, col, _advice(exc, alias), kind="engine")
    if isinstance(exc, RecursionError):
        return UserCodeError.of(say("too_deep"), line, col, kind="limit", limit="recursion")
    if isinstance(exc, MemoryError):  # in the worker process: its address-space limit
        mb = (limits or Limits()).max_memory_mb
        message = say("memory", cap=f"{mb:,}")
        return UserCodeError.of(message, line, col, RAISE_LIMIT, "limit", "memory")
    kinds = {NameError: "name", TypeError: "type", ValueError: "value"}
    kind = next((k for t, k in kinds.items() if isinstance(exc, t)), "runtime")
    ours, hint = message_of(exc)
    if ours is not None:  # a Python exception that tapeviz worded ("unknown name 'w'")
        return UserCodeError.of(ours, line, col, hint, kind)
    text = _text_of(exc)
    message: Message | str = text
    if isinstance(exc, ZeroDivisionError):
        message = say("division_by_zero")
    elif isinstance(exc, AssertionError):
        message = say("assertion_text", python=text) if text else say("assertion")
    elif isinstance(exc, KeyError):
        message = say("no_key", key=text)
    elif not isinstance(exc, NameError | TypeError | ValueError | RuntimeError) or not text:
        message = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return UserCodeError.of(message, line, col, kind=kind)


def _translated(exc: BaseException, limits: Limits, alias: str = "tf") -> UserCodeError:
    """:func:`translate`, never failing: a message that cannot be built says so."""
    try:
        return translate(exc, limits, alias)
    except BaseException:  # e.g. a script's property, read while describing its own error
        line, col = position(exc)
        return UserCodeError.of(say("unshowable", name=type(exc).__name__), line, col)


def _plain(module: dict[str, Any]) -> dict[str, Any]:
    """The script's names but its modules; a torch tensor as the engine object its tapes hold.

    A torch tensor a module named (``fc1.weight``) keeps that name: a loop variable that last
    held it (``for name, p in model.named_parameters()``) does not rename it.
    """
    return {k: (_engine_of(v) if isinstance(v, TorchTensor) else v) for k, v in module.items()
            if type(v) is not Namespace
            and not (isinstance(v, TorchTensor) and v._c.t.name)}  # fmt: skip


def _engine_of(t: TorchTensor) -> TensorLike:
    """A torch leaf a backward pass watched: its Variable; any other: its engine tensor."""
    return t._as_variable() if hasattr(t, "_var") else t._t


def _attribute_names(names: dict[str, Any], limit: int = 10_000) -> dict[str, Any]:
    """``model.w`` for the tensors a script's objects (and layers, modules) hold as attributes.

    The graph labels a model's variables by where the script keeps them.
    """
    out: dict[str, Any] = {}
    for name, obj in names.items():
        if not (is_user_instance(obj) or (policy_public(obj) and hasattr(obj, "__dict__"))):
            continue
        for attr, value in vars(obj).items():
            if isinstance(value, TorchTensor):
                value = _engine_of(value)
            if not attr.startswith("_") and isinstance(value, TensorLike):
                out[f"{name}.{attr}"] = value
                if len(out) >= limit:
                    return out
    return out


def policy_public(obj: Any) -> bool:
    """Whether ``obj`` is an instance of a public-API class (a layer, a module)."""
    return any(public_api(k) for k in type(obj).__mro__)


def _figures(plots: Recorder | None) -> tuple[Figure, ...]:
    """The figures the run drew (also when it failed later, as a notebook shows them)."""
    if plots is None:
        return ()
    try:
        return plots.figures()
    except (Exception, Stop):  # a half-made figure (one the script's error left, a grid mixed
        return ()  # with another): the run's result without its plots; run() never raises


def _finish(budget: Budget) -> None:
    """The run is over: the script's functions, if anything calls them later, refuse to run."""
    if budget.tripped is None:
        budget.trip(Stop(say("run_over"), "cancelled"))


def _limit_message(exc: ResourceLimitError) -> Message | str:
    """The engine's size and work limits in tapeviz's words (the engine gives the numbers)."""
    what, count, cap = exc.what, exc.count, exc.cap
    if count is None or cap is None:
        return exc.message
    code = "work" if exc.measure == "work" else "tensor_size"
    return say(code, what=what, count=f"{count:,}", cap=f"{cap:,}")


def _advice(exc: EngineError, alias: str) -> Message | None:
    """The engine's advice (cast, or write a float) as a hint in the code's own spelling."""
    if exc.advice is None:
        return None
    kind, fields = exc.advice
    if kind == "cast":
        return say("hint_cast", ns=alias, dtype=fields["dtype"])
    if kind == "write_float":
        return say("hint_write_float", **fields)
    return None


def _alias(module: Mapping[str, Any]) -> str:
    """The name the script bound tensorflow (or tapeviz) to: ``tf`` unless it chose another."""
    for name, value in module.items():  # the prelude's tf counts only if nothing else is bound
        if value is TF and name not in PRELUDE:
            return name
    for name, value in module.items():
        if value is TV:
            return name
    return "tf"


@contextlib.contextmanager
def _running(budget: Budget, created: KeptTapes) -> Iterator[Recorder]:
    """Route prints, warnings and new tapes into ``budget``; restore everything afterwards.

    The run starts from the default state (:mod:`tapeviz.tf.run_state`: Keras' floatx and layer
    names, ``tf.config``, the seeds, ``np.random``), whatever an earlier run in this process set.
    """
    saved_budget, saved_created = CURRENT.budget, core.STATE.created
    saved_entered, saved_active = list(core.STATE.entered), list(core.STATE.active)
    CURRENT.budget, core.STATE.created = budget, created
    budget.tapes = created  # each write notes how many tapes exist by then
    limits = budget.limits
    try:
        with (
            fresh_run_state(),  # every setting a script can change: reset now, restored after
            printing.capture(budget.write),
            diagnostics.collect(budget.note),
            size_limits(limits.max_elements, limits.max_flops),
            hard_deadline(limits.wall_time - (time.perf_counter() - budget.started)),
            checkpoints(budget.check),
            np.errstate(all="ignore"),
            recording() as plots,
        ):
            try:
                yield plots
            finally:  # torch parameters' Variables: their values after the last step
                refresh_leaf_variables()
    finally:
        CURRENT.budget, core.STATE.created = saved_budget, saved_created
        core.STATE.entered[:], core.STATE.active[:] = saved_entered, saved_active


def _tape_infos(
    budget: Budget, created: KeptTapes, finished_only: bool = False
) -> tuple[tuple[TapeInfo, ...], int]:
    keep, dropped = created.kept(finished_only)
    infos = tuple(
        TapeInfo(t, tuple(budget.tape_names.get(id(t), ())), i) for i, t in enumerate(keep)
    )
    return infos, dropped


def _so_far(
    budget: Budget,
    created: KeptTapes,
    module: dict[str, Any],
    started: float,
    drawn: list[Recorder],
) -> RunResult | None:
    """The run so far: its finished tapes (the newest may still record), output and figures.

    ``drawn``: the run's plotting recorder, once it runs. None while there is nothing to show:
    no output, no figure and fewer than three tapes (a loop of one finished step). A run that
    only prints or draws (a numpy training loop) streams too.
    """
    plotted = bool(drawn) and bool(drawn[0].all)
    if len(created) < 3 and not budget.output and not plotted:
        return None
    tapes, dropped = _tape_infos(budget, created, finished_only=True)
    plain = _plain(module)
    names = {**_attribute_names(plain), **plain}
    count = len(tapes) + dropped
    marks = tuple(m for m in budget.output_marks if m[1] <= count)
    output = "".join(budget.output)
    figures = _figures(drawn[0]) if plotted else ()
    return RunResult(output, tapes, names, None, time.perf_counter() - started, None,
                     tuple(budget.notes), {}, dropped, marks, figures)  # fmt: skip


def _send_so_far(
    budget: Budget,
    created: KeptTapes,
    module: dict[str, Any],
    started: float,
    drawn: list[Recorder],
    send: Callable[[RunResult], None],
) -> None:
    result = _so_far(budget, created, module, started, drawn)
    if result is not None:
        send(result)


Ticks = Callable[[KeptTapes, Callable[[], RunResult | None]], None]


def run(
    source: str,
    *,
    mode: str = "script",
    variables: Mapping[str, Any] | Sequence[VariableSpec] | None = None,
    limits: Limits | None = None,
    cancel: CancelToken | None = None,
    snapshots: Callable[[RunResult], None] | None = None,
    ticks: Ticks | None = None,
    tick_every: float = 0.03,
    programs: Programs | None = None,
) -> RunResult:
    """Run user code safely: ``mode`` is ``"script"`` (a Python subset) or ``"expression"``.

    ``snapshots``: a script also hands the run so far to this now and then (see
    :meth:`Budget.take_snapshot`), so a long run can be shown while it runs. ``ticks``
    instead: called every ``tick_every`` seconds of the script with the list of tapes it has
    made (live) and a function making the run so far (None before two tapes finished), so a
    caller can encode finished tapes as they come and send the run when it chooses (the
    worker). ``programs``: compiled scripts kept between runs (a worker's session: a re-run
    of the same text skips parsing, checking and compiling).
    """
    started = time.perf_counter()
    limits = limits or Limits()
    budget = Budget(limits, cancel or CancelToken())
    if mode == "expression":
        return run_expression(source, specs(variables), budget, started)
    if mode != "script":
        err = UserCodeError.of(say("unknown_mode", mode=repr(mode)), kind="value")
        return RunResult("", (), {}, None, 0.0, err)
    created = KeptTapes(budget.limits.max_tapes)
    shifts: Mapping[int, int] = {}
    module: dict[str, Any] = {}
    value: Any = None
    error: UserCodeError | None = None
    plots = None
    drawn: list[Recorder] = []  # (the run's plotting recorder, for its snapshots)
    if ticks is not None:
        budget.snapshot = lambda: ticks(
            created, lambda: _so_far(budget, created, module, started, drawn)
        )
        budget.snapshot_every = tick_every
        budget.next_snapshot = budget.started + tick_every
    elif snapshots is not None:
        budget.snapshot = lambda: _send_so_far(budget, created, module, started, drawn, snapshots)
        budget.next_snapshot = budget.started + SNAPSHOT_FIRST_S
    try:
        with _running(budget, created) as plots:
            drawn.append(plots)
            program = programs.get(source) if programs is not None else None
            if program is None:
                kept = programs.statements if programs is not None else None
                program = compile_program(source, budget.note, kept)
                if programs is not None:
                    programs.put(source, program)
            else:
                for text in program.notes:
                    budget.note(text)
            code, tail, last, shifts = program.code, program.tail, program.last, program.shifts
            module.update(PRELUDE)  # tf and np, as after a notebook's first cell
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
        error = _translated(exc, budget.limits, _alias(module))
    if error is not None and error.col and shifts.get(error.line or 0):
        error = replace(error, col=error.col + shifts[error.line or 0])  # the user's columns
    _finish(budget)
    figures = _figures(plots)
    tapes, dropped = _tape_infos(budget, created)
    plain = _plain(module)
    names = {**_attribute_names(plain), **plain}  # (plain names win where both name a tensor)
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
        figures,
    )


def run_expression(text: str, table: Sequence[VariableSpec], budget: Budget, started: float) -> Any:
    """Expression mode of :func:`tapeviz.sandbox.run`: evaluate on a tape, take the gradients."""
    created = KeptTapes(budget.limits.max_tapes)
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
                budget.note(say("note_shape", shape=tuple(value.shape)))
    except Invalid as exc:
        error = exc.error
    except BaseException as exc:
        error = _translated(exc, budget.limits)
        if error.line is None:
            error = replace(error, line=1)
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
