"""Notebook cells pasted into the window: no imports, classes, and matplotlib in the Plots tab."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

import tapeviz.tf as tf
from tapeviz.models.session.file import Session
from tapeviz.ui import MainWindow
from tapeviz.ui.theme import DARK
from tapeviz.ui.window.lower_tabs import PLOTS_TAB, STEPPER_TAB, TIMELINE_TAB


def paste_and_run(qtbot: QtBot, w: MainWindow, source: str) -> None:
    w.apply_session(Session(source=source, mode="script"), run_now=False)
    before = w.last_result
    qtbot.mouseClick(w.findChild(QPushButton, "runButton"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: w.last_result is not before and w._cancel is None, timeout=15_000)


def test_a_guide_cell_without_imports_runs_and_prints(qtbot: QtBot, window: MainWindow) -> None:
    paste_and_run(
        qtbot, window,
        "x = tf.constant(3.0)\nwith tf.GradientTape() as g:\n  g.watch(x)\n  y = x * x\n"
        "dy_dx = g.gradient(y, x)\nprint(dy_dx)\n",
    )  # fmt: skip
    assert window.last_result.error is None
    assert window.console.toPlainText() == "tf.Tensor(6.0, shape=(), dtype=float32)\n"
    assert window.tape_list.count() == 1


def test_a_tf_module_model_trains_in_a_loop(qtbot: QtBot, window: MainWindow) -> None:
    """The "basic training loops" guide's model, pasted as it is (no imports)."""
    paste_and_run(
        qtbot,
        window,
        """class MyModel(tf.Module):
  def __init__(self, **kwargs):
    super().__init__(**kwargs)
    self.w = tf.Variable(5.0)
    self.b = tf.Variable(0.0)

  def __call__(self, x):
    return self.w * x + self.b

def loss(target_y, predicted_y):
  return tf.reduce_mean(tf.square(target_y - predicted_y))

x = tf.linspace(-2.0, 2.0, 41)
y = x * 3.0 + 2.0
model = MyModel()
for epoch in range(10):
  with tf.GradientTape() as t:
    current_loss = loss(y, model(x))
  dw, db = t.gradient(current_loss, [model.w, model.b])
  model.w.assign_sub(0.1 * dw)
  model.b.assign_sub(0.1 * db)
print(len(model.trainable_variables), f"W = {model.w.numpy():.2f}, b = {model.b.numpy():.2f}")
""",
    )
    assert window.last_result.error is None, window.last_result.error
    w, b = tf.Variable(5.0), tf.Variable(0.0)
    x = tf.linspace(-2.0, 2.0, 41)
    y = x * 3.0 + 2.0
    for _ in range(10):
        with tf.GradientTape() as t:
            current = tf.reduce_mean(tf.square(y - (w * x + b)))
        dw, db = t.gradient(current, [w, b])
        w.assign_sub(0.1 * dw)
        b.assign_sub(0.1 * db)
    assert window.console.toPlainText() == f"2 W = {w.numpy():.2f}, b = {b.numpy():.2f}\n"
    assert window.tape_list.count() == 10
    assert window.lower_tabs.isTabEnabled(TIMELINE_TAB)  # the loop is a timeline, too
    labels = [n.label for n in window.model.nodes.values()]
    assert {"model.w", "model.b"} <= set(labels)


def test_a_class_based_model_trains_in_a_loop(qtbot: QtBot, window: MainWindow) -> None:
    paste_and_run(
        qtbot,
        window,
        """TRUE_W, TRUE_B = 3.0, 2.0
x = tf.constant(np.linspace(-2, 2, 40), dtype=tf.float32)
y = x * TRUE_W + TRUE_B

class MyModel:
    def __init__(self, **kwargs):
        self.w = tf.Variable(5.0)
        self.b = tf.Variable(0.0)

    def __call__(self, x):
        return self.w * x + self.b

def loss(target_y, predicted_y):
    return tf.reduce_mean(tf.square(target_y - predicted_y))

model = MyModel()
for epoch in range(20):
    with tf.GradientTape() as t:
        current_loss = loss(y, model(x))
    dw, db = t.gradient(current_loss, [model.w, model.b])
    model.w.assign_sub(0.1 * dw)
    model.b.assign_sub(0.1 * db)
print(f"W = {model.w.numpy():.2f}, b = {model.b.numpy():.2f}")
""",
    )
    assert window.last_result.error is None, window.last_result.error
    x = tf.constant(np.linspace(-2, 2, 40), dtype=tf.float32)  # the same loop, outside
    y = x * 3.0 + 2.0
    w, b = tf.Variable(5.0), tf.Variable(0.0)
    for _ in range(20):
        with tf.GradientTape() as t:
            current = tf.reduce_mean(tf.square(y - (w * x + b)))
        dw, db = t.gradient(current, [w, b])
        w.assign_sub(0.1 * dw)
        b.assign_sub(0.1 * db)
    assert window.console.toPlainText() == f"W = {w.numpy():.2f}, b = {b.numpy():.2f}\n"
    assert window.console.toPlainText() == "W = 3.00, b = 1.98\n"
    assert window.tape_list.count() == 20  # every step's tape, the last one in the graph
    labels = [n.label for n in window.model.nodes.values()]
    assert {"model.w", "model.b"} <= set(labels)  # named where the model keeps them


def test_plt_plot_of_a_loss_list_shows_the_curve(qtbot: QtBot, window: MainWindow) -> None:
    window.lower_tabs.setCurrentIndex(STEPPER_TAB)
    paste_and_run(
        qtbot, window,
        "import matplotlib.pyplot as plt\nx = tf.Variable(2.0)\nlosses = []\n"
        "opt = tf.keras.optimizers.SGD(learning_rate=0.25)\nfor i in range(12):\n"
        "    with tf.GradientTape() as tape:\n        loss = x ** 2\n"
        "    opt.apply_gradients([(tape.gradient(loss, x), x)])\n    losses.append(loss)\n"
        "plt.plot(losses)\nplt.xlabel('step')\nplt.ylabel('loss')\nplt.show()\n",
    )  # fmt: skip
    assert window.last_result.error is None
    assert window.lower_tabs.currentIndex() == PLOTS_TAB  # figures come to the front
    assert window.lower_tabs.tabText(PLOTS_TAB) == "Plots (1)"
    (panel,) = window.plots.panels
    assert panel.isVisible()
    (line,) = panel.canvas.items[0]
    x, y = line.getData()
    np.testing.assert_array_equal(x, np.arange(12))
    np.testing.assert_allclose(y, [4.0 * 0.25**k for k in range(12)], rtol=1e-6)  # x halves
    assert panel.canvas.plots[0].getAxis("left").labelText == "loss"


def test_subplots_with_two_axes_and_the_presenter(qtbot: QtBot, window: MainWindow) -> None:
    paste_and_run(
        qtbot, window,
        "import matplotlib.pyplot as plt\nfig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))\n"
        "ax1.plot([1, 2, 3], [1, 4, 9], 'o-')\nax1.set_title('f')\n"
        "ax2.bar(['SGD', 'Adam'], [0.3, 0.1])\nax2.set_title('final loss')\n",
    )  # fmt: skip
    (panel,) = window.plots.panels
    left, right = panel.canvas.plots
    assert panel.canvas.ci.layout.itemAt(0, 0) is left
    assert panel.canvas.ci.layout.itemAt(0, 1) is right
    assert isinstance(panel.canvas.items[1][0], pg.BarGraphItem)
    window.set_theme(DARK)
    window.set_font_scale(1.5)
    tick = panel.canvas.plots[0].getAxis("left").style["tickFont"].pointSizeF()
    assert tick == 9 * 1.5
    assert panel.canvas.backgroundBrush().color().name() == DARK.background.lower()


def test_a_run_without_figures_clears_the_tab_and_expressions_leave_it(
    qtbot: QtBot, window: MainWindow
) -> None:
    paste_and_run(qtbot, window, "import matplotlib.pyplot as plt\nplt.plot([1, 2])\n")
    assert len(window.plots.panels) == 1
    window.lower_tabs.setCurrentIndex(STEPPER_TAB)
    paste_and_run(qtbot, window, "print('no plots')\n")
    assert window.plots.panels == [] and window.plots.empty.isVisible() is False  # hidden tab
    assert window.lower_tabs.tabText(PLOTS_TAB) == "Plots"
    paste_and_run(qtbot, window, "import matplotlib.pyplot as plt\nplt.plot([3])\n")
    window.apply_session(Session(source="x**2", mode="expression"), run_now=True)
    qtbot.waitUntil(lambda: window._cancel is None, timeout=10_000)
    assert len(window.plots.panels) == 1  # a live expression leaves the last script's plots


def test_a_failed_run_keeps_the_last_plots_unless_it_drew_its_own(
    qtbot: QtBot, window: MainWindow
) -> None:
    paste_and_run(qtbot, window, "import matplotlib.pyplot as plt\nplt.plot([1, 2])\n")
    assert len(window.plots.panels) == 1
    paste_and_run(qtbot, window, "y = pd.DataFrame([1])\n")  # fails before drawing
    assert window.last_result.error is not None and len(window.plots.panels) == 1
    failing = "import matplotlib.pyplot as plt\nplt.plot([1])\nplt.figure()\nplt.plot([2])\n1 / 0\n"
    paste_and_run(qtbot, window, failing)  # drew two figures, then failed: a notebook shows them
    assert window.last_result.error is not None and len(window.plots.panels) == 2
