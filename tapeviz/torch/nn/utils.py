"""``torch.nn.utils``: gradient clipping and flattening parameters into one vector."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from tapeviz.engine.tensor import Tensor as _ETensor
from tapeviz.engine.tensor import freeze as _freeze
from tapeviz.torch._autograd import no_grad as _no_grad
from tapeviz.torch._shape import cat as _cat
from tapeviz.torch._tensor import Tensor

__all__ = ["clip_grad_norm_", "clip_grad_value_", "parameters_to_vector", "vector_to_parameters"]


def _params(parameters: Any) -> list[Tensor]:
    return [parameters] if isinstance(parameters, Tensor) else list(parameters)


def _set(t: Tensor, value: np.ndarray) -> None:
    with _no_grad():
        t._become(Tensor._wrap(_ETensor(_freeze(value.astype(t._t.dtype.np)), t._t.dtype)))


def clip_grad_norm_(
    parameters: Any,
    max_norm: float,
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
    foreach: Any = None,
) -> Tensor:
    """Scale the gradients in place so that their total norm is at most ``max_norm``."""
    grads = [p.grad for p in _params(parameters) if p.grad is not None]
    max_norm, norm_type = float(max_norm), float(norm_type)
    if not grads:
        return Tensor._wrap(_ETensor(np.float32(0.0), _float32()))
    dt = grads[0]._t.dtype
    vals = [np.asarray(g._t._value) for g in grads]
    if math.isinf(norm_type):
        norms = [np.max(np.abs(v)) if v.size else dt.np.type(0) for v in vals]
        total = np.max(np.asarray(norms, dt.np))
    else:
        norms = [np.sum(np.abs(v) ** norm_type) ** (1.0 / norm_type) for v in vals]
        total = np.sum(np.asarray(norms, dt.np) ** norm_type) ** (1.0 / norm_type)
    total = dt.np.type(total)
    if error_if_nonfinite and not np.isfinite(total):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, "
            "so it cannot be clipped. To disable this error and scale the gradients by the "
            "non-finite norm anyway, set `error_if_nonfinite=False`"
        )
    coef = min(dt.np.type(max_norm) / (total + dt.np.type(1e-6)), dt.np.type(1.0))
    for g, v in zip(grads, vals, strict=True):
        _set(g, v * dt.np.type(coef))
    return Tensor._wrap(_ETensor(total, dt))


def clip_grad_value_(parameters: Any, clip_value: float, foreach: Any = None) -> None:
    """Clip every gradient element to ``[-clip_value, clip_value]``, in place."""
    c = float(clip_value)
    for p in _params(parameters):
        if p.grad is not None:
            _set(p.grad, np.clip(np.asarray(p.grad._t._value), -c, c))


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """Every parameter flattened and joined into one vector."""
    return _cat([p.reshape(-1) for p in parameters])


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Copy consecutive slices of ``vec`` into the parameters."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    flat = np.asarray(vec._t._value)
    start = 0
    for p in parameters:
        n = p.numel()
        _set(p, flat[start : start + n].reshape(tuple(p.shape)))
        start += n


def _float32() -> Any:
    from tapeviz.engine import dtypes

    return dtypes.float32
