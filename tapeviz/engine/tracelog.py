"""What a ``tf.function`` call did besides the ops it recorded, so a later call can replay it.

While a call runs its Python, a :class:`TraceLog` on ``STATE.trace_logs`` collects the effects
TensorFlow keeps in the graph (``tf.print``, ``assign``/``assign_add``/``assign_sub``), the
tensors made from Python literals (constants of the graph) and whether Python read a tensor's
value or numpy data entered the call (``opaque``: then the call cannot be replayed, as its ops
may depend on values the engine never saw as ops). Tensors and variables call the hooks here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.engine.state import STATE

_NUMPY = (np.ndarray, np.generic)


class TraceLog:
    """The effects, literals and value reads of one tf.function call, in order."""

    __slots__ = ("events", "literals", "opaque", "recorder", "start")

    def __init__(self, start: int, recorder: Any) -> None:
        self.start = start  # tensors with smaller ids existed before the call (captured)
        self.recorder = recorder  # the call's recorder (events are placed among its records)
        self.events: list[tuple[int, str, Any, tuple[Any, ...], dict[str, Any]]] = []
        self.literals: set[int] = set()
        self.opaque = False


def touch() -> None:
    """Python read a tensor's value: what the call does next may depend on it."""
    if not STATE.trace_quiet:
        for log in STATE.trace_logs:
            log.opaque = True


def made(value: Any, out: Any) -> None:
    """A tensor was made from ``value``: a graph constant if a Python literal."""
    if isinstance(value, _NUMPY):
        touch()
        return
    for log in STATE.trace_logs:
        log.literals.add(out.id)


def event(kind: str, target: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """An effect the graph keeps: ``"print"`` or an ``"assign*"`` to ``target``."""
    if any(isinstance(a, _NUMPY) for a in args):
        touch()
    for log in STATE.trace_logs:
        log.events.append((log.recorder.op_count(), kind, target, args, kwargs))
