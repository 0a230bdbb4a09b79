"""The folded network in the graph view: a layer box, double-clicked open and shut again."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from tapeviz.models.graph.model import GraphModel
from tapeviz.sandbox.process.isolated import run_isolated
from tapeviz.ui import MainWindow
from tapeviz.ui.graph.expression_panel import names_of
from tapeviz.ui.graph.view import GraphView
from tests.models.test_graph_layers import KERAS


def double_click(view: GraphView, nid: str) -> None:
    item = view.items[nid]
    view.centerOn(item)
    pos = view.mapFromScene(item.sceneBoundingRect().center())
    QTest.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=pos)


def test_double_click_opens_a_layer_and_folds_it_back(qtbot: QtBot, graph_view: GraphView) -> None:
    result = run_isolated(KERAS)
    model = GraphModel(result.tapes, names_of(result), source=KERAS)
    graph_view.set_model(model)
    qtbot.waitUntil(lambda: "L:sequential/dense" in graph_view.items)
    lines = [t for t, _ in graph_view.items["L:sequential/dense"].lines()]
    assert lines[:3] == ["dense", "(8, 2) → (8, 4)", "kernel · bias"]
    double_click(graph_view, "L:sequential/dense")
    qtbot.waitUntil(lambda: "o0" in graph_view.items)
    assert "L:sequential/dense" not in graph_view.items
    assert "L:sequential/dense_1" in graph_view.items  # the other layer stays folded
    double_click(graph_view, "o2")  # an op of the open layer folds it back
    qtbot.waitUntil(lambda: "L:sequential/dense" in graph_view.items)
    graph_view.select("L:sequential/dense_1")
    QTest.keyClick(graph_view, Qt.Key.Key_Return)  # Enter opens the selected layer too
    qtbot.waitUntil(lambda: "L:sequential/dense_1" not in graph_view.items)


def test_the_backward_stepper_steps_a_folded_layer_as_one() -> None:
    from tapeviz.models.backward.stepper import BackwardStepper
    from tapeviz.ui.stepper.layer_steps import layer_detail, next_position, previous_position

    result = run_isolated(KERAS)
    model = GraphModel(result.tapes, names_of(result), source=KERAS)
    entry = model.entry
    assert entry is not None and entry.selected is not None
    call = entry.selected
    stepper = BackwardStepper(model.records, call.targets, call.sources, model.names)
    positions, details = [0], []
    while stepper.position < len(stepper):
        stepper.jump(next_position(model, stepper))
        positions.append(stepper.position)
        details.append(layer_detail(model, stepper))
    boxes = [d.splitlines()[0].split(" ←")[0] for d in details if d is not None]
    assert boxes == ["dense_1", "dense"]  # backwards: the last layer first
    text = next(d for d in details if d is not None)
    assert text.startswith("dense_1 ← δ = ∂L/∂dense_1 = (8, 1)")
    assert "∂L/∂kernel = xᵀ · δz" in text and "∂L/∂bias = Σ δz" in text
    assert "δx = δz · kernelᵀ" in text  # dense_1 sends δ back to dense
    # the loss's 4 ops one by one, then each layer (3 ops: matmul, add, tanh / 2 ops) as one
    n_ops = len(stepper) - 3 - 2
    assert len(positions) == 1 + n_ops + 2
    stepper.jump(previous_position(model, stepper))
    assert stepper.position == len(stepper) - 3  # back over the whole first layer


def test_the_layer_formula_has_the_passs_own_numbers() -> None:
    import numpy as np

    from tapeviz.models.backward.layers import layer_text
    from tapeviz.models.backward.stepper import BackwardStepper

    result = run_isolated(KERAS)
    model = GraphModel(result.tapes, names_of(result), source=KERAS)
    call = model.entry.selected
    stepper = BackwardStepper(model.records, call.targets, call.sources, model.names)
    stepper.run_to_end()
    adj = stepper.adjoints_at()
    members = model.nodes["L:sequential/dense"].members
    recs = [model.records[i] for i in members]
    x, kernel = recs[0].inputs[0], recs[0].inputs[1]
    z = recs[1].outputs[0]
    # ∂L/∂W = xᵀ · δz, computed by hand from the pass's δz
    assert np.allclose(adj[kernel.id], x._value.T @ adj[z.id], rtol=1e-5)
    text = layer_text("dense", recs, adj, stepper.name)
    assert "δz = δ ⊙ tanh′(z) = δ ⊙ (1 − a²)" in text
    assert "δx" not in text  # the data gets no gradient: nothing flows to a layer below


def test_a_folded_network_gets_room_for_a_whole_layers_formula(
    qtbot: QtBot, window: MainWindow
) -> None:
    from tapeviz.models.session.file import Session
    from tapeviz.sandbox import VariableSpec
    from tapeviz.ui.stepper.panel import DETAIL_LINES, LAYER_DETAIL_LINES

    w, st = window, window.stepper
    w.show_view("stepper")
    w.apply_session(Session(source="sin(x) * x", variables=(VariableSpec("x", 0.5),)))
    qtbot.waitUntil(lambda: st.stepper is not None and len(st.stepper) > 0, timeout=20_000)
    spacing = st.detail.fontMetrics().lineSpacing()
    plain = st.detail_area.height()
    assert DETAIL_LINES * spacing <= plain < LAYER_DETAIL_LINES * spacing
    result = run_isolated(KERAS)
    w.model.set_tapes(list(result.tapes), names_of(result), source=KERAS)
    qtbot.waitUntil(lambda: st.stepper is not None and len(st.stepper) > 5, timeout=20_000)
    layered = st.detail_area.height()
    assert layered >= LAYER_DETAIL_LINES * spacing  # δ, δz, ∂L/∂W and ∂L/∂b, δx: all shown
    while st.stepper.position < len(st.stepper):
        st.step_forward()
        assert st.detail_area.height() == layered  # stepping never moves the graph


def test_a_layer_whose_output_has_no_gradient_yet_falls_back_to_the_ops_text() -> None:
    """A layer box the pass has not given a δ (a soak found it: float(None) in a slot)."""
    from tapeviz.models.backward.stepper import BackwardStepper
    from tapeviz.ui.stepper.layer_steps import layer_detail, next_position

    result = run_isolated(KERAS)
    model = GraphModel(result.tapes, names_of(result), source=KERAS)
    call = model.entry.selected
    stepper = BackwardStepper(model.records, call.targets, call.sources, model.names)
    while layer_detail(model, stepper) is None and stepper.position < len(stepper):
        stepper.jump(next_position(model, stepper))
    assert layer_detail(model, stepper) is not None  # a layer just finished: explained whole
    stepper.adjoints_at = lambda k=None: {}  # type: ignore[method-assign]
    assert layer_detail(model, stepper) is None  # no δ for its output: the op's own text
