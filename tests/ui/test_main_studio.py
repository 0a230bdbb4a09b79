"""The optimization studio docked in the main window: presets, linked graph, keys, sessions."""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtWidgets import QTabWidget
from pytestqt.qtbot import QtBot

from tapeviz.engine.printing import format_number
from tapeviz.models.session.file import Session
from tapeviz.models.session.presets import PRESETS
from tapeviz.sandbox import VariableSpec
from tapeviz.ui import MainWindow
from tapeviz.ui.window.lower_tabs import STEPPER_TAB, STUDIO_TAB

STUDIO_PRESETS = [name for name, p in PRESETS.items() if p.view == "studio"]


def studio_done(qtbot: QtBot, w: MainWindow) -> None:
    """Wait for the sandbox check and then the studio's race."""
    qtbot.waitUntil(lambda: w._cancel is None and not w.studio.busy and w.studio.race is not None,
                    timeout=30_000)  # fmt: skip


def x_value(w: MainWindow) -> str | None:
    """The graph's x node's value as tf.print shows it (None: no x node)."""
    x_nodes = [n for n in w.model.nodes.values() if n.label == "x"]
    return format_number(x_nodes[0].value) if x_nodes else None


def op_names(w: MainWindow) -> list[str]:
    return [n.op for n in w.model.nodes.values() if n.op]


def test_studio_is_a_tab_under_the_graph(window: MainWindow) -> None:
    tabs = window.findChild(QTabWidget, "lowerTabs")
    assert tabs.count() == 5  # and the timeline of a script's loop, the plots, the network
    assert tabs.widget(STEPPER_TAB) is window.stepper and tabs.widget(STUDIO_TAB) is window.studio
    assert tabs.widget(2) is window.timeline and tabs.widget(3) is window.plots
    assert window.studio.objectName() == "optimizationStudio"


@pytest.mark.parametrize("name", STUDIO_PRESETS)
def test_studio_presets_open_the_studio_with_their_settings(
    qtbot: QtBot, window: MainWindow, name: str
) -> None:
    window.load_preset(name)
    studio_done(qtbot, window)
    preset = PRESETS[name]
    assert window.studio_view and window.lower_tabs.currentWidget() is window.studio
    assert window.studio.config().to_dict() == preset.optimizer
    assert window.studio.problem.source == preset.source
    assert len(window.studio.race.runs) == len(preset.optimizer["runs"])
    # the step-0 tape is drawn once the worker has recorded it
    qtbot.waitUntil(lambda: bool(window.model.nodes) and window.tape_list.count() >= 1)


def test_seed_quadratic_final_x_and_the_graph_follows_the_scrubber(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.load_preset("seed-quadratic-sgd")
    studio_done(qtbot, window)
    studio = window.studio
    assert format_number(studio.race.runs[0].params[200, 0]) == "0.98241204"
    studio.panel.scrubber.setValue(20)  # the lecturer drags the scrubber
    qtbot.waitUntil(lambda: x_value(window) == "0.332391977")  # recorded in a worker
    studio.panel.scrubber.setValue(200)
    qtbot.waitUntil(lambda: x_value(window) == "0.98241204")


def test_raw_linear_regression_diverges_with_its_explanation_in_the_status_bar(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.load_preset("seed-linreg-raw")
    studio_done(qtbot, window)
    run = window.studio.race.runs[0]
    assert run.divergence is not None
    window.studio.set_step(run.divergence.step)
    message = window.statusBar().currentMessage()
    assert "2/λmax" in message or "diverge" in message
    assert window.editor.toPlainText() == PRESETS["seed-linreg-raw"].source  # nothing lost


def test_switching_tabs_optimizes_the_editor_function_and_back(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.apply_session(Session(source="(x - 3)**2", variables=(VariableSpec("x", 0.0),)))
    qtbot.waitUntil(lambda: window.last_result is not None and window._cancel is None)
    window.lower_tabs.setCurrentIndex(STUDIO_TAB)
    studio_done(qtbot, window)
    sandbox_tape = window.last_result.tapes[-1].tape  # the text was checked in the sandbox
    assert window.studio.problem.source == "(x - 3)**2"
    assert window.studio.left.currentWidget() is window.studio.curve  # one scalar: the curve
    assert window.model.entry.tape is not sandbox_tape  # the graph shows the studio's step
    assert window.current_session().view == "studio"
    window.lower_tabs.setCurrentIndex(STEPPER_TAB)
    assert window.model.entry.tape is sandbox_tape
    assert window.current_session().view != "studio"


def test_editing_the_loss_under_the_studio_recomputes_it(qtbot: QtBot, window: MainWindow) -> None:
    window.load_preset("himmelblau")
    studio_done(qtbot, window)
    first = window.studio.race
    window.editor.selectAll()
    qtbot.keyClicks(window.editor, "x**2 + 4*y**2")
    studio = window.studio
    qtbot.waitUntil(lambda: studio.race is not first and not studio.busy
                    and studio.problem.source == "x**2 + 4*y**2", timeout=30_000)  # fmt: skip
    assert window.editor.toPlainText() == "x**2 + 4*y**2"  # space/arrow shortcuts ate nothing
    assert studio.race.runs[0].loss[-1] < studio.race.runs[0].loss[0]


def test_a_syntax_error_is_marked_in_the_editor_and_the_last_race_stays(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.load_preset("himmelblau")
    studio_done(qtbot, window)
    race = window.studio.race
    window.editor.setPlainText("(x**2 + y - 11)**2 +")
    window.run_code()
    qtbot.waitUntil(lambda: window._cancel is None)
    assert window.editor.error_line == 1 and window.error_label.text().startswith("⚠")
    assert window.studio.race is race


def test_keys_drive_the_studio_when_it_is_in_front(qtbot: QtBot, window: MainWindow) -> None:
    window.load_preset("rosenbrock-race")
    studio_done(qtbot, window)
    window.graph.setFocus()
    qtbot.keyClick(window.graph, Qt.Key.Key_Right)
    qtbot.keyClick(window.graph, Qt.Key.Key_Right)
    assert window.studio.k == 2
    qtbot.keyClick(window.graph, Qt.Key.Key_Left)
    assert window.studio.k == 1
    qtbot.keyClick(window.graph, Qt.Key.Key_Space)
    assert window.studio.playing
    qtbot.keyClick(window.graph, Qt.Key.Key_Space)
    assert not window.studio.playing
    qtbot.keyClick(window.graph, Qt.Key.Key_Home)
    assert window.studio.k == 0
    assert all(not sc.isEnabled() for sc in window.stepper.shortcuts)


def test_studio_sessions_round_trip(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    window.load_preset("ill-conditioned")
    studio_done(qtbot, window)
    path = tmp_path / "ill.tapeviz"
    window.save_session(path)
    window.load_preset("quadratic")
    qtbot.waitUntil(lambda: window._cancel is None and not window.studio_view)
    assert window.open_session(path)
    studio_done(qtbot, window)
    assert window.studio_view
    assert window.studio.config().to_dict() == PRESETS["ill-conditioned"].optimizer


def start_a_long_race(qtbot: QtBot, window: MainWindow) -> None:
    """Rosenbrock with 200,000 steps: still computing when the test acts."""
    session = PRESETS["rosenbrock"]
    optimizer = dict(session.optimizer, steps=200_000)
    window.apply_session(Session(source=session.source, variables=session.variables,
                                 view="studio", optimizer=optimizer))  # fmt: skip
    qtbot.waitUntil(lambda: window.studio.busy, timeout=10_000)


def test_stop_cancels_the_studio_computation(qtbot: QtBot, window: MainWindow) -> None:
    start_a_long_race(qtbot, window)
    assert window.stop_button.isEnabled()
    bar = window.findChild(type(window.progress_bar), "statusProgress")
    qtbot.waitUntil(bar.isVisible, timeout=5_000)  # (with the race's first progress)
    window.stop()
    assert not window.studio.busy and not window.stop_button.isEnabled()
    assert "cancelled" in window.statusBar().currentMessage()


def test_a_start_picked_on_the_surface_goes_to_the_variables_table(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.load_preset("himmelblau")
    studio_done(qtbot, window)
    plot = window.studio.surface
    vb = plot.getPlotItem().getViewBox()
    pixel = plot.mapFromScene(vb.mapViewToScene(pg.Point(2.0, -1.0)))
    race = window.studio.race
    qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(pixel.x(), pixel.y()))
    qtbot.waitUntil(lambda: window.studio.race is not race and not window.studio.busy,
                    timeout=30_000)  # fmt: skip
    specs = {s.name: s.value for s in window.variables.specs()}
    assert (specs["x"], specs["y"]) == pytest.approx((2.0, -1.0), abs=0.05)
    assert not window.live_timer.isActive()  # the table change did not start a re-run


def test_closing_during_a_studio_computation_cancels_it(qtbot: QtBot, window: MainWindow) -> None:
    start_a_long_race(qtbot, window)
    job = window.studio.jobs.job
    window.close()
    assert job.cancelled and job.done.wait(5)


def test_actions_without_a_target_are_disabled(qtbot: QtBot, window: MainWindow) -> None:
    window.apply_session(Session(source=""), run_now=False)
    assert not window.export_action.isEnabled() and not window.run_button.isEnabled()
    assert not window.fit_action.isEnabled()
    studio = window.studio.panel
    assert not any(w.isEnabled() for w in (studio.play, studio.step, studio.reset, studio.export))
    window.editor.setPlainText("x**2")
    assert window.export_action.isEnabled() and window.run_button.isEnabled()
    window.load_preset("himmelblau")
    studio_done(qtbot, window)
    qtbot.waitUntil(window.fit_action.isEnabled)  # once the step's tape arrives from the worker
    assert all(w.isEnabled() for w in (studio.play, studio.step, studio.reset, studio.export))


def test_the_split_of_each_tab_is_remembered(qtbot: QtBot, tmp_path: Path) -> None:
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    total = sum(w.splitter.sizes())
    w.splitter.moveSplitter(round(total * 0.25), 1)  # the lecturer drags the handle
    share = w.splitter.sizes()[0] / sum(w.splitter.sizes())
    w.show_view("studio")
    w.show_view("stepper")
    assert w.splitter.sizes()[0] / sum(w.splitter.sizes()) == pytest.approx(share, abs=0.02)
    w.close()
    again = MainWindow()
    qtbot.addWidget(again)
    again.show()
    assert again.lower_tabs.shares[STEPPER_TAB] == pytest.approx(share, abs=0.02)
    again.studio.shutdown()


def test_the_run_menu_drives_the_tab_in_front(qtbot: QtBot, window: MainWindow) -> None:
    window.load_preset("quadratic")
    qtbot.waitUntil(lambda: window._cancel is None and window.stepper.backward is not None)
    window.transport("start")
    assert window.stepper.stepper.position == 0
    window.transport("forward")
    window.transport("forward")
    assert window.stepper.stepper.position == 2
    window.transport("back")
    assert window.stepper.stepper.position == 1
    window.load_preset("rosenbrock-race")
    studio_done(qtbot, window)
    menu = next(a for a in window.menuBar().actions() if a.text() == "&Run").menu()
    forward = next(a for a in menu.actions() if a.text().startswith("Step &forward"))
    forward.trigger()
    forward.trigger()
    assert window.studio.k == 2 and "\t" in forward.text()
    window.transport("start")
    assert window.studio.k == 0
    window.transport("play")
    assert window.studio.playing
    window.transport("play")
    assert not window.studio.playing


def test_a_studio_preset_with_the_same_loss_uses_its_own_settings(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.load_preset("rosenbrock-race")  # four optimizers on (1 - x)**2 + 100*(y - x**2)**2
    studio_done(qtbot, window)
    window.load_preset("rosenbrock")  # the same loss, other optimizers
    qtbot.waitUntil(lambda: window._cancel is None and not window.studio.busy
                    and len(window.studio.race.runs) != 4, timeout=30_000)  # fmt: skip
    assert len(window.studio.race.runs) == len(PRESETS["rosenbrock"].optimizer["runs"])


def test_the_studio_takes_only_text_the_sandbox_checked(qtbot: QtBot, window: MainWindow) -> None:
    window.load_preset("himmelblau")
    studio_done(qtbot, window)
    window.editor.setPlainText("x**2 + y**2")
    window.run_code()
    window.editor.setPlainText("x**2 + (y")  # typed while the check runs
    window.run_code()  # queued behind the running check
    qtbot.waitUntil(lambda: window._cancel is None and not window._pending
                    and not window.studio.busy, timeout=30_000)  # fmt: skip
    assert window.editor.error_line == 1
    assert window.studio.problem.source != "x**2 + (y" and window.studio.race is not None


def test_loading_a_plain_preset_forgets_the_previous_studio_settings(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.load_preset("rosenbrock-race")
    studio_done(qtbot, window)
    assert window.current_session().optimizer is not None
    window.load_preset("quadratic")
    qtbot.waitUntil(lambda: window._cancel is None)
    assert window.current_session().optimizer is None


def test_the_new_graph_is_fitted_after_leaving_the_studio(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    window.load_preset("rosenbrock-race")
    studio_done(qtbot, window)
    fitted: list[list[str]] = []
    fit = window.graph.fit
    monkeypatch.setattr(window.graph, "fit", lambda: (fitted.append(
        sorted(n.label for n in window.model.nodes.values())), fit()))  # fmt: skip
    window.load_preset("quadratic")
    new_graph = lambda: any({"a", "b", "c", "x"} <= set(f) for f in fitted)  # noqa: E731
    qtbot.waitUntil(lambda: new_graph() and window._cancel is None, timeout=10_000)
    # (the old graph may be fitted to the taller view first, as any resize refits it)
    seen = window.graph.mapToScene(window.graph.viewport().rect()).boundingRect()
    assert all(seen.contains(it.sceneBoundingRect()) for it in window.graph.items.values())
