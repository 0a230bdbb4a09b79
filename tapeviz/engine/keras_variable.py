"""Keras 3 variables: a tf.Variable with Keras' name, path and printed form.

``layer.kernel``, ``optimizer.learning_rate`` and ``optimizer.iterations`` are these. They are
engine Variables (tapes watch them, ops read them), named the Keras way: ``name`` is the short
name (``"kernel"``), ``path`` where it lives (``"sequential/dense/kernel"``), and they print as
``<Variable path=dense/kernel, shape=(3, 4), dtype=float32, value=[[...]]>``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine import dtypes
from tapeviz.engine.guard import check_elements, shape_size
from tapeviz.engine.state import STATE
from tapeviz.engine.tensor import Tensor, Variable, freeze

__all__ = ["KerasVariable"]


class KerasVariable(Variable):
    """A Keras 3 ``Variable``: initial value (or initializer and shape), name, path."""

    __slots__ = ("_on_assign", "path")

    def __init__(
        self,
        initializer: Any,
        shape: Any = None,
        dtype: Any = None,
        trainable: bool = True,
        name: str | None = None,
        path: str | None = None,
        **_: Any,
    ) -> None:
        if callable(initializer) and not isinstance(initializer, Tensor | Variable):
            if shape is None:
                raise ValueError(
                    "When creating a Variable from an initializer, the `shape` argument should "
                    f"be specified. Received: initializer={initializer} and shape={shape}"
                )
            dt = dtypes.as_dtype(dtype or "float32")
            dims = tuple(int(d) for d in shape)
            check_elements(shape_size(dims), "Variable")
            value = initializer(dims, dtype=dt)
        else:
            value = initializer
        name = name or "variable"
        if not isinstance(name, str) or "/" in name:
            raise ValueError(
                "Argument `name` must be a string and cannot contain character `/`. "
                f"Received: name={name}"
            )
        super().__init__(value, trainable=trainable, dtype=dtype)
        self.name = name
        scope = "/".join(STATE.scope)
        self.path = path or (f"{scope}/{name}" if scope else name)
        self._on_assign: Callable[[Any], None] | None = None

    def value(self) -> Tensor:
        """The current value as a Tensor named by the variable's path (what graphs show)."""
        snap = self._snapshot
        if snap is None:
            snap = self._snapshot = Tensor(self._value, self.dtype, self.path, self.id)
        return snap

    def _assigned(self, kind: str, value: Any, read_value: bool) -> Any:
        """A Keras variable's assigns return the variable itself."""
        super()._assigned(kind, value, False)
        return self

    def _set(self, arr: Any, op: str) -> Variable:
        out = super()._set(arr, op)
        hook = self._on_assign
        if hook is not None:
            hook(self._value)
        return out

    @property
    def shape(self) -> tuple[int, ...]:  # type: ignore[override]
        """The shape as a plain tuple, as Keras 3 gives it (``(5, 8)``)."""
        return tuple(np.shape(self._value))

    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return int(np.ndim(self._value))

    def __repr__(self) -> str:
        value = self._value
        text = str(value if isinstance(value, np.ndarray) else np.asarray(value)[()])
        return (
            f"<Variable path={self.path}, shape={tuple(self.shape)}, dtype={self.dtype.name}, "
            f"value={text}>"
        )

    __str__ = __repr__


def constant_initializer(value: Any) -> Callable[..., Any]:
    """An initializer giving ``value`` broadcast to the requested shape."""

    def init(shape: tuple[int, ...], dtype: Any = None) -> Any:
        dt = dtypes.as_dtype(dtype or "float32")
        return freeze(np.array(np.broadcast_to(np.asarray(value, dtype=dt.np), shape)))

    return init
