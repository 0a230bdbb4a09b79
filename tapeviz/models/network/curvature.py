"""λmax of the training loss's Hessian: power iteration on Hessian-vector products (no Qt).

A Hessian-vector product is two nested engine tapes: the inner one records the full-training-set
loss (data + regularisation, the ops training records) and gives the gradient g while the outer
one records that backward pass; the outer tape's gradient of ``Σ g·v`` is ``H·v``. No dense
Hessian is built, so the cost is a few forward/backward passes per product whatever the size of
the network. The products run in float64 on the trainer's float32 inputs and weights (the same
function, evaluated more precisely), from a deterministic start vector.

``lr > 2/λmax`` is where gradient descent on the local quadratic diverges: the Network view marks
``2/λmax`` on its learning-rate control and explains a divergence with it.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from tapeviz.engine import ops
from tapeviz.engine.dtypes import float64
from tapeviz.engine.tape import GradientTape
from tapeviz.engine.tensor import constant
from tapeviz.models.network.trainer import Trainer

START_SEED = 0  # the start vector: standard normal from this seed, normalised


def hessian_vector_product(
    trainer: Trainer, v: np.ndarray, flat: np.ndarray | None = None
) -> np.ndarray:
    """``H·v`` for the full-training-set loss at ``flat`` (default: the current weights)."""
    spec = trainer.spec
    weights = trainer.flat if flat is None else flat
    feats, y = trainer.arrays("train")
    x_t, y_t = constant(feats.astype(np.float64)), constant(y.astype(np.float64))
    variables = spec.variables(np.asarray(weights, dtype=np.float64), dtype=float64)
    parts = spec.layout.views(np.asarray(v, dtype=np.float64))
    with GradientTape() as outer:
        with GradientTape() as inner:
            loss = spec.taped_loss(variables, x_t, y_t)
        grads = inner.gradient(loss, variables)
        total = None
        for g, p in zip(grads, parts, strict=True):
            if g is None:
                continue
            term = ops.reduce_sum(ops.multiply(g, constant(p)))
            total = term if total is None else ops.add(total, term)
    if total is None:
        return np.zeros(spec.layout.size)
    hv = outer.gradient(total, variables)
    return np.concatenate(
        [
            np.zeros(int(np.prod(s))) if h is None else np.asarray(h._value, np.float64).ravel()
            for h, s in zip(hv, spec.layout.shapes, strict=True)
        ]
    )


def lambda_max(
    trainer: Trainer,
    iterations: int = 30,
    tol: float = 1e-3,
    between: Callable[[], None] | None = None,
) -> float:
    """The largest |eigenvalue| of the loss Hessian at the current weights (power iteration).

    Each iteration sets ``v ← Hv/‖Hv‖`` and estimates ``|λ|`` as ``‖Hv‖`` (v of unit length),
    which converges to the largest magnitude even when ±λ are both eigenvalues; it stops when two
    estimates agree within ``tol`` (relative) or after ``iterations``. nan if the loss or the
    weights are not finite; 0 for a loss with no curvature. ``between`` is called before each
    iteration (a training thread lets the window draw there).
    """
    n = trainer.spec.layout.size
    if not np.isfinite(trainer.flat).all():
        return math.nan
    v = np.random.default_rng(START_SEED).standard_normal(n)
    v /= np.linalg.norm(v)
    lam = math.nan
    for _ in range(max(1, int(iterations))):
        if between is not None:
            between()
        hv = hessian_vector_product(trainer, v)
        norm = float(np.linalg.norm(hv))
        if not math.isfinite(norm):
            return math.nan
        if norm == 0.0:
            return 0.0
        done = math.isfinite(lam) and abs(norm - lam) <= tol * norm
        lam, v = norm, hv / norm
        if done:
            break
    return lam
