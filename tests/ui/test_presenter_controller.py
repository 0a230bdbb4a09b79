"""The presenter controller on its own: a bare main window, an editor, docks and fake views."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QMenu
from pytestqt.qtbot import QtBot

from tapeviz.ui.theme import DARK, LIGHT, Theme
from tapeviz.ui.window.editor import CodeEditor
from tapeviz.ui.window.presenter import SCALES, PresenterController


class View:
    """Records what a graph or studio is told."""

    def __init__(self) -> None:
        self.scales: list[float] = []
        self.themes: list[Theme] = []

    def set_font_scale(self, scale: float) -> None:
        self.scales.append(scale)

    def set_theme(self, theme: Theme) -> None:
        self.themes.append(theme)


@pytest.fixture
def setup(qtbot: QtBot, tmp_path: Path) -> SimpleNamespace:
    store = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = QMainWindow()
    qtbot.addWidget(window)
    editor = CodeEditor()
    window.setCentralWidget(editor)
    docks = []
    for name in ("code", "variables"):
        dock = QDockWidget(name, window)
        dock.setWidget(QLabel(name))
        window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
        docks.append(dock)
    window.resize(1200, 800)
    window.show()
    graph, studio, messages = View(), View(), []
    presenter = PresenterController(
        window, graph, studio, editor, docks[0], docks, messages.append, lambda: store
    )
    return SimpleNamespace(presenter=presenter, window=window, editor=editor, docks=docks,
                           graph=graph, studio=studio, messages=messages, store=store)  # fmt: skip


def test_the_scale_reaches_every_widget_and_view_and_is_kept(setup: SimpleNamespace) -> None:
    presenter, graph, studio, messages = setup.presenter, setup.graph, setup.studio, setup.messages
    label = setup.docks[1].widget()
    editor_pt = setup.editor.font().pointSizeF()
    base = label.font().pointSizeF()
    presenter.zoom_text(+1)
    presenter.zoom_text(+1)
    assert presenter.font_scale == pytest.approx(1.5)
    assert label.font().pointSizeF() == pytest.approx(base * 1.5)
    assert graph.scales == studio.scales == pytest.approx([1.25, 1.5])
    assert setup.editor.font().pointSizeF() == pytest.approx(editor_pt * 1.5)
    assert messages[-1] == "Text size 150 %" and float(setup.store.value("prefs/font_scale")) == 1.5
    presenter.set_font_scale(99)
    assert presenter.font_scale == SCALES[-1]  # clamped to the ladder
    presenter.reset_action.trigger()
    assert label.font().pointSizeF() == pytest.approx(base)


def test_the_theme_dresses_the_window_and_the_views(setup: SimpleNamespace) -> None:
    presenter = setup.presenter
    presenter.dark_action.trigger()
    assert presenter.theme is DARK and setup.graph.themes == setup.studio.themes == [DARK]
    assert setup.window.palette().color(QPalette.ColorRole.Window).lightness() < 80
    assert setup.editor.theme is DARK
    assert setup.store.value("prefs/theme") == "dark"
    presenter.set_theme(LIGHT)
    assert not presenter.dark_action.isChecked()


def test_preferences_are_restored_only_when_they_differ(setup: SimpleNamespace) -> None:
    presenter, graph, store = setup.presenter, setup.graph, setup.store
    presenter.restore_preferences()
    assert graph.scales == [] and graph.themes == []  # the defaults: nothing to apply
    store.setValue("prefs/theme", "dark")
    store.setValue("prefs/font_scale", "1.5")
    presenter.restore_preferences()
    assert presenter.theme is DARK and presenter.font_scale == pytest.approx(1.5)
    store.setValue("prefs/font_scale", "huge")
    presenter.restore_preferences()
    assert presenter.font_scale == pytest.approx(1.0)  # unreadable: the normal size


def test_clean_mode_and_the_menu_order(setup: SimpleNamespace) -> None:
    presenter, docks = setup.presenter, setup.docks
    presenter.clean_action.trigger()
    assert not any(d.isVisible() for d in docks) and presenter.clean_action.isChecked()
    presenter.set_clean(False)
    assert all(d.isVisible() for d in docks) and not presenter.clean_action.isChecked()
    menu = QMenu()
    presenter.add_actions(menu)
    keys = [a.shortcut().toString() for a in menu.actions()]
    assert keys == ["F11", "", "Ctrl++", "Ctrl+-", "Ctrl+0", "Ctrl+Shift+D", "Ctrl+Shift+H"]
