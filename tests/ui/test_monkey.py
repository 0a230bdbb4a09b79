"""A seeded monkey: 2,000 random clicks, keys and edits over the main window, no exception."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox, QPushButton
from pytestqt.qtbot import QtBot

from tapeviz.models.session.presets import PRESETS
from tapeviz.ui import MainWindow, workers

EVENTS = 2000
TEXT = [*"xabc+-*/()^ 0123456789.", "sin(", "**", "tf.", "print(x)", "while True:"]
KEYS = [Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Space, Qt.Key.Key_Home, Qt.Key.Key_F,
        Qt.Key.Key_Plus, Qt.Key.Key_Minus, Qt.Key.Key_Escape, Qt.Key.Key_Up, Qt.Key.Key_Down,
        Qt.Key.Key_R, Qt.Key.Key_Backspace, Qt.Key.Key_Delete]  # fmt: skip
# Quitting ends the test, a language switch replaces the window (tested in test_i18n.py), full
# screen is slow offscreen.
SKIP_ACTIONS = ("&Quit", "Full &screen")


@pytest.fixture(autouse=True)
def no_blocking_dialogs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: ("", ""))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: ("", ""))
    monkeypatch.setattr(QMessageBox, "about", lambda *a, **k: None)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.No)


def test_two_thousand_random_events(qtbot: QtBot) -> None:
    rng = random.Random(20261130)
    w = MainWindow()
    w.graph.animation_ms = 0
    w.stepper.timer.setInterval(5)
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    qtbot.waitExposed(w)
    w.load_preset("quadratic")
    names = list(PRESETS)

    def actions() -> list[QAction]:  # what the menu bar offers a user
        found: list[QAction] = []
        todo = list(w.menuBar().actions())
        while todo:
            action = todo.pop()
            if action.menu() is not None:
                action.menu().aboutToShow.emit()
                todo += action.menu().actions()
            elif (action.isEnabled() and action.text() and action.text() not in SKIP_ACTIONS
                  and not action.objectName().startswith("language:")):  # fmt: skip
                found.append(action)
        return found

    def click() -> None:
        buttons = [b for b in w.findChildren(QPushButton) if b.isVisible() and b.isEnabled()]
        if buttons:
            qtbot.mouseClick(rng.choice(buttons), Qt.MouseButton.LeftButton)

    def type_text() -> None:
        w.editor.setFocus()
        if rng.random() < 0.1:  # QTest cannot type control characters: press Return instead
            qtbot.keyClick(w.editor, Qt.Key.Key_Return)
        else:
            qtbot.keyClicks(w.editor, rng.choice(TEXT))

    def key() -> None:
        target = rng.choice([w, w.graph, w.stepper, w.editor, w.variables.table])
        qtbot.keyClick(target, rng.choice(KEYS))

    def edit_cell() -> None:
        table = w.variables.table
        if table.rowCount():
            item = table.item(rng.randrange(table.rowCount()), rng.choice([0, 1]))
            if item is not None:
                item.setText(rng.choice(["1", "-2.5", "[1, 2]", "nan", "x", "", "1e400", "y"]))

    def wheel_or_drag() -> None:
        vp = w.graph.viewport()
        p = QPoint(rng.randrange(max(vp.width(), 1)), rng.randrange(max(vp.height(), 1)))
        qtbot.mouseClick(vp, Qt.MouseButton.LeftButton, pos=p)

    moves: list[Callable[[], None]] = [
        click, type_text, type_text, key, key, edit_cell, wheel_or_drag,
        lambda: rng.choice(actions()).trigger(),
        lambda: w.mode.setCurrentIndex(rng.randrange(2)),
        lambda: w.tape_list.setCurrentRow(rng.randrange(-1, max(w.tape_list.count(), 1))),
        lambda: w.stepper.slider.setValue(rng.randrange(0, 12)),
        lambda: w.load_preset(rng.choice(names)) if rng.random() < 0.2 else None,
    ]  # fmt: skip
    for i in range(EVENTS):
        rng.choice(moves)()
        if i % 25 == 0:
            for dialog in w.findChildren(QDialog):
                dialog.close()
            qtbot.wait(1)
        if i % 200 == 0:
            w.stop()
            qtbot.waitUntil(lambda: w._cancel is None, timeout=20_000)
    w.stop()
    qtbot.waitUntil(lambda: w._cancel is None, timeout=20_000)
    assert w.isVisible()
    w.close()
    assert workers.wait_all(10_000)
