"""The Output dock shows a script's last value under what it printed, as a notebook does."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tapeviz.ui import MainWindow
from tapeviz.ui.window.output_pane import SHOWN_LINES, OutputPane

SEEDS = Path(__file__).resolve().parents[2] / "assets" / "seeds"
GUIDE = (
    "import tensorflow as tf\nx = tf.constant(3.0)\nwith tf.GradientTape() as g:\n"
    "    g.watch(x)\n    y = x * x\ndy_dx = g.gradient(y, x)\nprint('dy/dx')\ndy_dx.numpy()\n"
)


def _run(qtbot: QtBot, w: MainWindow, source: str) -> None:
    w.editor.setPlainText(source)
    w.run_code()
    qtbot.waitUntil(lambda: w.last_result is not None and w._cancel is None, timeout=60_000)


def test_the_guides_block_shows_its_value_under_its_output(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.mode.setCurrentIndex(1)
    label = window.output_pane.value_label
    _run(qtbot, window, GUIDE)
    assert label.isVisible() and label.text() == "Out: 6.0"
    assert window.console.toPlainText() == "dy/dx\n"  # the printed text stays what was printed
    source = (SEEDS / "000_0_import.py").read_text("utf-8") + (
        SEEDS / "000_2_2_3_higher_order.py"
    ).read_text("utf-8").replace("g_2.numpy()", "g_2")
    _run(qtbot, window, source)  # a tensor: TensorFlow's repr, read from the received table
    assert label.text() == "Out: <tf.Tensor: shape=(), dtype=float32, numpy=18.0>"
    _run(qtbot, window, "x = 1\nprint(x)\n")  # no last expression: no Out line
    assert label.isHidden() and window.console.toPlainText() == "1\n"
    _run(qtbot, window, GUIDE.replace("dy_dx.numpy()", "dy_dx.numpy() / undefined_name"))
    assert label.isHidden()  # a failed run shows no value, as a notebook cell that raised


def test_a_long_value_wraps_never_widens_the_dock_and_is_whole_in_the_tooltip(
    qtbot: QtBot,
) -> None:
    pane = OutputPane()
    qtbot.addWidget(pane)
    pane.resize(300, 300)
    pane.show()
    narrow = pane.minimumSizeHint().width()
    text = "\n".join(f"row {i}: " + "0.5, " * 40 for i in range(20))
    pane.show_value(text)
    assert pane.value_label.textFormat() == Qt.TextFormat.PlainText  # <tf.Tensor …> is no tag
    assert pane.minimumSizeHint().width() == narrow and pane.value_label.wordWrap()
    shown = pane.value_label.text().splitlines()
    assert shown[0].startswith("Out: row 0:") and len(shown) == SHOWN_LINES + 1
    assert shown[-1] == "…" and pane.value_label.toolTip() == text
    pane.show_value("<tf.Tensor: shape=(), dtype=float32, numpy=6.0>")
    assert pane.value_label.text() == "Out: <tf.Tensor: shape=(), dtype=float32, numpy=6.0>"
    pane.show_value(None)
    assert pane.value_label.isHidden() and pane.value_label.text() == ""


def test_a_seed_preset_ending_in_a_value_shows_it_and_says_where(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.load_preset("basics-2-2-3-higher-order")  # ends in g_2.numpy(): a notebook shows 18.0
    qtbot.waitUntil(lambda: window.output_pane.value_label.text() == "Out: 18.0", timeout=30_000)
    assert "Out line" in window.notes_label.text()
