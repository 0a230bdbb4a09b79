"""The backward pass as a sequence of steps: gradient() and the visual stepper both walk it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import chain
from typing import Any, NamedTuple

import numpy as np

from tapeviz.engine.core import OpRecord
from tapeviz.engine.guard import checkpoint
from tapeviz.engine.records import _EMPTY, FLAT, Rows
from tapeviz.engine.tensor import Tensor, TensorLike, freeze
from tapeviz.engine.vjp_rules import VJP, Rule, Variadic


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


Path = tuple[int, int, Rule]  # (input position, input tensor id, the VJP rule for that input)
_POSITIONS = tuple(tuple(range(n)) for n in range(8))  # the input positions of an n-input op


def plan(
    records: Sequence[OpRecord], source_ids: Sequence[int]
) -> tuple[list[OpRecord], list[tuple[Path, ...]], dict[int, None]]:
    """Watched, differentiable records through which a source reaches an output, in order.

    Also returns, for each of them, its paths: the inputs that get a gradient (a source reaches
    them and they have a VJP rule); and the ids of every tensor a source reaches (the sources
    included).
    """
    reach: dict[int, None] = dict.fromkeys(source_ids)
    steps: list[OpRecord] = []
    paths: list[tuple[Path, ...]] = []
    for rec in records:
        if not rec.watched:
            continue
        rules = VJP[rec.primitive]
        if rules is None:
            continue
        found = []
        for i, x in enumerate(rec.inputs):
            if x.id in reach:
                rule = rules[i] if type(rules) is Variadic or i < len(rules) else None  # type: ignore[index, arg-type]
                if rule is not None:
                    found.append((i, x.id, rule))
        if found:
            for o in rec.outputs:
                reach[o.id] = None
            steps.append(rec)
            paths.append(tuple(found))
    return steps, paths, reach


def relevant_records(
    records: Sequence[OpRecord], source_ids: Sequence[int]
) -> tuple[list[OpRecord], dict[int, None]]:
    """The records of :func:`plan` and the ids of every tensor a source reaches."""
    steps, _, reach = plan(records, source_ids)
    return steps, reach


class BackwardPass:
    """The backward pass over some records: iterate it for one :class:`BackwardStep` per op.

    ``seeds`` maps target tensor ids to their initial adjoints (raw numpy values, or Tensors when
    ``taping``: then every rule runs on Tensors and is recorded by the enclosing tapes).
    ``records`` lists the ops that will be stepped (in recording order) before iteration starts.
    Given ``reach`` (a superset of the tensors the sources reach, see :func:`run_backward`), it
    is every record passed in and the walk skips those that get no adjoint; the stepper never
    passes ``reach``, so its steps are exactly the planned ones.
    ``adjoints`` holds every adjoint accumulated so far, so it is final once iteration ends.
    :meth:`run` walks the same steps without building the step objects (what gradient() uses).
    ``hooks`` (tensor id -> function of its adjoint, torch's ``register_hook``) replace a
    tensor's adjoint once it is complete: when the walk reaches the op that made it, or at the
    end for a source no walked op made. The adjoint that flows on is the function's result.
    """

    def __init__(
        self,
        records: Sequence[OpRecord],
        seeds: Mapping[int, Any],
        source_ids: Sequence[int],
        taping: bool = False,
        reach: Mapping[int, Any] | None = None,
        hooks: Mapping[int, Callable[[Any], Any]] | None = None,
    ) -> None:
        if reach is None:
            self.records, self._reach = relevant_records(records, source_ids)
        else:  # the caller's superset of the tensors the sources reach: no planning pass
            self.records, self._reach = records, reach
        self.source_ids = tuple(source_ids)
        self.adjoints: dict[int, Any] = dict(seeds)
        self.taping = taping
        self.hooks = hooks or None

    def __iter__(self) -> Iterator[BackwardStep]:
        return self._walk(detail=True)

    def run(self) -> dict[int, Any]:
        """Do every step without keeping BackwardStep objects; return the final adjoints."""
        for _ in self._walk(detail=False):  # yields nothing: the whole walk is one next()
            pass
        return self.adjoints

    def _walk(self, detail: bool) -> Iterator[BackwardStep]:
        """The walk itself; with ``detail`` it yields a BackwardStep per op, else nothing."""
        adj, taping, reach, hooks = self.adjoints, self.taping, self._reach, self.hooks
        get, vjp, new = adj.get, VJP, tuple.__new__
        index = 0
        contribs: list[Contribution] = []
        hooked: list[int] = []
        records = self.records
        if type(records) is Rows:  # ops kept as columns are read from them: no record made
            flat, empty = records._pending, _EMPTY
            ops: Iterable[Any] = chain(range(records._size - FLAT, -1, -FLAT),
                                       reversed(records._recs[: records._n]))  # fmt: skip
        else:
            ops = reversed(records)
        for op in ops:
            if type(op) is int:  # the first of an op's FLAT slots in the columns
                if not flat[op + 4]:  # (primitive, first input, second or None, output, watched)
                    continue
                out = flat[op + 3]
                g = get(out.id)
                if g is None:
                    continue
                rules = vjp[flat[op]]
                second = flat[op + 2]
                inputs = (flat[op + 1],) if second is None else (flat[op + 1], second)
                params = empty
            else:  # an OpRecord: (id, primitive, inputs, outputs, params, watched, scope)
                if not op[5]:
                    continue
                out = op[3][0]
                g = get(out.id)
                if g is None:
                    continue
                rules = vjp[op[1]]
                inputs, params = op[2], op[4]
            if rules is None:
                continue
            if hooks is not None and out.id in hooks:  # its adjoint is complete: hooks see it
                g = adj[out.id] = _hooked(hooks[out.id], g)
                hooked.append(out.id)
            n = len(inputs)
            # A fixed table has a rule (or None) for its first len(rules) inputs; a Variadic
            # rule covers every input.
            covered = n if type(rules) is Variadic else len(rules)  # type: ignore[arg-type]
            if taping:  # rules run on Tensors, so the enclosing tapes record them
                ans: Any = out
                args: Any = inputs
            else:
                ans = out._value
                if n == 2:
                    args = (inputs[0]._value, inputs[1]._value)
                elif n == 1:
                    args = (inputs[0]._value,)
                elif n == 3:
                    args = (inputs[0]._value, inputs[1]._value, inputs[2]._value)
                else:
                    args = tuple([x._value for x in inputs])
            for i in _POSITIONS[n] if n < 8 else range(n):  # no range object per record
                xid = inputs[i].id
                if xid not in reach or i >= covered:
                    continue
                rule = rules[i]  # type: ignore[index]
                if rule is None:
                    continue
                if params:
                    c = rule(g, ans, *args, **params)
                elif n == 2:  # the common cases, without building an argument tuple
                    c = rule(g, ans, args[0], args[1])
                elif n == 1:
                    c = rule(g, ans, args[0])
                elif n == 3:
                    c = rule(g, ans, args[0], args[1], args[2])
                else:
                    c = rule(g, ans, *args)
                if c is None:
                    continue
                before = get(xid)
                after = c if before is None else before + c
                adj[xid] = after
                if detail:
                    contribs.append(new(Contribution, (i, xid, c, before, after)))
            if detail:
                rec = records[op // FLAT + records._n] if type(op) is int else op  # type: ignore[union-attr]
                yield new(BackwardStep, (index, rec, g, tuple(contribs)))
                contribs = []
            index += 1
            if not index & 1023:
                checkpoint()
        if hooks is not None:  # sources no walked op made (leaves): their hooks come last
            for sid in self.source_ids:
                if sid in hooks and sid in adj and sid not in hooked:
                    adj[sid] = _hooked(hooks[sid], adj[sid])


def replayed(results: Mapping[int, Any] | None) -> dict[int, Callable[[Any], Any]] | None:
    """Hooks that give back what hooks gave when the pass first ran (tensor id -> value)."""
    if not results:
        return None
    return {i: (lambda _g, v=v: v) for i, v in results.items()}


def _hooked(hook: Callable[[Any], Any], g: Any) -> Any:
    """The adjoint a hook gives for ``g`` (None: ``g`` unchanged, as torch)."""
    out = hook(g)
    return g if out is None else out


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
    reach: Mapping[int, Any] | None = None,
    hooks: Mapping[int, Callable[[Any], Any]] | None = None,
) -> dict[int, Any]:
    """Run the backward pass to the end; return the final adjoint of every source reached.

    ``reach``, if given, is a superset of the tensors the sources reach (a tape's tracked
    tensors); the walk then skips the planning pass and gives the same source adjoints.
    """
    if not seeds:
        return {}
    final = BackwardPass(records, seeds, source_ids, taping, reach, hooks).run()
    if len(source_ids) == 1:  # the common call, without a comprehension
        sid = source_ids[0]
        return {sid: final[sid]} if sid in final else {}
    return {sid: final[sid] for sid in source_ids if sid in final}


def as_tensor_result(value: Any, like: TensorLike) -> Tensor:
    """Wrap a raw adjoint as a Tensor with the source's dtype (Tensors pass through)."""
    dtype = like.dtype
    kind = type(value)
    if kind is dtype.scalar:  # a numpy scalar of the source's dtype: wrap as it is
        return Tensor(value, dtype)
    if kind is np.ndarray and value.dtype is dtype.np and value.base is None and value.ndim:
        value.setflags(write=False)  # what the general path below does to such an array
        return Tensor(value, dtype)
    if isinstance(value, Tensor):
        return value
    arr = np.asarray(value, dtype=like.dtype.np)
    return Tensor(freeze(arr.copy() if arr.base is not None else arr), like.dtype)
