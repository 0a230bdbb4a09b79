"""A tf.custom_gradient script in the window: its op, its backward steps, its gradient check."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tapeviz.ui import MainWindow

CLIP = (Path(__file__).parents[1] / "data" / "tf_guide_clip_gradients.py.txt").read_text("utf-8")


def test_the_clipped_gradient_is_stepped_and_checked(qtbot: QtBot, window: MainWindow) -> None:
    window.mode.setCurrentIndex(1)
    window.editor.setPlainText(CLIP)
    window.run_code()
    qtbot.waitUntil(lambda: window.last_result is not None and window._cancel is None)
    assert window.console.toPlainText() == "tf.Tensor(2.0, shape=(), dtype=float32)\n"
    assert window.error_label.text() == ""
    (op,) = [n for n in window.model.nodes.values() if n.op == "custom_gradient"]
    assert op.symbol == "clip_gradients"  # the user's function, by its name
    stepper = window.stepper
    qtbot.waitUntil(lambda: stepper.slider.maximum() == 2)
    stepper.slider.setValue(2)
    grads = {window.model.nodes[n].label: float(g) for n, g in window.model.gradients.items()}
    assert grads["v"] == 2.0 and grads["v1"] == 0.5  # clipped, as the script's tape says
    assert "1. output = clip_gradients(v1) with its own gradient" in stepper.log.line(0)
    check = stepper.gradcheck
    qtbot.mouseClick(check.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: check.table.rowCount() > 0, timeout=10_000)
    assert check.table.item(0, 1).text() == "2" and check.table.item(0, 2).text() == "4"
    status = check.status.text()  # the replay ran the function's own ops, no user code
    assert "DISAGREE" in status and "custom gradient of clip_gradients" in status
    stepper.tabs.setCurrentWidget(check)
    window.resize(1366, 768)
    window.presenter.set_font_scale(1.5)  # a projector at 1366 px: the long verdict wraps
    qtbot.wait(50)
    assert window.minimumSizeHint().width() <= 1366 and window.width() <= 1366
    window.presenter.set_font_scale(1.0)


def test_a_failed_check_names_the_error_not_its_module(qtbot: QtBot, window: MainWindow) -> None:
    check = window.stepper.gradcheck
    trace = "Traceback:\n  ...\ntapeviz.engine.errors.InvalidArgumentError: no"
    check._on_check_failed(trace)
    assert check.status.text().endswith("The check failed: InvalidArgumentError: no")
