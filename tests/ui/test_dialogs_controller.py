"""The dialogs controller on its own: a bare main window and a settings file.

The language switch that rebuilds a whole window is tested with the real window in
test_i18n.py; here, everything that does not need one.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMainWindow, QMenu
from pytestqt.qtbot import QtBot

from tapeviz import __version__
from tapeviz.models.session.presets import PRESETS
from tapeviz.ui import i18n
from tapeviz.ui.window.dialogs import DialogsController


@pytest.fixture
def parts(qtbot: QtBot, tmp_path: Path) -> SimpleNamespace:
    store = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = QMainWindow()
    qtbot.addWidget(window)
    restored: list[bool] = []
    dialogs = DialogsController(window, lambda: restored.append(True), lambda: store)
    i18n.install("en")
    return SimpleNamespace(window=window, store=store, restored=restored, dialogs=dialogs)


def test_the_language_menu_shows_the_saved_choice(parts: SimpleNamespace) -> None:
    parts.store.setValue("prefs/language", "en")
    view = QMenu()  # the View menu owns the submenu
    menu = parts.dialogs.add_language_menu(view)
    checked = [a.objectName() for a in menu.actions() if a.isChecked()]
    assert [a.text() for a in menu.actions()] == ["System language", "English", "简体中文"]
    assert checked == ["language:en"] and parts.dialogs.language_group.isExclusive()


def test_the_same_language_keeps_the_window(parts: SimpleNamespace) -> None:
    assert parts.dialogs.set_language("en") is parts.window
    assert parts.store.value("prefs/language") == "en" and i18n.installed() == "en"


def test_accepted_preferences_are_applied(qtbot: QtBot, parts: SimpleNamespace) -> None:
    dialog = parts.dialogs.preferences()
    assert dialog.isModal() and dialog.parent() is parts.window
    dialog.theme.setCurrentIndex(1)
    dialog.accept()
    assert parts.restored == [True] and parts.store.value("prefs/theme") == "dark"
    assert parts.window.statusBar().currentMessage() == "Preferences saved."


def test_code_export_and_about(parts: SimpleNamespace) -> None:
    dialog = parts.dialogs.export_code(PRESETS["micrograd-neuron"])
    assert list(dialog.texts) == ["tensorflow", "pytorch", "jax"]
    dialog.close()
    box = parts.dialogs.about()
    assert box.windowTitle() == "About tapeviz" and f"tapeviz {__version__}" in box.text()
    assert box.isVisible() and box.parent() is parts.window  # the window's theme and size
    box.close()
