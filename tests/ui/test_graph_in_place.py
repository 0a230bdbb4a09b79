"""The graph view updates a loop's next step in place: same items, same places, new values."""

from __future__ import annotations

import gc

from pytestqt.qtbot import QtBot

import tapeviz as tv
from tapeviz.models.graph.model import GraphModel
from tapeviz.sandbox.process.isolated import run_isolated
from tapeviz.ui import turns
from tapeviz.ui.graph.expression_panel import names_of
from tapeviz.ui.graph.scene import ItemUpdate
from tapeviz.ui.graph.view import GraphView

LOOP = """import tensorflow as tf
x = tf.Variable(0.0)
for step in range(3):
    with tf.GradientTape() as tape:
        y = x * x - 2.0 * x + 1.0
    x.assign_sub(0.1 * tape.gradient(y, x))
with tf.GradientTape() as other:
    z = tf.sin(x)
"""


def test_same_structure_updates_the_items_in_place(qtbot: QtBot) -> None:
    result = run_isolated(LOOP)
    tapes, names = [t.tape for t in result.tapes], names_of(result)
    model = GraphModel()
    view = GraphView(model)
    view.animation_ms = 0
    view.set_edge_labels(True)
    qtbot.addWidget(view)
    view.show()
    layouts: list[bool] = []
    view.layoutFinished.connect(lambda: layouts.append(True))
    model.set_tapes(tapes[:1], names)
    assert layouts == [True]
    items = dict(view.items)
    places = {nid: (it.pos().x(), it.pos().y()) for nid, it in items.items()}
    x = model.node_for_tensor(model.records[0].inputs[0].id)
    assert x is not None and items[x].lines()[1][0] == "= 0"
    label = next(e for e in view.edge_items if e.model_edge.source == x).text.text()
    model.set_tapes(tapes[1:2], names)
    assert layouts == [True]  # no new layout
    assert view.items == items and all(view.items[n] is items[n] for n in items)
    assert {nid: (it.pos().x(), it.pos().y()) for nid, it in view.items.items()} == places
    assert items[x].lines()[1][0] == "= 0.2"  # x after one step of lr 0.1 from 0
    assert items[x].gradient is not None and items[x].node is model.nodes[x]
    new_label = next(e for e in view.edge_items if e.model_edge.source == x).text.text()
    assert new_label != label  # ∂(x·x)/∂x = 2x moved with x
    model.set_tapes(tapes[3:4], names)  # sin(x): another graph, laid out again
    qtbot.waitUntil(lambda: len(layouts) == 2)
    assert view.items.keys() != items.keys()


def test_a_big_graphs_update_by_slices_lets_go_of_it_when_done(
    qtbot: QtBot, graph_view: GraphView
) -> None:
    def chain(start: float) -> object:
        x = tv.Variable(start)
        with tv.GradientTape() as tape:
            y = x
            for _ in range(400):  # (over LAZY_TEXT nodes: updated by slices)
                y = tv.sin(y)
        tape.gradient(y, x)
        return tape

    model = GraphModel([chain(1.0)])
    view = graph_view
    view.set_model(model)
    qtbot.waitUntil(lambda: not view.building and view._filling is None, timeout=20_000)
    gc.collect()
    was = gc.isenabled()
    gc.disable()  # (as in the window: its own timer collects, a full pass at most once a minute)
    try:
        model.set_tapes([chain(0.5)])
        assert view._update is not None  # (the same graph: its new values by slices)
        gc.collect()  # (what it holds is old now, as after the window's passes while it ran)
        qtbot.waitUntil(lambda: view._update is None and turns.pending() == 0, timeout=20_000)
        # A slice that queued itself was a reference cycle: the finished update held the
        # model of the run before it (every node and value) until a full collection.
        assert not [o for o in gc.get_objects() if isinstance(o, ItemUpdate)]
    finally:
        if was:
            gc.enable()
