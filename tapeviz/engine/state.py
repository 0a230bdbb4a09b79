"""The engine's per-thread state: the tapes recording now and the name scope ops run in.

It lives below every other engine module (tensors read the name scope to name variables, the
binding code reads both); :data:`tapeviz.engine.core.STATE` is this same object.
"""

from __future__ import annotations

import threading
from typing import Any


class State(threading.local):
    """What is active on this thread."""

    def __init__(self) -> None:
        self.active: list[Any] = []  # recorders recording now (entered and not paused)
        self.entered: list[Any] = []  # recorders entered, innermost last
        self.created: list[Any] | None = None  # when set, new tapes are appended (sandbox)
        self.scope: tuple[str, ...] = ()  # the name scope, outermost first: ("sequential", "dense")
        self.new_variables: list[Any] | None = None  # when set, variables created are appended
        self.retraced = 0  # > 0 inside a tf.function call that TensorFlow would not trace again
        self.tracing: list[dict[int, str]] = []  # per tf.function call: id(argument) -> symbol
        self.trace_logs: list[Any] = []  # per tf.function call running Python: a TraceLog
        self.trace_quiet = 0  # > 0 while tapeviz itself reads values (tf.print formatting)


STATE = State()


def scope_prefix() -> str:
    """The current name scope as TensorFlow spells it for names: ``"outer/inner/"`` or ``""``."""
    scope = STATE.scope
    return "/".join(scope) + "/" if scope else ""


class NameScope:
    """A with-block that runs ops (and names variables) inside a name scope.

    ``name`` nests under the current scope; a name ending in ``/`` is absolute (TensorFlow's
    rule), and ``""`` or None clears the scope for the block. Entering returns the scope's name
    with a trailing ``/`` (``"outer/inner/"``), as ``tf.name_scope`` does in eager mode.
    """

    __slots__ = ("_absolute", "_parts", "_saved", "name")

    def __init__(self, name: str | None) -> None:
        self.name = name
        self._saved: list[tuple[str, ...]] = []
        self._parts = _split(name) if name else ()
        self._absolute = not name or name.endswith("/")

    def _resolve(self) -> tuple[str, ...]:
        return self._parts if self._absolute else STATE.scope + self._parts

    def __enter__(self) -> str:
        state = STATE
        self._saved.append(state.scope)
        names = self._resolve()
        _set_scope(state, names)
        return "/".join(names) + "/" if names else ""

    def __exit__(self, *exc: object) -> None:
        _set_scope(STATE, self._saved.pop())


_SPLIT: dict[str, tuple[str, ...]] = {}  # "outer/inner" -> ("outer", "inner"), as met


def _split(name: str) -> tuple[str, ...]:
    parts = _SPLIT.get(name)
    if parts is None:
        if len(_SPLIT) > 4096:
            _SPLIT.clear()
        parts = _SPLIT[name] = tuple(p for p in name.split("/") if p)
    return parts


def _set_scope(state: State, names: tuple[str, ...]) -> None:
    state.scope = names
    for r in state.entered:  # each recorder keeps a copy: recording reads it per op
        r._scope = names
