"""What ``v.assign(...)`` returns: TensorFlow's ``UnreadVariable``, a live view of ``v``.

TensorFlow returns a lazily read handle of the same variable: it prints as
``<tf.Variable 'UnreadVariable' shape=() dtype=float32, numpy=2.0>``, reads ``v``'s value when
used (so ``v.assign(1.0).assign_add(2.0)`` chains) and is a ``tf.Variable``. Here it is a
Variable whose value, id and assigns are ``v``'s; only its name differs.
"""

from __future__ import annotations

from typing import Any

from tapeviz.engine import tensor
from tapeviz.engine.tensor import Tensor, Variable

__all__ = ["UnreadVariable"]


class UnreadVariable(Variable):
    """A view of a variable, named ``UnreadVariable``: reads and writes go to the variable."""

    __slots__ = ("_parent",)

    def __init__(self, parent: Variable) -> None:  # no Variable.__init__: nothing new is made
        object.__setattr__(self, "_parent", parent)

    _value = property(lambda self: self._parent._value)  # type: ignore[assignment]
    dtype = property(lambda self: self._parent.dtype)  # type: ignore[assignment]
    id = property(lambda self: self._parent.id)  # type: ignore[assignment]
    trainable = property(lambda self: self._parent.trainable)  # type: ignore[assignment]
    name = property(lambda self: "UnreadVariable")  # type: ignore[assignment]

    def value(self) -> Tensor:
        """The variable's current value."""
        return self._parent.value()

    def assign(self, value: Any, read_value: bool = True) -> Any:
        """Assign to the variable."""
        return self._parent.assign(value, read_value)

    def assign_add(self, delta: Any, read_value: bool = True) -> Any:
        """Add to the variable."""
        return self._parent.assign_add(delta, read_value)

    def assign_sub(self, delta: Any, read_value: bool = True) -> Any:
        """Subtract from the variable."""
        return self._parent.assign_sub(delta, read_value)

    def _assign_slice(self, key: Any, value: Any) -> Variable:
        return self._parent._assign_slice(key, value)

    def __hash__(self) -> int:
        return hash(self._parent.id)


def parent(v: Any) -> Any:
    """The variable an UnreadVariable views (any other value as it is)."""
    return v._parent if type(v) is UnreadVariable else v


tensor.UNREAD = UnreadVariable
