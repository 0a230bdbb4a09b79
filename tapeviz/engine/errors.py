"""Engine exceptions: each names the op and the shapes/dtypes involved."""

from __future__ import annotations


class EngineError(Exception):
    """Base class of the engine's own errors; ``op`` names the operation that failed.

    ``advice`` is what to do about it as data, for the sandbox to word in the code's own
    spelling: ``("cast", {"dtype": "float32"})`` or ``("write_float", {"op", "literal",
    "value"})``; None when there is nothing to add. ``str(error)`` adds it in tapeviz's own
    spelling (``use tv.cast(x, tv.float32)``); ``message`` is without it.
    """

    def __init__(
        self,
        message: str,
        op: str | None = None,
        advice: tuple[str, dict[str, str]] | None = None,
    ) -> None:
        super().__init__(message + _advice_text(advice))
        self.message = message
        self.op = op
        self.advice = advice


def _advice_text(advice: tuple[str, dict[str, str]] | None) -> str:
    if advice is None:
        return ""
    kind, fields = advice
    if kind == "cast":
        return f"; use tv.cast(x, tv.{fields['dtype']})"
    if kind == "write_float":
        return f"; write {fields['value']} instead of {fields['literal']}"
    return ""


class InvalidArgumentError(EngineError, ValueError):
    """An op was given operands it cannot combine (shapes, dtypes, values)."""


class EngineTypeError(EngineError, TypeError):
    """An op or API was given a Python object of the wrong type."""


class UnimplementedError(EngineError):
    """An operation that exists in TensorFlow but not here (``tf.errors.UnimplementedError``)."""


class NotFoundError(EngineError):
    """Something named does not exist (``tf.errors.NotFoundError``)."""


def describe(value: object) -> str:
    """Return a short description of an operand for error messages: ``(3,) float32``."""
    shape = getattr(value, "shape", None)
    dtype = getattr(value, "dtype", None)
    if shape is not None and dtype is not None:
        name = getattr(dtype, "name", dtype)
        return f"{tuple(shape)} {name}"
    from tapeviz.engine.reprs import short_repr  # (reprs imports nothing of the engine)

    return f"{type(value).__name__} {short_repr(value, 40)}"
