"""A loop step whose ops read big values has its graph and backward pass built in the pool.

(A 400×400 matmul loop's step blocked the window 45-70 ms on the UI thread; the speed is the
soak's and the benchmarks' business: these check where the work happens and what is shown.)
"""

from __future__ import annotations

import threading

import pytest
from pytestqt.qtbot import QtBot

from tapeviz.sandbox import run
from tapeviz.ui import MainWindow
from tapeviz.ui.stepper import panel as stepper_panel
from tapeviz.ui.timeline.panel import StepTapes
from tapeviz.ui.window import step_graphs
from tests.ui.test_main_timeline import ran, variable

LOOP = """import tensorflow as tf
x = tf.Variable(3.0)
for i in range(6):
    with tf.GradientTape() as t:
        y = x * x
    x.assign_sub(0.1 * t.gradient(y, x))
"""


def _threads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, ...]]:
    """Each step graph (its first tape's index) and stepper built, and whether on the UI thread."""
    seen: list[tuple[object, ...]] = []
    real_build, real_steppers = step_graphs.build, stepper_panel.build_steppers

    def build(*args: object) -> object:
        first = args[0][0].index  # type: ignore[index]
        seen.append(("graph", first, threading.current_thread() is threading.main_thread()))
        return real_build(*args)  # type: ignore[arg-type]

    def steppers(model: object) -> object:
        seen.append(("steppers", threading.current_thread() is threading.main_thread()))
        return real_steppers(model)  # type: ignore[arg-type]

    monkeypatch.setattr(step_graphs, "build", build)
    monkeypatch.setattr(stepper_panel, "build_steppers", steppers)
    return seen


def test_a_heavy_step_is_built_in_the_pool_and_only_the_newest_of_those_asked(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(step_graphs, "HEAVY_ELEMENTS", 1)  # (every step is heavy here)
    window.mode.setCurrentIndex(1)
    window.editor.setPlainText(LOOP)
    window.run_code()
    ran(qtbot, window)
    panel, link = window.timeline, window.timeline_link
    window.lower_tabs.show_view("stepper")  # (its steppers follow the graph: shown)
    qtbot.waitUntil(lambda: not link.step_graphs.building)
    seen = _threads(monkeypatch)
    xs = [3.0 * 0.8**k for k in range(6)]  # x after k steps of x -= 0.1 * 2x
    panel.set_step(4)
    assert link.step_graphs.building and variable(window, "x") == pytest.approx(xs[0])
    panel.set_step(2)  # asked while step 4 is built: only the newest follows it
    panel.set_step(3)
    qtbot.waitUntil(lambda: not link.step_graphs.building and panel.k == 3, timeout=10_000)
    qtbot.waitUntil(lambda: variable(window, "x") == pytest.approx(xs[3]), timeout=10_000)
    main = panel.timeline.main_tape
    assert seen == [("graph", main(4), False), ("steppers", False),  # (step 2: never built)
                    ("graph", main(3), False), ("steppers", False)], seen  # fmt: skip
    tape = window.last_result.tapes[panel.timeline.main_tape(3)].tape
    assert window.model.entry.tape is tape
    stepper = window.stepper
    assert stepper.backward is not None and stepper.backward.records[0] is tape.records[0]
    assert window.model.gradients  # the step's gradients, as a step built here has them


def test_a_light_step_shown_while_a_heavy_one_is_built_stays(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    window.mode.setCurrentIndex(1)
    window.editor.setPlainText(LOOP)
    window.run_code()
    ran(qtbot, window)
    panel, link = window.timeline, window.timeline_link
    monkeypatch.setattr(step_graphs, "HEAVY_ELEMENTS", 1)
    panel.set_step(5)  # heavy, built in the pool ...
    monkeypatch.setattr(step_graphs, "HEAVY_ELEMENTS", 10**9)
    panel.set_step(1)  # ... then a light one, shown at once
    assert variable(window, "x") == pytest.approx(3.0 * 0.8)
    qtbot.waitUntil(lambda: not link.step_graphs.building, timeout=10_000)
    qtbot.wait(50)
    assert variable(window, "x") == pytest.approx(3.0 * 0.8)  # (step 5's graph was dropped)


def test_a_step_is_heavy_by_the_numbers_its_first_ops_read() -> None:
    big = run(
        "import tensorflow as tf\nw = tf.Variable(tf.ones([400, 400]))\n"
        "with tf.GradientTape() as t:\n    y = tf.reduce_sum(tf.matmul(w, w))\n"
    )
    small = run(
        "import tensorflow as tf\nx = tf.Variable(1.0)\nwith tf.GradientTape() as t:\n"
        "    y = x\n    for _ in range(3000):\n        y = y * 1.0001\n"
    )
    assert step_graphs.heavy(StepTapes(tuple(big.tapes), 0, 0))
    assert not step_graphs.heavy(StepTapes(tuple(small.tapes), 0, 0))  # (its first 2,000 ops)


def test_a_step_built_after_other_tapes_were_shown_is_dropped(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run without a loop (or a tape picked outside it) while a step is built: it stays."""
    monkeypatch.setattr(step_graphs, "HEAVY_ELEMENTS", 1)
    window.mode.setCurrentIndex(1)
    window.editor.setPlainText(LOOP)
    window.run_code()
    ran(qtbot, window)
    link = window.timeline_link
    qtbot.waitUntil(lambda: not link.step_graphs.building)
    window.timeline.set_step(4)
    assert link.step_graphs.building
    other = run("import tensorflow as tf\nz = tf.Variable(2.0)\n"
                "with tf.GradientTape() as t:\n    w = z * z\n")  # fmt: skip
    window.model.set_tapes(list(other.tapes), {})  # (what a run without a loop does)
    qtbot.waitUntil(lambda: not link.step_graphs.building, timeout=10_000)
    qtbot.wait(50)
    assert window.model.entry.tape is other.tapes[0].tape


def test_a_snapshots_heavy_tapes_without_a_loop_are_built_in_the_pool(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A conv net's first snapshot has no loop yet: its tapes' backward pass was walked on the
    # UI thread (48-143 ms, in the snapshot's turn).
    link = window.timeline_link
    two = run(LOOP.replace("range(6)", "range(2)"))
    assert two.error is None and len(two.tapes) == 2
    seen = _threads(monkeypatch)
    monkeypatch.setattr(step_graphs, "HEAVY_ELEMENTS", 1)
    link.show_run(two, bring_forward=False, by_turns=True)
    assert window.tape_list.count() == 2 and not window.tape_list.drives_graph
    qtbot.waitUntil(lambda: not link.step_graphs.building)
    assert ("graph", 0, False) in seen and ("steppers", False) in seen
    assert [e.tape for e in window.model.entries] == [i.tape for i in two.tapes]
    assert window.tape_list.drives_graph and window.model.current == 1  # (the graph's pick)
    seen.clear()
    monkeypatch.setattr(step_graphs, "HEAVY_ELEMENTS", 10**9)  # light: at once, as before
    link.show_run(two, bring_forward=False, by_turns=True)
    assert seen == [("steppers", True)] and window.tape_list.drives_graph


def test_a_snapshots_step_goes_to_a_small_graph_on_a_turn_to_a_big_one_at_once(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The graph of a Keras fit's step took 20-30 ms of the snapshot's turn; a big graph shown
    # before must be replaced at once (the Timeline tab's resize fitted it again: 280 ms).
    from tapeviz.ui.window import timeline_link

    link = window.timeline_link
    six = run(LOOP)
    assert six.error is None
    before = window.model.generation
    link.show_run(six, bring_forward=False, by_turns=True)
    assert window.model.generation == before  # (on a turn of its own)
    qtbot.waitUntil(lambda: window.model.generation > before)
    assert [e.tape for e in window.model.entries] == [six.tapes[0].tape]
    monkeypatch.setattr(timeline_link, "SNAPSHOT_LATER_NODES", -1)  # (every graph is big)
    before = window.model.generation
    link.show_run(six, bring_forward=False, by_turns=True)
    assert window.model.generation > before  # at once


def test_a_snapshots_waiting_step_yields_to_what_the_graph_showed_meanwhile(
    qtbot: QtBot, window: MainWindow
) -> None:
    # (The review's case: a run without a loop shown before the snapshot's turn came; its
    # graph was then covered by the older run's step.)
    link = window.timeline_link
    six, one = run(LOOP), run(LOOP.replace("range(6)", "range(1)"))
    link.show_run(six, bring_forward=False, by_turns=True)  # its step waits for a turn
    link.show_run(one, bring_forward=False)  # no loop: its tape, at once
    qtbot.wait(200)
    assert [e.tape for e in window.model.entries] == [one.tapes[0].tape]
    assert window.tape_list.drives_graph
    before = window.model.generation
    link.show_run(six, bring_forward=False, by_turns=True)
    window.model.set_tapes([one.tapes[0]])  # (the graph shows other tapes meanwhile)
    qtbot.wait(200)
    assert [e.tape for e in window.model.entries] == [one.tapes[0].tape]
    assert window.model.generation == before + 1


def test_a_first_snapshot_shows_its_step_at_once_for_a_carried_view(
    qtbot: QtBot, window: MainWindow
) -> None:
    # A language switch's window carries the graph's view to its first run; a streamed run's
    # first snapshot applied it to a graph that had no tapes yet (its step waited for a turn).
    six = run(LOOP)
    window.carried.carry_view({"tape": 0, "call": 0, "graph": {}, "stepper": {}})
    link = window.timeline_link
    window._show_snapshot(six, link.prepare(six), True)
    assert [e.tape for e in window.model.entries] == [six.tapes[0].tape]
    assert window.carried.pending is None
