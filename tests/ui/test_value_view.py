"""The window shows a summarised value's summary and fetches the full value when asked.

A value above the wall's size reaches the window as a summary; the stepper's Value tab shows the
selected node's value, *Show full value* fetches it in the thread pool ("Fetching…" meanwhile)
and shows it, *Fetch this tape's values* lets the gradients and the stepper compute.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tapeviz.models import values
from tapeviz.sandbox.process import client, summaries
from tapeviz.ui import MainWindow
from tapeviz.ui.stepper.value_view import ValueView

LEFT = Qt.MouseButton.LeftButton

SCRIPT = """import tensorflow as tf
x = tf.Variable(tf.reshape(tf.range(3000, dtype=tf.float32), (60, 50)))
with tf.GradientTape() as t:
    a = x * 2.0
    b = a + 1.0
    loss = tf.reduce_sum(b * a)
g = t.gradient(loss, x)
"""


@pytest.fixture
def big_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """Values above 4 KB cross as summaries (60 x 50 float32: 12 KB)."""
    monkeypatch.setattr(summaries, "SUMMARY_BYTES", 4096)


def _ran(qtbot: QtBot, w: MainWindow) -> None:
    w.mode.setCurrentIndex(1)
    w.editor.setPlainText(SCRIPT)
    w.run_code()
    qtbot.waitUntil(lambda: w._cancel is None and w.last_result is not None, timeout=60_000)
    qtbot.waitUntil(lambda: "o0" in w.model.nodes and "o0" in w.graph.items, timeout=30_000)


def _value_tab(w: MainWindow, nid: str) -> ValueView:
    view = w.stepper.value_view
    w.show_view("stepper")
    w.stepper.tabs.setCurrentWidget(view)
    w.graph.select(nid)
    return view


def test_show_full_value_fetches_and_shows_it(
    qtbot: QtBot, window: MainWindow, big_values: None
) -> None:
    _ran(qtbot, window)
    node = window.model.nodes["o0"]  # a = x * 2.0
    assert values.summarised(node.value) is not None
    assert "cannot be stepped here" in window.stepper.failure  # no numbers for the backward pass
    view = _value_tab(window, "o0")
    assert view.nid == "o0"
    text = view.text.toPlainText()
    assert "Summarised: shape (60, 50) float32, min 0 max 5998 mean 2999" in text
    assert view.show_button.isVisible() and view.show_button.isEnabled()
    qtbot.mouseClick(view.show_button, LEFT)
    assert view.status.text() == "Fetching…"
    assert not view.show_button.isEnabled()
    qtbot.waitUntil(lambda: view.status.text() == "Full value.", timeout=30_000)
    want = np.arange(3000, dtype=np.float32).reshape(60, 50) * 2
    np.testing.assert_array_equal(values.as_array(node.value), want)
    shown = view.text.toPlainText()
    assert shown.startswith("[[0.000e+00 2.000e+00 4.000e+00") and "5.998e+03]]" in shown
    assert not view.show_button.isVisible()


def test_fetching_the_tapes_values_lets_the_stepper_step(
    qtbot: QtBot, window: MainWindow, big_values: None
) -> None:
    _ran(qtbot, window)
    assert window.stepper.backward is None and not window.model.gradients
    view = _value_tab(window, "s0")
    assert view.tape_button.isVisible()
    qtbot.mouseClick(view.tape_button, LEFT)
    qtbot.waitUntil(lambda: view.status.text() == "Full value.", timeout=30_000)
    qtbot.waitUntil(lambda: window.stepper.backward is not None, timeout=10_000)
    assert window.stepper.failure == ""
    x = np.arange(3000, dtype=np.float64).reshape(60, 50)
    grad = values.as_array(window.model.gradients["s0"])
    np.testing.assert_allclose(grad, 8 * x + 2)  # d/dx sum((2x + 1) 2x)
    assert not view.tape_button.isVisible()


def test_a_value_of_an_older_run_says_run_again(
    qtbot: QtBot, window: MainWindow, big_values: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    _ran(qtbot, window)
    view = _value_tab(window, "o1")
    summary = view.text.toPlainText()
    monkeypatch.setattr(client.POOL, "values_token", "a newer run")  # another run came since
    qtbot.mouseClick(view.show_button, LEFT)
    qtbot.waitUntil(lambda: view.status.text() != "Fetching…", timeout=30_000)
    assert view.status.text() == "The full value is no longer available: run again."
    assert view.text.toPlainText() == summary  # the summary stays
