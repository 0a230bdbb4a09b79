"""The code editor scrolls back to the first column once the caret fits there again."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QInputMethodEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from tapeviz.ui.window.editor import CodeEditor


def _editor(qtbot: QtBot) -> CodeEditor:
    editor = CodeEditor()
    qtbot.addWidget(editor)
    editor.resize(260, 200)
    editor.show()
    qtbot.waitExposed(editor)
    return editor


WIDE = "with tf.GradientTape() as tape:"


def _two_letters_narrower_than(editor: CodeEditor, qtbot: QtBot, line: str) -> None:
    """Resize ``editor`` so that ``line`` is two letters wider than what it shows."""
    metrics = editor.fontMetrics()
    over = metrics.horizontalAdvance(line) - metrics.horizontalAdvance("w") * 2
    editor.resize(editor.width() - editor.viewport().width() + over, 200)
    qtbot.wait(10)


def test_return_after_a_wide_line_shows_the_first_column_again(qtbot: QtBot) -> None:
    """The lecture room's case: a line a little wider than the editor, then Return."""
    editor = _editor(qtbot)
    _two_letters_narrower_than(editor, qtbot, WIDE)
    bar = editor.horizontalScrollBar()
    qtbot.keyClicks(editor, "x = 3.0")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.keyClicks(editor, WIDE)
    assert bar.value() > 0  # the caret at the end of a line wider than the editor
    assert 0 <= editor.cursorRect().right() <= editor.viewport().width()
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # the caret goes to column 4 (the indent)
    assert bar.value() == 0
    qtbot.keyClicks(editor, "y = x * x")
    assert bar.value() == 0 and editor.toPlainText().endswith("\n    y = x * x")


def test_a_caret_far_right_keeps_the_view_where_it_is(qtbot: QtBot) -> None:
    editor = _editor(qtbot)
    bar = editor.horizontalScrollBar()
    qtbot.keyClicks(editor, "print(tape.gradient(y, [x, w, b]), tape.gradient(y, x))")
    scrolled = bar.value()
    qtbot.keyClick(editor, Qt.Key.Key_Left)  # still beyond the first screen: no jump
    assert scrolled > 0 and bar.value() == scrolled
    qtbot.keyClick(editor, Qt.Key.Key_Home)
    assert bar.value() == 0


def test_text_from_an_input_method_scrolls_back_too(qtbot: QtBot) -> None:
    """Chinese typed through an input method arrives without key presses: it scrolls back too."""
    editor = _editor(qtbot)
    _two_letters_narrower_than(editor, qtbot, WIDE)
    bar = editor.horizontalScrollBar()
    qtbot.keyClicks(editor, WIDE)
    editor.textCursor().insertText("\n    ")  # (as a paste: no key, the view where it was)
    assert bar.value() > 0  # the caret at column 4 is visible: Qt leaves the view scrolled
    event = QInputMethodEvent("", [])
    event.setCommitString("# 梯度")
    QApplication.sendEvent(editor, event)
    assert bar.value() == 0
    assert editor.toPlainText().endswith("\n    # 梯度")
