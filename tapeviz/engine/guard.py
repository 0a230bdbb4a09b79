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
    special = _SPECIAL.get(prim)
    if special is not None:
        special(shapes, params)
        return
    if prim in (P.broadcast_to_p, P.scatter_p, P.scatter_add_p):
        check_elements(shape_size(params["shape"]), prim.name)
    elif prim in (P.stack_p, P.concat_p):
        check_elements(sum(shape_size(s) for s in shapes), prim.name)
    elif len(shapes) > 1:
        try:
            check_elements(shape_size(np.broadcast_shapes(*shapes)), prim.name)
        except ValueError:
            return


def _flops(count: int, what: str) -> None:
    if GUARD.max_flops is not None and count > GUARD.max_flops:
        raise ResourceLimitError(
            f"{what} would take {count:,} multiply-adds, more than the limit of "
            f"{GUARD.max_flops:,}",
            what,
            "tensor size",
        )


def _pad_size(shapes: list[tuple[int, ...]], params: dict[str, Any]) -> None:
    pads = params["paddings"]
    if len(pads) == len(shapes[0]):
        check_elements(
            shape_size([d + lo + hi for d, (lo, hi) in zip(shapes[0], pads, strict=False)]), "pad"
        )


def _tile_size(shapes: list[tuple[int, ...]], params: dict[str, Any]) -> None:
    reps = params["multiples"]
    check_elements(shape_size([d * m for d, m in zip(shapes[0], reps, strict=False)]), "tile")


def _diag_size(shapes: list[tuple[int, ...]], params: dict[str, Any]) -> None:
    if shapes[0]:
        check_elements(shape_size(shapes[0]) * shapes[0][-1], "diag")


def _gather_size(shapes: list[tuple[int, ...]], params: dict[str, Any]) -> None:
    p, idx, axis = shapes[0], shapes[1], params["axis"]
    check_elements(shape_size(p[:axis]) * shape_size(idx) * shape_size(p[axis + 1 :]), "gather")


def _einsum_size(shapes: list[tuple[int, ...]], params: dict[str, Any]) -> None:
    lhs, out = params["equation"].split("->")
    sizes: dict[str, int] = {}
    for subs, shape in zip(lhs.split(","), shapes, strict=False):
        for c, d in zip(subs, shape, strict=False):
            sizes[c] = max(sizes.get(c, 1), int(d))
    check_elements(shape_size([sizes.get(c, 1) for c in out]), "einsum")
    _flops(shape_size(list(sizes.values())), "einsum")


def _cubic(shapes: list[tuple[int, ...]], params: dict[str, Any]) -> None:
    a = shapes[0]
    if len(a) >= 2:
        n = int(a[-1])
        k = int(shapes[1][-1]) if len(shapes) > 1 and shapes[1] else 0
        _flops(shape_size(a[:-2]) * n * n * (n + k), "a matrix factorization")


def _no_broadcast(shapes: list[tuple[int, ...]], params: dict[str, Any]) -> None:
    """Ops whose inputs do not broadcast against each other: the result is no larger."""


_SPECIAL: dict[Primitive, Callable[[list[tuple[int, ...]], dict[str, Any]], None]] = {
    P.pad_p: _pad_size,
    P.tile_p: _tile_size,
    P.diag_p: _diag_size,
    P.gather_p: _gather_size,
    P.einsum_p: _einsum_size,
    P.solve_p: _cubic,
    P.inv_p: _cubic,
    P.det_p: _cubic,
    P.softmax_cross_entropy_p: _no_broadcast,
    P.sparse_softmax_cross_entropy_p: _no_broadcast,
}


def register_precheck(prim: Primitive, check: Callable[..., None]) -> None:
    """Size ``prim``'s result from its operands' shapes with ``check`` (other modules' ops)."""
    _SPECIAL[prim] = check
