"""A seeded monkey: random clicks, keys, drags and text on every visible widget of the window.

It fails on any exception that reaches a Qt slot or virtual method (a recording
``sys.excepthook``, as PySide6 reports them there), and says which event and seed did it.
``TAPEVIZ_MONKEY_EVENTS`` and ``TAPEVIZ_MONKEY_SEED`` run it longer or with another seed.
"""

from __future__ import annotations

import contextlib
import os
import random
import sys
import traceback
from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QDockWidget,
    QFileDialog,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QTabBar,
    QToolButton,
    QWidget,
)
from pytestqt.qtbot import QtBot

from tapeviz.models.session.presets import PRESETS
from tapeviz.ui import MainWindow, workers
from tapeviz.ui.studio.lr_control import LearningRateControl
from tapeviz.ui.window.help import HelpDialog

EVENTS = int(os.environ.get("TAPEVIZ_MONKEY_EVENTS", "800"))
SEED = int(os.environ.get("TAPEVIZ_MONKEY_SEED", "20261130"))
TEXT = [*"xabcw+-*/()^ 0123456789.:", "sin(", "**", "tf.", "print(x)", "while True:",
        "sigmoid(w*x + b)", "log(-1)", "1e400", "[1, 2]", "nan"]  # fmt: skip
KEYS = [Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Space, Qt.Key.Key_Home, Qt.Key.Key_F,
        Qt.Key.Key_Plus, Qt.Key.Key_Minus, Qt.Key.Key_Escape, Qt.Key.Key_Up, Qt.Key.Key_Down,
        Qt.Key.Key_R, Qt.Key.Key_Backspace, Qt.Key.Key_Delete, Qt.Key.Key_Return,
        Qt.Key.Key_Tab, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown, Qt.Key.Key_End]  # fmt: skip
# Quitting ends the test, a language switch replaces the window (tested in test_i18n.py), full
# screen is slow offscreen.
SKIP_ACTIONS = ("&Quit", "Full &screen")
# What the monkey must have touched by the end (object names, or class names).
MUST_TOUCH = ("functionEditor", "variablesTable", "runButton", "graphView", "surfacePlot",
              "optimizerLrSlider", "modeCombo", "QTabBar")  # fmt: skip


@pytest.fixture(autouse=True)
def no_blocking_dialogs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: ("", ""))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: ("", ""))
    monkeypatch.setattr(QMessageBox, "about", lambda *a, **k: None)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.No)


@contextlib.contextmanager
def recorded_slot_errors() -> Iterator[list[str]]:
    """Every exception PySide6 hands to sys.excepthook (raised in a slot or a Qt override).

    Installed inside the test, over pytest-qt's own hook, so the test says which event did it.
    """
    errors: list[str] = []
    previous = sys.excepthook

    def record(kind: type[BaseException], value: BaseException, tb: object) -> None:
        errors.append("".join(traceback.format_exception(kind, value, tb)))  # type: ignore[arg-type]

    sys.excepthook = record
    try:
        yield errors
    finally:
        sys.excepthook = previous


def visible(w: MainWindow, kind: type[QWidget]) -> list[QWidget]:
    """The enabled widgets of ``kind`` a user can see in the window or its Help.

    Preferences and the code export are opened (from the menus) and closed, not filled in: a
    language chosen there would replace the window under the monkey. Buttons that pop a menu
    up are left out: the menu's own loop would wait for a click that never comes.
    """
    return [x for x in w.findChildren(kind) if usable(w, x)]


def usable(w: MainWindow, x: QWidget) -> bool:
    """Shown, enabled, in the window (or a pane undocked from it) or its Help, and not a button
    that pops a menu up."""
    shown = x.isVisible() and x.isEnabled() and x.width() > 2
    top = x.window()
    floating = isinstance(top, QDockWidget) and top.parent() is w  # a pane the user undocked
    mine = top is w or floating or isinstance(top, HelpDialog)
    pops = isinstance(x, QPushButton | QToolButton) and x.menu() is not None
    return shown and mine and not pops


def close_popups() -> None:
    """Close a combo box's list or a tooltip left open by a click."""
    while (popup := QApplication.activePopupWidget()) is not None:
        popup.close()


def name_of(widget: QWidget) -> str:
    return widget.objectName() or type(widget).__name__


def test_random_events_on_every_visible_widget(qtbot: QtBot) -> None:
    with recorded_slot_errors() as slot_errors:
        run_monkey(qtbot, slot_errors)


def run_monkey(qtbot: QtBot, slot_errors: list[str]) -> None:
    """EVENTS random moves on a window; no exception may reach a slot."""
    rng = random.Random(SEED)
    w = MainWindow()
    w.graph.animation_ms = 0
    w.stepper.timer.setInterval(5)
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    qtbot.waitExposed(w)
    w.load_preset("quadratic")
    names = list(PRESETS)
    touched: list[str] = []

    def touch(widget: QWidget) -> QWidget:
        if name_of(widget) not in touched:
            touched.append(name_of(widget))
        return widget

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

    def pick(widgets: list[QWidget]) -> QWidget:
        """One of ``widgets``; now and then one the monkey must reach and has not yet.

        Which widgets are on offer depends on timing (a busy run disables some), so a seed
        alone does not decide whether a rarely offered one is ever chosen; this makes reaching
        every usable one near certain, and a widget never usable still fails the test.
        """
        owed = [x for x in widgets if name_of(x) in MUST_TOUCH and name_of(x) not in touched]
        return touch(rng.choice(owed if owed and rng.random() < 0.125 else widgets))

    def click() -> None:  # any button, check box or tool button on screen
        buttons = visible(w, QAbstractButton)
        if buttons:
            qtbot.mouseClick(pick(buttons), Qt.MouseButton.LeftButton)

    def click_anywhere() -> None:  # a click at a random point of a random visible widget
        widget = touch(rng.choice(visible(w, QWidget)))
        target = getattr(widget, "viewport", lambda: widget)()
        pos = QPoint(rng.randrange(max(target.width(), 1)), rng.randrange(max(target.height(), 1)))
        qtbot.mouseClick(target, Qt.MouseButton.LeftButton, pos=pos)

    def type_text() -> None:
        editors = [w.editor, *visible(w, QLineEdit)]
        editor = pick(editors)
        editor.setFocus()
        qtbot.keyClicks(editor, rng.choice(TEXT))

    def key() -> None:
        target = pick([w, w.graph, w.stepper, w.editor, w.variables.table,
                       *visible(w, QAbstractSpinBox), *visible(w, QComboBox),
                       *visible(w, LearningRateControl)])  # fmt: skip
        mods = rng.choice([Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier])
        qtbot.keyClick(target, rng.choice(KEYS), mods)

    def edit_cell() -> None:
        table = touch(w.variables.table)
        if table.rowCount():
            item = table.item(rng.randrange(table.rowCount()), rng.choice([0, 1]))
            if item is not None:
                item.setText(rng.choice(["1", "-2.5", "[1, 2]", "nan", "x", "", "1e400", "y"]))

    def choose() -> None:  # a combo box item, a tab, a slider position
        widgets = [*visible(w, QComboBox), *visible(w, QTabBar), *visible(w, QAbstractSlider)]
        widget = pick(widgets)
        if isinstance(widget, QComboBox | QTabBar) and widget.count():
            widget.setCurrentIndex(rng.randrange(widget.count()))
        elif isinstance(widget, QAbstractSlider):
            widget.setValue(rng.randint(widget.minimum(), widget.maximum()))

    def drag() -> None:  # the graph, the plots, the learning rate
        widget = pick([w.graph, w.studio.surface, *visible(w, LearningRateControl)])
        target = getattr(widget, "viewport", lambda: widget)()
        a = QPoint(rng.randrange(max(target.width(), 1)), rng.randrange(max(target.height(), 1)))
        b = a + QPoint(rng.randint(-150, 150), rng.randint(-80, 80))
        qtbot.mousePress(target, Qt.MouseButton.LeftButton, pos=a)
        qtbot.mouseMove(target, b)
        qtbot.mouseRelease(target, Qt.MouseButton.LeftButton, pos=b)

    moves: list[Callable[[], None]] = [
        click, click, click_anywhere, type_text, type_text, key, key, edit_cell, choose, drag,
        lambda: rng.choice(actions()).trigger(),
        lambda: w.tape_list.setCurrentRow(rng.randrange(-1, max(w.tape_list.count(), 1))),
        lambda: w.load_preset(rng.choice(names)) if rng.random() < 0.15 else None,
    ]  # fmt: skip
    for i in range(EVENTS):
        move = rng.choice(moves)
        move()
        close_popups()
        assert not slot_errors, f"event {i} ({move.__name__}), seed {SEED}:\n{slot_errors[0]}"
        if i % 25 == 0:
            for dialog in w.findChildren(QDialog):
                dialog.close()
            qtbot.wait(1)
        if i % 100 == 0:  # a user who closed a pane opens it again from the View menu
            for dock in w.findChildren(QDockWidget):
                if not dock.isVisible():
                    dock.toggleViewAction().trigger()
        if i % 150 == 0:
            w.stop()
            qtbot.waitUntil(lambda: w._cancel is None, timeout=30_000)
    w.stop()
    qtbot.waitUntil(lambda: w._cancel is None, timeout=30_000)
    assert not slot_errors, slot_errors[0]
    assert w.isVisible()
    missing = [name for name in MUST_TOUCH if name not in touched]
    usable_now = [name_of(x) for x in visible(w, QWidget) if name_of(x) in missing]
    assert not missing, f"the monkey never reached {missing} (usable at the end: {usable_now})"
    w.close()
    assert workers.wait_all(10_000)


def test_the_hook_sees_an_exception_in_a_slot(qtbot: QtBot) -> None:
    """The monkey's net is real: an exception in a slot reaches the recording hook."""
    button = QPushButton("boom")
    qtbot.addWidget(button)

    def fail() -> None:
        raise RuntimeError("a slot failed")

    button.clicked.connect(fail)
    with recorded_slot_errors() as slot_errors:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert len(slot_errors) == 1 and "a slot failed" in slot_errors[0]
