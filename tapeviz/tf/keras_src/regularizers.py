"""``keras.regularizers``: weight penalties a layer adds to its ``losses`` (L1, L2)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.engine import ops
from tapeviz.engine.errors import InvalidArgumentError
from tapeviz.engine.tensor import Tensor

__all__ = ["L1", "L1L2", "L2", "Regularizer", "get"]


class Regularizer:
    """Base class: ``regularizer(weight)`` is the penalty."""

    def __call__(self, x: Any) -> Tensor:
        return ops.multiply(ops.reduce_sum(x), 0.0)

    def get_config(self) -> dict[str, Any]:
        """The constructor arguments."""
        return dict(vars(self))


class L1L2(Regularizer):
    """``l1 · Σ|w| + l2 · Σw²``."""

    def __init__(self, l1: float = 0.0, l2: float = 0.0) -> None:
        self.l1, self.l2 = float(l1), float(l2)

    def get_config(self) -> dict[str, Any]:
        """``{"l1": ..., "l2": ...}`` as Keras 3 keeps them (float32 values)."""
        return {"l1": float(np.float32(self.l1)), "l2": float(np.float32(self.l2))}

    def __call__(self, x: Any) -> Tensor:
        total: Any = None
        if self.l1:
            total = ops.multiply(ops.reduce_sum(ops.abs(x)), self.l1)
        if self.l2:
            term = ops.multiply(ops.reduce_sum(ops.square(x)), self.l2)
            total = term if total is None else ops.add(total, term)
        return total if total is not None else ops.multiply(ops.reduce_sum(x), 0.0)


class L1(L1L2):
    """``l1 · Σ|w|``."""

    def __init__(self, l1: float = 0.01) -> None:
        super().__init__(l1=l1)

    def get_config(self) -> dict[str, Any]:
        """``{"l1": ...}`` as Keras 3 keeps it (a float32 value)."""
        return {"l1": float(np.float32(self.l1))}


class L2(L1L2):
    """``l2 · Σw²``."""

    def __init__(self, l2: float = 0.01) -> None:
        super().__init__(l2=l2)

    def get_config(self) -> dict[str, Any]:
        """``{"l2": ...}`` as Keras 3 keeps it (a float32 value)."""
        return {"l2": float(np.float32(self.l2))}


def get(identifier: Any) -> Any:
    """A regularizer from a name (``"l2"``), an instance or a function."""
    if identifier is None or callable(identifier):
        return identifier
    table = {"l1": L1, "l2": L2, "l1_l2": L1L2, "l1l2": L1L2}
    if isinstance(identifier, str) and identifier.lower() in table:
        return table[identifier.lower()]()
    raise InvalidArgumentError(
        f"Could not interpret regularizer identifier: {identifier}", "regularizers"
    )
