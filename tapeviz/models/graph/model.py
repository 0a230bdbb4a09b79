"""GraphModel: a tape's recorded ops as nodes and edges, with values and gradients (no Qt).

Node ids are derived from recording order (``s0``, ``s1`` for sources in order of first use,
``o0``, ``o1`` for ops in record order), so re-running the same code gives the same graph.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from tapeviz.engine.backward import BackwardPass
from tapeviz.engine.core import OpRecord, Recorder
from tapeviz.engine.tensor import VARIABLES, Tensor, TensorLike
from tapeviz.engine.vjp_rules import local_derivative
from tapeviz.models.events import Event
from tapeviz.models.values import short

SYMBOLS = {
    "add": "+", "subtract": "−", "multiply": "×", "divide": "÷", "negative": "−", "pow": "^",
    "matmul": "@", "square": "²", "sqrt": "√", "floordiv": "//", "mod": "%",
}  # fmt: skip
KINDS = ("variable", "watched", "constant", "op", "target", "folded")
TOO_LARGE = 5_000  # ops: more than this is not drawn in full unless folded (GraphOptions.max_ops)
FOLDED_OPS = 400  # ops kept (half at each end) in the folded view


@dataclass(frozen=True)
class Node:
    """One node: a source tensor (variable, watched constant, constant) or an op and its output."""

    id: str
    kind: str
    label: str  # the user's name when known, else the op ("multiply")
    symbol: str  # what the node shows big: "×", "sin", "x", "×2" (folded constant)
    tensor_id: int
    value: Any
    dtype: str
    op: str | None = None
    formula: str = ""
    record: int | None = None  # index of the op's record on the tape
    watched: bool = True  # the tape recorded it for gradients
    tapes: tuple[int, ...] = ()  # the model's tapes that recorded this op

    @property
    def shape(self) -> tuple[int, ...]:
        """Shape of the node's value."""
        return tuple(np.shape(self.value))

    @property
    def is_source(self) -> bool:
        """Whether the node is a tape input rather than an op."""
        return self.kind in ("variable", "watched", "constant")


@dataclass(frozen=True)
class Edge:
    """Input ``position`` of op ``target`` is the value of node ``source``."""

    source: str
    target: str
    position: int
    tensor_id: int


@dataclass(frozen=True)
class GraphOptions:
    """Display options: fold scalar constants into op labels, hide what no source reaches."""

    fold_constants: bool = False
    hide_unreached: bool = False
    max_ops: int | None = None  # fold the middle of longer tapes into one summary node


@dataclass
class TapeEntry:
    """A tape the model can show, with the name the user bound it to."""

    tape: Recorder
    name: str
    targets: tuple[int, ...] = ()  # tensor ids of gradient targets (from gradient calls)
    sources: tuple[int, ...] = field(default_factory=tuple)


def entries_from_tapes(tapes: Sequence[Any]) -> list[TapeEntry]:
    """TapeEntries for a run's tapes (sandbox TapeInfo objects or plain GradientTapes)."""
    out = []
    for i, item in enumerate(tapes):
        tape = getattr(item, "tape", item)
        name = getattr(item, "name", None) or f"tape #{i + 1}"
        calls = getattr(tape, "gradient_calls", [])
        targets = tuple(dict.fromkeys(t for c in calls for t in c.target_ids))
        sources = tuple(dict.fromkeys(s for c in calls for s in c.source_ids))
        out.append(TapeEntry(tape, name, targets, sources))
    return out


def _source_kind(t: Tensor, tape: Recorder) -> str:
    if t.id in VARIABLES:
        return "variable"
    return "watched" if t.id in tape._tracked else "constant"


def _fold_text(op: str, position: int, value: Any) -> str | None:
    text = f"{float(value):g}" if np.asarray(value).dtype.kind == "f" else str(value)
    symbol = SYMBOLS.get(op)
    if symbol is None or op in ("negative", "square", "sqrt"):
        return None
    return f"{symbol}{text}" if position == 1 else f"{text}{symbol}"


class GraphModel:
    """The graph of the selected tape, rebuilt when the tapes, options or names change."""

    def __init__(
        self,
        tapes: Sequence[Any] = (),
        names: Mapping[int, str] | None = None,
        options: GraphOptions | None = None,
    ) -> None:
        self.changed = Event()  # emitted after any rebuild
        self.gradients_changed = Event()
        self.entries: list[TapeEntry] = []
        self.names: dict[int, str] = {}
        self.options = options or GraphOptions()
        self.current = 0
        self.nodes: dict[str, Node] = {}
        self.edges: list[Edge] = []
        self.too_large = 0  # op count of a tape too large to draw in full (0: drawn)
        self.gradients: dict[str, Any] = {}
        self._by_tensor: dict[int, str] = {}
        self._succ: dict[str, list[str]] = {}
        self._pred: dict[str, list[str]] = {}
        self._sources = 0
        # Whether the last rebuild drew the same nodes and edges as the one before (new values
        # only, as for the steps of a loop): a view may then update its items in place.
        self.same_structure = False
        self.set_tapes(tapes, names)

    # -- building --------------------------------------------------------------------------
    def set_tapes(
        self,
        tapes: Sequence[Any],
        names: Mapping[int, str] | None = None,
        current: int | None = None,
    ) -> None:
        """Show the tapes of a run, naming tensors by ``names``, tape ``current`` (or the last)."""
        self.entries = entries_from_tapes(tapes)
        self.names = dict(names or {})
        last = max(0, len(self.entries) - 1)
        self.current = last if current is None else max(0, min(int(current), last))
        self._rebuild()

    def select(self, index: int) -> None:
        """Show tape ``index``."""
        if not 0 <= index < len(self.entries):
            raise IndexError(f"no tape #{index + 1}: the run recorded {len(self.entries)}")
        self.current = index
        self._rebuild()

    def set_options(self, options: GraphOptions) -> None:
        """Change the display options and rebuild."""
        self.options = options
        self._rebuild()

    @property
    def entry(self) -> TapeEntry | None:
        """The tape being shown."""
        return self.entries[self.current] if self.entries else None

    @property
    def records(self) -> list[OpRecord]:
        """The records of the tape being shown."""
        entry = self.entry
        return list(entry.tape.records) if entry is not None else []

    def _structure(self) -> tuple[Any, ...]:
        """What a layout depends on: the nodes (id, kind) and edges (ends, input position)."""
        return (
            self.too_large,
            tuple((nid, n.kind) for nid, n in self.nodes.items()),
            tuple((e.source, e.target, e.position) for e in self.edges),
        )

    def _rebuild(self) -> None:
        before = self._structure()
        self.nodes, self.edges, self._by_tensor, self._sources = {}, [], {}, 0
        entry = self.entry
        size = len(entry.tape.records) if entry is not None else 0
        self.too_large = size if size > TOO_LARGE and self.options.max_ops is None else 0
        if entry is not None and not self.too_large:
            self._build(entry)
        self._succ, self._pred = {}, {}
        for e in self.edges:
            succ = self._succ.setdefault(e.source, [])
            if e.target not in succ:
                succ.append(e.target)
        for e in sorted(self.edges, key=lambda e: e.position):
            self._pred.setdefault(e.target, []).append(e.source)
        self.same_structure = bool(self.nodes) and self._structure() == before
        self.gradients = {}
        if entry is not None and entry.targets and not self.too_large:
            # views draw the gradients with the rebuild (``changed``), not before it
            self.compute_gradients(entry.targets, entry.sources, announce=False)
        self.changed.emit()

    def _label(self, t: TensorLike, fallback: str) -> str:
        name = self.names.get(t.id)
        if name is None and t.id in VARIABLES:
            name = VARIABLES[t.id].name.split(":")[0]
        return name or fallback

    def _build(self, entry: TapeEntry) -> None:
        tape, records = entry.tape, entry.tape.records
        others = [{o.id for r in e.tape.records for o in r.outputs} for e in self.entries]
        targets = set(entry.targets)
        limit = self.options.max_ops
        hidden = range(0)
        if limit is not None and len(records) > limit:
            hidden = range(limit // 2, len(records) - limit // 2)
        for k, rec in enumerate(records):
            if k in hidden:
                self._fold_record(k, rec, hidden, tape)
                continue
            for pos, x in enumerate(rec.inputs):
                if x.id not in self._by_tensor:
                    self._add_source(x, tape)
                self.edges.append(Edge(self._by_tensor[x.id], f"o{k}", pos, x.id))
            out = rec.outputs[0]
            kind = "target" if out.id in targets else "op"
            self.nodes[f"o{k}"] = Node(
                f"o{k}", kind, self._label(out, f"v{k + 1}"), SYMBOLS.get(rec.name, rec.name),
                out.id, out._value, out.dtype.name, rec.name, rec.primitive.formula, k,
                rec.watched, tuple(i for i, ids in enumerate(others) if out.id in ids),
            )  # fmt: skip
            for o in rec.outputs:
                self._by_tensor[o.id] = f"o{k}"
        if self.options.fold_constants:
            self._fold()
        if self.options.hide_unreached:
            self._hide_unreached()

    def _fold_record(self, k: int, rec: OpRecord, hidden: range, tape: Recorder) -> None:
        """Put a record of the folded middle of a long tape into the summary node ``f0``."""
        if k == hidden.start:
            counts: dict[str, int] = {}
            for r in tape.records[hidden.start : hidden.stop]:
                counts[r.name] = counts.get(r.name, 0) + 1
            top = ", ".join(
                f"{n} ×{c:,}" for n, c in sorted(counts.items(), key=lambda kv: -kv[1])[:3]
            )
            out = tape.records[hidden.stop - 1].outputs[0]
            self.nodes["f0"] = Node(
                "f0", "folded", f"{len(hidden):,} ops folded", f"⋯ {len(hidden):,} ops ⋯",
                out.id, out._value, out.dtype.name, None, top,
            )  # fmt: skip
        for pos, x in enumerate(rec.inputs):
            source = self._by_tensor.get(x.id)
            if source is None:
                if _source_kind(x, tape) == "constant":
                    continue  # constants used only inside the folded middle are not drawn
                self._add_source(x, tape)
                source = self._by_tensor[x.id]
            if source != "f0" and not any(
                e.source == source and e.target == "f0" for e in self.edges[-8:]
            ):
                self.edges.append(Edge(source, "f0", pos, x.id))
        for o in rec.outputs:
            self._by_tensor[o.id] = "f0"

    def _add_source(self, x: Tensor, tape: Recorder) -> None:
        nid = f"s{self._sources}"
        self._sources += 1
        kind = _source_kind(x, tape)
        label = self._label(x, short(x._value) if kind == "constant" else "?")
        self.nodes[nid] = Node(nid, kind, label, label, x.id, x._value, x.dtype.name)
        self._by_tensor[x.id] = nid

    def _fold(self) -> None:
        uses: dict[str, list[Edge]] = {}
        for e in self.edges:
            uses.setdefault(e.source, []).append(e)
        for nid, node in list(self.nodes.items()):
            if node.kind != "constant" or np.ndim(node.value) or len(uses.get(nid, ())) != 1:
                continue
            edge = uses[nid][0]
            op_node = self.nodes[edge.target]
            text = _fold_text(op_node.op or "", edge.position, node.value)
            if text is None or op_node.symbol != SYMBOLS.get(op_node.op or ""):
                continue
            self.nodes[edge.target] = replace(op_node, symbol=text)
            del self.nodes[nid]
            self.edges.remove(edge)

    def _hide_unreached(self) -> None:
        hidden = {
            nid for nid, n in self.nodes.items() if n.kind in ("op", "target") and not n.watched
        }
        self.edges = [e for e in self.edges if e.target not in hidden and e.source not in hidden]
        used = {e.source for e in self.edges} | {e.target for e in self.edges}
        for nid in list(self.nodes):
            n = self.nodes[nid]
            if nid in hidden or (n.is_source and nid not in used):
                del self.nodes[nid]

    # -- gradients -------------------------------------------------------------------------
    def compute_gradients(
        self, targets: Sequence[int], sources: Sequence[int], announce: bool = True
    ) -> None:
        """Run the backward pass from ``targets`` (ones) and put each adjoint on its node."""
        records = self.records
        values = {o.id: o._value for r in records for o in r.outputs}
        tracked = self.entry.tape._tracked if self.entry is not None else {}
        seeds = {t: np.ones_like(values[t]) for t in targets if t in values and t in tracked}
        bp = BackwardPass(records, seeds, list(sources) or self.source_tensor_ids())
        self.set_adjoints(bp.run(), announce)

    def set_adjoints(self, adjoints: Mapping[int, Any], announce: bool = True) -> None:
        """Show the adjoints (tensor id -> value) of a backward pass, complete or stepped."""
        self.gradients = {
            nid: adjoints[n.tensor_id] for nid, n in self.nodes.items() if n.tensor_id in adjoints
        }
        if announce:
            self.gradients_changed.emit()

    def clear_gradients(self) -> None:
        """Forget all gradients (before stepping a backward pass)."""
        self.gradients = {}
        self.gradients_changed.emit()

    def source_tensor_ids(self) -> list[int]:
        """Tensor ids of the watched sources and variables, in node order."""
        return [n.tensor_id for n in self.nodes.values() if n.kind in ("variable", "watched")]

    def local_derivative(self, edge: Edge) -> Any:
        """∂(op output)/∂(this input) at the recorded values: the VJP of a 1 (None: no path).

        For scalar ops this is the local derivative the chain rule multiplies; for array ops
        it is the input's gradient when every output element has adjoint 1.
        """
        node = self.nodes.get(edge.target)
        if node is None or node.record is None:
            return None
        return local_derivative(self.records[node.record], edge.position)

    def edge_label(self, edge: Edge) -> str | None:
        """``∂/∂x = 3``: the local derivative of the op with respect to this input."""
        value = self.local_derivative(edge)
        if value is None:
            return None
        source = self.nodes.get(edge.source)
        named = source is not None and (source.is_source or source.label != source.op)
        name = source.label if named and source is not None else f"input {edge.position + 1}"
        return f"∂/∂{name} = {short(value)}"

    # -- navigation ------------------------------------------------------------------------
    def node_for_tensor(self, tensor_id: int) -> str | None:
        """The node showing tensor ``tensor_id``."""
        nid = self._by_tensor.get(tensor_id)
        return nid if nid in self.nodes else None

    def predecessors(self, nid: str) -> list[str]:
        """Nodes feeding ``nid``, in input order (duplicates kept: x*x lists x twice)."""
        return list(self._pred.get(nid, ()))

    def successors(self, nid: str) -> list[str]:
        """Nodes ``nid`` feeds, in record order."""
        return list(self._succ.get(nid, ()))

    def path_between(self, a: str, b: str) -> tuple[list[str], list[Edge]]:
        """Every node and edge on some path from ``a`` to ``b`` (either direction)."""
        down = self._reach(a, forward=True)
        up = self._reach(b, forward=False)
        nodes = [n for n in self.nodes if n in down and n in up]
        if not nodes:
            down, up = self._reach(b, forward=True), self._reach(a, forward=False)
            nodes = [n for n in self.nodes if n in down and n in up]
        keep = set(nodes)
        return nodes, [e for e in self.edges if e.source in keep and e.target in keep]

    def _reach(self, start: str, forward: bool) -> set[str]:
        seen, todo = {start}, [start]
        while todo:
            cur = todo.pop()
            nxt = self.successors(cur) if forward else self.predecessors(cur)
            for n in nxt:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return seen
