"""Simplified Chinese: every string translated, the .qm current, no English left in the window."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QTranslator
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QDockWidget,
    QLabel,
    QMenu,
    QTableWidget,
    QTabWidget,
)
from pytestqt.qtbot import QtBot

from tapeviz.models.resources import assets_dir
from tapeviz.ui import MainWindow, i18n, workers

FOLDER = assets_dir() / "i18n"
# Names that stay as they are in Chinese text (products, keys, code, Keras optimizer classes).
KEEP = (
    r"tapeviz|TensorFlow|PyTorch|JAX|GradientTape|Python|micrograd|Karpathy|Ctrl|Enter|Home|"
    r"Shift|English|F11|SGD|Momentum|Nesterov|Adam|RMSprop|Adagrad|Rosenbrock|Beale|"
    r"Himmelblau|\w+\.\w+"
)  # fmt: skip  (the last: code such as optimizer.minimize)


def test_every_string_has_a_chinese_translation_and_the_qm_is_current() -> None:
    table = json.loads((FOLDER / "zh_CN.json").read_text("utf-8"))
    tree = i18n.extract(i18n.ui_sources())
    missing = i18n.fill(tree, table, {"presets": i18n.preset_texts()})
    assert missing == [], "add them to assets/i18n/zh_CN.json, then: python -m tapeviz.ui.i18n"
    qm = QTranslator()
    assert qm.load(str(FOLDER / "tapeviz_zh_CN.qm"))
    for context in tree.getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            source = message.findtext("source") or ""
            assert qm.translate(name, source) == table[source], "rebuild: python -m tapeviz.ui.i18n"


@pytest.fixture
def chinese(qtbot: QtBot) -> Iterator[MainWindow]:
    assert i18n.install("zh_CN")
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    yield w
    workers.wait_all()
    i18n.install("en")


def visible_strings(w: MainWindow) -> list[str]:
    texts: list[str] = []

    def menu_texts(menu: QMenu) -> None:
        menu.aboutToShow.emit()
        for action in menu.actions():
            texts.append(action.text())
            if action.menu() is not None:
                menu_texts(action.menu())

    for action in w.menuBar().actions():
        texts.append(action.text())
        if action.menu() is not None:
            menu_texts(action.menu())
    texts += [d.windowTitle() for d in w.findChildren(QDockWidget)]
    for b in w.findChildren(QAbstractButton):
        texts += [b.text(), b.toolTip()]
    texts += [lab.text() for lab in w.findChildren(QLabel)]
    for tabs in w.findChildren(QTabWidget):
        texts += [tabs.tabText(i) for i in range(tabs.count())]
    for table in w.findChildren(QTableWidget):
        texts += [table.horizontalHeaderItem(i).text() for i in range(table.columnCount())]
    for combo in w.findChildren(QComboBox):
        texts += [combo.itemText(i) for i in range(combo.count())]
    texts.append(w.statusBar().currentMessage())
    return [t for t in texts if t]


def test_no_english_left_in_the_main_window(chinese: MainWindow) -> None:
    english = []
    for text in visible_strings(chinese):
        if text.startswith(("preset:",)) or re.fullmatch(r"[\d.\s/%+-]*", text):
            continue
        rest = re.sub(KEEP, "", text)
        if re.search(r"[A-Za-z]{3,}", rest) and not re.search(r"[\u4e00-\u9fff]", text):
            english.append(text)
    assert english == []
    assert "运行" in [b.text() for b in chinese.findChildren(QAbstractButton)]


def test_chinese_code_and_comments_run_and_display(qtbot: QtBot, chinese: MainWindow) -> None:
    from tapeviz.models.session.file import Session

    source = 'import tensorflow as tf\nx = tf.Variable(3.0)  # 变量\nprint("梯度:", x * 2)\n'
    chinese.apply_session(Session(source=source, mode="script"))
    qtbot.waitUntil(lambda: chinese._cancel is None and chinese.last_result is not None)
    assert chinese.console.toPlainText().startswith("梯度: tf.Tensor(6.0")
    assert chinese.editor.toPlainText() == source


def test_a_chinese_font_is_installed(qtbot: QtBot) -> None:
    from PySide6.QtGui import QFontDatabase

    families = QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese)
    assert families, "install a CJK font (Debian: fonts-wqy-microhei), or Chinese renders as boxes"


def test_switching_language_rebuilds_the_window_and_keeps_the_work(
    qtbot: QtBot, tmp_path: Path
) -> None:
    from PySide6.QtCore import QSettings

    from tapeviz.ui.window import dialogs as window_dialogs

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    i18n.install("en")
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    w.load_preset("micrograd-slope")
    qtbot.waitUntil(lambda: w.last_result is not None and w._cancel is None)
    w.editor.setPlainText("3*x**2 - 4*x + 6")
    w.show_view("studio")
    qtbot.waitUntil(lambda: w.studio.race is not None and not w.studio.busy, timeout=20_000)
    w.studio.set_step(37)
    w.set_graph_settings(edge_labels=True)
    w.lower_tabs.shares[0] = 0.3
    w.clean_action.trigger()
    try:
        zh = w.set_language("zh_CN")
        qtbot.addWidget(zh)
        assert zh is not w and not w.isVisible() and zh.isVisible()
        assert i18n.installed() == "zh_CN"
        assert zh.editor.toPlainText() == "3*x**2 - 4*x + 6"  # nothing the user typed is lost
        assert "运行" in [b.text() for b in zh.findChildren(QAbstractButton)]
        assert re.search(r"[\u4e00-\u9fff]", zh.notes_label.text())  # the preset's notes too
        assert re.search(r"[\u4e00-\u9fff]", zh.windowTitle())
        assert zh.graph_settings()["edge_labels"]
        assert zh.studio_view
        qtbot.waitUntil(lambda: zh.studio.race is not None and not zh.studio.busy, timeout=20_000)
        assert zh.studio.k == 37  # the descent is where the lecturer left it
        assert zh.lower_tabs.shares[0] == 0.3 and zh.clean_action.isChecked()
        assert not zh.code_dock.isVisible()
        assert re.search(r"[\u4e00-\u9fff]", zh.statusBar().currentMessage())
        assert zh.autosave.lock.exists()  # the old window's clean close did not unlock the new one
        assert zh.set_language("zh_CN") is zh  # the same language: nothing to rebuild
        en = zh.set_language("en")
        qtbot.addWidget(en)
        assert "Run" in [b.text() for b in en.findChildren(QAbstractButton)]
    finally:
        i18n.install("en")
        for window in list(window_dialogs._WINDOWS):
            window.studio.shutdown()
        window_dialogs._WINDOWS.clear()
        workers.wait_all()


@pytest.mark.parametrize("name", ["quadratic", "rosenbrock-race", "training-2-2-minimize"])
def test_a_loaded_preset_shows_no_english(qtbot: QtBot, chinese: MainWindow, name: str) -> None:
    w = chinese
    w.load_preset(name)
    qtbot.waitUntil(lambda: w._cancel is None and not w.studio.busy, timeout=20_000)
    texts = [w.notes_label.text().split("\n")[0], w.windowTitle(), w.statusBar().currentMessage()]
    texts += [w.lower_tabs.tabText(i) for i in range(w.lower_tabs.count())]
    for text in texts:  # no English words left (formulas such as f = a·x² + b·x + c are fine)
        assert not re.search(r"[A-Za-z]{3,}", re.sub(KEEP, "", text)), text


def test_the_network_views_play_button_speaks_chinese_both_ways(chinese: MainWindow) -> None:
    top = chinese.network.top
    top.set_playing(True)
    assert top.play.text() == "暂停"
    top.set_playing(False)
    assert top.play.text() == "播放"
    chinese.network.shutdown()


def test_a_runs_notes_are_said_in_chinese(qtbot: QtBot, chinese: MainWindow) -> None:
    """Notes cross the process wall as codes and fields: the status line says them in Chinese,
    the code in them as it is."""
    from tapeviz.models.session.file import Session

    source = (
        "import tensorflow as tf\nx = tf.constant(3.0)\n"
        "with tf.GradientTape() as tape:\n    y = x * x\nprint(tape.gradient(y, x))\n"
    )
    chinese.apply_session(Session(source=source, mode="script"))
    qtbot.waitUntil(lambda: chinese._cancel is None and chinese.last_result is not None)
    note = chinese.last_result.notes[0]
    assert note.startswith("line 5: tape.gradient gave None: x was not watched")  # English
    status = chinese.statusBar().currentMessage()
    assert "第 5 行:tape.gradient 返回了 None:x 没有被监视(常量不会被监视" in status, status
