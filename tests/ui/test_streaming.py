"""A long script streams into the window: its timeline is scrubbable while it still runs.

The run so far arrives at 0.08 s, 0.24 s, 0.72 s, ... of its time; the timeline, the Tapes dock
and the Output pane show it, the user can move the cursor, and the finished run (or a stopped
one) keeps the step the user is on.
"""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from tapeviz.ui import MainWindow

LOOP = """import tensorflow as tf
x = tf.Variable(3.0)
for i in range({steps}):
    with tf.GradientTape() as t:
        y = x * x
    x.assign_sub(0.0001 * t.gradient(y, x))
    if i % 100 == 0:
        print("step", i)
"""
STEPS = 40_000  # ~2 s here: a few snapshots before the end


def _running(w: MainWindow) -> bool:
    return w._cancel is not None


def test_the_timeline_is_scrubbable_while_the_run_goes_on(qtbot: QtBot, window: MainWindow) -> None:
    w = window
    w.mode.setCurrentIndex(1)
    w.editor.setPlainText("print(1)\n")  # no tape: whatever graph is up stays, dimmed
    w.run_code()
    qtbot.waitUntil(lambda: not _running(w) and w.last_result is not None, timeout=30_000)
    assert w.graph._dimmed
    w.editor.setPlainText(LOOP.format(steps=STEPS))
    w.run_code()
    qtbot.waitUntil(lambda: w.timeline.timeline is not None, timeout=30_000)
    assert _running(w), "the run ended before its first snapshot was shown"
    assert not w.graph._dimmed  # the graph of this run's step, streamed: shown as it is
    seen = w.timeline.timeline.steps
    assert 2 <= seen < STEPS
    assert w.tape_list.count() == seen  # (a snapshot lists its finished tapes)
    assert w.console.toPlainText().startswith("step 0\n")
    assert "so far" in w.statusBar().currentMessage()
    w.timeline.set_step(1)  # the user scrubs while it runs
    assert w.timeline.k == 1
    assert w.model.entries, "the graph shows the step's tape"
    qtbot.waitUntil(lambda: not _running(w), timeout=60_000)
    assert w.last_result is not None and w.last_result.error is None
    assert w.timeline.timeline.steps == STEPS
    assert w.timeline.k == 1  # the step the user was on, not back to the first
    # (the tape list marks its row on a turn of its own after a big result: let it come)
    qtbot.waitUntil(lambda: w.tape_list.currentRow() == w.timeline.timeline.main_tape(1),
                    timeout=10_000)  # fmt: skip
    assert w.tape_list.currentRow() == w.timeline.timeline.main_tape(1)
    assert "Ran in" in w.statusBar().currentMessage()


def test_a_stopped_run_keeps_what_arrived(qtbot: QtBot, window: MainWindow) -> None:
    w = window
    w.mode.setCurrentIndex(1)
    w.editor.setPlainText(LOOP.format(steps=10_000_000))
    w.run_code()
    qtbot.waitUntil(lambda: w.timeline.timeline is not None, timeout=30_000)
    steps = w.timeline.timeline.steps
    w.timeline.set_step(steps - 1)
    w.runner.stop()
    qtbot.waitUntil(lambda: not _running(w), timeout=30_000)
    result = w.last_result
    assert result is not None and result.error is not None
    assert result.error.kind == "cancelled"
    assert len(result.tapes) >= steps and w.timeline.timeline is not None
    assert w.timeline.timeline.steps >= steps and w.timeline.k == steps - 1
    assert w.console.toPlainText().startswith("step 0\n")  # the output that arrived
    assert "are kept" in w.statusBar().currentMessage()
    assert not w.graph._dimmed  # the values shown are valid: a Stop does not grey them out


def test_a_quick_script_does_not_stream(qtbot: QtBot, window: MainWindow) -> None:
    """A run over before its first snapshot is shown once, at its end, as before."""
    shown: list[int] = []
    window.runner.show_snapshot = lambda result, what, first: shown.append(len(result.tapes))
    window.mode.setCurrentIndex(1)
    window.editor.setPlainText(LOOP.format(steps=20))
    window.run_code()
    qtbot.waitUntil(lambda: window.last_result is not None and not _running(window))
    assert shown == [] and window.timeline.timeline.steps == 20
