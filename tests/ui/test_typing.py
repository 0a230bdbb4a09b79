"""Typing at a person's pace: live re-runs and error marks never move the caret or the text."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from pytestqt.qtbot import QtBot

from tapeviz.ui import MainWindow

PAUSE_MS = 400  # longer than the live re-run's 300 ms: each pause may run and mark an error


def idle(qtbot: QtBot, w: MainWindow) -> None:
    qtbot.waitUntil(lambda: w._cancel is None and not w.live_timer.isActive(), timeout=20_000)


def test_typing_with_pauses_keeps_every_key_where_it_was_typed(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.load_preset("quadratic")
    idle(qtbot, window)
    window.editor.setFocus()
    window.editor.selectAll()
    text = "sigmoid(w*x + b)"
    errors = 0
    for i, ch in enumerate(text):
        qtbot.keyClicks(window.editor, ch)
        qtbot.wait(PAUSE_MS)
        assert window.editor.toPlainText() == text[: i + 1]
        assert window.editor.textCursor().position() == i + 1
        errors += bool(window.error_label.text())
    idle(qtbot, window)
    assert window.editor.toPlainText() == text
    assert window.editor.textCursor().position() == len(text)
    assert errors > 0  # the pauses did show errors (an unknown w, an unclosed bracket)


def test_an_error_mark_keeps_the_selection_and_the_scroll(qtbot: QtBot, window: MainWindow) -> None:
    window.mode.setCurrentIndex(1)
    lines = [f"v{i} = {i}" for i in range(60)] + ["z = v1 +"]
    window.editor.setPlainText("\n".join(lines))
    cursor = window.editor.textCursor()
    cursor.setPosition(3)
    cursor.setPosition(7, QTextCursor.MoveMode.KeepAnchor)
    window.editor.setTextCursor(cursor)
    bar = window.editor.verticalScrollBar()
    bar.setValue(0)
    window.run_code()
    idle(qtbot, window)
    assert window.editor.error_line == 61
    after = window.editor.textCursor()
    assert (after.anchor(), after.position()) == (3, 7)
    assert bar.value() == 0


def test_clicking_the_error_goes_to_its_line(qtbot: QtBot, window: MainWindow) -> None:
    window.mode.setCurrentIndex(1)
    window.editor.setPlainText("a = 1\nb = a +\n")
    window.run_code()
    idle(qtbot, window)
    assert window.editor.textCursor().blockNumber() == 0
    window.code.go_to_error()  # what clicking the error frame's line link does
    assert window.editor.textCursor().blockNumber() == 1


def test_return_after_a_colon_indents_and_keeps_the_indentation(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.mode.setCurrentIndex(1)
    window.editor.clear()
    window.editor.setFocus()
    qtbot.keyClicks(window.editor, "for i in range(3):")
    qtbot.keyClick(window.editor, Qt.Key.Key_Return)
    qtbot.keyClicks(window.editor, "y = i")
    qtbot.keyClick(window.editor, Qt.Key.Key_Return)
    qtbot.keyClicks(window.editor, "z = y")
    assert window.editor.toPlainText() == "for i in range(3):\n    y = i\n    z = y"
