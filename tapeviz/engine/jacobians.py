"""Jacobians from the backward pass: one walk per element of the target, rows stacked.

Inside an enclosing tape the rows are computed with recorded ops (so a Hessian is the Jacobian
of a gradient), and the stacking is recorded too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz.engine import core, ops
from tapeviz.engine.backward import as_tensor_result, run_backward
from tapeviz.engine.core import OpRecord
from tapeviz.engine.guard import check_elements, checkpoint
from tapeviz.engine.tensor import Tensor, TensorLike

__all__ = ["diagonal_blocks", "full_jacobians"]


def full_jacobians(
    records: list[OpRecord], target: TensorLike, flat: list[TensorLike], ids: list[int],
    tracked: dict[int, None],
) -> list[Any]:  # fmt: skip
    """D target / d source for each source: shape ``target.shape + source.shape`` (or None)."""
    taping = core.is_taping()
    n = int(np.size(target._value))
    rows: list[list[Any]] = [[] for _ in flat]
    connected = target.id in tracked and target.dtype.is_floating and ids
    for s in flat:
        check_elements(n * int(np.size(s._value)), "jacobian")
    for i in range(n if connected else 0):
        checkpoint()
        onehot = np.zeros(n, dtype=target.dtype.np)
        onehot[i] = 1
        seed: Any = onehot.reshape(np.shape(target._value))[()]
        if taping:
            seed = Tensor(seed, target.dtype)
        adj = run_backward(records, {target.id: seed}, ids, taping)
        for k, s in enumerate(flat):
            rows[k].append(adj.get(s.id))
    out: list[Any] = []
    for k, s in enumerate(flat):
        if not rows[k] or all(r is None for r in rows[k]):
            out.append(None)
            continue
        full = [r if r is not None else np.zeros_like(s._value) for r in rows[k]]
        shape = tuple(np.shape(target._value)) + tuple(np.shape(s._value))
        if taping:
            out.append(ops.reshape(ops.stack([as_tensor_result(r, s) for r in full]), shape))
        else:
            out.append(as_tensor_result(np.stack(full).reshape(shape), s))
    return out


def diagonal_blocks(full: Any, target: TensorLike, source: TensorLike) -> Any:
    """``batch_jacobian`` from the full Jacobian: the block of each example with itself."""
    b = target.shape[0]
    t_rest, s_rest = tuple(target.shape[1:]), tuple(source.shape[1:])
    flat = ops.reshape(full, (b, _prod(t_rest), b, _prod(s_rest)))
    rows = [flat[k, :, k, :] for k in range(b)]
    return ops.reshape(ops.stack(rows), (b, *t_rest, *s_rest))


def _prod(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n
