"""The main window, driven like a lecturer would: presets, typing, run/stop, errors, sessions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QPushButton
from pytestqt.qtbot import QtBot

from tapeviz.models.session.file import Session
from tapeviz.models.session.presets import PRESETS
from tapeviz.sandbox import VariableSpec
from tapeviz.ui import MainWindow, workers


def run_and_wait(qtbot: QtBot, w: MainWindow) -> None:
    qtbot.waitUntil(lambda: w._cancel is None, timeout=10_000)


def test_quadratic_preset_runs_and_draws_the_graph(qtbot: QtBot, window: MainWindow) -> None:
    window.load_preset("quadratic")
    qtbot.waitUntil(lambda: window.last_result is not None and window._cancel is None)
    assert window.editor.toPlainText() == "a*x**2 + b*x + c"
    assert window.variables.table.rowCount() == 4
    labels = sorted(n.label for n in window.model.nodes.values())
    assert {"x", "a", "b", "c", "f"} <= set(labels)
    assert window.tape_list.count() == 1
    assert "1 tape" in window.statusBar().currentMessage()
    grads = {k: float(v.numpy()) for k, v in window.last_result.gradients.items()}
    assert grads == {"x": -2.0, "a": 0.0, "b": 0.0}


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_loads_and_runs(qtbot: QtBot, window: MainWindow, name: str) -> None:
    window.load_preset(name)
    qtbot.waitUntil(lambda: window.last_result is not None and window._cancel is None,
                    timeout=20_000)  # fmt: skip
    result = window.last_result
    preset = PRESETS[name]
    assert window.editor.toPlainText() == preset.source
    if preset.name.endswith("non-persistent-twice"):
        assert result.error is not None and window.editor.error_line == result.error.line
        assert "persistent" in window.error_label.text()
    elif preset.view != "studio":
        assert result.error is None, result.error
        assert window.console.toPlainText() == result.output


def test_typing_an_expression_updates_the_graph_live(qtbot: QtBot, window: MainWindow) -> None:
    window.load_preset("quadratic")
    qtbot.waitUntil(lambda: window.last_result is not None and window._cancel is None)
    window.editor.selectAll()
    qtbot.keyClicks(window.editor, "sin(x) * a")
    ops = lambda: [n.op for n in window.model.nodes.values() if n.op]  # noqa: E731
    qtbot.waitUntil(lambda: ops() == ["sin", "multiply"], timeout=5000)
    assert window.editor.toPlainText() == "sin(x) * a"  # the arrow/space shortcuts did not eat keys


def test_an_error_is_marked_at_its_line_and_the_text_is_kept(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.apply_session(Session(source="y = 1\nz = y +\n", mode="script"))
    run_and_wait(qtbot, window)
    assert window.editor.error_line == 2
    assert window.editor.toPlainText() == "y = 1\nz = y +\n"
    assert window.error_label.text().startswith("⚠")
    assert "⚠" in window.statusBar().currentMessage()


def test_bad_variable_value_is_reported_not_run(qtbot: QtBot, window: MainWindow) -> None:
    window.apply_session(Session(source="x*2", variables=(VariableSpec("x", 1.0),)), False)
    window.variables.table.item(0, 1).setText("__import__('os')")
    window.run_code()
    assert "Variable row 1" in window.error_label.text()
    assert window._cancel is None


def test_stop_cancels_a_runaway_script(qtbot: QtBot, window: MainWindow) -> None:
    # ~3 s before the step limit would end it: Stop must end it first
    source = "while True:\n    x = [i for i in range(2000)]\n"
    window.apply_session(Session(source=source, mode="script"), run_now=False)
    qtbot.mouseClick(window.findChild(QPushButton, "runButton"), Qt.MouseButton.LeftButton)
    assert window.stop_button.isEnabled()
    qtbot.mouseClick(window.stop_button, Qt.MouseButton.LeftButton)
    run_and_wait(qtbot, window)
    assert window.last_result.error is not None
    assert window.last_result.error.kind == "cancelled"
    assert not window.stop_button.isEnabled()


def test_save_and_open_round_trip(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    window.load_preset("micrograd-neuron")
    run_and_wait(qtbot, window)
    path = tmp_path / "neuron.tapeviz"
    window.save_session(path)
    window.load_preset("quadratic")
    run_and_wait(qtbot, window)
    assert window.open_session(path)
    run_and_wait(qtbot, window)
    assert window.editor.toPlainText() == PRESETS["micrograd-neuron"].source
    assert [s.name for s in window.variables.specs()] == ["x1", "x2", "w1", "w2", "b"]


@pytest.mark.parametrize(
    ("content", "message"),
    [("{broken", "not valid JSON"), (json.dumps({"format": "tapeviz-session", "version": 9}),
                                      "newer tapeviz")],
)  # fmt: skip
def test_bad_session_files_keep_the_current_work(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, content: str, message: str
) -> None:
    window.load_preset("quadratic")
    run_and_wait(qtbot, window)
    window.editor.setPlainText("a*x**2 + b*x + c + 1  # my edit")
    path = tmp_path / "bad.tapeviz"
    path.write_text(content, "utf-8")
    assert not window.open_session(path)
    assert message in window.statusBar().currentMessage()
    assert window.editor.toPlainText() == "a*x**2 + b*x + c + 1  # my edit"


def test_preset_menu_lists_every_preset(window: MainWindow) -> None:
    names = [a.objectName() for m in window.preset_menu.actions() if m.menu()
             for a in m.menu().actions()]  # fmt: skip
    assert names == [f"preset:{n}" for n in PRESETS]


def test_code_export_dialog_copy_and_save(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    from PySide6.QtWidgets import QApplication

    window.load_preset("micrograd-neuron")
    run_and_wait(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    dialog = window.findChild(QDialog, "codeExportDialog")
    assert dialog is not None and dialog.isVisible()
    dialog.tabs.setCurrentIndex(1)  # PyTorch
    dialog.copy_button.click()
    assert QApplication.clipboard().text().startswith("# PyTorch export")
    dialog.save_to(tmp_path / "neuron.py")
    compile((tmp_path / "neuron.py").read_text("utf-8"), "neuron.py", "exec")
    dialog.close()


def test_script_sessions_export_only_tensorflow(qtbot: QtBot, window: MainWindow) -> None:
    window.load_preset("training-1-1-quadratic-gradient")
    run_and_wait(qtbot, window)
    dialog = window.export_code()
    assert list(dialog.texts) == ["tensorflow"]
    dialog.tabs.setCurrentIndex(2)
    assert not dialog.copy_button.isEnabled() and not dialog.save_button.isEnabled()
    dialog.close()


def test_preferences_set_the_limits_theme_and_text_size(qtbot: QtBot, window: MainWindow) -> None:
    dialog = window.preferences()
    dialog.steps.setValue(20_000)
    dialog.theme.setCurrentIndex(1)
    dialog.scale.setValue(150)
    dialog.accept()
    assert window.theme.name == "dark" and window.font_scale == pytest.approx(1.5)
    window.apply_session(Session(source="while True:\n    pass\n", mode="script"))
    run_and_wait(qtbot, window)
    err = window.last_result.error
    assert err is not None and err.kind == "limit" and "20,000 steps" in err.message
    again = window.preferences()
    assert again.steps.value() == 20_000 and again.theme.currentData() == "dark"
    again.reject()


def test_closing_during_a_run_cancels_it(qtbot: QtBot, window: MainWindow) -> None:
    source = "while True:\n    x = [i for i in range(2000)]\n"
    window.apply_session(Session(source=source, mode="script"))
    assert window._cancel is not None
    token = window._cancel
    window.close()
    assert token.cancelled
    assert workers.wait_all(5_000)


def test_a_theme_change_after_loading_a_preset_runs_nothing(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.load_preset("quadratic")
    run_and_wait(qtbot, window)
    result = window.last_result
    window.dark_action.trigger()  # re-highlights the editor: its text is the same
    assert not window.live_timer.isActive() and window._cancel is None
    qtbot.wait(50)
    assert window.last_result is result
