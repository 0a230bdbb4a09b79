"""A gradient() call with output_gradients: the graph and the stepper start where it did."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from tapeviz.ui import MainWindow

SOURCE = """import tensorflow as tf
@tf.custom_gradient
def clip_gradients(y):
  def backward(dy):
    return tf.clip_by_norm(dy, 0.5)
  return y, backward

v = tf.Variable(2.0)
with tf.GradientTape(persistent=True) as t:
  output = clip_gradients(v * v)
  plain = tf.identity(v * v)
print(t.gradient(output, v, output_gradients=tf.constant(0.25)))
print(t.gradient(plain, v, output_gradients=tf.constant(0.25)))
print(t.gradient(plain, v))
"""


def test_each_pass_shows_what_its_call_returned(qtbot: QtBot, window: MainWindow) -> None:
    window.mode.setCurrentIndex(1)
    window.editor.setPlainText(SOURCE)
    window.run_code()
    qtbot.waitUntil(lambda: window.last_result is not None and window._cancel is None)
    assert window.console.toPlainText().splitlines() == [
        "tf.Tensor(1.0, shape=(), dtype=float32)",  # 0.25 is under the clip's 0.5: 2·2·0.25
        "tf.Tensor(1.0, shape=(), dtype=float32)",
        "tf.Tensor(4.0, shape=(), dtype=float32)",
    ]
    stepper, box = window.stepper, window.stepper.pass_box
    assert box.count() == 3
    for index, expected in [(0, 1.0), (1, 1.0), (2, 4.0), (0, 1.0)]:
        box.setCurrentIndex(index)
        box.activated.emit(index)
        qtbot.waitUntil(lambda i=index: window.model.entry.call == i)
        (v,) = [n for n, node in window.model.nodes.items() if node.label == "v"]
        assert float(window.model.gradients[v]) == expected  # as the call's result, not ones
        assert stepper.failure == "" and stepper.backward is not None
        final = stepper.backward.final[window.model.nodes[v].tensor_id]
        assert float(final) == expected  # the stepper's walk ends at the same number


def test_a_target_named_twice_or_also_a_source_is_seeded_as_the_call_did(
    qtbot: QtBot, window: MainWindow
) -> None:
    source = """import tensorflow as tf
x = tf.Variable(2.0)
with tf.GradientTape(persistent=True) as t:
  y = x * x
print(float(t.gradient([y, y], x)))
print(float(t.gradient([y, x], x, output_gradients=[2.0, 4.0])))
"""
    window.mode.setCurrentIndex(1)
    window.editor.setPlainText(source)
    window.run_code()
    qtbot.waitUntil(lambda: window.last_result is not None and window._cancel is None)
    assert window.console.toPlainText().splitlines() == ["8.0", "12.0"]
    box = window.stepper.pass_box
    for index, expected in [(0, 8.0), (1, 12.0)]:
        box.setCurrentIndex(index)
        box.activated.emit(index)
        qtbot.waitUntil(lambda i=index: window.model.entry.call == i)
        (x,) = [n for n, node in window.model.nodes.items() if node.label == "x"]
        assert float(window.model.gradients[x]) == expected
        final = window.stepper.backward.final[window.model.nodes[x].tensor_id]
        assert float(final) == expected


def test_steppers_the_pool_could_not_build_are_explained_not_built_again(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tapeviz.ui.stepper import panel as stepper_panel

    window.mode.setCurrentIndex(1)
    window.editor.setPlainText("x = tf.Variable(2.0)\nwith tf.GradientTape() as t:\n  y = x * x\n")
    window.run_code()
    qtbot.waitUntil(lambda: window.last_result is not None and window._cancel is None)
    stepper = window.stepper
    calls: list[object] = []
    monkeypatch.setattr(stepper_panel, "build_steppers", lambda model: calls.append(model))
    stepper.prepared = (window.model.entry, ValueError("a rule that cannot run here"))
    stepper._rebuild()
    assert calls == [] and stepper.backward is None
    assert stepper.detail.text().endswith("ValueError: a rule that cannot run here")
