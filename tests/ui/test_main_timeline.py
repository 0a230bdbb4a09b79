"""The timeline in the main window: a run that records a loop shows it; the graph follows it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QLabel, QTabWidget
from pytestqt.qtbot import QtBot

from tapeviz.ui import MainWindow
from tapeviz.ui.window.lower_tabs import STEPPER_TAB, STUDIO_TAB, TIMELINE_TAB
from tapeviz.ui.window.preferences import settings


def ran(qtbot: QtBot, w: MainWindow, timeout: int = 60_000) -> None:
    qtbot.waitUntil(lambda: w.last_result is not None and w._cancel is None, timeout=timeout)


def variable(w: MainWindow, label: str) -> float:
    (node,) = [n for n in w.model.nodes.values() if n.kind == "variable" and n.label == label]
    return float(node.value)


def test_the_seed_sgd_loop_opens_its_timeline_and_the_graph_follows(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.load_preset("training-2-1-sgd-apply-gradients")
    ran(qtbot, window)
    tabs = window.findChild(QTabWidget, "lowerTabs")
    # (and Plots and Network)
    assert tabs.count() == 5 and tabs.widget(TIMELINE_TAB) is window.timeline
    assert tabs.isTabEnabled(TIMELINE_TAB) and window.timeline_view
    panel = window.timeline
    assert panel.timeline is not None and panel.timeline.steps == 200 and panel.k == 0
    assert variable(window, "x") == 0.0 and window.tape_list.count() == 200
    layouts: list[bool] = []
    window.graph.layoutFinished.connect(lambda: layouts.append(True))
    items = dict(window.graph.items)
    panel.controls.scrubber.setValue(20)
    assert f"{variable(window, 'x'):.9g}" == "0.332391977"  # what TensorFlow printed at step 20
    assert window.tape_list.currentRow() == 20
    assert layouts == [] and all(window.graph.items[n] is items[n] for n in items)  # in place
    qtbot.keyClick(window, Qt.Key.Key_Right)
    assert panel.k == 21 and window.tape_list.currentRow() == 21
    qtbot.keyClick(window, Qt.Key.Key_Home)
    assert panel.k == 0
    window.transport("forward")
    assert panel.k == 1
    assert window.model.gradients  # the step's gradients, by the same backward pass


def test_output_lines_and_tapes_go_to_their_step(qtbot: QtBot, window: MainWindow) -> None:
    window.load_preset("training-2-1-sgd-apply-gradients")
    ran(qtbot, window)
    console = window.console
    block = console.document().findBlockByNumber(2)  # "step = 40 ; y = … ; x = …"
    assert block.text().startswith("step = 40 ;")
    rect = console.blockBoundingGeometry(block).translated(console.contentOffset())
    window.console_dock.raise_()
    qtbot.mouseClick(console.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(10, int(rect.center().y())))  # fmt: skip
    assert window.timeline.k == 40
    assert f"{variable(window, 'x'):.9g}" == "0.554299474"
    assert [s.cursor.blockNumber() for s in console.extraSelections()] == [2]
    window.tape_list.setCurrentRow(150)  # a tape picked in the Tapes dock: its step
    assert window.timeline.k == 150


def test_other_output_in_the_console_is_not_marked_or_linked_to_the_last_loop(
    qtbot: QtBot, window: MainWindow
) -> None:
    """A run whose loops the timeline does not show (here: made under the studio) unlinks it."""
    window.load_preset("training-2-1-sgd-apply-gradients")
    ran(qtbot, window)
    console = window.console
    assert [s.cursor.blockNumber() for s in console.extraSelections()] == [0]
    first = window.last_result
    window.load_preset("rosenbrock")  # an expression, shown in the studio; it prints nothing
    qtbot.waitUntil(lambda: window.last_result is not first and window._cancel is None)
    qtbot.waitUntil(lambda: not window.studio.busy, timeout=60_000)
    assert window.timeline.timeline is not None  # the loop stays for when the graph is back
    assert console.toPlainText() == "" and console.extraSelections() == []
    k = window.timeline.k
    window.timeline.set_step(40)  # the timeline moved: nothing marked in text not its own
    assert console.extraSelections() == []
    window.timeline.set_step(k)
    qtbot.mouseClick(console.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(10, 5))
    assert window.timeline.k == k  # a click on the console does not move the old loop


def test_scrubbing_keeps_only_the_shown_steps_tapes_rebuilt(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.load_preset("training-2-1-sgd-apply-gradients")
    ran(qtbot, window)
    tapes = [t.tape for t in window.last_result.tapes]
    for k in range(0, 200, 7):
        window.timeline.set_step(k)
    rebuilt = [i for i, t in enumerate(tapes) if t._records is not None]
    assert rebuilt == [196]  # the step on screen; the others were let go
    window.timeline.set_step(3)
    assert variable(window, "x") == window.timeline.timeline.values(0)[3]


def test_the_backward_pass_steps_through_the_selected_step(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.load_preset("training-2-1-sgd-apply-gradients")
    ran(qtbot, window)
    window.timeline.set_step(100)
    window.show_view("stepper")
    assert window.lower_tabs.currentIndex() == STEPPER_TAB
    assert f"{variable(window, 'x'):.9g}" == "0.867380381"  # still step 100's tape
    qtbot.keyClick(window, Qt.Key.Key_Home)  # the stepper's own keys now
    assert window.stepper.stepper is not None and window.stepper.stepper.position == 0
    assert window.timeline.k == 100


def test_two_loops_and_the_raw_years_divergence(qtbot: QtBot, window: MainWindow) -> None:
    settings().setValue("limits/wall_time", 120)  # 10,000 epochs on a slow machine too
    window.load_preset("training-2-2-minimize")  # 2.1's loop, then 2.2's minimize loop
    ran(qtbot, window)
    panel = window.timeline
    assert [tl.steps for tl in panel.timelines] == [200, 1000]
    panel.controls.loop_combo.setCurrentIndex(1)
    panel.set_step(999)
    assert window.tape_list.currentRow() == 1199
    assert f"{panel.timeline.values(0)[-1]:.9g}" == "0.999998569"
    window.load_preset("training-2-1-linear-regression-raw")
    ran(qtbot, window)
    assert window.timeline_view and panel.timeline.steps == 10_000
    assert panel.controls.divergence.isVisible()
    assert "lr 5e-4 > 2/λmax = 4.93e-8" in panel.controls.divergence.text()
    assert panel.controls.scrubber.divergence == 1
    panel.set_step(4)
    assert "loss = inf" in panel.controls.step_label.text()


def test_a_run_without_a_loop_stays_as_it_was(qtbot: QtBot, window: MainWindow) -> None:
    window.load_preset("training-2-1-sgd-apply-gradients")
    ran(qtbot, window)
    window.load_preset("basics-2-2-3-higher-order")
    ran(qtbot, window)
    tabs = window.lower_tabs
    assert not tabs.isTabEnabled(TIMELINE_TAB) and tabs.currentIndex() == STEPPER_TAB
    assert window.timeline.timeline is None
    assert window.tape_list.count() == 2 and window.tape_list.drives_graph
    window.show_view("timeline")  # not available: the backward pass stays in front
    assert tabs.currentIndex() == STEPPER_TAB
    window.tape_list.setCurrentRow(0)
    assert window.model.current == 0


def test_the_studio_and_the_timeline_share_the_graph(qtbot: QtBot, window: MainWindow) -> None:
    window.load_preset("training-2-1-sgd-apply-gradients")
    ran(qtbot, window)
    window.timeline.set_step(60)
    window.show_view("studio")
    assert window.lower_tabs.currentIndex() == STUDIO_TAB
    window.timeline.set_step(61)  # the graph belongs to the studio now
    window.show_view("timeline")
    assert window.timeline.k == 61
    assert variable(window, "x") == window.timeline.timeline.values(0)[61]  # step 61's tape


def test_the_timeline_works_on_the_workers_tapes(qtbot: QtBot, window: MainWindow) -> None:
    window.load_preset("training-2-3-autograph-apply-gradients")
    ran(qtbot, window)
    panel = window.timeline
    assert type(window.last_result.tapes[0].tape).__name__ == "RemoteTape"  # from the worker
    assert [tl.steps for tl in panel.timelines] == [200, 1000]
    panel.controls.loop_combo.setCurrentIndex(1)
    panel.set_step(0)
    assert variable(window, "x") == 0.0
    panel.set_step(999)
    assert f"{panel.timeline.values(0)[-1]:.9g}" == "0.999998569"
    assert window.tape_list.currentRow() == 1199


def test_a_failing_timeline_still_shows_the_run(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tapeviz.ui.window import timeline_link

    def broken(result: object) -> list:
        raise ValueError("a bug")

    monkeypatch.setattr(timeline_link, "timelines_of", broken)
    messages: list[str] = []
    window.statusBar().messageChanged.connect(messages.append)
    window.load_preset("training-2-1-sgd-apply-gradients")
    ran(qtbot, window)
    assert not window.runner.running  # the run finished: Stop is off, a next run may start
    assert window.tape_list.count() == 200 and window.model.nodes  # the tapes, as before
    assert any("Internal error: ValueError: a bug" in m for m in messages)
    assert not window.lower_tabs.isTabEnabled(TIMELINE_TAB)


def test_the_timeline_in_front_fits_a_small_window(qtbot: QtBot, window: MainWindow) -> None:
    """Its controls take two rows and a long step line is cut (all of it in the tooltip)."""
    window.load_preset("training-2-1-sgd-apply-gradients")
    ran(qtbot, window)
    assert window.timeline_view
    assert window.timeline.minimumSizeHint().width() < 600

    def resized() -> bool:
        window.resize(900, 600)
        return window.width() == 900

    qtbot.waitUntil(resized, timeout=10_000)
    label = window.timeline.findChild(QLabel, "timelineStepLabel")
    assert label.text().startswith("step 0 of 199") and label.toolTip() == label.text()
