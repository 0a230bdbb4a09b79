"""GraphModel: a tape's recorded ops as nodes and edges, with values and gradients (no Qt).

Node ids are derived from recording order (``s0``, ``s1`` for sources in order of first use,
``o0``, ``o1`` for ops in record order), so re-running the same code gives the same graph.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tapeviz.engine.backward import BackwardPass, replayed
from tapeviz.engine.core import OpRecord, Recorder
from tapeviz.engine.custom import custom_name
from tapeviz.engine.tensor import VARIABLES, Tensor, TensorLike, is_variable_id
from tapeviz.engine.vjp_rules import local_derivative
from tapeviz.models.events import Event
from tapeviz.models.graph.call_sites import call_sites, names_for_passes
from tapeviz.models.graph.folding import SYMBOLS, fold_constants, hide_unreached
from tapeviz.models.graph.layers import LAYER_PREFIX, fold_layers
from tapeviz.models.graph.nodes import Edge, Node
from tapeviz.models.graph.nonfinite import NonFinite, explain, explain_source
from tapeviz.models.graph.passes import (
    GradientPass,
    TapeEntry,
    containers,
    default_tape,
    entries_from_tapes,
    outputs_of,
    pass_label,
    seed_values,
)
from tapeviz.models.values import short

KINDS = ("variable", "watched", "constant", "op", "target", "folded", "layer")
TOO_LARGE = 20_000  # ops: more than this is not drawn in full unless folded (GraphOptions.max_ops)
FOLDED_OPS = 400  # ops kept (half at each end) in the folded view


# what set_tapes() builds (adopt() takes it over from a model built elsewhere)
ADOPTED = ("entries", "inside", "names", "current", "nodes", "edges", "too_large", "gradients",
           "noted", "outline", "_by_tensor", "_succ", "_pred", "_holders", "_sources",
           "_shape")  # fmt: skip


@dataclass(frozen=True)
class GraphOptions:
    """Display options: fold scalar constants into op labels, hide what no source reaches."""

    fold_constants: bool = False
    hide_unreached: bool = False
    max_ops: int | None = None  # fold the middle of longer tapes into one summary node
    fold_layers: bool = True  # one box per layer / module call (ops in an innermost scope)
    expanded: tuple[str, ...] = ()  # layers (scope keys) shown as their ops


def _source_kind(t: Tensor, tape: Recorder) -> str:
    if is_variable_id(t.id):
        return "variable"
    return "watched" if t.id in tape._tracked else "constant"


class GraphModel:
    """The graph of the selected tape, rebuilt when the tapes, options or names change."""

    def __init__(
        self,
        tapes: Sequence[Any] = (),
        names: Mapping[int, str] | None = None,
        options: GraphOptions | None = None,
        source: str = "",
    ) -> None:
        self.changed = Event()  # emitted after any rebuild
        self.gradients_changed = Event()
        self.entries: list[TapeEntry] = []
        self.generation = 0  # counts set_tapes calls: a new run's tapes, not a new option
        self.inside: list[int | None] = []  # per tape: the tape it is nested in (None: outermost)
        self.names: dict[int, str] = {}
        self.options = options or GraphOptions()
        self.current = 0
        self.nodes: dict[str, Node] = {}
        self.noted: list[str] = []  # the nodes with a note (a nan or ±inf), in recording order
        self.outline: tuple[Any, ...] = ((), 0)  # what makes two graphs alike to fit a view to
        self.edges: list[Edge] = []
        self.too_large = 0  # op count of a tape too large to draw in full (0: drawn)
        self.gradients: dict[str, Any] = {}
        self._by_tensor: dict[int, str] = {}
        self._succ: dict[str, list[str]] = {}
        self._pred: dict[str, list[str]] = {}
        self._holders: dict[int, tuple[int, ...]] = {}  # op output id -> tapes that recorded it
        self._sources = 0
        self._shape: tuple[Any, ...] = ()  # the last _structure(): what a build left
        # Whether the last rebuild drew the same nodes and edges as the one before (new values
        # only, as for the steps of a loop): a view may then update its items in place.
        self.same_structure = False
        self.set_tapes(tapes, names, source=source)

    # -- building --------------------------------------------------------------------------
    def set_tapes(
        self,
        tapes: Sequence[Any],
        names: Mapping[int, str] | None = None,
        current: int | None = None,
        source: str = "",
    ) -> None:
        """Show the tapes of a run, naming tensors by ``names``; tape ``current`` if given.

        By default the last outermost tape is shown (a nested tape is framed inside it), with
        its last gradient() call. ``source``, the code that ran, names what ``names`` does not:
        the targets and sources of its ``tape.gradient(y, x)`` calls (locals of a function).
        """
        self.generation += 1
        self.entries = entries_from_tapes(tapes)
        outputs = [outputs_of(e) for e in self.entries]
        holders: dict[int, list[int]] = {}
        for j, outs in enumerate(outputs):
            for tid in outs:
                holders.setdefault(tid, []).append(j)
        self._holders = {tid: tuple(js) for tid, js in holders.items()}
        self.inside = containers(outputs)
        self.names = dict(names or {})
        given = self.names
        found = names_for_passes(
            self.entries, call_sites(source), lambda t: t in given or is_variable_id(t)
        )
        self.names.update(found)
        self._name_watched()
        if current is None:
            self.current = default_tape(self.entries, self.inside)
        else:
            self.current = max(0, min(int(current), len(self.entries) - 1))
        self._rebuild()

    def adopt(self, other: GraphModel) -> None:
        """Show what ``other`` shows: a model built from a run's tapes off the UI thread.

        ``other`` must have this model's options. It gets what this model showed before, to
        be dropped when the caller likes: freeing a 10,000-op graph's nodes takes ~10 ms.
        """
        before = self._shape
        for name in ADOPTED:
            mine = getattr(self, name)
            setattr(self, name, getattr(other, name))
            setattr(other, name, mine)
        self.generation += 1
        self.same_structure = bool(self.nodes) and self._shape == before
        self.changed.emit()

    def _name_watched(self) -> None:
        """Unnamed watched tensors read ``t1``, ``t2``… (per tape), never ``?`` or a number."""
        for entry in self.entries:
            k = 0
            for t in entry.tape.watched():
                if t.id not in self.names and not is_variable_id(t.id):
                    k += 1
                    self.names[t.id] = f"t{k}"

    def select(self, index: int, call: int | None = None) -> None:
        """Show tape ``index`` (with its pass ``call``, else the one it showed last)."""
        if not 0 <= index < len(self.entries):
            raise IndexError(f"no tape #{index + 1}: the run recorded {len(self.entries)}")
        self.current = index
        if call is not None:
            self._set_call(self.entries[index], call)
        self._rebuild()

    def select_call(self, call: int) -> None:
        """Show the shown tape's gradient() call ``call`` (0: the first) as the backward pass."""
        entry = self.entry
        if entry is None:
            raise IndexError("no tape to pick a gradient() call of")
        self._set_call(entry, call)
        self._rebuild()

    @staticmethod
    def _set_call(entry: TapeEntry, call: int) -> None:
        if not 0 <= call < len(entry.passes):
            raise IndexError(f"{entry.name} made {len(entry.passes)} gradient() calls, not #{call}")
        entry.call = call

    @property
    def current_pass(self) -> GradientPass | None:
        """The gradient() call whose backward pass is shown (None: the tape made none)."""
        entry = self.entry
        return entry.selected if entry is not None else None

    def pass_labels(self, index: int | None = None) -> list[str]:
        """``tape.gradient(z, x) → 108`` for each gradient() call of tape ``index`` (the shown)."""
        j = self.current if index is None else index
        if not 0 <= j < len(self.entries):
            return []
        entry = self.entries[j]
        ops: dict[int, int] = {}  # an output's record, looked up only for an unnamed tensor

        def name(tid: int) -> str:
            variable = VARIABLES.get(tid)
            known = self.names.get(tid) or (
                variable.name.split(":")[0] if variable is not None else None
            )
            if known:
                return known
            if not ops:
                ops.update((o.id, k) for k, r in enumerate(entry.tape.records) for o in r.outputs)
            return f"v{ops[tid] + 1}" if tid in ops else "?"

        return [pass_label(entry.name, p, name) for p in entry.passes]

    def set_options(self, options: GraphOptions) -> None:
        """Change the display options and rebuild."""
        self.options = options
        self._rebuild()

    @property
    def entry(self) -> TapeEntry | None:
        """The tape being shown."""
        return self.entries[self.current] if self.entries else None

    @property
    def notes(self) -> dict[str, NonFinite]:
        """Node id -> why its value is nan or ±inf, for the nodes that are."""
        return {nid: n.note for nid, n in self.nodes.items() if n.note is not None}

    @property
    def records(self) -> list[OpRecord]:
        """The records of the tape being shown."""
        entry = self.entry
        return list(entry.tape.records) if entry is not None else []

    def _structure(self) -> tuple[Any, ...]:
        """What a layout depends on: the nodes (id, kind) and edges (ends, input position).

        Kept as counts and hashes: comparing (and freeing) the tuples themselves took a
        10,000-op re-run's arrival 10 ms on the UI thread. (A view updating in place checks
        the node ids too.)
        """
        nodes = tuple((nid, n.kind) for nid, n in self.nodes.items())
        edges = tuple((e.source, e.target, e.position) for e in self.edges)
        return (self.too_large, len(nodes), len(edges), hash(nodes), hash(edges))

    def _rebuild(self) -> None:
        before = self._shape
        self.nodes, self.edges, self._by_tensor, self._sources = {}, [], {}, 0
        entry = self.entry
        size = len(entry.tape.records) if entry is not None else 0
        self.too_large = size if size > TOO_LARGE and self.options.max_ops is None else 0
        if entry is not None and not self.too_large:
            self._build(entry)
        self.noted = [nid for nid, node in self.nodes.items() if node.note is not None]
        self._succ, self._pred = {}, {}
        for e in self.edges:
            succ = self._succ.setdefault(e.source, [])
            if e.target not in succ:
                succ.append(e.target)
        for e in sorted(self.edges, key=lambda e: e.position):
            self._pred.setdefault(e.target, []).append(e.source)
        self._shape = self._structure()
        self.outline = (tuple((nid, n.label) for nid, n in self.nodes.items()), len(self.edges))
        self.same_structure = bool(self.nodes) and self._shape == before
        self.gradients = {}
        if entry is not None and entry.targets and not self.too_large:
            # views draw the gradients with the rebuild (``changed``), not before it
            try:
                self.compute_gradients(entry.targets, entry.sources, announce=False)
            except Exception:  # a rule that cannot run here: no gradients drawn (the stepper
                self.gradients = {}  # panel, building the same pass, says why)
        self.changed.emit()

    def _label(self, t: TensorLike, fallback: str) -> str:
        name = self.names.get(t.id)
        if name is None and is_variable_id(t.id):
            name = VARIABLES[t.id].name.split(":")[0]
        return name or fallback

    def _build(self, entry: TapeEntry) -> None:
        tape, records = entry.tape, entry.tape.records
        # A framework's own names for the ops, where the tape has them (torch: MulBackward0).
        labels = getattr(tape, "op_labels", None) or ()
        targets = set(entry.targets)
        limit = self.options.max_ops
        hidden = range(0)
        if limit is not None and len(records) > limit:
            hidden = range(limit // 2, len(records) - limit // 2)
        by_tensor, nodes, names, holders = self._by_tensor, self.nodes, self.names, self._holders
        add_edge, n_labels = self.edges.append, len(labels)
        for k, rec in enumerate(records):
            if k in hidden:
                self._fold_record(k, rec, hidden, tape)
                continue
            nid = f"o{k}"
            for pos, x in enumerate(rec.inputs):
                xid = x.id
                source = by_tensor.get(xid)
                if source is None:
                    self._add_source(x, tape)
                    source = by_tensor[xid]
                add_edge(Edge(source, nid, pos, xid))
            out, name = rec.outputs[0], rec.name
            kind = "target" if out.id in targets else "op"
            symbol = (
                labels[k]
                if k < n_labels and labels[k]
                else custom_name(rec)
                if name == "custom_gradient"
                else SYMBOLS.get(name, name)
            )
            nodes[nid] = Node(
                nid, kind, self._label(out, f"v{k + 1}"), symbol,
                out.id, out._value, out.dtype.name, name, rec.primitive.formula, k,
                rec.watched, holders.get(out.id, ()), explain(rec, names),
            )  # fmt: skip
            for o in rec.outputs:
                by_tensor[o.id] = nid
        if self.options.fold_constants:
            fold_constants(self.nodes, self.edges)
        if self.options.hide_unreached:
            hide_unreached(self.nodes, self.edges)
        if self.options.fold_layers:
            folded = fold_layers(self.nodes, self.edges, records, self.options.expanded)
            for tid, nid in self._by_tensor.items():
                if nid in folded:
                    self._by_tensor[tid] = folded[nid]

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
        note = explain_source(x._value, x.dtype.name)
        self.nodes[nid] = Node(nid, kind, label, label, x.id, x._value, x.dtype.name, note=note)
        self._by_tensor[x.id] = nid

    # -- gradients -------------------------------------------------------------------------
    def compute_gradients(
        self, targets: Sequence[int], sources: Sequence[int], announce: bool = True
    ) -> None:
        """Run the backward pass from ``targets`` to ``sources``; adjoints on the nodes.

        Exactly what one gradient() call computed: only its targets are seeded (with its
        output_gradients when it gave them, else ones), and a source the tape did not watch
        gets no gradient.
        """
        records = self.records
        tracked = self.entry.tape._tracked if self.entry is not None else {}
        shown = self.entry.selected if self.entry is not None else None
        given = shown.seeds if shown is not None and tuple(targets) == shown.targets else None
        seeds = {
            t: v
            for t, v in seed_values(records, targets, given).items()
            if t in tracked or t in sources
        }  # fmt: skip  (a source named as a target)
        asked = [s for s in sources if s in tracked] if sources else self.source_tensor_ids()
        hooked = replayed(getattr(self.entry.tape, "hooked", None) if self.entry else None)
        bp = BackwardPass(records, seeds, asked, hooks=hooked)  # unwatched sources get None
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

    def node_for_record(self, record: int) -> str:
        """The node showing op ``record`` of the shown tape: its own, or its folded layer's."""
        nid = f"o{record}"
        if nid in self.nodes or not self.options.fold_layers:
            return nid
        for lid, node in self.nodes.items():
            if lid.startswith(LAYER_PREFIX) and record in node.members:
                return lid
        return nid

    def toggle_layer(self, nid: str) -> bool:
        """Expand a folded layer (its node id) or fold back the layer op ``nid`` lies in."""
        opts = self.options
        if nid.startswith(LAYER_PREFIX):
            key = nid[len(LAYER_PREFIX) :]
            self.set_options(replace(opts, expanded=(*opts.expanded, key)))
            return True
        node = self.nodes.get(nid)
        if node is None or node.record is None or not opts.expanded:
            return False
        key = "/".join(self.records[node.record].scope)
        if key not in opts.expanded:
            return False
        self.set_options(replace(opts, expanded=tuple(k for k in opts.expanded if k != key)))
        return True

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
