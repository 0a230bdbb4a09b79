"""The Graph menu: export, layout engine and display options, saved with the session."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from tapeviz.models.graph import layout
from tapeviz.models.session.file import Session
from tapeviz.ui import MainWindow


def quadratic(qtbot: QtBot, w: MainWindow) -> None:
    w.load_preset("quadratic")
    qtbot.waitUntil(lambda: w._cancel is None and bool(w.graph.items), timeout=10_000)


def test_export_is_disabled_without_a_graph_and_writes_every_format(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert not any(a.isEnabled() for a in window.graph_export_actions)
    quadratic(qtbot, window)
    assert all(a.isEnabled() for a in window.graph_export_actions)
    png = tmp_path / "chosen.png"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(png), ""))
    window.graph_export_actions[0].trigger()  # the menu item asks for a name, then writes
    assert QImage(str(png)).width() > 200 and "chosen.png" in window.statusBar().currentMessage()
    svg = window.export_graph("svg", tmp_path / "g.svg")
    assert ET.parse(svg).getroot().tag.endswith("svg")
    dot = window.export_graph("dot", tmp_path / "g.dot").read_text("utf-8")
    assert dot.startswith("digraph") and ("multiply" in dot or "×" in dot)


def test_cannot_write_is_reported_in_the_status_bar(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    quadratic(qtbot, window)
    assert window.export_graph("dot", tmp_path / "no-such-dir" / "g.dot") is None
    assert window.statusBar().currentMessage().startswith("⚠")


def test_display_options_change_the_graph(qtbot: QtBot, window: MainWindow) -> None:
    quadratic(qtbot, window)
    before = len(window.model.nodes)
    window.option_actions["fold_constants"].trigger()
    assert window.model.options.fold_constants and len(window.model.nodes) < before
    window.option_actions["fold_constants"].trigger()
    assert len(window.model.nodes) == before
    window.option_actions["edge_labels"].trigger()
    qtbot.waitUntil(lambda: bool(window.graph.edge_items))
    assert window.graph.show_edge_labels
    assert any(e.text.isVisible() and "∂" in e.text.text() for e in window.graph.edge_items)
    window.layout_actions["grandalf"].trigger()
    assert window.graph.engine == "grandalf"
    qtbot.waitUntil(lambda: window.graph.layout is not None and bool(window.graph.items))
    assert window.layout_actions["grandalf"].isChecked()
    assert window.layout_actions["dot"].isEnabled() == layout.dot_available()


def test_graph_settings_travel_with_the_session(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    quadratic(qtbot, window)
    window.set_graph_settings(fold_constants=True, edge_labels=True, tape_groups=False)
    path = tmp_path / "s.tapeviz"
    window.save_session(path)
    doc = json.loads(path.read_text("utf-8"))
    assert doc["settings"]["graph"]["fold_constants"] is True
    window.set_graph_settings(fold_constants=False, edge_labels=False, tape_groups=True)
    assert window.open_session(path)
    assert window.graph_settings()["fold_constants"] and window.graph_settings()["edge_labels"]
    assert not window.graph_settings()["tape_groups"]
    assert window.option_actions["fold_constants"].isChecked()


def test_bad_graph_settings_in_a_session_are_ignored(window: MainWindow) -> None:
    before = window.graph_settings()
    settings = {"graph": {"layout": "nope", "fold_constants": "yes", "zoom": 3}}
    window.apply_session(Session(source="x*2", settings=settings), run_now=False)
    assert window.graph_settings() == before
