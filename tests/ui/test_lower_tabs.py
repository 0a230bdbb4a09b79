"""The lower tabs on their own: a model, a graph view and a splitter in a bare main window."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMainWindow, QSplitter
from pytestqt.qtbot import QtBot

from tapeviz.models.descent.demos import studio_presets
from tapeviz.models.graph.model import GraphModel
from tapeviz.sandbox import VariableSpec, run
from tapeviz.ui.graph.expression_panel import names_of
from tapeviz.ui.graph.view import GraphView
from tapeviz.ui.window.lower_tabs import STEPPER_TAB, STUDIO_TAB, LowerTabs


@pytest.fixture
def parts(qtbot: QtBot) -> SimpleNamespace:
    window = QMainWindow()
    qtbot.addWidget(window)
    model = GraphModel()
    graph = GraphView(model)
    graph.animation_ms = 0
    splitter = QSplitter(Qt.Orientation.Vertical, window)
    window.setCentralWidget(splitter)
    splitter.addWidget(graph)
    tabs = LowerTabs(model, graph, splitter)
    splitter.addWidget(tabs)
    window.resize(1000, 800)
    window.show()
    qtbot.waitExposed(window)
    yield SimpleNamespace(window=window, model=model, splitter=splitter, tabs=tabs)
    tabs.studio.shutdown()


def share(splitter: QSplitter) -> float:
    return splitter.sizes()[0] / sum(splitter.sizes())


def test_the_keys_follow_the_tab_in_front(parts: SimpleNamespace) -> None:
    tabs = parts.tabs
    assert tabs.widget(STEPPER_TAB) is tabs.stepper and tabs.widget(STUDIO_TAB) is tabs.studio
    assert all(sc.parent() is parts.window for sc in tabs.studio_shortcuts)  # window keys
    tabs.show_view("studio")
    assert tabs.studio_view
    assert all(sc.isEnabled() for sc in tabs.studio_shortcuts)
    assert not any(sc.isEnabled() for sc in tabs.stepper.shortcuts)
    tabs.show_view("graph")
    assert not tabs.studio_view and not any(sc.isEnabled() for sc in tabs.studio_shortcuts)
    assert all(sc.isEnabled() for sc in tabs.stepper.shortcuts)
    tabs.show_view("plots")
    assert tabs.currentWidget() is tabs.plots
    assert not any(sc.isEnabled() for sc in [*tabs.studio_shortcuts, *tabs.stepper.shortcuts])


def test_each_tab_keeps_its_share_of_the_splitter(parts: SimpleNamespace) -> None:
    tabs, splitter = parts.tabs, parts.splitter
    tabs.show_view("studio")
    assert share(splitter) == pytest.approx(0.36, abs=0.02)
    splitter.moveSplitter(round(sum(splitter.sizes()) * 0.5), 1)  # the lecturer drags
    tabs.show_view("stepper")
    assert share(splitter) == pytest.approx(0.6, abs=0.02)
    tabs.show_view("studio")
    assert share(splitter) == pytest.approx(0.5, abs=0.02)
    # (and the timeline's, the plots', the network's)
    shares = pytest.approx([0.6, 0.5, 0.5, 0.4, 0.25], abs=0.02)
    assert tabs.split_state() == shares
    tabs.restore_split(["0.95", 0.2])  # clamped to 0.1-0.9, applied at once (a layout saved
    assert tabs.split_state() == [0.9, 0.2, 0.5, 0.4, 0.25]  # before the later tabs: theirs stay)
    assert share(splitter) == pytest.approx(0.2, abs=0.02)
    tabs.restore_split([0.3, 0.4, 0.7])
    assert tabs.split_state() == [0.3, 0.4, 0.7, 0.4, 0.25]
    tabs.restore_split([0.3, 0.4, 0.7, 0.8])
    assert tabs.split_state() == [0.3, 0.4, 0.7, 0.8, 0.25]
    tabs.restore_split([0.3, 0.4, 0.7, 0.8, 0.3])
    assert tabs.split_state() == [0.3, 0.4, 0.7, 0.8, 0.3]
    tabs.restore_split(None)
    tabs.restore_split([0.5])
    tabs.restore_split([0.5] * 6)
    assert tabs.split_state() == [0.3, 0.4, 0.7, 0.8, 0.3]  # anything else is ignored


def test_transport_drives_the_stepper_or_the_studio(qtbot: QtBot, parts: SimpleNamespace) -> None:
    tabs = parts.tabs
    variables = [VariableSpec("x", 3.0), VariableSpec("a", 2.0, "watched")]
    result = run("a*x**2 + x", mode="expression", variables=variables)
    parts.model.set_tapes([t.tape for t in result.tapes], names_of(result))
    tabs.transport("start")
    assert tabs.stepper.stepper.position == 0
    tabs.transport("forward")
    tabs.transport("forward")
    tabs.transport("back")
    assert tabs.stepper.stepper.position == 1
    preset = studio_presets()["saddle"]
    tabs.show_view("studio")
    tabs.studio.set_config(preset.config, recompute=False)
    with qtbot.waitSignal(tabs.studio.busyChanged, timeout=30_000, check_params_cb=lambda b: not b):
        tabs.studio.set_problem(preset.problem)
    tabs.transport("forward")
    tabs.transport("forward")
    tabs.transport("back")
    assert tabs.studio.k == 1 and tabs.stepper.stepper.position == 1  # the stepper stays
    tabs.transport("play")
    assert tabs.studio.playing
    tabs.transport("play")
    tabs.transport("start")
    assert not tabs.studio.playing and tabs.studio.k == 0
