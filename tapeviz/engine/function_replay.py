"""A tf.function call as a program: its ops and effects, replayed without running its Python.

TensorFlow runs a function's Python only when it traces; later calls run the graph. When a call
ran its Python and everything it did is known to the engine (every op recorded, every effect
logged, every other tensor a constant of the call or a variable read), :func:`build` turns it
into a :class:`Program`; the function's next calls with the same argument types
:func:`replay` it: the same ops on the new arguments and the variables' current values, the
same ``tf.print`` and ``assign`` effects, and none of the Python (its ``print``, list appends and
attribute reads stay as they were at the trace, as in TensorFlow). A call that read a tensor's
value in Python, made a tape, or took numpy data is not replayable: it runs its Python again.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

import numpy as np

from tapeviz.engine import nest
from tapeviz.engine import primitives as P
from tapeviz.engine.core import NUMBERS, OpRecord, bind, read_variable
from tapeviz.engine.impl_rules import IMPL
from tapeviz.engine.state import STATE, _set_scope
from tapeviz.engine.tensor import VARIABLES, Tensor, TensorLike, Variable, constant
from tapeviz.engine.tracelog import TraceLog
from tapeviz.engine.unread import parent

Spec = tuple[str, Any]  # ("env", tensor id), ("var", variable), ("const", tensor), ("obj", value)


class Program(NamedTuple):
    """What a call did, in order: ``("op", record, input specs)`` and effect steps."""

    steps: tuple[tuple[Any, ...], ...]
    placeholders: tuple[int, ...]  # the ids of the call's tensor arguments, in leaf order
    shapes: tuple[tuple[int, ...], ...]  # their shapes (a call with other shapes runs Python)
    result: Any  # the result's structure
    outputs: tuple[Spec, ...]  # how to make each leaf of the result


class NotReplayable(Exception):
    """The call did something the engine cannot repeat without its Python."""


def arg_tensors(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any] | None:
    """The tensor leaves of the arguments (None if numpy data is among them)."""
    out = []
    for leaf in nest.flatten((list(args), kwargs)):
        if isinstance(leaf, np.ndarray):
            return None
        if type(leaf) is Tensor:
            out.append(leaf)
    return out


def build(
    log: TraceLog, tensors: list[Any], result: Any, records: list[OpRecord]
) -> Program | None:
    """The program of a call that ran its Python, or None if it cannot be replayed."""
    if log.opaque:
        return None
    ids = tuple(t.id for t in tensors)
    if len(set(ids)) != len(ids):
        return None
    known = set(ids)
    events = iter(log.events)
    pending = next(events, None)
    steps: list[tuple[Any, ...]] = []
    try:
        for i, rec in enumerate(records):
            while pending is not None and pending[0] <= i:
                steps.append(_event_step(pending, known, log))
                pending = next(events, None)
            if rec.primitive not in IMPL or rec.primitive is P.custom_gradient_p:
                return None
            specs = tuple(_spec(x, known, log) for x in rec.inputs)
            steps.append(("op", rec, specs))
            known.update(t.id for t in rec.outputs)
        while pending is not None:
            steps.append(_event_step(pending, known, log))
            pending = next(events, None)
        outputs = tuple(_output_spec(leaf, known, log) for leaf in nest.flatten(result))
    except NotReplayable:
        return None
    shapes = tuple(tuple(t.shape) for t in tensors)
    return Program(tuple(steps), ids, shapes, result, outputs)


def _event_step(event: Any, known: set[int], log: TraceLog) -> tuple[Any, ...]:
    _, kind, target, args, kwargs = event
    specs = tuple(_value_spec(a, known, log) for a in args)
    return (kind, parent(target), specs, kwargs)


def _value_spec(value: Any, known: set[int], log: TraceLog) -> Spec:
    if isinstance(value, Variable):
        return ("obj", parent(value))  # read when the effect runs
    if isinstance(value, TensorLike):
        return _spec(value, known, log)
    if isinstance(value, list | tuple | dict) and any(
        isinstance(v, TensorLike) for v in nest.flatten(value)
    ):
        raise NotReplayable
    return ("obj", value)


def _output_spec(leaf: Any, known: set[int], log: TraceLog) -> Spec:
    if isinstance(leaf, Variable):
        return ("read", parent(leaf))
    if isinstance(leaf, TensorLike):
        return _spec(leaf, known, log)
    return ("obj", leaf)


def _spec(t: Any, known: set[int], log: TraceLog) -> Spec:
    """Where a tensor the call used comes from, on a replay."""
    tid = t.id
    if tid in known:
        return ("env", tid)
    var = VARIABLES.get(tid)
    if var is not None:
        return ("var", var)
    if tid < log.start or tid in log.literals or _literal_scalar(t):
        return ("const", t)
    raise NotReplayable


def _literal_scalar(t: Any) -> bool:
    """A 0-d tensor an op made of a Python number (``x * 2.0``: the engine's cached scalars)."""
    v = t._value
    if type(v) is not t.dtype.scalar:
        return False
    return bool(v == 0) or NUMBERS[t.dtype].get(v.item()) is v


def matches(program: Program, tensors: list[Any]) -> bool:
    """Whether a call's tensor arguments have the shapes the program was made with."""
    if len(tensors) != len(program.shapes):
        return False
    return all(tuple(t.shape) == s for t, s in zip(tensors, program.shapes, strict=True))


def replay(program: Program, tensors: list[Any]) -> Any:
    """Run the program on new tensor arguments; return the call's result."""
    from tapeviz.engine.printing import tf_print

    env: dict[int, Any] = dict(zip(program.placeholders, tensors, strict=True))
    for step in program.steps:
        kind = step[0]
        if kind == "op":
            rec, specs = step[1], step[2]
            xs = [_resolve(s, env) for s in specs]
            with _scope(rec.scope):
                out = bind(rec.primitive, *xs, **rec.params)
            env[rec.outputs[0].id] = out
        elif kind == "print":
            tf_print(*[_resolve(s, env) for s in step[2]], **step[3])
        else:  # assign, assign_add, assign_sub
            getattr(step[1], kind)(_resolve(step[2][0], env))
    leaves = [_resolve(s, env) for s in program.outputs]
    return nest.pack_as(program.result, leaves)


def _resolve(spec: Spec, env: dict[int, Any]) -> Any:
    kind, payload = spec
    if kind == "env":
        return env[payload]
    if kind == "var":
        return read_variable(payload)
    return payload  # "const", "obj" and "read" (the variable, made a tensor by the caller)


@contextmanager
def _scope(scope: tuple[str, ...]) -> Iterator[None]:
    """Run an op in the name scope it was recorded in (the graph groups ops by scope)."""
    state = STATE
    saved = state.scope
    if saved == scope:
        yield
        return
    _set_scope(state, scope)
    try:
        yield
    finally:
        _set_scope(state, saved)


def as_outputs(result: Any) -> Any:
    """The result as TensorFlow returns it: numbers, text and variables become tensors."""
    from tapeviz.engine.ops import identity

    def convert(leaf: Any) -> Any:
        if isinstance(leaf, Variable):
            return identity(parent(leaf))
        if isinstance(leaf, bool | int | float | str | bytes | np.generic):
            return constant(leaf)
        return leaf

    leaves = nest.flatten(result)
    if not any(isinstance(x, Variable | bool | int | float | str | bytes | np.generic)
               for x in leaves):  # fmt: skip
        return result
    return nest.pack_as(result, [convert(x) for x in leaves])
