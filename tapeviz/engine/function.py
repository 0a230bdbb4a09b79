"""``tv.function`` / ``tf.function``: runs eagerly and keeps the trace of its latest call."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple

from tapeviz.engine import core
from tapeviz.engine.core import OpRecord, Recorder


class FunctionTrace(NamedTuple):
    """The ops one call of a ``tv.function`` ran, in order, with its arguments and result."""

    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    records: tuple[OpRecord, ...]
    result: Any


class _TraceRecorder(Recorder):
    """Records every op of a call; never makes a gradient record itself."""

    for_gradients = False

    def __init__(self) -> None:
        super().__init__(watch_accessed_variables=False)


class Function:
    """A Python function decorated with ``tv.function``: same results, eagerly, traced."""

    def __init__(self, python_function: Callable[..., Any], **options: Any) -> None:
        self.python_function = python_function
        self.options = options
        self.call_count = 0
        self.last_trace: FunctionTrace | None = None
        functools.update_wrapper(self, python_function)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        rec = _TraceRecorder()
        core.push(rec)
        try:
            result = self.python_function(*args, **kwargs)
        finally:
            core.pop(rec)
        self.call_count += 1
        self.last_trace = FunctionTrace(args, kwargs, tuple(rec.records), result)
        return result

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return self
        return functools.partial(self.__call__, instance)

    def get_concrete_function(self, *args: Any, **kwargs: Any) -> Function:
        """The function itself (eager execution has no separate concrete functions)."""
        return self

    def __repr__(self) -> str:
        return f"<tv.function {getattr(self.python_function, '__name__', '?')}>"


def function(func: Callable[..., Any] | None = None, **options: Any) -> Any:
    """Decorate a function like ``@tf.function`` (with or without arguments)."""
    if func is None:
        return lambda f: Function(f, **options)
    return Function(func, **options)
