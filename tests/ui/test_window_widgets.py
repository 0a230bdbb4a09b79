"""The window's small parts on their own: the code pane, the tape list, the status progress."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from tapeviz.models.graph.model import GraphModel
from tapeviz.sandbox import run
from tapeviz.ui.window.code_pane import CodePane
from tapeviz.ui.window.status_progress import SHOW_AFTER_MS, StatusProgress
from tapeviz.ui.window.tape_list import TapeList

NESTED = """import tensorflow as tf
x = tf.Variable(3.0)
with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        y = x ** 3
    g = inner.gradient(y, x)
"""


def test_the_code_pane_sets_work_quietly_and_shows_errors(qtbot: QtBot) -> None:
    pane = CodePane()
    qtbot.addWidget(pane)
    edits: list[bool] = []
    pane.editor.textChanged.connect(lambda: edits.append(True))
    pane.mode.currentIndexChanged.connect(lambda _: edits.append(True))
    pane.set_work("print(1)", "script")
    assert edits == [] and pane.source() == "print(1)" and pane.current_mode() == "script"
    pane.show_error("name 'z' is not defined", 1, 6)
    assert pane.editor.error_line == 1 and pane.error_label.text() == "⚠ name 'z' is not defined"
    pane.clear_error()
    assert pane.editor.error_line is None and pane.error_label.text() == ""
    assert [pane.mode.itemData(i) for i in range(pane.mode.count())] == ["expression", "script"]


def test_the_tape_list_shows_the_outer_tape_and_picks_others(qtbot: QtBot) -> None:
    model = GraphModel()
    tapes = TapeList(model)
    qtbot.addWidget(tapes)
    result = run(NESTED)
    assert result.error is None
    tapes.show_result(result)
    assert [tapes.text(i) for i in range(tapes.count())] == [
        f"{t.name} — {len(t.tape.records)} ops" for t in result.tapes
    ]
    assert tapes.currentRow() == 0 == model.current  # the outer tape, the inner one framed in it
    tapes.setCurrentRow(1)
    assert model.current == 1 and model.entry.name == "inner"
    model.select(0)
    assert tapes.currentRow() == 0  # the row follows the model
    tapes.show_result(run("x = 1"))  # no tape: the list empties, the graph keeps its tapes
    assert tapes.count() == 0 and len(model.entries) == len(result.tapes)


def test_the_status_progress_shows_who_computes(qtbot: QtBot) -> None:
    bar = StatusProgress()
    qtbot.addWidget(bar)
    bar.show()
    bar.hide()
    assert bar.isHidden()
    shown: list[bool] = []
    bar._later.timeout.connect(lambda: shown.append(True))
    bar.show_running(True, studio_busy=False)  # a live re-run while typing: a few ms
    qtbot.wait(50)
    bar.show_running(False, studio_busy=False)
    qtbot.wait(SHOW_AFTER_MS + 100)
    assert bar.isHidden() and shown == []  # never shown, not even for a moment
    bar.show_running(True, studio_busy=False)  # a run that takes a while
    assert bar.isHidden() and bar.maximum() == 0  # indeterminate, shown once it is slow
    qtbot.waitUntil(lambda: not bar.isHidden(), timeout=2_000)
    bar.show_running(False, studio_busy=True)
    assert not bar.isHidden() and bar.maximum() == 100  # the studio's fraction next
    bar.show_fraction(0.25)
    assert bar.value() == 25
    bar.show_running(False, studio_busy=False)
    qtbot.waitUntil(bar.isHidden, timeout=1_000)
    bar.show_running(True, studio_busy=False)  # a slow run ...
    qtbot.waitUntil(lambda: not bar.isHidden(), timeout=2_000)
    hidden: list[bool] = []
    bar._hiding.timeout.connect(lambda: hidden.append(True))
    bar.show_running(False, studio_busy=False)  # ... ends, and the queued run starts at once
    bar.show_running(True, studio_busy=False)
    qtbot.wait(50)
    assert not bar.isHidden() and hidden == []  # the bar stays up: no 200 ms gap
