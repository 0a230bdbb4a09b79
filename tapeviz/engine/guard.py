"""Optional per-thread limits on tensor sizes, so a sandboxed script cannot exhaust memory.

Off by default (plain ``import tapeviz`` has no limits); the sandbox turns them on around a run.
Sizes are estimated *before* numpy allocates anything, from the operands' shapes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tapeviz.engine import primitives as P
from tapeviz.engine.errors import EngineError
from tapeviz.engine.primitives import Primitive
from tapeviz.engine.scoped import Assigned


class ResourceLimitError(EngineError):
    """An op would exceed a resource limit (``limit`` names which one).

    ``what`` went over: ``count`` elements (``measure`` "elements") or multiply-adds ("work")
    against the limit ``cap``, so the sandbox can word it in the user's language.
    """

    def __init__(
        self,
        message: str,
        op: str | None,
        limit: str,
        what: str = "",
        count: int | None = None,
        cap: int | None = None,
        measure: str = "elements",
    ) -> None:
        super().__init__(message, op)
        self.limit = limit
        self.what, self.count, self.cap, self.measure = what, count, cap, measure


class _Guard(threading.local):
    max_elements: int | None = None
    max_flops: int | None = None
    checkpoint: Callable[[], None] | None = None  # called from long engine loops (sandbox)


GUARD = _Guard()


def size_limits(max_elements: int | None, max_flops: int | None = None) -> Assigned:
    """Refuse, on this thread, results over ``max_elements`` (and matmuls over ``max_flops``)."""
    return Assigned(GUARD, max_elements=max_elements, max_flops=max_flops)


def checkpoints(callback: Callable[[], None] | None) -> Assigned:
    """Have long engine loops on this thread call ``callback`` (it may raise to stop them)."""
    return Assigned(GUARD, checkpoint=callback)


def checkpoint() -> None:
    """Let a sandbox check its time limit and cancellation inside a long engine loop."""
    callback = GUARD.checkpoint
    if callback is not None:
        callback()


def check_elements(count: int, what: str) -> None:
    """Raise ResourceLimitError if ``count`` elements exceed the active limit."""
    limit = GUARD.max_elements
    if limit is not None and count >= 1_000_000:
        checkpoint()  # a big allocation: let the sandbox check its memory and time budgets
    if limit is not None and count > limit:
        raise ResourceLimitError(
            f"{what} would have {count:,} elements, more than the tensor size limit of {limit:,}",
            what,
            "tensor size",
            what,
            count,
            limit,
        )


def shape_size(shape: Sequence[Any]) -> int:
    """Number of elements of ``shape`` as a Python int (no overflow)."""
    n = 1
    for d in shape:
        n *= max(int(d), 0)
    return n


def precheck(prim: Primitive, values: Sequence[Any], params: dict[str, Any]) -> None:
    """Estimate the size of ``prim``'s result from its operands' shapes; refuse if too large."""
    shapes = [np.shape(v) for v in values]
    if prim is P.matmul_p:
        if len(shapes[0]) >= 2 and len(shapes[1]) >= 2:
            a, b = shapes
            n = a[-1] if params.get("transpose_a") else a[-2]
            k = a[-2] if params.get("transpose_a") else a[-1]
            m = b[-2] if params.get("transpose_b") else b[-1]
            try:
                batch = shape_size(np.broadcast_shapes(a[:-2], b[:-2]))
            except ValueError:
                return  # the op itself reports the mismatch
            check_elements(batch * n * m, "matmul")
            if GUARD.max_flops is not None and batch * n * m * k > GUARD.max_flops:
                work = batch * n * m * k
                raise ResourceLimitError(
                    f"matmul would take {work:,} multiply-adds, more than the "
                    f"limit of {GUARD.max_flops:,}",
                    "matmul",
                    "tensor size",
                    "matmul",
                    work,
                    GUARD.max_flops,
                    "work",
                )
        return
    if prim in (P.broadcast_to_p, P.scatter_p):
        check_elements(shape_size(params["shape"]), prim.name)
    elif prim in (P.stack_p, P.concat_p):
        check_elements(sum(shape_size(s) for s in shapes), prim.name)
    elif len(shapes) > 1:
        try:
            check_elements(shape_size(np.broadcast_shapes(*shapes)), prim.name)
        except ValueError:
            return
