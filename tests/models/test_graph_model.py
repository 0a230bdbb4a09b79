"""GraphModel: nodes, edges, values, gradients and options built from tape records."""

from __future__ import annotations

import numpy as np
import pytest

import tapeviz as tv
from tapeviz.models.graph.model import GraphModel, GraphOptions
from tapeviz.sandbox import run


def quadratic() -> tuple[tv.GradientTape, dict[int, str]]:
    x = tv.Variable(0.0, name="x")
    a, b, c = tv.constant(1.0), tv.constant(-2.0), tv.constant(1.0)
    with tv.GradientTape() as tape:
        tape.watch([a, b, c])
        y = a * tv.pow(x, 2) + b * x + c
    tape.gradient(y, [x, a, b, c])
    return tape, {a.id: "a", b.id: "b", c.id: "c", y.id: "y"}


def test_quadratic_nodes_edges_values_and_gradients() -> None:
    tape, names = quadratic()
    m = GraphModel([tape], names)
    kinds = {n.label: n.kind for n in m.nodes.values() if n.is_source}
    assert kinds == {
        "x": "variable",
        "2": "constant",
        "a": "watched",
        "b": "watched",
        "c": "watched",
    }
    ops = [(n.id, n.op, n.kind) for n in m.nodes.values() if not n.is_source]
    assert ops == [
        ("o0", "pow", "op"),
        ("o1", "multiply", "op"),
        ("o2", "multiply", "op"),
        ("o3", "add", "op"),
        ("o4", "add", "target"),
    ]
    assert m.nodes["o4"].label == "y" and float(m.nodes["o4"].value) == 1.0
    assert len(m.edges) == 10
    grads = {m.nodes[k].label: float(v) for k, v in m.gradients.items()}
    assert grads["x"] == -2.0 and grads["a"] == 0.0 and grads["b"] == 0.0 and grads["c"] == 1.0
    assert grads["y"] == 1.0 and grads["v1"] == 1.0  # ∂y/∂v1 with v1 = x**2: a = 1


def test_node_ids_are_stable_across_runs() -> None:
    t1, n1 = quadratic()
    t2, n2 = quadratic()
    first, second = GraphModel([t1], n1), GraphModel([t2], n2)
    assert list(first.nodes) == list(second.nodes)
    assert [(e.source, e.target, e.position) for e in first.edges] == [
        (e.source, e.target, e.position) for e in second.edges
    ]


def test_fan_out_keeps_both_edges() -> None:
    x = tv.constant(3.0)
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    m = GraphModel([tape])
    assert [(e.source, e.target, e.position) for e in m.edges] == [("s0", "o0", 0), ("s0", "o0", 1)]
    assert m.predecessors("o0") == ["s0", "s0"]
    assert float(m.gradients["s0"]) == 6.0


def test_fold_constants_and_hide_unreached() -> None:
    x = tv.Variable(2.0, name="x")
    m_var = tv.Variable(5.0, name="m")
    with tv.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(x)
        y = x * 2.0 + 1.0
        n = m_var * m_var
    m = GraphModel([tape], options=GraphOptions(fold_constants=True))
    symbols = [n.symbol for n in m.nodes.values() if n.op]
    assert symbols == ["×2", "+1", "×"]
    assert not [n for n in m.nodes.values() if n.kind == "constant"]
    m.set_options(GraphOptions(fold_constants=True, hide_unreached=True))
    assert [n.label for n in m.nodes.values()] == ["x", "v1", "v2"]
    assert float(n) == 25.0 and float(y) == 5.0


def test_unwatched_records_are_marked() -> None:
    x = tv.constant(3.0)
    with tv.GradientTape() as tape:
        y = x * x
    m = GraphModel([tape], {x.id: "x", y.id: "y"})
    assert m.nodes["s0"].kind == "constant" and m.nodes["o0"].watched is False
    assert m.gradients == {}
    assert float(y) == 9.0


def test_nested_tapes_know_which_tape_recorded_each_op() -> None:
    result = run(
        "import tensorflow as tf\nx = tf.Variable(3.0)\n"
        "with tf.GradientTape() as outer:\n    with tf.GradientTape() as inner:\n"
        "        y = x**3\n    g = inner.gradient(y, x)\nh = outer.gradient(g, x)\n"
    )
    assert result.error is None
    m = GraphModel(result.tapes)
    assert [e.name for e in m.entries] == ["outer", "inner"]
    assert m.current == 0  # the outer tape, which also recorded the inner tape's op
    assert m.inside == [None, 0]
    ops = [n for n in m.nodes.values() if n.op]
    assert [n.op for n in ops] == ["pow", "multiply", "subtract", "pow", "multiply"]
    assert [n.tapes for n in ops] == [(0, 1), (0,), (0,), (0,), (0,)]
    assert float(m.gradients[m.node_for_tensor(result.namespace["x"].id)]) == 18.0


def test_paths_between_a_source_and_the_target() -> None:
    tape, names = quadratic()
    m = GraphModel([tape], names)
    nodes, edges = m.path_between("s0", "o4")
    assert nodes == ["s0", "o0", "o1", "o2", "o3", "o4"]
    assert len(edges) == 6
    assert m.path_between("o4", "s0")[0] == nodes


def test_nan_and_empty_tapes() -> None:
    x = tv.Variable(-1.0)
    with tv.GradientTape() as tape:
        y = tv.log(x)
    m = GraphModel([tape])
    assert np.isnan(m.nodes["o0"].value)
    assert m.noted == [nid for nid, n in m.nodes.items() if n.note is not None] == ["o0"]
    empty = GraphModel([tv.GradientTape()])
    assert empty.nodes == {} and empty.edges == [] and empty.noted == []
    assert GraphModel([]).entry is None
    assert float(y) != float(y)


def test_changed_events_fire() -> None:
    tape, names = quadratic()
    m = GraphModel([tape], names)
    seen: list[str] = []
    m.changed.connect(lambda: seen.append("changed"))
    m.gradients_changed.connect(lambda: seen.append("grads"))
    m.set_options(GraphOptions(fold_constants=True))
    m.clear_gradients()
    assert seen == ["changed", "grads"]  # a rebuild's gradients come with its ``changed``


def test_local_derivatives_on_edges() -> None:
    x, y = tv.Variable(3.0, name="x"), tv.Variable(2.0, name="y")
    with tv.GradientTape() as tape:
        z = x * y
        w = tv.sin(z)
    m = GraphModel([tape], {z.id: "z"})
    labels = [m.edge_label(e) for e in m.edges]
    assert labels == ["∂/∂x = 2", "∂/∂y = 3", f"∂/∂z = {np.cos(6.0):.4g}"]
    assert float(w) == pytest.approx(np.sin(6.0))
