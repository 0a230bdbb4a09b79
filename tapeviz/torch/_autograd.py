"""PyTorch's autograd on the engine's tape: grad mode, graph nodes, ``backward`` and ``grad``.

An op on tensors that require grad runs its engine op with :data:`_REC` recording, and the
result keeps the records as its :class:`Node` (its ``grad_fn``), linked to its inputs' nodes as
torch links ``next_functions``. ``backward()`` gathers the nodes the output depends on, puts
their records in one engine :class:`~tapeviz.engine.tape.GradientTape` (so the run lists one
tape per backward pass, which the graph, the stepper and the timeline show) and asks that tape
for the gradients: the one backward walk of the engine, as for TensorFlow code.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Iterator, Sequence
from types import MethodType
from typing import TYPE_CHECKING, Any

import numpy as np

from tapeviz.engine import core
from tapeviz.engine.core import OpRecord, Recorder
from tapeviz.engine.tape import GradientTape
from tapeviz.engine.tensor import Tensor as _ETensor
from tapeviz.tf import run_state

if TYPE_CHECKING:
    pass

_seq = itertools.count(1)


class _Mode(threading.local):
    def __init__(self) -> None:
        self.enabled = True  # torch.is_grad_enabled()


GRAD = _Mode()
# Called at every backward() with (outputs, the pass's tape) (nn._net_view registers one).
BACKWARD_NOTES: list[Callable[[list[Any], GradientTape], None]] = []
run_state.register_attributes("tapeviz.torch.grad_mode", GRAD, lambda: {"enabled": True})


class _OpRecorder(Recorder):
    """Records one torch op's engine records (one per thread, reused while it is not active)."""

    for_gradients = True

    def __init__(self) -> None:
        super().__init__(watch_accessed_variables=False)
        self.busy = False


class _Spare(threading.local):
    def __init__(self) -> None:
        self.recorder = _OpRecorder()


_SPARE = _Spare()


class Node:
    """A ``grad_fn``: the records of one op and the nodes of its inputs that require grad."""

    __slots__ = ("_freed", "_gradient", "_holes", "_name", "_next", "_records", "_seq", "metadata")

    def __init__(
        self,
        name: str,
        records: Sequence[OpRecord],
        nexts: tuple[tuple[Any, ...], ...],
        holes: tuple[int, ...] = (),
    ) -> None:
        self._name = name
        self._holes = holes  # the places of tensor inputs that need no grad (torch: (None, 0))
        self._gradient = False  # the recorded ops of a create_graph=True gradient
        self._records = tuple(records)
        # per input needing grad: (tensor, its node then, its version then, its engine id then)
        self._next = nexts
        self._seq = next(_seq)  # creation order: a topological order of the graph
        self._freed = False
        self.metadata: dict[str, Any] = {}

    def name(self) -> str:
        """The backward function's name (``MulBackward0``)."""
        return self._name

    @property
    def next_functions(self) -> tuple[tuple[Any, int], ...]:
        """The input nodes (``AccumulateGrad`` for leaves, None: no grad), as torch lists them."""
        out: list[tuple[Any, int]] = [
            (n if n is not None else AccumulateGrad(t), 0) for t, n, _, _ in self._next
        ]
        for i in self._holes:
            out.insert(i, (None, 0))
        return tuple(out)

    def __repr__(self) -> str:
        return f"<{self._name} object at {id(self):#x}>"

    def __call__(self, *args: Any) -> Any:
        raise RuntimeError(
            f"calling {self._name} directly is not supported in tapeviz: use backward() or "
            "torch.autograd.grad()"
        )


class AccumulateGrad:
    """The node that adds a leaf's gradient into its ``.grad``."""

    __slots__ = ("variable",)

    def __init__(self, variable: Any) -> None:
        self.variable = variable

    def name(self) -> str:
        """``AccumulateGrad``."""
        return "torch::autograd::AccumulateGrad"

    @property
    def next_functions(self) -> tuple[Any, ...]:
        """A leaf's node has no inputs."""
        return ()

    def __repr__(self) -> str:
        return f"<AccumulateGrad object at {id(self):#x}>"


def record(
    name: str, inputs: Sequence[Any], fn: Callable[..., Any], *args: Any, **kwargs: Any
) -> tuple[Any, Node | None]:
    """Run engine ``fn(*args)``; if grad mode is on and an input needs grad, its node too."""
    if not GRAD.enabled:
        return fn(*args, **kwargs), None
    nexts = tuple([(t, t._fn, t._c.version, t._c.t.id) for t in inputs if t._rg])
    if not nexts:
        return fn(*args, **kwargs), None
    holes = tuple(i for i, t in enumerate(inputs) if not t._rg)
    rec = _SPARE.recorder
    if rec.busy:  # an op inside an op (rare): a recorder of its own
        rec = _OpRecorder()
    rec.busy = True
    rec.records = []
    rec._tracked = {n[3]: None for n in nexts}
    core.push(rec)
    try:
        out = fn(*args, **kwargs)
    finally:
        core.pop(rec)
        rec.busy = False
    return out, Node(name, rec.records, nexts, holes)


# -- the backward pass -----------------------------------------------------------------------


_SECOND_TIME = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you "
    "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
    "through the graph a second time or if you need to access saved tensors after calling "
    "backward."
)
# Backward functions that save no tensor: torch can walk them again after freeing the graph.
_SAVES_NOTHING = frozenset(
    "AddBackward0 SubBackward0 NegBackward0 SumBackward0 SumBackward1 MeanBackward0 "
    "MeanBackward1 ViewBackward0 ReshapeAliasBackward0 UnsqueezeBackward0 SqueezeBackward0 "
    "SqueezeBackward1 TBackward0 TransposeBackward0 PermuteBackward0 ExpandBackward0 "
    "CloneBackward0 SliceBackward0 SelectBackward0 CatBackward0 StackBackward0 "
    "ToCopyBackward0 AliasBackward0 UnbindBackward0 SplitBackward0".split()
)


class Graph:
    """The nodes an output depends on (topological order), its leaves and retained tensors."""

    def __init__(self, roots: Sequence[Any]) -> None:
        nodes: dict[int, Node] = {}
        leaves: dict[int, Any] = {}  # engine id -> leaf tensor
        inner: dict[int, tuple[Any, Node]] = {}  # engine id -> (non-leaf tensor, its node)
        stack: list[Node] = [t._fn for t in roots if t._fn is not None]
        for t in roots:
            if t._fn is None and t._rg:
                leaves[t._t.id] = t
            elif t._fn is not None:
                inner.setdefault(t._t.id, (t, t._fn))
        while stack:
            node = stack.pop()
            if id(node) in nodes:
                continue
            nodes[id(node)] = node
            for t, n, version, eid in node._next:
                if n is None:
                    leaves.setdefault(eid, t)
                else:
                    inner.setdefault(eid, (t, n))
                    stack.append(n)
                if t._version != version and node._name not in _SAVES_NOTHING:
                    raise RuntimeError(_modified(t, node, version))
        self.nodes = sorted(nodes.values(), key=lambda n: n._seq)
        # leaves in the order the forward pass first read them, then as they were made (a
        # Linear's weight before its bias): the order the timeline and the stepper list them
        first: dict[int, int] = {}
        for node in reversed(self.nodes):
            for _, n, _, eid in node._next:
                if n is None:
                    first[eid] = node._seq
        self.leaves = dict(sorted(leaves.items(), key=lambda kv: (first.get(kv[0], -1), kv[0])))
        self.inner = inner

    def records(self) -> tuple[list[OpRecord], list[str | None]]:
        """Every node's records in recording order, numbered for one tape, and their labels.

        A node's last record is labelled with the node's ``grad_fn`` name (``MulBackward0``);
        the records before it (an op torch runs as one kernel, such as ``addmm``) are not.
        """
        out: list[OpRecord] = []
        labels: list[str | None] = []
        new = tuple.__new__
        for node in self.nodes:
            recs = node._records
            for r in recs:
                out.append(new(OpRecord, (len(out), *r[1:])))
                labels.append(None)
            if recs:
                labels[-1] = node._name
        return out, labels

    def check_alive(self) -> None:
        """Raise torch's error if a freed node that saved tensors is walked again."""
        for node in self.nodes:
            if node._freed and node._name not in _SAVES_NOTHING:
                raise RuntimeError(_SECOND_TIME)

    def free(self) -> None:
        """Mark the nodes freed (``retain_graph=False``)."""
        for node in self.nodes:
            node._freed = True


def _modified(t: Any, node: Node, version: int) -> str:
    from tapeviz.torch._size import type_name

    shape = list(t._t._value.shape)
    made_by = "" if t._fn is None else f", which is output 0 of {t._fn._name},"
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [{type_name(t)} {shape}]{made_by} is at version {t._version}; expected "
        f"version {version} instead. Hint: enable anomaly detection to find the operation that "
        "failed to compute its gradient, with torch.autograd.set_detect_anomaly(True)."
    )


def gradients(
    outputs: Sequence[Any],
    grad_outputs: Sequence[Any | None],
    inputs: Sequence[Any] | None,
    retain_graph: bool,
    create_graph: bool,
    accumulate: bool = False,
) -> tuple[list[Any], list[_ETensor | None], Node | None]:
    """d(outputs)/d(inputs) on one new engine tape: the inputs, the gradients, their node.

    ``inputs`` None: every leaf the outputs depend on and every tensor that retains its grad
    (``backward()``). With ``create_graph`` the gradients' own ops are recorded and returned as
    one node, so the gradients can be differentiated again. ``accumulate`` (``backward()``):
    the tape keeps the ``.grad`` each input had before (``tape.grad_before``, by engine id), so
    the stepper can show the pass being added to it.
    """
    graph = Graph(outputs)
    graph.check_alive()
    if inputs is None:
        inputs = [*graph.leaves.values(), *(t for t, _ in graph.inner.values() if t._retains)]
    tape = GradientTape()
    tape.records, labels = graph.records()
    tape.op_labels = labels  # type: ignore[attr-defined]  # the framework's names, per record
    tracked = tape._tracked
    for i in graph.leaves:
        tracked[i] = None
    for r in tape.records:
        if r.watched:
            for o in r.outputs:
                tracked[o.id] = None
    for i, t in graph.leaves.items():
        tape._watched[i] = t._as_variable()
    tape._alive = True
    tape.grad_hooks = _grad_hooks(graph, tape)
    if accumulate:
        for note in BACKWARD_NOTES:  # (the Network view's description of the model)
            note(list(outputs), tape)
    targets = [t._t for t in outputs]
    seeds = _seeds([None if g is None else g._t for g in grad_outputs])
    sources = [t._t for t in inputs]
    node = None
    if not create_graph:
        results = tape.gradient(targets, sources, output_gradients=seeds)
    else:
        rec = _OpRecorder()
        rec._tracked = dict(tracked)
        core.push(rec)
        try:
            results = tape.gradient(targets, sources, output_gradients=seeds)
        finally:
            core.pop(rec)
        nexts = tuple((t, None, t._version, i) for i, t in graph.leaves.items())
        nexts += tuple((t, n, t._version, i) for i, (t, n) in graph.inner.items())
        if rec.records:
            node = Node(_gradient_name(rec.records, results), rec.records, nexts)
            node._gradient = True
    if not retain_graph:
        graph.free()
    if accumulate:
        before = {t._t.id: np.array(t._grad._t._value) for t, g in zip(inputs, results, strict=True)
                  if g is not None and t._grad is not None}  # fmt: skip
        if before:
            tape.grad_before = before  # type: ignore[attr-defined]
    return list(inputs), list(results), node


def _grad_hooks(graph: Graph, tape: GradientTape) -> dict[int, Any] | None:
    """The graph's tensors' ``register_hook`` functions as the walk's hooks (engine id).

    Each runs the tensor's hooks in order on its complete gradient and notes the result in
    ``tape.hooked`` (engine id -> array), which the window's walk gives back in their place.
    """
    found = [(i, t) for i, t in graph.leaves.items()]
    found += [(i, t) for i, (t, _) in graph.inner.items()]
    hooks = {i: t._hook_runner(i, tape) for i, t in found if getattr(t, "_hooks", None)}
    return hooks or None


# torch's grad_fn name for the engine op that made a create_graph gradient (its last op)
_TORCH_NAMES = {
    "multiply": "MulBackward0", "add": "AddBackward0", "subtract": "SubBackward0",
    "negative": "NegBackward0", "divide": "DivBackward0", "pow": "PowBackward0",
    "square": "PowBackward0", "sqrt": "SqrtBackward0", "exp": "ExpBackward0",
    "log": "LogBackward0", "sin": "SinBackward0", "cos": "CosBackward0",
    "tanh": "TanhBackward0", "sigmoid": "SigmoidBackward0", "relu": "ReluBackward0",
    "where": "WhereBackward0", "matmul": "MmBackward0", "reduce_sum": "SumBackward1",
    "reduce_mean": "MeanBackward1", "reshape": "ViewBackward0", "transpose": "TBackward0",
    "broadcast_to": "ExpandBackward0",
}  # fmt: skip


def _gradient_name(records: Sequence[OpRecord], results: Sequence[Any]) -> str:
    """``MulBackward0`` when the (first) gradient's last op was a multiply, as torch names it."""
    first = next((r for r in results if r is not None), None)
    if first is not None:
        for r in reversed(records):
            if any(o.id == first.id for o in r.outputs):
                return _TORCH_NAMES.get(r.primitive.name, "GradientBackward")
    return "GradientBackward"


def _seeds(seeds: list[Any]) -> list[Any] | None:
    return None if all(s is None for s in seeds) else seeds


class no_grad:  # noqa: N801
    """Context manager and decorator: ops in it record no graph."""

    _value = False

    def __init__(self, *args: Any) -> None:
        self._saved: list[bool] = []
        self._func = args[0] if args and callable(args[0]) else None
        if self._func is not None:
            self._named(self._func)

    def __enter__(self) -> None:
        self._saved.append(GRAD.enabled)
        GRAD.enabled = self._value

    def __exit__(self, *exc: object) -> bool:
        GRAD.enabled = self._saved.pop()
        return False

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._func is None and len(args) == 1 and callable(args[0]) and not kwargs:
            made = object.__new__(type(self))  # ``@torch.no_grad()``: the function, in this mode
            made.__dict__.update(self.__dict__)
            made._saved, made._func = [], args[0]
            made._named(args[0])
            return made
        if self._func is not None:
            with self.clone():  # a fresh manager per call, as torch's decorators make
                return self._func(*args, **kwargs)
        raise TypeError(f"{type(self).__name__} takes a function to decorate")

    def _named(self, func: Any) -> None:
        """Carry the decorated function's name and doc (as ``functools.wraps``)."""
        self.__name__ = getattr(func, "__name__", type(self).__name__)
        self.__qualname__ = getattr(func, "__qualname__", self.__name__)
        self.__doc__ = getattr(func, "__doc__", None)

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        """A decorated method binds ``self`` as a function does (``@torch.no_grad()`` on it)."""
        if instance is None or self._func is None:
            return self
        return MethodType(self, instance)

    def clone(self) -> no_grad:
        """A new context manager of the same kind."""
        return type(self)()


class enable_grad(no_grad):  # noqa: N801
    """Context manager and decorator: ops in it record a graph again."""

    _value = True


class inference_mode(no_grad):  # noqa: N801
    """As ``no_grad`` (tapeviz keeps no separate inference tensors)."""

    def __init__(self, mode: bool = True) -> None:
        super().__init__()
        self._value = not mode

    def clone(self) -> inference_mode:
        """A new context manager of the same mode."""
        return type(self)(not self._value)


class set_grad_enabled(no_grad):  # noqa: N801
    """Turn grad mode on or off: now (as a function) or for a ``with`` block."""

    def __init__(self, mode: bool) -> None:
        super().__init__()
        self._value = bool(mode)
        self._before = GRAD.enabled
        GRAD.enabled = self._value

    def __enter__(self) -> None:
        self._saved.append(self._before)
        GRAD.enabled = self._value

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._func is None and len(args) == 1 and callable(args[0]) and not kwargs:
            GRAD.enabled = self._before  # as torch: decorating does not change the mode
        return super().__call__(*args, **kwargs)

    def clone(self) -> set_grad_enabled:
        """A new manager of the same mode (made now: it records the mode to restore)."""
        return type(self)(self._value)


def is_grad_enabled() -> bool:
    """Whether ops record a graph now."""
    return GRAD.enabled


def walk(node: Node) -> Iterator[Node]:
    """``node`` and every node it depends on (for tests and the Help)."""
    seen: dict[int, None] = {}
    stack = [node]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen[id(n)] = None
        yield n
        stack.extend(m for _, m, _, _ in n._next if m is not None)
