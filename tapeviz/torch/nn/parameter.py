"""``torch.nn.Parameter``: a leaf tensor that a module registers as one of its parameters.

A parameter gets an engine tensor of its own (its own engine id, so the timeline follows it,
and autograd tells it apart from the tensor it was made from); the values are the same.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.engine.tensor import Tensor as _ETensor
from tapeviz.engine.tensor import freeze as _freeze
from tapeviz.torch._tensor import Tensor

__all__ = ["Buffer", "Parameter"]


class Parameter(Tensor):
    """A tensor that is a module's parameter: a leaf that requires grad by default."""

    __slots__ = ()

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        if data is None:
            data = Tensor._wrap(_ETensor(_freeze(np.zeros(0, np.float32)), _f32()))
        if not isinstance(data, Tensor):
            raise TypeError(
                "_make_subclass(): argument 'data' (position 2) must be Tensor, not "
                f"{type(data).__name__}"
            )
        if requires_grad and not data.dtype.is_floating_point:
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients"
            )
        t = data._c.t
        Tensor._setup(self, _ETensor(t._value, t.dtype, t.name), bool(requires_grad), None)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + Tensor.__repr__(self)

    __str__ = __repr__

    def __deepcopy__(self, memo: dict[int, Any]) -> Parameter:
        if id(self) in memo:
            return memo[id(self)]
        t = self._c.t
        out = Parameter(Tensor._wrap(_ETensor(t._value, t.dtype, t.name)), self._rg)
        memo[id(self)] = out
        return out

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (_rebuild, (np.asarray(self._c.t._value), self._c.t.dtype, self._rg))

    @property
    def data(self) -> Tensor:
        """The values as a tensor that shares them and records nothing."""
        return self.detach()

    @data.setter
    def data(self, value: Tensor) -> None:
        name = self._c.t.name
        Tensor.data.fset(self, value)  # type: ignore[attr-defined]
        self._c.t.name = name  # the parameter keeps its name (``fc1.weight``) in the timeline

    def _set_cell(self, value: np.ndarray, dtype: Any) -> None:
        """Replace the values (another dtype allowed), keeping the engine id and name."""
        t = self._c.t
        self._c.t = _ETensor(_freeze(np.array(value)), dtype, t.name, t.id)
        self._c.version += 1


class Buffer(Tensor):
    """``torch.nn.Buffer``: marks a tensor to be registered as a module buffer on assignment."""

    __slots__ = ("persistent",)

    def __init__(self, data: Tensor | None = None, *, persistent: bool = True) -> None:
        if data is None:
            data = Tensor._wrap(_ETensor(_freeze(np.zeros(0, np.float32)), _f32()))
        Tensor._setup(self, data._c.t, data._rg, None)
        self._c = data._c
        self.persistent = persistent


def _f32() -> Any:
    from tapeviz.engine import dtypes

    return dtypes.float32


def _rebuild(value: np.ndarray, dtype: Any, requires_grad: bool) -> Parameter:
    return Parameter(Tensor._wrap(_ETensor(_freeze(np.array(value)), dtype)), requires_grad)
