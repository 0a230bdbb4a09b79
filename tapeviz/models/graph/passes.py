"""A run's tapes as the graph lists them, and each tape's backward passes (no Qt).

Every ``gradient()`` call of a tape is its own backward pass: it seeded its own targets and
asked for its own sources (a persistent tape asked for ``dy/dx`` and then ``dz/dx`` makes two).
:class:`GradientPass` keeps what one call differentiated and what it returned; a
:class:`TapeEntry` holds a tape's passes and which one is shown (the last, unless picked).
Nested tapes: a tape whose every op another tape also recorded is *inside* that tape
(:func:`containers`); the graph shows the outermost one by default, the inner one framed in it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tapeviz.engine.core import Recorder
from tapeviz.models.values import as_array, short


@dataclass(frozen=True)
class GradientPass:
    """One ``gradient()``/``jacobian()`` call: its targets, its sources, what it returned."""

    kind: str  # "gradient" | "jacobian" | "batch_jacobian"
    targets: tuple[int, ...]  # tensor ids, as the call listed them
    sources: tuple[int, ...]
    results: tuple[Any, ...]  # per source: the returned tensor (None: unconnected)
    seeds: tuple[Any, ...] | None = None  # per target: its output_gradients (None: ones)

    def seed_values(self, records: Sequence[Any]) -> dict[int, Any]:
        """Tensor id -> the adjoint this call started from (see :func:`seed_values`)."""
        return seed_values(records, self.targets, self.seeds)

    def result(self, source: int) -> Any:
        """What the call returned for ``source`` as a numpy value (None: no gradient)."""
        for s, r in zip(self.sources, self.results, strict=False):
            if s == source:
                return None if r is None else as_array(r)
        return None


@dataclass
class TapeEntry:
    """A tape the model can show: its name (as the code bound it), its passes, the one shown."""

    tape: Recorder
    name: str
    passes: tuple[GradientPass, ...] = ()
    call: int = -1  # index of the pass shown (-1: the tape had no gradient() call)
    bound: tuple[str, ...] = ()  # every name the code bound the tape to

    @property
    def selected(self) -> GradientPass | None:
        """The pass shown, if the tape has one."""
        return self.passes[self.call] if 0 <= self.call < len(self.passes) else None

    @property
    def targets(self) -> tuple[int, ...]:
        """Tensor ids the shown pass seeded (empty: no gradient() call)."""
        p = self.selected
        return p.targets if p is not None else ()

    @property
    def sources(self) -> tuple[int, ...]:
        """Tensor ids the shown pass asked for."""
        p = self.selected
        return p.sources if p is not None else ()


def seed_values(
    records: Sequence[Any], targets: Sequence[int], given: Sequence[Any] | None = None
) -> dict[int, Any]:
    """Tensor id -> the adjoint a gradient() call starts from.

    ``given`` is its output_gradients, one per target (None: ones), or None for all ones.
    A target named twice is seeded twice, as ``gradient()`` does; a target that is not on
    ``records`` gets none. ValueError for an output gradient not of its target's shape.
    """
    values = target_values(records, targets)
    out: dict[int, Any] = {}
    for t, g in zip(targets, given or (None,) * len(targets), strict=False):
        if t not in values:
            continue
        value = np.asarray(values[t])
        if g is None:
            seed = np.ones_like(value)
        elif np.shape(g) == value.shape:
            seed = np.asarray(g, value.dtype)
        else:
            raise ValueError(f"an output gradient of shape {np.shape(g)} for {value.shape}")
        out[t] = out[t] + seed if t in out else seed
    return out


def target_values(records: Sequence[Any], targets: Sequence[int]) -> dict[int, Any]:
    """The values of ``targets`` on ``records`` (an op's result, or an input: a source)."""
    wanted, out = dict.fromkeys(targets), {}
    for r in records:
        for x in (*r.outputs, *r.inputs):
            if x.id in wanted and x.id not in out:
                out[x.id] = x._value
    return out


def passes_of(tape: Any) -> tuple[GradientPass, ...]:
    """The passes of a live ``GradientTape`` or a ``RemoteTape``, in call order."""
    calls = getattr(tape, "gradient_calls", ())
    return tuple(
        GradientPass(
            c.kind,
            tuple(c.target_ids),
            tuple(c.source_ids),
            tuple(c.results),
            getattr(c, "seeds", None),
        )
        for c in calls
    )


def entries_from_tapes(tapes: Sequence[Any]) -> list[TapeEntry]:
    """TapeEntries for a run's tapes (sandbox TapeInfo objects or plain GradientTapes).

    A tape is named as the code bound it (``tape_2``), else ``tape #k``; the last pass is shown.
    """
    out = []
    for i, item in enumerate(tapes):
        tape = getattr(item, "tape", item)
        name = getattr(item, "name", None) or f"tape #{i + 1}"
        bound = tuple(getattr(item, "names", ()) or ())
        passes = passes_of(tape)
        out.append(TapeEntry(tape, name, passes, len(passes) - 1, bound))
    return out


def outputs_of(entry: TapeEntry) -> dict[int, None]:
    """Ids of every tensor the tape's ops produced, in record order."""
    return {o.id: None for r in entry.tape.records for o in r.outputs}


def containers(outputs: Sequence[dict[int, None]]) -> list[int | None]:
    """For each tape, a tape that recorded all of its ops and more (None: it is outermost).

    The innermost such container is chosen (the one with the fewest ops), so three nested
    tapes point inner → middle → outer.
    """
    holders: dict[int, list[int]] = {}  # tensor id -> tapes that produced it
    for j, outs in enumerate(outputs):
        for tid in outs:
            holders.setdefault(tid, []).append(j)
    found: list[int | None] = []
    for j, outs in enumerate(outputs):
        best: int | None = None
        if outs:
            first = next(iter(outs))
            for i in holders.get(first, ()):
                if i == j or len(outputs[i]) <= len(outs):
                    continue
                if all(t in outputs[i] for t in outs) and (
                    best is None or len(outputs[i]) < len(outputs[best])
                ):
                    best = i
        found.append(best)
    return found


def default_tape(entries: Sequence[TapeEntry], inside: Sequence[int | None]) -> int:
    """The tape shown first: the last outermost tape (an inner tape is framed inside it)."""
    for j in range(len(entries) - 1, -1, -1):
        if inside[j] is None:
            return j
    return max(0, len(entries) - 1)


def _names(ids: Sequence[int], name: Callable[[int], str]) -> str:
    texts = [name(i) for i in ids]
    return texts[0] if len(texts) == 1 else f"[{', '.join(texts)}]"


def pass_label(tape: str, p: GradientPass, name: Callable[[int], str]) -> str:
    """``tape.gradient(z, x) → 108``: the call as the code wrote it, and its scalar result.

    With several sources the results are left to the graph's nodes (the label stays short). A
    tape named by the call that made it (PyTorch's ``loss.backward()``) is the call.
    """
    if tape.endswith(")"):
        text = tape
    else:
        text = f"{tape}.{p.kind}({_names(p.targets, name)}, {_names(p.sources, name)})"
    if p.kind == "gradient" and len(p.results) == 1:
        value = p.results[0]
        if value is None:
            text += " → None"
        elif as_array(value).ndim == 0:
            text += f" → {short(value)}"
    return text
