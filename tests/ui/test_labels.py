"""Labels that must not mislead: names in the chain rule, advice, notes, new rows, starts."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QAbstractItemView
from pytestqt.qtbot import QtBot

from tapeviz.models.session.file import Session
from tapeviz.sandbox import VariableSpec
from tapeviz.ui import MainWindow


def idle(qtbot: QtBot, w: MainWindow) -> None:
    qtbot.waitUntil(lambda: w._cancel is None and not w.live_timer.isActive(), timeout=20_000)


def chain_rule_text(w: MainWindow) -> str:
    infos = w.stepper.stepper.infos
    return "\n".join(infos[i].text for i in range(len(infos)))


def test_the_sigmoid_line_names_its_input_not_a(qtbot: QtBot, window: MainWindow) -> None:
    table = (VariableSpec("a", 2.0), VariableSpec("z", 0.5))
    window.apply_session(Session(source="sigmoid(a*z)", variables=table))
    idle(qtbot, window)
    qtbot.waitUntil(lambda: bool(window.stepper.stepper.infos), timeout=10_000)
    text = chain_rule_text(window)
    line = next(s for s in text.splitlines() if "exp(" in s)
    assert "e⁻ᵃ" not in text and "(−a)" not in line  # the user's a is not the formula's a
    assert line.split("=", 1)[0].strip() == "f" and "exp(−v1)" in line


def test_an_unknown_name_is_added_with_one_click(qtbot: QtBot, window: MainWindow) -> None:
    window.apply_session(Session(source="x*w + 1", variables=(VariableSpec("x", 2.0),)))
    idle(qtbot, window)
    button = window.code.error_frame.add_button
    assert button.isVisible() and "'w'" in button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    idle(qtbot, window)
    assert [s.name for s in window.variables.specs()] == ["x", "w"]
    assert window.last_result.error is None and not window.error_label.text()
    assert float(window.last_result.value.numpy()) == 3.0  # the new w is 1: x·1 + 1
    assert not window.code.error_frame.isVisible()


def test_add_variable_scrolls_to_the_new_row_and_edits_its_name(
    qtbot: QtBot, window: MainWindow
) -> None:
    rows = tuple(VariableSpec(f"v{i}", float(i)) for i in range(30))
    window.apply_session(Session(source="v1", variables=rows), run_now=False)
    table = window.variables.table
    table.scrollToTop()
    qtbot.mouseClick(window.variables.add_button, Qt.MouseButton.LeftButton)
    row = table.rowCount() - 1
    assert table.currentRow() == row
    assert table.state() == QAbstractItemView.State.EditingState  # the name is being edited
    rect = table.visualItemRect(table.item(row, 0))
    assert table.viewport().rect().contains(rect.center())  # in sight


def test_a_presets_notes_go_when_its_text_is_changed(qtbot: QtBot, window: MainWindow) -> None:
    window.load_preset("quadratic")
    idle(qtbot, window)
    notes = window.notes_label
    assert notes.text() and notes.isVisible()
    window.editor.setFocus()
    window.editor.moveCursor(window.editor.textCursor().MoveOperation.End)
    qtbot.keyClicks(window.editor, " + 1")
    assert notes.text() == "" and not notes.isVisible()
    while window.editor.toPlainText() != "a*x**2 + b*x + c":
        assert window.editor.document().isUndoAvailable()
        window.editor.undo()
    assert notes.text() and notes.isVisible()  # the preset's own text again: its notes too


def test_an_error_before_any_op_keeps_the_last_graph(qtbot: QtBot, window: MainWindow) -> None:
    source = "import tensorflow as tf\nx = tf.Variable(3.0)\nwith tf.GradientTape() as t:\n"
    window.apply_session(Session(source=source + "    y = x * x\n", mode="script"))
    idle(qtbot, window)
    before = sorted(n.label for n in window.model.nodes.values())
    assert before
    window.editor.setPlainText(source + "    y = tf.math.log(-1) * x\n")
    window.run_code()
    idle(qtbot, window)
    assert sorted(n.label for n in window.model.nodes.values()) == before  # not a blank graph
    assert window.graph.dimmed
    text = window.error_label.text()
    assert "write -1.0 instead of -1" in text and "tv.cast" not in text


def test_a_clicked_start_reaches_the_table_as_a_short_number(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.load_preset("himmelblau")
    qtbot.waitUntil(
        lambda: window.studio.race is not None and not window.studio.busy, timeout=30_000
    )
    plot = window.studio.surface
    view = plot.getPlotItem().getViewBox()
    pixel = plot.mapFromScene(view.mapViewToScene(pg.Point(2.7958500467472938, -1.12345678)))
    qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(pixel.x(), pixel.y()))
    cell = window.variables.table.item(0, 1)
    qtbot.waitUntil(lambda: abs(float(cell.text()) - 2.796) < 0.03, timeout=5000)
    for row in (0, 1):
        text = window.variables.table.item(row, 1).text()
        assert len(text.split(".")[-1]) <= 3, text  # e.g. 2.796, not 2.7958500467472938
