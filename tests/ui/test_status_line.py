"""Issue 33, item 4: one status text with a clear precedence, elided, the whole on hover.

An error stays until the next run, a nan warning stands over the news, a success never reads
as a failure, and a Stop says "Stopped by the user", not "Stopped: stopped by the user".
"""

from __future__ import annotations

from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from tapeviz.models.session.file import Session
from tapeviz.ui import MainWindow
from tapeviz.ui.window.status_line import StatusLine
from tests.ui.lecture_room import ran, room, show

__all__ = ["room"]

NAN_SCRIPT = (
    "import tensorflow as tf\nx = tf.Variable(-1.0)\nwith tf.GradientTape() as tape:\n"
    "    y = tf.math.log(x) + x * 24.2\ng = tape.gradient(y, x)\n"
)
FINE_SCRIPT = (
    "import tensorflow as tf\nx = tf.Variable(2.0)\nwith tf.GradientTape() as tape:\n"
    "    y = x * x\ng = tape.gradient(y, x)\nprint(g)\n"
)


def test_the_precedence_error_then_warning_then_news(qtbot: QtBot) -> None:
    line = StatusLine()
    qtbot.addWidget(line)
    line.resize(300, 30)
    line.show()
    shown: list[str] = []
    line.messageChanged.connect(shown.append)
    line.showMessage("Ran in 3 ms; 1 tape(s) recorded.")
    line.set_warning("⚠ v1 is nan: the logarithm of a negative number (-1) is not a real number")
    assert line.level() == "warning" and line.currentMessage().startswith("⚠ v1 is nan")
    line.showMessage("Text size 150 %")  # news never covers the standing warning
    assert line.level() == "warning"
    assert "Text size 150 %" in line.label.toolTip() and "v1 is nan" in line.label.toolTip()
    line.show_error("line 2 · Syntax error: invalid syntax")
    line.showMessage("Computing… 40 %")  # the run's error stays over later news
    assert line.currentMessage() == "⚠ line 2 · Syntax error: invalid syntax"
    line.clear_error()  # a new run
    assert line.level() == "warning"
    line.set_warning("")
    line.showMessage("⚠ Cannot save x: denied")  # an action's failure: until the next message
    assert line.level() == "error"
    line.showMessage("Saved y")
    assert line.currentMessage() == "Saved y" and shown[-1] == "Saved y"


def test_a_long_text_is_cut_with_an_ellipsis_and_whole_on_hover(qtbot: QtBot) -> None:
    line = StatusLine()
    qtbot.addWidget(line)
    line.resize(240, 30)
    line.show()
    text = "Ran in 12 ms; 3 tape(s) recorded. " + "a note about the run " * 10
    line.showMessage(text)
    label = line.label
    assert label.text().endswith("…") and text.startswith(label.text()[:-1])
    assert label.fontMetrics().horizontalAdvance(label.text()) <= label.contentsRect().width()
    assert label.toolTip() == text and line.currentMessage() == text


def test_a_nan_and_the_run_share_one_line_without_overlap(qtbot: QtBot, room: MainWindow) -> None:
    show(qtbot, room, Session(source=NAN_SCRIPT, mode="script"))
    qtbot.waitUntil(lambda: room.value_warning.full_text != "")
    bar = room.statusBar()
    texts = [w for w in bar.findChildren(QLabel) if w.isVisible() and w.text()]
    assert texts == [room.status_line.label]  # one text, nothing drawn over or beside it
    assert bar.currentMessage() == room.value_warning.full_text
    assert "Ran in" in room.status_line.label.toolTip()  # the news is one hover away
    label = room.status_line.label
    assert label.fontMetrics().horizontalAdvance(label.text()) <= label.contentsRect().width()
    assert label.font().pointSizeF() * 96 / 72 >= 14  # the presenter's size


def test_a_new_run_clears_the_last_error_and_an_edit_its_mark(
    qtbot: QtBot, room: MainWindow
) -> None:
    room.apply_session(Session(source="y = 1\nz = y +\n", mode="script"))
    ran(qtbot, room)
    assert room.editor.error_line == 2 and room.statusBar().currentMessage().startswith("⚠")
    room.editor.setPlainText("y = 1\nz = y + 2\ns = 0\nwhile True:\n    s = s + 1\n")
    assert room.editor.extraSelections() == []  # new text never shows red under an old error
    room.run_code()
    qtbot.waitUntil(lambda: room.runner.running)
    assert "⚠" not in room.statusBar().currentMessage()  # "Running…", not the old error
    assert room.error_label.text() == "" and room.editor.error_line is None
    qtbot.wait(300)
    room.stop()
    ran(qtbot, room)
    message = room.statusBar().currentMessage()
    assert message.startswith("Stopped by the user at line ") and "⚠" not in message
    assert "stopped by the user" not in room.error_label.text()  # one "stopped", not two


def test_a_script_that_ran_never_reads_as_a_failure(qtbot: QtBot, room: MainWindow) -> None:
    show(qtbot, room, Session(source=FINE_SCRIPT, mode="script"))
    messages: list[str] = []
    room.statusBar().messageChanged.connect(messages.append)
    room.show_view("studio")  # a script without `def loss():` has nothing to optimize
    qtbot.waitUntil(lambda: any("Optimization" in m for m in messages), timeout=30_000)
    ran(qtbot, room)
    qtbot.waitUntil(lambda: not room.studio.busy, timeout=30_000)
    final = room.statusBar().currentMessage()
    assert room.status_line.level() == "news"
    assert not final.startswith("⚠") and "cannot" not in final.lower()
