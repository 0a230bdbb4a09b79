"""What the nn functions share: recording one torch node, casting inside it, torch's messages."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tapeviz import engine as E
from tapeviz.engine import diagnostics
from tapeviz.torch import _dtypes as D
from tapeviz.torch._ops import apply, as_tensor_arg
from tapeviz.torch._tensor import Tensor, _type_word


def node(name: str, fn: Callable[..., Any], inputs: Sequence[Tensor | None], *args: Any) -> Tensor:
    """One node ``name``: ``fn(*engine tensors of inputs (None kept), *args)``, recorded."""
    ts = [t for t in inputs if t is not None]
    it = iter(range(len(ts)))
    slots = [None if t is None else next(it) for t in inputs]

    def run(*values: Any) -> Any:
        return fn(*(None if s is None else values[s] for s in slots), *args)

    return apply(name, run, ts, *(t._t for t in ts))


def cast(t: Any, want: D.dtype) -> Any:
    """Engine tensor ``t`` at dtype ``want`` (called inside a node, so the cast is recorded)."""
    return t if t is None or t.dtype is want._engine else E.cast(t, want._engine)


def tensor_arg(x: Any) -> Tensor:
    """``x`` as a tensor (lists and numbers too)."""
    out = as_tensor_arg(x)
    if not isinstance(out, Tensor):
        from tapeviz.torch._creation import tensor

        out = tensor(out)
    return out


def scalar(want: D.dtype, value: float) -> Any:
    """A numpy scalar of ``want``'s type (engine ops keep the tensor's dtype with it)."""
    return want._engine.np.type(value)


def word(d: D.dtype) -> str:
    """Torch's word for a dtype in messages (``Float``, ``Long``)."""
    return _type_word(d)


def floats(*tensors: Tensor | None) -> D.dtype:
    """The float dtype ops on ``tensors`` compute in."""
    want = D.result_type(*(t for t in tensors if t is not None))
    return want if want.is_floating_point else D.DEFAULT.value


def broadcast_shape(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    """The broadcast shape, or torch's error for shapes that do not broadcast."""
    n = max(len(a), len(b))
    pa, pb = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    out = []
    for i, (x, y) in enumerate(zip(pa, pb, strict=True)):
        if x != y and x != 1 and y != 1:
            raise RuntimeError(
                f"The size of tensor a ({x}) must match the size of tensor b ({y}) at "
                f"non-singleton dimension {i}"
            )
        out.append(max(x, y) if x and y else 0)
    return tuple(out)


def reduce(t: Any, reduction: str) -> Any:
    """Engine reduction of an elementwise loss."""
    if reduction == "mean":
        return E.reduce_mean(t)
    if reduction == "sum":
        return E.reduce_sum(t)
    return t


def reduction_of(size_average: Any, reduce: Any, reduction: str) -> str:
    """The reduction string, from torch's legacy ``size_average``/``reduce`` arguments too."""
    if size_average is not None or reduce is not None:
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        reduction = "mean" if size_average and reduce else "sum" if reduce else "none"
        diagnostics.warn(
            f"size_average and reduce args will be deprecated, please use reduction='{reduction}'"
            " instead.",
            stacklevel=3,
        )
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def values(t: Tensor) -> np.ndarray:
    """A tensor's values as a numpy array (no copy)."""
    return np.asarray(t._t._value)
