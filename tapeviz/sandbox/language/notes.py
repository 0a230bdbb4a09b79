"""Advice shown beside a run's output: legal code that probably does not do what was meant."""

from __future__ import annotations

from typing import Any

from tapeviz.engine import nest
from tapeviz.engine.tape import GradientTape
from tapeviz.engine.tensor import TensorLike, Variable
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.runtime.limits import Budget


def xor(budget: Budget, a: Any, b: Any, line: int | None) -> None:
    """``2 ^ 3`` is legal Python (xor, = 1); a lecturer almost surely meant a power."""
    if type(a) is int and type(b) is int:
        budget.note(say("note_xor", line=line, a=a, b=b, value=a ^ b))


def after_gradient(
    budget: Budget,
    tape: GradientTape,
    args: tuple[Any, ...],
    result: Any,
    line: int | None,
    texts: tuple[str, ...] = (),
) -> None:
    """Explain a ``tape.gradient`` that returned None, the way a lecturer would."""
    if len(args) < 2 or not all(r is None for r in nest.flatten(result)):
        return
    targets = [t for t in nest.flatten(args[0]) if isinstance(t, TensorLike)]
    sources = [s for s in nest.flatten(args[1]) if isinstance(s, TensorLike)]
    if not targets or not sources:
        return
    produced = {o.id: rec for rec in tape.records for o in rec.outputs}
    target = targets[0]
    target_text = texts[0] if texts else "the target"
    source_text = texts[1] if len(texts) > 1 else "the source"
    if target.id not in produced and target.id not in tape._tracked:
        budget.note(say("note_outside", line=line, target=target_text))
        return
    unwatched = [s for s in sources if s.id not in tape._tracked]
    if unwatched:
        what = source_text if len(sources) == 1 else "a source"
        if isinstance(unwatched[0], Variable) and unwatched[0].trainable:
            why = "the tape was created with watch_accessed_variables=False"
        elif isinstance(unwatched[0], Variable):
            why = "it is not trainable"
        else:
            why = "constants are not watched unless you call tape.watch(x)"
        budget.note(say("note_unwatched", line=line, source=what, why=why))
        return
    budget.note(say("note_independent", line=line, target=target_text, source=source_text))
