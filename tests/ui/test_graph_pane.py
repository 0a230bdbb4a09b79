"""The graph pane on its own: a model, a status callback and a parent widget, no main window."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMenuBar, QWidget
from pytestqt.qtbot import QtBot

from tapeviz.models.graph.model import GraphModel
from tapeviz.sandbox import VariableSpec, run
from tapeviz.ui.graph.expression_panel import names_of
from tapeviz.ui.graph.pane import GraphPane


@pytest.fixture
def pane(qtbot: QtBot) -> tuple[GraphPane, list[str]]:
    host = QWidget()
    qtbot.addWidget(host)
    messages: list[str] = []
    pane = GraphPane(GraphModel(), messages.append, host)
    pane.view.animation_ms = 0
    qtbot.addWidget(pane.view)
    pane.view.resize(600, 400)
    pane.view.show()
    return pane, messages


def show_quadratic(pane: GraphPane) -> None:
    variables = [VariableSpec("x", 3.0), VariableSpec("a", 2.0, "watched")]
    result = run("a*x**2 + x", mode="expression", variables=variables)
    pane.model.set_tapes([t.tape for t in result.tapes], names_of(result))


def test_its_menu_lists_the_actions_it_owns(pane: tuple[GraphPane, list[str]]) -> None:
    graph, _ = pane
    bar = QMenuBar()
    menu = graph.add_menu(bar)
    assert menu.objectName() == "graphMenu" and menu.actions()[0] is graph.fit_action
    names = [a.objectName() for m in menu.actions() if m.menu() for a in m.menu().actions()]
    assert names == ["graphExport:png", "graphExport:svg", "graphExport:dot",
                     "graphLayout:layered", "graphLayout:grandalf", "graphLayout:dot"]  # fmt: skip
    assert [a.objectName() for a in menu.actions() if a.objectName().startswith("graphOption")] == [
        f"graphOption:{k}"
        for k in ("fold_constants", "hide_unreached", "fold_layers", "edge_labels", "tape_groups")
    ]


def test_actions_follow_the_model_and_settings_the_view(
    qtbot: QtBot, pane: tuple[GraphPane, list[str]]
) -> None:
    graph, _ = pane
    graph.update_actions()
    assert not graph.fit_action.isEnabled()
    assert not any(a.isEnabled() for a in graph.graph_export_actions)
    show_quadratic(graph)
    graph.update_actions()
    assert graph.fit_action.isEnabled() and all(a.isEnabled() for a in graph.graph_export_actions)
    before = len(graph.model.nodes)
    graph.option_actions["fold_constants"].trigger()
    assert graph.graph_settings()["fold_constants"] and len(graph.model.nodes) < before
    graph.set_graph_settings(edge_labels=True, tape_groups=False, zoom=3, layout="nope")
    assert graph.view.show_edge_labels and not graph.view.show_groups
    assert graph.option_actions["edge_labels"].isChecked()
    assert graph.graph_settings()["layout"] == "layered"  # unknown keys and engines are ignored


def test_fit_after_the_next_runs_layout_only_when_asked(
    qtbot: QtBot, pane: tuple[GraphPane, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    graph, _ = pane
    show_quadratic(graph)
    fits: list[bool] = []
    monkeypatch.setattr(graph.view, "fit", lambda: fits.append(True))
    graph.view.rebuild()
    assert fits == []
    graph.fit_after_next_layout()
    graph.view.rebuild()  # the graph on screen, laid out again (new settings): not the one
    assert fits == []
    show_quadratic(graph)  # the next run's tapes
    graph.view.rebuild()
    assert fits == [True]  # once, for the next run's layout only


def test_export_writes_files_and_reports_to_status(
    pane: tuple[GraphPane, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    graph, messages = pane
    assert graph.export_graph("png", tmp_path / "g.png") is None
    assert "no graph" in messages[-1]
    show_quadratic(graph)
    assert graph.export_graph("dot", tmp_path / "g.dot").read_text("utf-8").startswith("digraph")
    assert messages[-1] == "Graph exported to g.dot"
    chosen = tmp_path / "asked.svg"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(chosen), ""))
    graph.graph_export_actions[1].trigger()
    assert chosen.read_text("utf-8").lstrip().startswith("<?xml")
    assert graph.export_graph("dot", tmp_path / "missing" / "g.dot") is None
    assert messages[-1].startswith("⚠ Cannot write")
