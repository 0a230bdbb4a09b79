"""The timeline panel on its own: scrubbing, keys, playback, plots, divergence, output, exports."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QPlainTextEdit
from pytestqt.qtbot import QtBot

from tapeviz.models.timeline.output import OutputLines
from tapeviz.models.timeline.timeline import timelines_of
from tapeviz.sandbox import Limits, RunResult, run
from tapeviz.sandbox.process.isolated import run_isolated
from tapeviz.ui.timeline.output_link import OutputLink
from tapeviz.ui.timeline.panel import StepTapes, TimelinePanel
from tapeviz.ui.timeline.plots import TimelinePlots

SEEDS = Path(__file__).resolve().parents[2] / "assets" / "seeds"
SGD = (SEEDS / "003_2_1_sgd_apply_gradients.py").read_text("utf-8")


@pytest.fixture(scope="module")
def sgd() -> RunResult:
    return run_isolated(SGD)


@pytest.fixture
def panel(qtbot: QtBot, sgd: RunResult) -> Iterator[TimelinePanel]:
    p = TimelinePanel()
    qtbot.addWidget(p)
    p.resize(1200, 420)
    p.show()
    qtbot.waitExposed(p)
    p.set_run(timelines_of(sgd), OutputLines(sgd.output, sgd.output_marks))
    yield p
    p.pause()


def test_scrubbing_moves_the_cursor_and_announces_the_step_tapes(
    panel: TimelinePanel, sgd: RunResult, qtbot: QtBot
) -> None:
    seen: list[StepTapes] = []
    panel.stepTapes.connect(seen.append)
    scrubber = panel.controls.scrubber
    assert (scrubber.minimum(), scrubber.maximum()) == (0, 199)
    scrubber.setValue(120)
    assert panel.k == 120 and seen[-1].step == 120
    assert [t.tape for t in seen[-1].tapes] == [sgd.tapes[120].tape] and seen[-1].current == 0
    label = panel.controls.step_label.text()
    assert label.startswith("step 120 of 199") and "y = 0.007839" in label and "x = 0.9115" in label
    for p in panel.plot_area.plots:
        assert p.cursor.line().x1() == 120
    panel.set_step(10_000)
    assert panel.k == 199 and scrubber.value() == 199


def test_keys_step_play_and_reset_like_the_studio(panel: TimelinePanel, qtbot: QtBot) -> None:
    panel.setFocus()
    qtbot.keyClick(panel, Qt.Key.Key_Right)
    qtbot.keyClick(panel, Qt.Key.Key_Right)
    assert panel.k == 2
    qtbot.keyClick(panel, Qt.Key.Key_Left)
    assert panel.k == 1
    panel.controls.speed.setValue(60)  # 3 s to the end: a slow machine pauses well before
    qtbot.keyClick(panel, Qt.Key.Key_Space)
    assert panel.playing and panel.controls.play.isChecked()
    assert panel.controls.play.text() == "Pause"
    qtbot.waitUntil(lambda: panel.k > 5, timeout=3000)
    qtbot.keyClick(panel, Qt.Key.Key_Space)
    assert not panel.playing and panel.controls.play.text() == "Play"
    stopped = panel.k
    qtbot.wait(60)
    assert panel.k == stopped
    qtbot.keyClick(panel, Qt.Key.Key_Home)
    assert panel.k == 0


def test_playing_reaches_the_end_and_stops_there(panel: TimelinePanel, qtbot: QtBot) -> None:
    seen: list[int] = []
    panel.stepTapes.connect(lambda st: seen.append(st.step))
    panel.controls.speed.setValue(5000)
    panel.set_step(199)
    panel.start()  # at the end: plays from the start again
    qtbot.waitUntil(lambda: not panel.playing, timeout=3000)
    assert panel.k == 199 and seen[-1] == 199 and seen[:2] == [199, 0]  # restarted at 0


def test_buttons_and_a_click_in_a_plot(panel: TimelinePanel, qtbot: QtBot) -> None:
    c = panel.controls
    qtbot.mouseClick(c.step, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(c.step, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(c.back, Qt.MouseButton.LeftButton)
    assert panel.k == 1
    qtbot.mouseClick(c.reset, Qt.MouseButton.LeftButton)
    assert panel.k == 0
    plot = panel.plot_area.loss
    view = plot.getViewBox()
    scene_point = view.mapViewToScene(view.mapToView(view.boundingRect().center()))
    target = view.mapSceneToView(scene_point).x()
    pos = plot.mapFromScene(scene_point)
    qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(pos.x(), pos.y()))
    qtbot.waitUntil(lambda: panel.k != 0, timeout=2000)
    assert abs(panel.k - target) <= 1


def test_log_scale_on_demand_and_the_curves_end_on_tensorflows_numbers(
    panel: TimelinePanel,
) -> None:
    loss, params, grad = panel.plot_area.plots
    assert not loss.log
    panel.controls.log_scale.setChecked(True)
    assert loss.log and grad.log and not params.log
    (x,) = params.series
    assert np.float32(x["y"][-1]) == np.float32(0.98241204)
    assert np.float32(10 ** loss.series[0]["y"][-1]) == pytest.approx(np.float32(0.0003221035))


def test_output_lines_jump_to_their_step_and_the_current_step_is_highlighted(
    panel: TimelinePanel, sgd: RunResult, qtbot: QtBot
) -> None:
    pane = QPlainTextEdit()
    qtbot.addWidget(pane)
    pane.setPlainText(sgd.output)
    pane.resize(500, 300)
    pane.show()
    qtbot.waitExposed(pane)
    link = OutputLink(pane, panel)
    link.set_lines(OutputLines(sgd.output, sgd.output_marks))

    def click_line(n: int) -> None:
        block = pane.document().findBlockByNumber(n)
        rect = pane.blockBoundingGeometry(block).translated(pane.contentOffset())
        qtbot.mouseClick(pane.viewport(), Qt.MouseButton.LeftButton,
                         pos=QPoint(20, int(rect.center().y())))  # fmt: skip

    click_line(3)
    assert panel.k == 60
    highlighted = [s.cursor.blockNumber() for s in pane.extraSelections()]
    assert highlighted == [3]
    panel.set_step(100)
    assert [s.cursor.blockNumber() for s in pane.extraSelections()] == [5]
    panel.set_step(101)  # no line printed at step 101
    assert pane.extraSelections() == []
    click_line(10)  # the final print after the loop: the last step
    assert panel.k == 199
    assert link.panel.step_of_line(10) == (0, 199)


def test_a_pane_that_dropped_its_first_lines_still_links_the_rest(
    panel: TimelinePanel, sgd: RunResult, qtbot: QtBot
) -> None:
    pane = QPlainTextEdit()
    qtbot.addWidget(pane)
    pane.setMaximumBlockCount(4)  # the window's console keeps its last lines only
    pane.setPlainText(sgd.output)
    link = OutputLink(pane, panel)
    link.set_lines(OutputLines(sgd.output, sgd.output_marks))
    assert link.dropped == 8
    assert pane.document().findBlockByNumber(0).text().startswith("step = 160")
    panel.set_step(180)
    assert [s.cursor.blockNumber() for s in pane.extraSelections()] == [1]


def test_the_raw_years_regression_shows_its_divergence(qtbot: QtBot) -> None:
    source = (SEEDS / "003_2_1_linear_regression_raw.py").read_text("utf-8")
    result = run(source, limits=Limits(wall_time=120))
    panel = TimelinePanel()
    qtbot.addWidget(panel)
    panel.show()
    messages: list[str] = []
    panel.statusMessage.connect(messages.append)
    panel.set_run(timelines_of(result), OutputLines(result.output, result.output_marks))
    label = panel.controls.divergence
    assert label.isVisible()
    assert "Diverged at step 1" in label.text() and "normalize the inputs" in label.text()
    assert "loss becomes inf at step 4 and nan at step 9." in label.text()
    scrubber = panel.controls.scrubber
    assert scrubber.divergence == 1 and {4, 8, 9} <= set(scrubber.blowups)
    assert scrubber.maximum() == 9_999
    assert "Diverged at step 1" in messages[-1]  # the summary says it at once
    panel.set_step(5)
    assert "loss = inf" in panel.controls.step_label.text()
    assert len(panel.plot_area.marks) == 3  # a dashed line at the step in each plot


TENSORS = """import tensorflow as tf
import numpy as np
W = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3))
for step in range(10):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(W * W)
    W.assign_sub(0.1 * tape.gradient(loss, W))
v = tf.Variable(3.0)
for step in range(5):
    with tf.GradientTape() as tape:
        z = v * v
    v.assign_sub(0.25 * tape.gradient(z, v))
"""


def test_tensors_by_norm_or_element_and_two_loops(qtbot: QtBot) -> None:
    result = run(TENSORS)
    panel = TimelinePanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.set_run(timelines_of(result))
    c = panel.controls
    assert c.loop_combo.isVisible() and c.loop_combo.count() == 2
    assert c.loop_combo.itemText(1) == "Loop 2: 5 steps (tapes 11–15)"
    assert c.tensor_mode.isVisible() and not c.element.isVisible()
    (w,) = panel.plot_area.params.series
    assert w["y"][0] == pytest.approx(np.sqrt(55))  # ‖W‖ at step 0
    c.tensor_mode.setCurrentIndex(1)
    c.element.setValue(4)
    assert c.element.isVisible()
    (w,) = panel.plot_area.params.series
    assert w["y"][0] == 4.0 and w["y"][1] == pytest.approx(3.2)
    assert "W[4] = 4" in c.step_label.text()
    c.loop_combo.setCurrentIndex(1)
    assert panel.timeline is not None and panel.timeline.number == 2
    assert not c.tensor_mode.isVisible()
    assert "v = 3" in c.step_label.text()


def test_exports_csv_png_svg_and_gif(panel: TimelinePanel, tmp_path: Path, qtbot: QtBot) -> None:
    assert panel.export("csv", tmp_path / "loop.csv") == tmp_path / "loop.csv"
    assert (tmp_path / "loop.csv").read_text().splitlines()[-1] == "200,,,0.98241204"
    assert panel.export("png", tmp_path / "plots.png").stat().st_size > 1000
    assert "<svg" in panel.export("svg", tmp_path / "plots.svg").read_text()
    panel.set_step(50)
    busy: list[bool] = []
    panel.busyChanged.connect(busy.append)
    exporter = panel.export("gif", tmp_path / "loop.gif", frames=6)
    done: list[str] = []
    exporter.finished.connect(done.append)
    qtbot.waitUntil(lambda: bool(done), timeout=20_000)
    assert (tmp_path / "loop.gif").read_bytes()[:6] == b"GIF89a"
    assert busy == [True, False] and panel.k == 50  # the cursor comes back
    assert panel.export("png", tmp_path / "missing" / "x.png") is None
    assert "Export failed" in panel.status.text()


def test_an_empty_run_clears_the_panel(panel: TimelinePanel) -> None:
    panel.set_run([])
    assert panel.timeline is None and not panel.controls.play.isEnabled()
    panel.set_step(3)
    panel.start()
    assert not panel.playing and panel.export("csv", "unused.csv") is None


def test_the_plots_are_built_for_the_first_loop_not_at_the_start(
    qtbot: QtBot, sgd: RunResult
) -> None:
    """A hidden Timeline tab costs the window's start nothing: no pyqtgraph plots until a loop."""
    from tapeviz.ui.theme import DARK

    p = TimelinePanel()
    qtbot.addWidget(p)
    p.restyle(DARK, 1.5)
    p.resize(1200, 420)
    p.show()  # the tab in front when the first loop arrives
    qtbot.waitExposed(p)
    p.set_run([])
    assert p._plots is None and not p.findChildren(TimelinePlots)
    p.set_run(timelines_of(sgd))
    (plots,) = p.findChildren(TimelinePlots)
    assert plots is p.plot_area and plots.isVisible() and plots.height() > 100
    assert (plots.theme, plots.scale) == (DARK, 1.5)  # styled as the panel was meanwhile


def test_a_snapshot_is_drawn_a_part_per_turn_its_step_tapes_at_once(
    qtbot: QtBot, sgd: RunResult
) -> None:
    """A streamed run's snapshot: no turn builds every plot and the graph (80-90 ms) at once.

    Its step's tapes go at once: a big graph shown before must be gone before the Timeline tab
    comes forward (its resize fitted the old 20,000-op graph again: 280 ms).
    """
    p = TimelinePanel()
    qtbot.addWidget(p)
    p.resize(1200, 420)
    p.show()
    qtbot.waitExposed(p)
    seen: list[StepTapes] = []
    p.stepTapes.connect(seen.append)
    drawn: list[str] = []
    plots = p.plot_area
    plots.draw_parts = lambda *a, _parts=plots.draw_parts: [  # type: ignore[method-assign]
        (lambda f=f: (drawn.append(f.__name__), f())) for f in _parts(*a)
    ]
    p.set_run(timelines_of(sgd), by_turns=True)
    assert p.k == 0 and p.drawing and drawn == [] and len(seen) == 1  # (plots on later turns)
    qtbot.waitUntil(lambda: not p.drawing, timeout=5000)
    assert drawn == ["frame", "loss", "params", "legend", "grad"]
    assert len(seen) == 1 and seen[0].step == 0
    assert [t.tape for t in seen[0].tapes] == [sgd.tapes[0].tape]
    assert len(plots.loss.series) == 1 and len(plots.params.series) == 1
    p.set_run(timelines_of(sgd), keep_step=True)  # (the run's end: drawn at once, as before)
    assert len(seen) == 2 and not p.drawing


def _capped(qtbot: QtBot, rate: float, kept: int) -> tuple[RunResult, TimelinePanel]:
    """40 steps of x² descending at ``rate``, of which the run keeps ``kept``; shown, said so."""
    source = (
        "import tensorflow as tf\nx = tf.Variable(3.0)\nfor i in range(40):\n"
        "    with tf.GradientTape() as t:\n        y = x * x\n"
        f"    x.assign_sub({rate} * t.gradient(y, x))\n"
    )
    result = run(source, limits=Limits(max_tapes=kept))
    assert result.error is None and len(result.tapes) == kept
    assert result.dropped_tapes == 40 - kept
    p = TimelinePanel()
    qtbot.addWidget(p)
    p.set_run(timelines_of(result), dropped=result.dropped_tapes)
    return result, p


def test_the_last_loops_status_says_how_many_tapes_the_run_did_not_keep(qtbot: QtBot) -> None:
    # The status bar's note about tapes not kept is gone once another message replaces it;
    # the loop's own status line under the plots keeps saying it.
    said: list[str] = []
    result, p = _capped(qtbot, 0.1, 25)
    p.statusMessage.connect(said.append)
    p.set_run(timelines_of(result), dropped=result.dropped_tapes)
    assert "Loop 1: 25 steps (tapes 1–25)" in p.status.text()
    assert "The run kept 25 tapes and recorded 15 more after them" in p.status.text()
    assert "100,000 tapes at most" in said[-1]
    p.set_run(timelines_of(result))  # (a run that kept every tape: nothing said)
    assert "more tapes" not in p.status.text()


def test_the_divergence_announced_keeps_saying_the_tapes_not_kept(qtbot: QtBot) -> None:
    _, p = _capped(qtbot, 5.0, 30)
    d = p.timeline.divergence if p.timeline is not None else None
    assert d is not None and d.step > 0 and "recorded 10 more" in p.status.text()
    p.set_step(d.step)  # (the cursor reaches it: the divergence is announced)
    assert "Diverged" in p.status.text()
    assert "The run kept 30 tapes and recorded 10 more after them" in p.status.text()
