"""Presenter mode: text scaling everywhere, dark/light themes with contrast, clean mode, keys."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QPalette
from pytestqt.qtbot import QtBot

from tapeviz.ui import MainWindow, workers
from tapeviz.ui.theme import DARK, LIGHT, Theme
from tapeviz.ui.window.presenter import contrast


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    w = MainWindow()
    w.graph.animation_ms = 0
    qtbot.addWidget(w)
    with qtbot.waitActive(w):
        w.show()
        w.activateWindow()
    w.load_preset("quadratic")
    qtbot.waitUntil(lambda: w.last_result is not None and w._cancel is None)
    yield w
    workers.wait_all()


def test_ctrl_plus_scales_every_font_and_the_graph(qtbot: QtBot, window: MainWindow) -> None:
    editor_pt = window.editor.font().pointSizeF()
    log_pt = window.stepper.log.font().pointSizeF()
    window.graph.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(window, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)
    assert window.font_scale == pytest.approx(1.5)
    assert window.editor.font().pointSizeF() == pytest.approx(editor_pt * 1.5)
    assert window.stepper.log.font().pointSizeF() == pytest.approx(log_pt * 1.5)
    assert window.graph.font_scale == pytest.approx(1.5)
    qtbot.keyClick(window, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert window.font_scale == pytest.approx(1.25)
    window.set_font_scale(1.0)
    assert window.editor.font().pointSizeF() == pytest.approx(editor_pt)


def test_widgets_created_after_scaling_are_not_scaled_twice(window: MainWindow) -> None:
    window.set_font_scale(1.5)
    window.variables.add_row("z", 1.0)  # a new combo box inherits the scaled font
    combo = window.variables.table.cellWidget(window.variables.table.rowCount() - 1, 2)
    window.set_font_scale(2.0)
    first = window.variables.table.cellWidget(0, 2)
    assert combo.font().pointSizeF() == pytest.approx(first.font().pointSizeF())


def test_dark_theme_and_preferences_are_remembered(qtbot: QtBot, window: MainWindow) -> None:
    window.dark_action.trigger()
    assert window.theme is DARK
    assert window.palette().color(QPalette.ColorRole.Window).lightness() < 80
    assert window.graph.backgroundBrush().color().name().upper() == DARK.background.upper()
    window.set_font_scale(1.5)
    window.close()
    again = MainWindow()
    qtbot.addWidget(again)
    assert again.theme is DARK and again.font_scale == pytest.approx(1.5)
    again.dark_action.trigger()
    assert again.theme is LIGHT


@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=lambda t: t.name)
def test_theme_text_colours_have_contrast(theme: Theme) -> None:
    bg = theme.background
    assert contrast(theme.text, bg) >= 7
    assert contrast(theme.muted, bg) >= 4.5
    assert contrast(theme.gradient, bg) >= 4.5
    for kind, fill in theme.fills.items():
        assert contrast(theme.text, fill) >= 4.5, kind


def test_clean_mode_hides_the_editor_and_comes_back(qtbot: QtBot, window: MainWindow) -> None:
    ctrl_shift = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(window, Qt.Key.Key_H, ctrl_shift)
    assert not window.code_dock.isVisible() and not window.variables_dock.isVisible()
    assert window.graph.isVisible()
    window.clean_action.trigger()
    assert window.code_dock.isVisible()


def test_keyboard_only_run_and_step(qtbot: QtBot, window: MainWindow) -> None:
    window.editor.setFocus()
    window.editor.setPlainText("x*x")
    qtbot.keyClick(window.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window._cancel is None and window.last_result.value is not None)
    qtbot.waitUntil(lambda: [n.op for n in window.model.nodes.values() if n.op] == ["multiply"])
    window.stepper.setFocus()
    before = window.stepper.slider.value()
    qtbot.keyClick(window.stepper, Qt.Key.Key_Home)
    assert window.stepper.slider.value() == 0 != before
    qtbot.keyClick(window.stepper, Qt.Key.Key_Right)
    assert window.stepper.slider.value() == 1
