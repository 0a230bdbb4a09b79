"""Layered layouts: deterministic, left to right, no overlaps, stable when ops are appended."""

from __future__ import annotations

import random

import pytest

import tapeviz as tv
from tapeviz.models.graph import layout
from tapeviz.models.graph.model import GraphModel


def graph(n_ops: int, seed: int = 0) -> GraphModel:
    rnd = random.Random(seed)
    vals: list[object] = [tv.Variable(0.5, name="x"), tv.Variable(1.5, name="w")]
    with tv.GradientTape() as tape:
        for _ in range(n_ops):
            a, b = vals[-1], rnd.choice(vals[-6:])
            k = rnd.randrange(3)
            vals.append(a * b if k == 0 else a + b if k == 1 else tv.sin(a))  # type: ignore[operator]
    return GraphModel([tape])


def inputs(
    m: GraphModel,
) -> tuple[list[str], list[tuple[str, str]], dict[str, tuple[float, float]]]:
    ids = list(m.nodes)
    return ids, [(e.source, e.target) for e in m.edges], {n: (100.0, 44.0) for n in ids}


def no_overlaps(lay: layout.Layout, sizes: dict[str, tuple[float, float]]) -> bool:
    boxes = [
        (x - sizes[n][0] / 2, y - sizes[n][1] / 2, x + sizes[n][0] / 2, y + sizes[n][1] / 2)
        for n, (x, y) in lay.positions.items()
    ]
    boxes.sort()
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 : i + 40]:
            if b[0] >= a[2]:
                break
            if a[1] < b[3] and b[1] < a[3]:
                return False
    return True


def test_edges_run_left_to_right_without_overlaps() -> None:
    m = graph(60)
    ids, edges, sizes = inputs(m)
    lay = layout.layered(ids, edges, sizes)
    assert set(lay.positions) == set(ids)
    assert all(lay.positions[a][0] < lay.positions[b][0] for a, b in edges)
    assert no_overlaps(lay, sizes)


def test_layout_is_deterministic() -> None:
    first = layout.layered(*inputs(graph(40)))
    second = layout.layered(*inputs(graph(40)))
    assert first.positions == second.positions


def test_sources_sit_next_to_their_first_consumer() -> None:
    x = tv.Variable(1.0)
    with tv.GradientTape() as tape:
        y = x
        for _ in range(5):
            y = tv.sin(y)
        y = y * 3.0  # the constant 3 joins at the end
    m = GraphModel([tape])
    lay = layout.layered(*inputs(m))
    const = next(n.id for n in m.nodes.values() if n.kind == "constant")
    assert lay.layers[const] == lay.layers["o5"] - 1


def test_appending_ops_keeps_earlier_nodes_in_order() -> None:
    small = graph(20)
    big = graph(25)  # same seed: the first 20 ops are the same
    ids, edges, sizes = inputs(small)
    before = layout.layered(ids, edges, sizes)
    ids2, edges2, sizes2 = inputs(big)
    after = layout.layered(ids2, edges2, sizes2, previous=before.positions)
    for layer in set(before.layers.values()):
        old = sorted(
            (n for n in ids if before.layers[n] == layer), key=lambda n: before.positions[n][1]
        )
        new = sorted(
            (n for n in old if after.layers.get(n) == layer), key=lambda n: after.positions[n][1]
        )
        assert new == [n for n in old if n in new]


def test_grandalf_lays_out_every_node_left_to_right() -> None:
    ids, edges, sizes = inputs(graph(30))
    lay = layout.grandalf(ids, edges, sizes)
    assert set(lay.positions) == set(ids) and lay.engine == "grandalf"
    assert all(lay.positions[a][0] < lay.positions[b][0] for a, b in edges)


@pytest.mark.skipif(not layout.dot_available(), reason="graphviz dot is not installed")
def test_dot_lays_out_every_node_left_to_right() -> None:
    ids, edges, sizes = inputs(graph(30))
    lay = layout.dot(ids, edges, sizes)
    assert set(lay.positions) == set(ids) and lay.engine == "dot"
    assert all(lay.positions[a][0] < lay.positions[b][0] for a, b in edges)


def test_empty_graph() -> None:
    lay = layout.layered([], [], {})
    assert lay.positions == {} and lay.width == 0.0 and lay.height == 0.0


def test_a_weight_reused_across_a_deep_chain_stays_linear() -> None:
    w = tv.Variable(1.01, name="w")
    x = tv.Variable(0.5, name="x")
    with tv.GradientTape() as tape:
        h = x
        for _ in range(400):
            h = tv.sin(h) * w  # w feeds every layer: spans up to ~800 layers
    m = GraphModel([tape])
    ids, edges, sizes = inputs(m)
    lay = layout.layered(ids, edges, sizes)
    assert sorted(lay.positions) == sorted(ids)
    dummies = sum(len(r) for r in lay.routes.values())
    assert dummies <= layout.MAX_DUMMIES_PER_NODE * len(ids)
    assert all(len(r) < layout.MAX_SPAN for r in lay.routes.values())
    for a, b in edges:
        assert lay.positions[a][0] < lay.positions[b][0]


def test_the_nodes_already_shown_keep_their_places() -> None:
    """A re-layout puts the graph where it was on screen, not back at the origin."""
    ids, edges, sizes = inputs(graph(30))
    first = layout.layered(ids, edges, sizes)
    shown = {n: (x + 37.0, y - 55.0) for n, (x, y) in first.positions.items()}  # (scrolled)

    def near(a: tuple[float, float], b: tuple[float, float]) -> bool:
        return abs(a[0] - b[0]) < 1e-6 and abs(a[1] - b[1]) < 1e-6

    again = layout.layered(ids, edges, sizes, previous=shown)
    assert all(near(again.positions[n], shown[n]) for n in ids)
    bigger = inputs(graph(31))  # one op more: the others stay where they were
    grown = layout.layered(*bigger, previous=shown)
    stayed = [n for n in shown if near(grown.positions[n], shown[n])]
    assert len(stayed) >= len(shown) - 2
