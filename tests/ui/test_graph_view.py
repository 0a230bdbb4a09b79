"""The graph view, driven with pytest-qt: build, select, navigate, zoom, live edit, export."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QGraphicsScene
from pytestqt.qtbot import QtBot

import tapeviz as tv
from tapeviz.models.graph.model import TOO_LARGE, GraphModel, GraphOptions
from tapeviz.sandbox import VariableSpec, run
from tapeviz.ui import workers
from tapeviz.ui.graph.expression_panel import ExpressionPanel, names_of
from tapeviz.ui.graph.view import GraphView
from tapeviz.ui.theme import DARK

SEEDS = Path(__file__).resolve().parents[2] / "assets" / "seeds"
CELLS = {c["name"]: c for c in json.loads((SEEDS / "seeds.json").read_text("utf-8"))["cells"]}
QUAD = [
    VariableSpec("x", 0.0),
    VariableSpec("a", 1.0, "watched"),
    VariableSpec("b", -2.0, "watched"),
    VariableSpec("c", 1.0, "constant"),
]


def seed_model(name: str) -> tuple[GraphModel, object]:
    chain = [*CELLS[name]["after"], name]
    source = "\n".join((SEEDS / CELLS[n]["file"]).read_text("utf-8") for n in chain)
    result = run(source)
    assert result.error is None or CELLS[name]["raises"]
    return GraphModel(result.tapes, names_of(result)), result


def make_view(view: GraphView, model: GraphModel) -> GraphView:
    """The shown ``graph_view`` drawing ``model``."""
    view.set_model(model)
    return view


def texts(view: GraphView) -> dict[str, list[str]]:
    return {nid: [t for t, _ in item.lines()] for nid, item in view.items.items()}


def test_seed_x_times_x_with_its_gradient(qtbot: QtBot, graph_view: GraphView) -> None:
    model, _ = seed_model("000_2_1_constant_watch")
    view = make_view(graph_view, model)
    assert texts(view) == {"s0": ["x", "= 3", "∂ = 6"], "o0": ["y = ×", "= 9", "∂ = 1"]}
    assert len(view.edge_items) == 2  # x feeds both inputs of x*x
    assert {e.port for e in view.edge_items} == {0, 1}


def test_seed_quadratic_with_watched_constants(qtbot: QtBot, graph_view: GraphView) -> None:
    model, _ = seed_model("003_1_2_watched_constants")
    view = make_view(graph_view, model)
    lines = {t[0]: t for t in texts(view).values()}
    assert lines["x"] == ["x", "= 0", "∂ = −2"]
    assert lines["a"] == ["a", "= 1", "∂ = 0"] and lines["c"] == ["c", "= 1", "∂ = 1"]
    assert lines["y = +"] == ["y = +", "= 1", "∂ = 1"]
    assert [n.kind for n in model.nodes.values()].count("watched") == 3


def test_seed_nested_tapes_show_each_tape(qtbot: QtBot, graph_view: GraphView) -> None:
    model, _ = seed_model("000_2_2_3_higher_order")
    view = make_view(graph_view, model)
    assert [e.name for e in model.entries] == ["tape_2", "tape_1"]
    assert model.current == 0  # the outer tape first, the inner one framed in it
    assert len([n for n in model.nodes.values() if n.op]) == 5
    g_1 = texts(view)[model.node_for_tensor(model.entries[0].targets[0])]
    assert g_1 == ["g_1 = ×", "= 27", "∂ = 1"]  # the first derivative, as a value
    assert texts(view)["s0"] == ["x", "= 3", "∂ = 18"]  # the second, as x's gradient
    assert [g.label.text() for g in view.group_items] == ["tape “tape_1”"]
    model.select(1)
    assert len(view.items) == 3  # the inner tape alone: x, 3, pow


def test_unwatched_seed_has_no_gradients(qtbot: QtBot, graph_view: GraphView) -> None:
    model, _ = seed_model("000_2_1_constant_unwatched")
    view = make_view(graph_view, model)
    assert all(len(lines) == 2 for lines in texts(view).values())


def test_click_selects_and_highlights_the_paths_to_the_target(
    qtbot: QtBot, graph_view: GraphView
) -> None:
    model, _ = seed_model("003_1_1_quadratic_gradient")
    view = make_view(graph_view, model)
    x = model.node_for_tensor(next(n.tensor_id for n in model.nodes.values() if n.label == "x"))
    assert x is not None
    with qtbot.waitSignal(view.nodeSelected) as sig:
        point = view.mapFromScene(view.items[x].scenePos())
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert sig.args == [x]
    lit = sorted(nid for nid, item in view.items.items() if item.highlighted)
    assert lit == ["o0", "o1", "o2", "o3", "o4", "s0"]
    assert sum(e.highlighted for e in view.edge_items) == 6


def test_keyboard_navigation_and_fit(qtbot: QtBot, graph_view: GraphView) -> None:
    model, _ = seed_model("003_1_1_quadratic_gradient")
    view = make_view(graph_view, model)
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Right)  # nothing selected: select the first node
    assert view.selected_node() == "s0"
    thick = view.items["s0"].pen().widthF()
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert view.selected_node() == "o0"
    assert view.items["o0"].pen().widthF() == thick
    assert view.items["s0"].pen().widthF() < thick  # not on o0's path: its border is thin again
    qtbot.keyClick(view, Qt.Key.Key_Left)
    assert view.selected_node() == "s0"
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert all(item.pen().widthF() < thick for item in view.items.values())
    qtbot.keyClick(view, Qt.Key.Key_Right)
    view.zoom(4.0)
    zoomed = view.transform().m11()
    qtbot.keyClick(view, Qt.Key.Key_F)
    assert view.transform().m11() < zoomed
    rect = view.mapToScene(view.viewport().rect()).boundingRect()
    assert rect.contains(view.scene().itemsBoundingRect())


def test_wheel_zoom_is_bounded(qtbot: QtBot, graph_view: GraphView) -> None:
    model, _ = seed_model("000_2_1_constant_watch")
    view = make_view(graph_view, model)
    for _ in range(60):
        view.zoom(1.5)
    assert view.transform().m11() == pytest.approx(8.0)
    for _ in range(100):
        view.zoom(0.5)
    assert view.transform().m11() == pytest.approx(0.05)


def test_live_update_debounced_and_dimmed_on_errors(qtbot: QtBot) -> None:
    model = GraphModel()
    view = GraphView(model)
    view.animation_ms = 0
    panel = ExpressionPanel(model, view, QUAD)
    qtbot.addWidget(panel)
    panel.show()
    with qtbot.waitSignal(panel.evaluated, timeout=2000):
        qtbot.keyClicks(panel.edit, "a*x**2 + b*x + c")
    assert panel.timer.interval() == 300
    assert len([n for n in model.nodes.values() if n.op]) == 5
    assert not view.dimmed and panel.error.text() == ""
    with qtbot.waitSignal(panel.evaluated, timeout=2000):
        qtbot.keyClicks(panel.edit, " +")
    assert view.dimmed and len(view.items) == 10  # the last good graph stays, dimmed
    assert "col" in panel.error.text() and "syntax error" in panel.error.text()
    with qtbot.waitSignal(panel.evaluated, timeout=2000):
        qtbot.keyClicks(panel.edit, " z")
    assert "unknown name 'z' — add it as a variable?" in panel.error.text()
    with qtbot.waitSignal(panel.evaluated, timeout=2000):
        panel.edit.setText("x^3")
    assert not view.dimmed and "^ was read as **" in panel.notes.text()
    assert next(t for t in texts(view).values() if t[0] == "f = ^")[2] == "∂ = 1"


def test_exports_open(qtbot: QtBot, tmp_path: Path, graph_view: GraphView) -> None:
    model, _ = seed_model("003_1_2_watched_constants")
    view = make_view(graph_view, model)
    png = view.export_png(tmp_path / "g.png", scale=3.0)
    image = QImage(str(png))
    assert not image.isNull() and image.width() > 3 * 400
    svg = view.export_svg(tmp_path / "g.svg")
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg") and len(list(root.iter())) > 20
    dot = view.dot_text()
    assert dot.startswith("digraph tape {") and "rankdir=LR" in dot and "->" in dot


def test_too_large_tape_offers_the_folded_view(qtbot: QtBot, graph_view: GraphView) -> None:
    x = tv.Variable(1.0)
    with tv.GradientTape() as tape:
        y = x
        for _ in range(TOO_LARGE + 1):
            y = y * 1.0001
    model = GraphModel([tape])
    view = make_view(graph_view, model)
    assert model.too_large == TOO_LARGE + 1 and view.items == {}
    banner = view.findChild(type(view._banner), "graphTooLarge")
    assert banner is not None and banner.isVisible()
    assert f"{TOO_LARGE + 1:,} ops" in banner.label.text()
    with qtbot.waitSignal(view.filled, timeout=10_000):
        qtbot.mouseClick(banner.button, Qt.MouseButton.LeftButton)
    assert not banner.isVisible()
    assert "f0" in view.items and len([n for n in model.nodes if n.startswith("o")]) == 400


def test_big_graphs_are_laid_out_in_a_worker(qtbot: QtBot) -> None:
    x = tv.Variable(1.0)
    with tv.GradientTape() as tape:
        y = x
        for _ in range(400):
            y = tv.sin(y)
    model = GraphModel([tape])
    view = GraphView()
    view.animation_ms = 0
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.filled, timeout=10_000):
        view.set_model(model)
        assert view.items == {}  # not laid out yet: the UI thread returned at once
    assert len(view.items) == 401
    workers.wait_all()


def test_nan_values_use_the_warning_colour(qtbot: QtBot, graph_view: GraphView) -> None:
    x = tv.Variable(-1.0)
    with tv.GradientTape() as tape:
        y = tv.log(x)
    tape.gradient(y, x)
    view = make_view(graph_view, GraphModel([tape]))
    assert texts(view)["o0"][1] == "= nan ⚠"  # the op that made the nan is marked
    view.export_png(Path(qtbot.__class__.__name__ + ".png").with_suffix(".png")).unlink()


def test_theme_scale_and_options_rebuild(qtbot: QtBot, graph_view: GraphView) -> None:
    model, _ = seed_model("003_1_1_quadratic_gradient")
    view = make_view(graph_view, model)
    width = view.items["o0"].size()[0]
    view.set_font_scale(1.6)
    assert view.items["o0"].size()[0] > width * 1.4
    view.set_theme(DARK)
    assert view.backgroundBrush().color().name() == DARK.background.lower()
    model.set_options(GraphOptions(fold_constants=True))
    assert "^2" in [item.node.symbol for item in view.items.values()]
    assert np.isfinite(view.layout.width)


def test_nested_tape_is_framed_and_edges_can_show_local_derivatives(
    qtbot: QtBot, graph_view: GraphView
) -> None:
    model, _ = seed_model("000_2_2_3_higher_order")
    view = make_view(graph_view, model)
    assert model.current == 0  # the outer tape, which also recorded the inner tape's op
    assert [g.name for g in view.group_items] == ["tape_1"]
    assert view.group_items[0].label.text() == "tape “tape_1”"
    view.set_edge_labels(True)
    labels = sorted(e.text.text() for e in view.edge_items if e.text.isVisible())
    assert "∂/∂x = 27" in labels  # d(x**3)/dx at 3
    view.set_edge_labels(False)
    assert not any(e.text.isVisible() for e in view.edge_items)


def test_the_fit_holds_the_frames_without_measuring_the_items(
    qtbot: QtBot, graph_view: GraphView, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The planned boxes (the frames' room included) are the fit's: no walk over the items."""
    model, _ = seed_model("000_2_2_3_higher_order")
    view = make_view(graph_view, model)
    assert view.group_items and view.extent is not None

    def measured(self: QGraphicsScene) -> QRectF:
        raise AssertionError("the fit measured every item")

    monkeypatch.setattr(QGraphicsScene, "itemsBoundingRect", measured)
    content = view.fitting.content()
    for item in [*view.group_items, *view.items.values()]:
        assert content.contains(item.sceneBoundingRect())
    view.fit()
    seen = view.mapToScene(view.viewport().rect()).boundingRect()
    assert seen.contains(view.group_items[0].sceneBoundingRect())
