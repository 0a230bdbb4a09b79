"""Finite-difference checks of tape gradients, for the tests and the UI's "check gradient"."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tapeviz.engine.ops import multiply, reduce_sum
from tapeviz.engine.tape import GradientTape
from tapeviz.engine.tensor import Tensor, TensorLike, constant


def _value(t: Any) -> np.ndarray:
    return np.asarray(t._value if isinstance(t, TensorLike) else t, dtype=np.float64)


def numerical_gradient(
    f: Callable[..., Any], args: Sequence[Any], h: float = 1e-6
) -> list[np.ndarray]:
    """Central differences of ``sum(f(*args))`` with respect to each argument, in float64."""
    base = [np.array(_value(a), dtype=np.float64) for a in args]
    grads = []
    for k, a in enumerate(base):
        g = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            plus = [b.copy() for b in base]
            minus = [b.copy() for b in base]
            plus[k][idx] += h
            minus[k][idx] -= h
            fp = np.sum(_value(f(*[constant(p) for p in plus])))
            fm = np.sum(_value(f(*[constant(m) for m in minus])))
            g[idx] = (fp - fm) / (2 * h)
        grads.append(g)
    return grads


def tape_gradient(f: Callable[..., Any], args: Sequence[Any]) -> list[np.ndarray | None]:
    """The tape's gradient of ``sum(f(*args))`` with respect to each argument, in float64."""
    xs = [constant(_value(a)) for a in args]
    with GradientTape() as tape:
        tape.watch(xs)
        y = f(*xs)
    grads = tape.gradient(y, xs)
    return [None if g is None else _value(g) for g in grads]


def check_vjp(
    f: Callable[..., Tensor],
    args: Sequence[Any],
    rng: np.random.Generator | None = None,
    eps: float = 1e-6,
    rtol: float = 1e-5,
    atol: float = 1e-6,
) -> None:
    """Assert ⟨u, J·v⟩ from central differences equals ⟨VJP(u), v⟩ for random u, v (float64)."""
    rng = rng or np.random.default_rng(0)
    base = [_value(a) for a in args]
    xs = [constant(a) for a in base]
    with GradientTape() as tape:
        tape.watch(xs)
        y = f(*xs)
    u = rng.standard_normal(np.shape(y._value))
    grads = tape.gradient(y, xs, output_gradients=u)
    vs = [rng.standard_normal(np.shape(a)) for a in base]
    plus = _value(f(*[constant(a + eps * v) for a, v in zip(base, vs, strict=True)]))
    minus = _value(f(*[constant(a - eps * v) for a, v in zip(base, vs, strict=True)]))
    numeric = float(np.sum(u * (plus - minus)) / (2 * eps))
    analytic = float(
        sum(np.sum(_value(g) * v) for g, v in zip(grads, vs, strict=True) if g is not None)
    )
    if not np.isclose(analytic, numeric, rtol=rtol, atol=atol):
        raise AssertionError(
            f"gradient check failed: tape gives {analytic!r}, finite differences {numeric!r}"
        )


def check_grads(
    f: Callable[..., Tensor],
    *args: Any,
    order: int = 1,
    rng: np.random.Generator | None = None,
    rtol: float = 1e-5,
    atol: float = 1e-6,
) -> None:
    """Check the VJP of ``f`` at ``args`` and, for ``order`` > 1, the VJPs of its VJPs."""
    rng = rng or np.random.default_rng(0)
    check_vjp(f, args, rng, rtol=rtol, atol=atol)
    if order <= 1:
        return
    shapes = [np.shape(_value(a)) for a in args]
    out_shape = np.shape(_value(f(*[constant(_value(a)) for a in args])))
    u = constant(rng.standard_normal(out_shape))
    ws = [constant(rng.standard_normal(s)) for s in shapes]

    def projected_vjp(*xs: Tensor) -> Tensor:
        with GradientTape() as inner:
            inner.watch(list(xs))
            y = f(*xs)
        grads = inner.gradient(y, list(xs), output_gradients=u)
        total: Tensor = constant(0.0, dtype="float64")
        for g, w in zip(grads, ws, strict=True):
            if g is not None:
                total = total + reduce_sum(multiply(g, w))
        return total

    check_grads(projected_vjp, *args, order=order - 1, rng=rng, rtol=rtol, atol=atol)
