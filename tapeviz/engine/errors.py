"""Engine exceptions: each names the op and the shapes/dtypes involved."""

from __future__ import annotations


class EngineError(Exception):
    """Base class of the engine's own errors; ``op`` names the operation that failed."""

    def __init__(self, message: str, op: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.op = op


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
