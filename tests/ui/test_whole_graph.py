"""Issue 33, item 1: "Show the whole graph" shows every node, centred, and stays so after edits.

At 1366×768 and 150 % the lecturer typed ``sin(x)*exp(-x**2/2)``, then ``+ w``: the 9-node
graph stayed in the scrolled compact layout (the input cut off at the left) whatever key they
pressed, as the view's next automatic refit (its scroll bars going) undid the whole view.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tapeviz.models.session.file import Session
from tapeviz.sandbox import VariableSpec
from tapeviz.ui import MainWindow
from tests.ui.lecture_room import off_centre, outside, ran, room, show

__all__ = ["room"]

VARIABLES = (VariableSpec("x", 1.0), VariableSpec("w", 0.5))
KERAS = (
    "import numpy as np\nimport tensorflow as tf\n"
    "model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation='relu'),\n"
    "                             tf.keras.layers.Dense(1)])\n"
    "x = np.array([[0.5, -1.0], [1.0, 2.0]], dtype='float32')\n"
    "y = np.array([[1.0], [0.0]], dtype='float32')\n"
    "with tf.GradientTape() as tape:\n"
    "    loss = tf.reduce_mean((model(x) - y) ** 2)\n"
    "grads = tape.gradient(loss, model.trainable_variables)\n"
)


def whole(w: MainWindow) -> bool:
    dx, dy = off_centre(w)
    return not outside(w) and abs(dx) <= 3 and abs(dy) <= 3


def press(qtbot: QtBot, w: MainWindow, how: str) -> None:
    if how == "W":
        w.graph.setFocus()
        qtbot.keyClick(w.graph, Qt.Key.Key_W)
    elif how == "Ctrl+Shift+W":
        mods = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        qtbot.keyClick(w, Qt.Key.Key_W, mods)
    else:
        w.graph_pane.whole_action.trigger()


@pytest.mark.parametrize("how", ["W", "Ctrl+Shift+W", "menu"])
def test_the_whole_graph_after_an_edit(qtbot: QtBot, room: MainWindow, how: str) -> None:
    show(qtbot, room, Session(source="sin(x)*exp(-x**2/2)", variables=VARIABLES))
    room.editor.setPlainText("sin(x)*exp(-x**2/2) + w")
    ran(qtbot, room)
    qtbot.waitUntil(lambda: len(room.graph.items) == 11)
    assert outside(room)  # the readable fit scrolls: the graph is wider than the view at 150 %
    press(qtbot, room, how)
    qtbot.waitUntil(lambda: whole(room))
    qtbot.wait(100)  # (the scroll bars go: the view resizes, and refits)
    assert whole(room), (outside(room), off_centre(room))
    room.editor.setPlainText("sin(x)*exp(-x**2/2) + w*x + 3")  # more nodes: still whole
    ran(qtbot, room)
    qtbot.waitUntil(lambda: len(room.graph.items) == 14 and whole(room))
    room.presenter.set_clean(True)  # a resize keeps it whole too
    qtbot.waitUntil(lambda: whole(room))
    room.presenter.set_clean(False)
    qtbot.waitUntil(lambda: whole(room))
    room.fit_action.trigger()  # Fit: readable again (it scrolls at this size)
    qtbot.waitUntil(lambda: bool(outside(room)))


def test_a_keras_models_whole_graph(qtbot: QtBot, room: MainWindow) -> None:
    show(qtbot, room, Session(source=KERAS, mode="script"))
    press(qtbot, room, "Ctrl+Shift+W")
    qtbot.waitUntil(lambda: whole(room))
    qtbot.wait(100)
    assert whole(room), (outside(room), off_centre(room))
