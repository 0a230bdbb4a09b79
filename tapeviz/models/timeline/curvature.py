"""The Hessian of a recorded loss, from the tape's own records (the script is not run again).

The recorded ops that depend on the parameters are bound again with the engine's primitives
(``core.bind``: the same numpy forward, the same VJP rules) on fresh variables, under two nested
tapes: the inner one gives the gradient, the outer one its Jacobian. Every other op keeps its
recorded value. This is what :func:`tapeviz.models.descent.divergence.curvature` needs for the
λmax in "lr > 2/λmax".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tapeviz.engine import core, diagnostics, ops
from tapeviz.engine.core import OpRecord
from tapeviz.engine.errors import EngineError
from tapeviz.engine.tape import GradientTape
from tapeviz.engine.tensor import TensorLike, Variable

MAX_HESSIAN = 64  # parameters (scalars) for a dense Hessian, as in the studio


def replay(records: Sequence[OpRecord], env: dict[int, Any]) -> dict[int, Any]:
    """Bind again every record that reads a tensor of ``env`` (tensor id -> new tensor)."""
    for rec in records:
        if not any(x.id in env for x in rec.inputs):
            continue
        args = [env.get(x.id, x) for x in rec.inputs]
        env[rec.outputs[0].id] = core.bind(rec.primitive, *args, **dict(rec.params))
    return env


def _blocks(rows: Sequence[Sequence[Any]], sizes: Sequence[int]) -> np.ndarray:
    n = sum(sizes)
    out = np.zeros((n, n))
    starts = np.concatenate([[0], np.cumsum(sizes)]).astype(int)
    for i, row in enumerate(rows):
        for j, block in enumerate(row):
            if block is not None:
                value = block._value if isinstance(block, TensorLike) else block
                out[starts[i] : starts[i + 1], starts[j] : starts[j + 1]] = np.reshape(
                    np.asarray(value, np.float64), (sizes[i], sizes[j])
                )
    return out


def hessian_of(
    records: Sequence[OpRecord], target_ids: Sequence[int], param_ids: Sequence[int]
) -> Callable[[Sequence[Any]], np.ndarray | None]:
    """``hessian(values)``: d²(sum of the targets)/d(params)² at ``values`` (None: too big)."""

    def hessian(values: Sequence[Any]) -> np.ndarray | None:
        sizes = [int(np.size(v)) for v in values]
        if not sizes or sum(sizes) > MAX_HESSIAN:
            return None
        try:
            with np.errstate(all="ignore"), diagnostics.collect(lambda _: None):
                variables = [Variable(np.asarray(v)) for v in values]
                with GradientTape(persistent=True) as outer:
                    with GradientTape() as inner:
                        env = replay(records, dict(zip(param_ids, variables, strict=True)))
                        parts = [env[t] for t in target_ids if t in env]
                        if len(parts) != len(target_ids):
                            return None  # a target that no parameter reaches
                        loss = ops.reduce_sum(parts[0])
                        for p in parts[1:]:
                            loss = ops.add(loss, ops.reduce_sum(p))
                    grads = inner.gradient(loss, variables)
                rows = [
                    outer.jacobian(g, variables) if g is not None else [None] * len(variables)
                    for g in grads
                ]
        except (EngineError, ValueError, TypeError, ArithmeticError):
            return None
        return _blocks(rows, sizes)

    return hessian
