"""The backward pass as a sequence of steps: gradient() and the visual stepper both walk it."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from tapeviz.engine.core import OpRecord
from tapeviz.engine.guard import checkpoint
from tapeviz.engine.tensor import Tensor, TensorLike, freeze
from tapeviz.engine.vjp_rules import VJP, Variadic


class Contribution(NamedTuple):
    """What one step adds to one input's adjoint: ``after = before + value``."""

    position: int  # which input of the op
    tensor_id: int
    value: Any  # the input's share of the gradient (numpy value, or Tensor when taping)
    before: Any  # the adjoint before this contribution (None: first contribution)
    after: Any  # the adjoint after it


class BackwardStep(NamedTuple):
    """One op processed by the backward pass, in reverse recording order."""

    index: int  # 0 for the first op processed (the one nearest the target)
    record: OpRecord
    output_grad: Any  # adjoint of the op's output when the step runs
    contributions: tuple[Contribution, ...]


def relevant_records(
    records: Sequence[OpRecord], source_ids: Sequence[int]
) -> tuple[list[OpRecord], dict[int, None]]:
    """Watched, differentiable records through which a source reaches an output, in order.

    Also returns the ids of every tensor a source reaches (the sources included).
    """
    reach: dict[int, None] = dict.fromkeys(source_ids)
    out: list[OpRecord] = []
    for rec in records:
        if not rec.watched:
            continue
        rules = VJP[rec.primitive]
        if rules is None:
            continue
        variadic = type(rules) is Variadic
        for i, x in enumerate(rec.inputs):
            if x.id in reach and (variadic or (i < len(rules) and rules[i] is not None)):
                for o in rec.outputs:
                    reach[o.id] = None
                out.append(rec)
                break
    return out, reach


class BackwardPass:
    """The backward pass over some records: iterate it for one :class:`BackwardStep` per op.

    ``seeds`` maps target tensor ids to their initial adjoints (raw numpy values, or Tensors when
    ``taping``: then every rule runs on Tensors and is recorded by the enclosing tapes).
    ``records`` lists the ops that will be stepped (in recording order) before iteration starts;
    ``adjoints`` holds every adjoint accumulated so far, so it is final once iteration ends.
    """

    def __init__(
        self,
        records: Sequence[OpRecord],
        seeds: Mapping[int, Any],
        source_ids: Sequence[int],
        taping: bool = False,
    ) -> None:
        self.records, self._reach = relevant_records(records, source_ids)
        self.source_ids = tuple(source_ids)
        self.adjoints: dict[int, Any] = dict(seeds)
        self.taping = taping

    def __iter__(self) -> Iterator[BackwardStep]:
        return self._steps()

    def _steps(self) -> Iterator[BackwardStep]:
        reach, adj, taping = self._reach, self.adjoints, self.taping
        new = tuple.__new__
        index = 0
        for rec in reversed(self.records):
            g = adj.get(rec.outputs[0].id)
            if g is None:
                continue
            rules = VJP[rec.primitive]
            variadic = type(rules) is Variadic
            inputs = rec.inputs
            if taping:
                ans: Any = rec.outputs[0]
                args: Any = inputs
            else:
                ans = rec.outputs[0]._value
                args = (
                    (inputs[0]._value, inputs[1]._value)
                    if len(inputs) == 2
                    else tuple([x._value for x in inputs])
                )
            params = rec.params
            contribs = []
            for i, x in enumerate(inputs):
                xid = x.id
                if xid not in reach:
                    continue
                rule = rules[i] if variadic or i < len(rules) else None  # type: ignore[index, arg-type]
                if rule is None:
                    continue
                c = rule(g, ans, *args, **params) if params else rule(g, ans, *args)
                if c is None:
                    continue
                before = adj.get(xid)
                after = c if before is None else before + c
                adj[xid] = after
                contribs.append(new(Contribution, (i, xid, c, before, after)))
            yield new(BackwardStep, (index, rec, g, tuple(contribs)))
            index += 1
            if not index & 1023:
                checkpoint()


def backward_steps(
    records: Sequence[OpRecord],
    seeds: Mapping[int, Any],
    source_ids: Sequence[int],
    taping: bool = False,
) -> BackwardPass:
    """The backward pass from the seeded adjoints: iterate it for one step per op."""
    return BackwardPass(records, seeds, source_ids, taping)


def run_backward(
    records: Sequence[OpRecord],
    seeds: Mapping[int, Any],
    source_ids: Sequence[int],
    taping: bool = False,
) -> dict[int, Any]:
    """Run the backward pass to the end; return the final adjoint of every source reached."""
    bp = BackwardPass(records, seeds, source_ids, taping)
    deque(bp, maxlen=0)
    final = bp.adjoints
    return {sid: final[sid] for sid in source_ids if sid in final}


def as_tensor_result(value: Any, like: TensorLike) -> Tensor:
    """Wrap a raw adjoint as a Tensor with the source's dtype (Tensors pass through)."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, np.generic) and value.dtype == like.dtype.np:
        return Tensor(value, like.dtype)
    arr = np.asarray(value, dtype=like.dtype.np)
    return Tensor(freeze(arr.copy() if arr.base is not None else arr), like.dtype)
