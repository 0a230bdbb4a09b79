"""The run controller on its own: a code pane, a variables table, a console, fake callables."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication, QPlainTextEdit
from pytestqt.qtbot import QtBot

from tapeviz.models.session.file import Session
from tapeviz.sandbox import Limits
from tapeviz.sandbox import VariableSpec as V
from tapeviz.ui import workers
from tapeviz.ui.window.code_pane import CodePane
from tapeviz.ui.window.runs import LIVE_MIN_MS, LIVE_MS, RunController, live_delay
from tapeviz.ui.window.variables_table import VariablesTable


@pytest.fixture
def parts(qtbot: QtBot) -> SimpleNamespace:
    code, variables, console = CodePane(), VariablesTable(), QPlainTextEdit()
    for widget in (code, variables, console):
        qtbot.addWidget(widget)
    seen = SimpleNamespace(
        status=[], tapes=[], dimmed=[], studio=[], running=[], values=[], front=False
    )
    runner = RunController(
        code, variables, console,
        limits=lambda: Limits(wall_time=5.0), status=seen.status.append,
        studio_in_front=lambda: seen.front, show_tapes=seen.tapes.append,
        dim_graph=seen.dimmed.append, start_studio=seen.studio.append,
        running_changed=seen.running.append, show_value=seen.values.append,
    )  # fmt: skip
    seen.runner, seen.code, seen.variables, seen.console = runner, code, variables, console
    yield seen
    runner.stop()
    workers.wait_all()


def work(parts: SimpleNamespace, source: str, mode: str = "expression", table=()) -> None:
    parts.code.set_work(source, mode)
    parts.variables.set_specs(table)


def done(qtbot: QtBot, parts: SimpleNamespace) -> None:
    qtbot.waitUntil(lambda: not parts.runner.running, timeout=10_000)


def test_a_run_shows_its_tapes_output_and_time(qtbot: QtBot, parts: SimpleNamespace) -> None:
    work(parts, 'print("hi")\nimport tensorflow as tf\nx = tf.Variable(2.0)\n'
                "with tf.GradientTape() as t:\n    y = x * x\n", "script")  # fmt: skip
    parts.runner.run_code()
    assert parts.runner.running and parts.running == [True] and parts.status == ["Running…"]
    done(qtbot, parts)
    result = parts.runner.last_result
    assert result.error is None and parts.tapes == [result] and parts.dimmed == [False]
    assert parts.console.toPlainText() == "hi\n" and parts.running == [True, False]
    assert parts.status[-1].startswith("Ran in ") and parts.status[-1].endswith(
        "1 tape(s) recorded."
    )


def test_a_run_that_records_no_tape_dims_the_last_graph(
    qtbot: QtBot, parts: SimpleNamespace
) -> None:
    work(parts, "import tensorflow as tf\nx = tf.Variable(2.0)\n"
                "with tf.GradientTape() as t:\n    y = x * x\n", "script")  # fmt: skip
    parts.runner.run_code()
    done(qtbot, parts)
    work(parts, "x = 1\nprint(x)\n", "script")  # the graph stays the last run's: dimmed
    parts.runner.run_code()
    done(qtbot, parts)
    assert parts.runner.last_result.error is None and not parts.runner.last_result.tapes
    assert parts.dimmed == [False, True] and parts.status[-1].endswith("0 tape(s) recorded.")
    work(parts, "x*2", table=(V("x", 1.0),))  # recorded again: shown as it is
    parts.runner.run_code()
    done(qtbot, parts)
    assert parts.dimmed == [False, True, False]
    assert parts.values == [None, None, None]  # (no last expression; an expression's is drawn)


def test_a_scripts_last_value_is_shown_and_a_failed_run_shows_none(
    qtbot: QtBot, parts: SimpleNamespace
) -> None:
    work(parts, "import numpy as np\nnp.float32(2) * 3\n", "script")
    parts.runner.run_code()
    done(qtbot, parts)
    work(parts, "import numpy as np\nnp.float32(2) * nope\n", "script")
    parts.runner.run_code()
    done(qtbot, parts)
    assert parts.values == ["6.0", None]


def test_the_status_counts_a_big_runs_tapes_as_the_timeline_does(
    qtbot: QtBot, parts: SimpleNamespace
) -> None:
    work(parts, "import tensorflow as tf\nx = tf.Variable(2.0)\nfor i in range(1200):\n"
                "    with tf.GradientTape() as t:\n        y = x * x\n", "script")  # fmt: skip
    parts.runner.run_code()
    done(qtbot, parts)
    assert parts.status[-1].endswith("; 1,200 tape(s) recorded.")


def test_what_tapeviz_read_differently_is_said_in_the_status(
    qtbot: QtBot, parts: SimpleNamespace
) -> None:
    work(parts, ">>> x = tf.constant（3.0）\n>>> print(x * 2)\ntf.Tensor(6.0)\n", "script")
    parts.runner.run_code()
    done(qtbot, parts)
    assert parts.console.toPlainText() == "tf.Tensor(6.0, shape=(), dtype=float32)\n"
    status = parts.status[-1]
    assert status.startswith("Ran in ") and "interactive session" in status
    assert "'（' as '('" in status
    assert parts.code.editor.toPlainText().startswith(">>> x")  # the user's text, as typed


def test_an_error_is_marked_and_dims_the_graph(qtbot: QtBot, parts: SimpleNamespace) -> None:
    work(parts, "y = 1\nz = y +\n", "script")
    parts.runner.run_code()
    done(qtbot, parts)
    assert parts.code.editor.error_line == 2 and parts.code.error_label.text().startswith("⚠")
    assert parts.dimmed == [True] and parts.status[-1].startswith("⚠")
    work(parts, "x*2", table=(V("x", 1.0),))
    parts.variables.table.item(0, 1).setText("__import__('os')")
    parts.runner.run_code()
    assert not parts.runner.running and "Variable row 1" in parts.code.error_label.text()
    work(parts, "   ")
    parts.runner.run_code()
    assert parts.status[-1] == "Type a function or paste a script to run."


def test_under_the_studio_the_checked_text_goes_to_the_studio(
    qtbot: QtBot, parts: SimpleNamespace
) -> None:
    parts.front = True
    work(parts, "x**2 + y**2", table=(V("x", 1.0), V("y", 2.0)))
    parts.runner.run_code()
    done(qtbot, parts)
    assert parts.tapes == [] and [p.source for p in parts.studio] == ["x**2 + y**2"]
    assert parts.studio[0] == parts.runner.problem()


def test_one_run_at_a_time_and_the_queued_one_follows(qtbot: QtBot, parts: SimpleNamespace) -> None:
    parts.front = True
    work(parts, "while True:\n    x = [i for i in range(2000)]\n", "script")
    parts.runner.run_code()
    token = parts.runner.cancel_token
    work(parts, "x**2", table=(V("x", 1.0),))
    parts.runner.run_code()  # queued behind the runaway script
    assert parts.runner.pending and parts.runner.cancel_token is token
    token.cancel()  # the script stops; the queued run starts, then goes to the studio
    qtbot.waitUntil(lambda: parts.runner.last_result is not None
                    and parts.runner.last_result.value is not None, timeout=10_000)  # fmt: skip
    done(qtbot, parts)
    assert [p.source for p in parts.studio] == ["x**2"]  # not the cancelled script
    parts.runner.run_code()
    parts.runner.stop()
    assert not parts.runner.pending and parts.status[-1] == "Stopping…"


def test_expression_edits_rerun_live_but_seen_work_does_not(
    qtbot: QtBot, parts: SimpleNamespace
) -> None:
    runner = parts.runner
    runner.mark_seen()
    parts.code.editor.setPlainText("x*3")  # typed: a live re-run is due
    assert runner.live_timer.isActive()
    session = Session(source="x*4", variables=(V("x", 1.0),))
    work(parts, session.source, table=session.variables)  # (the table's signal re-runs too)
    runner.live_timer.stop()
    runner.mark_seen(session.source, session.mode)
    runner.on_edited()  # e.g. re-highlighting: the same work, nothing to re-run
    assert not runner.live_timer.isActive()
    parts.code.mode.setCurrentIndex(1)  # script mode: runs only when asked
    parts.code.editor.setPlainText("print(1)")
    assert not runner.live_timer.isActive()
    assert runner.problem().mode == "script"
    parts.variables.table.item(0, 1).setText("not a number")
    assert runner.problem() is None


def test_the_live_pause_follows_the_last_runs_time() -> None:
    assert live_delay(None) == LIVE_MS  # nothing known yet: the longest pause
    assert live_delay(0.005) == LIVE_MIN_MS  # a quick run: re-run almost at once
    assert live_delay(0.06) == LIVE_MIN_MS  # over before a typist's next key
    assert live_delay(0.2) == 50  # a quarter of the run's time
    assert live_delay(0.8) == 200
    assert live_delay(5.0) == LIVE_MS  # never longer than the longest pause


def test_a_quick_run_shortens_the_pause_after_the_next_key(
    qtbot: QtBot, parts: SimpleNamespace
) -> None:
    runner = parts.runner
    assert runner.last_run_s is None
    parts.code.editor.setPlainText("x*3")
    assert runner.live_timer.interval() == LIVE_MS  # no run yet
    runner.live_timer.stop()
    work(parts, "x*x", table=(V("x", 2.0),))
    runner.live_timer.stop()
    runner.run_code()
    done(qtbot, parts)
    assert runner.last_run_s is not None and runner.last_run_s > 0
    parts.code.editor.setPlainText("x*x*x")
    assert live_delay(runner.last_run_s) == LIVE_MIN_MS == 0  # quick: no pause at all
    assert runner.live_pending and not runner.live_timer.isActive()  # (the next turn)
    cursor = parts.code.editor.textCursor().position()
    qtbot.waitUntil(lambda: not runner.live_pending and not runner.running, timeout=10_000)
    assert parts.code.editor.toPlainText() == "x*x*x"  # the live run left the text alone
    assert parts.code.editor.textCursor().position() == cursor  # and the caret
    assert runner.last_result.value is not None and float(runner.last_result.value) == 8.0


def quick_runner(qtbot: QtBot, parts: SimpleNamespace, monkeypatch: pytest.MonkeyPatch) -> list:
    """The runner after a quick run, with its sandbox runs counted (by their sources)."""
    runner = parts.runner
    work(parts, "x*x", table=(V("x", 2.0),))
    runner.live_timer.stop()
    runner.run_code()
    done(qtbot, parts)
    assert live_delay(runner.last_run_s) == 0
    sources: list[str] = []
    submit = workers.submit
    monkeypatch.setattr(workers, "submit", lambda *a, **k: (sources.append(a[1]), submit(*a, **k)))
    return sources


def test_keys_sent_in_one_turn_make_one_live_run(
    qtbot: QtBot, parts: SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> None:
    sources = quick_runner(qtbot, parts, monkeypatch)
    editor = parts.code.editor
    editor.moveCursor(editor.textCursor().MoveOperation.End)
    qtbot.keyClicks(editor, "+x")  # two keys, one turn (as a paste): not "x*x+" on its own
    assert sources == []
    qtbot.waitUntil(lambda: sources == ["x*x+x"] and not parts.runner.running, timeout=10_000)
    assert float(parts.runner.last_result.value) == 6.0


def test_a_live_run_starts_before_the_window_repaints_the_key(
    qtbot: QtBot, parts: SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker computes while the window paints (the repaint can come before the turn)."""
    sources = quick_runner(qtbot, parts, monkeypatch)
    parts.code.editor.setPlainText("x*x*x")
    assert sources == [] and parts.runner.live_pending
    QApplication.sendEvent(parts.code.window(), QEvent(QEvent.Type.UpdateRequest))
    assert sources == ["x*x*x"] and parts.runner.running and not parts.runner.live_pending
    done(qtbot, parts)
    qtbot.wait(20)  # the queued turn finds the run started: no second run
    assert sources == ["x*x*x"] and float(parts.runner.last_result.value) == 8.0
