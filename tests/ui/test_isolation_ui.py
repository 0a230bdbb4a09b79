"""The window survives anything a script does to the worker process that runs it."""

from __future__ import annotations

import time

from pytestqt.qtbot import QtBot

from tapeviz.ui import MainWindow

# A 300,000-deep chain of map objects: next() recurses in C until the stack overflows.
CRASH = "it = iter([1])\nfor i in range(300000):\n    it = map(abs, it)\nnext(it)\n"
LOOP = "x = 0\nwhile True:\n    x += 1\n"
HEALTHY = "import tensorflow as tf\nx = tf.Variable(3.0)\nwith tf.GradientTape() as t:\n"
HEALTHY += "    y = x * x\nprint(t.gradient(y, x))\n"


def _script(window: MainWindow, source: str) -> None:
    window.mode.setCurrentIndex(1)  # script mode
    window.editor.setPlainText(source)
    window.run_code()


def _idle(qtbot: QtBot, window: MainWindow, timeout: int = 30_000) -> None:
    qtbot.waitUntil(lambda: window._cancel is None, timeout=timeout)


def test_a_segfaulting_script_leaves_the_window_and_the_text(
    qtbot: QtBot, window: MainWindow
) -> None:
    _script(window, CRASH)
    _idle(qtbot, window)
    assert window.isVisible()
    assert window.editor.toPlainText() == CRASH  # nothing the user typed is lost
    text = window.error_label.text()
    assert "crashed the worker (segmentation fault)" in text and "your code is kept" in text
    assert window.editor.error_line == 4  # where it was when it crashed
    _script(window, HEALTHY)  # the next ordinary run gets a fresh worker
    _idle(qtbot, window)
    assert window.console.toPlainText() == "tf.Tensor(6.0, shape=(), dtype=float32)\n"
    assert window.model.nodes


def test_stop_ends_a_runaway_loop_within_half_a_second(qtbot: QtBot, window: MainWindow) -> None:
    _script(window, LOOP)
    qtbot.wait(700)  # the loop is running in the worker
    assert window._cancel is not None
    pressed = time.monotonic()
    window.stop_button.click()
    _idle(qtbot, window, timeout=2_000)
    assert time.monotonic() - pressed < 0.5
    assert "Stopped" in window.error_label.text()
    _script(window, HEALTHY)
    _idle(qtbot, window)
    assert window.console.toPlainText().startswith("tf.Tensor(6.0")


def test_opening_a_session_file_runs_it_in_the_worker(
    qtbot: QtBot, window: MainWindow, tmp_path: object
) -> None:
    from pathlib import Path

    from tapeviz.models.session.file import Session

    path = Path(str(tmp_path)) / "crafted.tapeviz"
    Session(source=CRASH, mode="script").save(path)
    assert window.open_session(path)
    _idle(qtbot, window)
    assert window.isVisible() and window.editor.toPlainText() == CRASH
    assert "crashed the worker" in window.error_label.text()
