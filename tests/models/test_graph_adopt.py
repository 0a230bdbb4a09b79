"""GraphModel.adopt: a model built elsewhere (the thread pool) is shown as if set_tapes built it."""

from __future__ import annotations

import tapeviz as tv
from tapeviz.models.graph.model import GraphModel


def _tape(n: int) -> tv.GradientTape:
    x = tv.Variable(1.0, name="x")
    with tv.GradientTape() as tape:
        y = x
        for _ in range(n):
            y = tv.sin(y)
    tape.gradient(y, x)
    return tape


def test_adopt_shows_what_set_tapes_would() -> None:
    tape = _tape(5)
    built = GraphModel([tape])
    shown = GraphModel()
    events: list[bool] = []
    shown.changed.connect(lambda: events.append(shown.same_structure))
    generation = shown.generation
    entry = built.entry
    shown.adopt(built)
    direct = GraphModel([tape])
    assert events == [False] and shown.generation == generation + 1
    assert list(shown.nodes) == list(direct.nodes)
    assert [(e.source, e.target, e.position) for e in shown.edges] == [
        (e.source, e.target, e.position) for e in direct.edges
    ]
    assert shown.gradients.keys() == direct.gradients.keys()
    assert shown.entry is entry and shown.pass_labels() == direct.pass_labels()
    # ``built`` holds what ``shown`` showed before (the caller frees it when it likes)
    assert built.entry is None and built.nodes == {} and built.entries == []
    shown.adopt(GraphModel([_tape(5)]))  # the same graph again: a view may update in place
    assert events == [False, True]
    shown.adopt(GraphModel([_tape(6)]))  # another shape
    assert events == [False, True, False]
    shown.set_tapes([_tape(6)])  # a build compares with what was adopted
    shown.set_tapes([_tape(4)])
    assert events == [False, True, False, True, False]


def _expression(source: str) -> list[object]:
    from tapeviz.sandbox import VariableSpec, run

    result = run(source, mode="expression", variables=[VariableSpec("x", 0.5)])
    assert result.error is None
    return list(result.tapes)


def test_the_same_structure_needs_the_same_edges_not_only_the_counts() -> None:
    """``x*x + x`` and ``x + x*x``: as many nodes and edges, the add's inputs swapped."""
    model = GraphModel(_expression("x*x + x"))
    model.set_tapes(_expression("x*x + x"))
    assert model.same_structure
    model.set_tapes(_expression("x*x - x"))  # another op, the same shape: the same layout
    assert model.same_structure
    model.set_tapes(_expression("x + x*x"))
    assert not model.same_structure
