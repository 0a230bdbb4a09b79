"""A big run's arrival is cut into turns: the window answers between its parts (issue 32).

The plots of a long loop are drawn a plot per turn (each shown once drawn when its tab comes
forward), the Tapes dock's rows and current row come on turns of their own, the printed lines
are split in the pool, and a streamed run's tab coming forward does not show an older run
again. (The speed is measured by ``benchmarks/bench_ui.py``; these tests check the structure
and that what is shown at the end is unchanged.)
"""

from __future__ import annotations

import io
import threading
from pathlib import Path

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from tapeviz.models.timeline.output import OutputLines
from tapeviz.models.timeline.timeline import timelines_of
from tapeviz.sandbox import RunResult, run
from tapeviz.ui import MainWindow, turns
from tapeviz.ui.timeline import panel as panel_module
from tapeviz.ui.timeline.panel import SLICED_STEPS, TimelinePanel
from tapeviz.ui.window.tape_list import TapeRows

LOOP = """import tensorflow as tf
x = tf.Variable(3.0)
for i in range({steps}):
    with tf.GradientTape() as t:
        y = x * x
    x.assign_sub(0.001 * t.gradient(y, x))
    print("step", i)
"""


@pytest.fixture(scope="module")
def big() -> RunResult:
    return run(LOOP.format(steps=SLICED_STEPS + 100))


def _panel(qtbot: QtBot) -> TimelinePanel:
    p = TimelinePanel()
    qtbot.addWidget(p)
    p.resize(1200, 420)
    p.show()
    qtbot.waitExposed(p)
    return p


def _series(p: TimelinePanel) -> list[np.ndarray]:
    return [item["y"] for plot in p.plot_area.plots for item in plot.series]


def test_a_long_loops_plots_are_drawn_a_plot_per_turn_as_at_once(
    qtbot: QtBot, big: RunResult, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = OutputLines(big.output, big.output_marks)
    sliced = _panel(qtbot)
    sliced.set_run(timelines_of(big), lines)
    assert sliced.drawing and not sliced.plot_area.loss.series  # the parts wait their turns
    assert sliced.k == 0 and "step 0 of" in sliced.controls.step_label.text()
    qtbot.waitUntil(lambda: not sliced.drawing and not turns.pending())
    monkeypatch.setattr(panel_module, "SLICED_STEPS", 10**9)
    whole = _panel(qtbot)
    whole.set_run(timelines_of(big), lines)
    assert not whole.drawing
    ours, theirs = _series(sliced), _series(whole)
    assert len(ours) == len(theirs) == 3
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(a, b)
    legend = [label.text for _, label in sliced.plot_area.legend.items]
    assert legend == [label.text for _, label in whole.plot_area.legend.items] == ["x"]


def test_an_export_draws_the_parts_still_waiting(
    qtbot: QtBot, big: RunResult, tmp_path: Path
) -> None:
    p = _panel(qtbot)
    p.set_run(timelines_of(big))
    assert p.drawing
    assert p.export("png", tmp_path / "loop.png") == tmp_path / "loop.png"
    assert not p.drawing and len(_series(p)) == 3


def test_held_plots_show_as_they_are_drawn(qtbot: QtBot, big: RunResult) -> None:
    p = _panel(qtbot)
    p.hide()  # (its tab is behind another)
    p.set_run(timelines_of(big))
    p.hold_plots()
    plots = p.plot_area
    assert all(plot.isHidden() for plot in plots.plots)
    p.show()
    qtbot.waitUntil(lambda: not plots.loss.isHidden())
    qtbot.waitUntil(lambda: not p.drawing)
    assert not any(plot.isHidden() for plot in plots.plots)
    assert not any(plot.sizePolicy().retainSizeWhenHidden() for plot in plots.plots)


def test_the_tape_rows_are_as_many_as_the_labels_run_after_run() -> None:
    rows = TapeRows()
    rows.set_labels(["a", "b", "c"])
    rows.set_labels(["a", "b"])  # (a reset alone kept Qt's rows: 5 here, 150,000 by a stream)
    assert rows.rowCount() == 2 and rows.labels == ["a", "b"]
    rows.set_labels([])
    assert rows.rowCount() == 0


def test_a_received_run_says_whether_it_recorded_without_counting_each_tape() -> None:
    from tapeviz.sandbox.process import results, results_decode, wire
    from tapeviz.ui.window.runs import _recorded

    for source in (LOOP.format(steps=5), "x = 1\nprint(x)\n"):
        local = run(source)
        writer = wire.Writer()
        buf = io.BytesIO()
        wire.write(buf, results.encode(local, writer), writer)
        received = results_decode.decode(wire.read(io.BytesIO(buf.getvalue())))
        assert _recorded(received) == _recorded(local) == any(local.tape_ops())


def test_the_printed_lines_are_split_in_the_pool(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tapeviz.ui.window import timeline_link

    threads: list[bool] = []
    real = timeline_link.OutputLines

    def spy(*args: object) -> OutputLines:
        threads.append(threading.current_thread() is threading.main_thread())
        return real(*args)

    monkeypatch.setattr(timeline_link, "OutputLines", spy)
    window.mode.setCurrentIndex(1)
    window.editor.setPlainText(LOOP.format(steps=30))
    window.run_code()
    qtbot.waitUntil(lambda: window.last_result is not None and window._cancel is None)
    assert threads and not any(threads)
    assert window.timeline_link.output_link.lines.count == 30


def test_a_streamed_runs_tab_coming_forward_keeps_it_not_the_run_before(
    qtbot: QtBot, window: MainWindow, big: RunResult
) -> None:
    window.mode.setCurrentIndex(1)
    window.editor.setPlainText("import tensorflow as tf\nx = tf.constant(2.0)\ny = x * x\n")
    window.run_code()
    qtbot.waitUntil(lambda: window.last_result is not None and window._cancel is None)
    before = window.last_result
    window.show_view("stepper")
    link = window.timeline_link
    link.show_run(big)  # as a streamed run's first snapshot: the Timeline tab comes forward
    assert window.timeline_view and link.run is big and window.timeline.timeline is not None
    window.show_view("stepper")
    window.show_view("timeline")  # back from another tab while the run goes on
    assert link.run is big and window.last_result is before
    assert window.timeline.timeline is not None and window.timeline.timeline.steps > 500
    qtbot.waitUntil(lambda: not window.timeline.drawing and not turns.pending())
    assert window.tape_list.count() == len(big.tapes)
    assert window.tape_list.currentRow() == window.timeline.timeline.main_tape(0)
