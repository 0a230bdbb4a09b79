"""The dark theme everywhere: the error line readable (>= 4.5:1), dialogs and tooltips dark."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QFileDialog
from pytestqt.qtbot import QtBot

from tapeviz.models.session.file import Session
from tapeviz.ui import MainWindow
from tapeviz.ui.theme import DARK, LIGHT, Theme
from tapeviz.ui.window.editor import SYNTAX
from tapeviz.ui.window.presenter import contrast


def marked(qtbot: QtBot, w: MainWindow) -> None:
    w.apply_session(Session(source="y = 1\nz = y +\n", mode="script"))
    qtbot.waitUntil(lambda: w._cancel is None and w.editor.error_line == 2, timeout=20_000)


@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=lambda t: t.name)
def test_the_error_line_keeps_its_text_readable(
    qtbot: QtBot, window: MainWindow, theme: Theme
) -> None:
    window.set_theme(LIGHT if theme is DARK else DARK)  # marked in the other theme first
    marked(qtbot, window)
    window.set_theme(theme)  # the mark follows the theme
    (mark,) = window.editor.extraSelections()
    background = mark.format.background().color().name()
    text = window.editor.palette().color(QPalette.ColorRole.Text).name()
    assert contrast(text, background) >= 4.5
    for role, colour in SYNTAX[theme.name].items():
        if role != "gutter":
            assert contrast(colour, background) >= 4.5, role
    assert contrast(background, theme.background) >= 1.3  # and the line still stands out


@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=lambda t: t.name)
def test_the_error_text_has_contrast(qtbot: QtBot, window: MainWindow, theme: Theme) -> None:
    window.set_theme(theme)
    marked(qtbot, window)
    label = window.error_label
    fg = label.palette().color(label.foregroundRole()).name()
    bg = window.palette().color(QPalette.ColorRole.Window).name()
    assert contrast(fg, bg) >= 4.5


def test_dialogs_and_tooltips_are_dark_in_the_dark_theme(window: MainWindow) -> None:
    window.set_theme(DARK)
    assert QApplication.testAttribute(Qt.ApplicationAttribute.AA_DontUseNativeDialogs)
    files = QFileDialog(window)  # what getOpenFileName shows: Qt's own dialog
    prefs = window.preferences()
    export = window.export_code()
    for dialog in (files, prefs, export):
        assert dialog.palette().color(QPalette.ColorRole.Window).lightness() < 80, dialog
        dialog.close()
    from PySide6.QtWidgets import QToolTip

    assert QToolTip.palette().color(QPalette.ColorRole.ToolTipBase).lightness() < 80
    window.set_theme(LIGHT)
    assert not QApplication.testAttribute(Qt.ApplicationAttribute.AA_DontUseNativeDialogs)
    assert QFileDialog(window).palette().color(QPalette.ColorRole.Window).lightness() > 180


def test_a_new_window_dresses_the_application_in_its_own_theme(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.set_theme(DARK)
    window.set_theme(LIGHT)
    window.set_theme(DARK)
    window.presenter.store().setValue("prefs/theme", "light")
    other = MainWindow()
    qtbot.addWidget(other)
    assert QApplication.palette().color(QPalette.ColorRole.Window).lightness() > 180
    other.close()


@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=lambda t: t.name)
def test_the_gradient_check_plot_follows_the_theme_and_the_scale(
    qtbot: QtBot, window: MainWindow, theme: Theme
) -> None:
    check = window.stepper.gradcheck
    plot = check.plot  # made now, in the window's theme of then
    window.set_theme(theme)
    window.presenter.set_font_scale(1.5)
    assert plot.backgroundBrush().color().name() == theme.background.lower()
    axis = plot.getPlotItem().getAxis("bottom")
    assert axis.textPen().color().name() == theme.text.lower() and not axis.autoSIPrefix
    assert check.scale == 1.5
    window.presenter.set_font_scale(1.0)
