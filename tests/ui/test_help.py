"""Help: getting started, the keys (read from the menus), the TensorFlow names (from tapeviz.tf)."""

from __future__ import annotations

import types

import pytest
from PySide6.QtGui import QPalette
from pytestqt.qtbot import QtBot

import tapeviz.tf
from tapeviz.engine.namespace import Namespace
from tapeviz.ui import MainWindow, i18n
from tapeviz.ui.theme import DARK
from tapeviz.ui.window import help_pages
from tapeviz.ui.window.presenter import contrast


def test_the_help_menu_has_its_pages_and_about(window: MainWindow) -> None:
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    names = [a.objectName() for a in help_menu.actions() if not a.isSeparator()]
    assert names[:3] == ["help:start", "help:keys", "help:names"]
    assert [a.text() for a in help_menu.actions()][-1] == "&About tapeviz"


def test_the_keys_page_is_read_from_the_menus(window: MainWindow) -> None:
    dialog = window.help.show("keys")
    text = dialog.keys.toPlainText()
    for key, command in (("Ctrl+Return", "Run"), ("F11", "Full screen"), ("Space", "Play / pause"),
                         ("Ctrl+Shift+D", "Dark theme"), ("F1", "Getting started")):  # fmt: skip
        assert key in text and command in text, (key, command)
    assert "fit the graph" in text and "indent (four spaces)" in text  # the views' own keys
    assert dialog.tabs.currentIndex() == 1 and dialog.isVisible()
    dialog.close()


def test_the_names_page_lists_the_namespace_and_filters(qtbot: QtBot, window: MainWindow) -> None:
    dialog = window.help.show("names")
    text = dialog.names.toPlainText()
    for space, name in (("tf", "GradientTape"), ("tf", "reduce_sum"), ("tf.math", "log1p"),
                        ("tf.keras.optimizers", "Adam"), ("tf.nn", "relu")):  # fmt: skip
        assert space in text and name in text
    assert "annotations" not in text  # from __future__ import annotations is not a name
    qtbot.keyClicks(dialog.filter, "keras")
    text = dialog.names.toPlainText()
    assert "Adam" in text and "reduce_sum" not in text
    dialog.filter.setText("no such name at all")
    assert "No name matches." in dialog.names.toPlainText()
    dialog.close()


def test_the_walk_finds_every_public_name_each_namespace_once() -> None:
    names = help_pages.walk_names(tapeviz.tf)
    assert next(iter(names)) == "tf"
    assert "tf.keras.optimizers" in names and "tf.optimizers" not in names  # listed once
    public = [
        n
        for n in dir(tapeviz.tf)
        if not n.startswith("_")
        and n != "annotations"
        and not isinstance(getattr(tapeviz.tf, n), types.ModuleType)
    ]  # its own modules
    spaces = [n for n in public if isinstance(getattr(tapeviz.tf, n), Namespace)]
    assert sorted(names["tf"] + spaces, key=str.lower) == sorted(public, key=str.lower)
    fake = Namespace("tf.extra", {"b": 1, "a": 2})
    assert help_pages.walk_names(Namespace("tf", {"z": 0, "extra": fake})) == {
        "tf": ["z"], "tf.extra": ["a", "b"]
    }  # fmt: skip


def test_the_namespaces_own_list_is_used_when_it_has_one(monkeypatch: pytest.MonkeyPatch) -> None:
    lists = {"tf": ["constant", "Variable"], "tf.keras.layers": ["Dense"]}
    monkeypatch.setattr(tapeviz.tf, "supported_names", lambda: lists, raising=False)
    assert help_pages.tensorflow_names() == {"tf": ["constant", "Variable"],
                                             "tf.keras.layers": ["Dense"]}  # fmt: skip


def test_help_is_in_the_theme_and_the_presenter_scale(window: MainWindow) -> None:
    window.set_theme(DARK)
    window.set_font_scale(1.5)
    base = window.help.show("start")
    pal = base.start.palette()
    assert pal.color(QPalette.ColorRole.Base).lightness() < 80
    text, back = pal.color(QPalette.ColorRole.Text), pal.color(QPalette.ColorRole.Base)
    assert contrast(text.name(), back.name()) >= 4.5
    link = pal.color(QPalette.ColorRole.Link)
    assert contrast(link.name(), back.name()) >= 4.5
    assert base.start.font().pointSizeF() == pytest.approx(window.font().pointSizeF())
    size = base.start.font().pointSizeF()
    window.set_font_scale(2.0)
    assert base.start.font().pointSizeF() == pytest.approx(size * 2.0 / 1.5)
    base.close()


def test_help_in_chinese(qtbot: QtBot, window: MainWindow) -> None:
    assert i18n.install("zh_CN")
    try:
        chinese = MainWindow()
        qtbot.addWidget(chinese)
        dialog = chinese.help.show("start")
        assert dialog.tabs.tabText(0) == "入门" and "输入一个函数" in dialog.start.toPlainText()
        dialog.close()
        chinese.close()
    finally:
        i18n.install("en")
