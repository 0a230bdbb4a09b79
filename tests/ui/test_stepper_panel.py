"""The stepper panel driven with pytest-qt: buttons, log, keyboard, predict mode, graph states."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from tapeviz.models.graph.model import GraphModel
from tapeviz.sandbox import VariableSpec, run
from tapeviz.ui.graph.expression_panel import names_of
from tapeviz.ui.graph.view import GraphView
from tapeviz.ui.stepper.panel import FORWARD, StepperPanel

KEEP: list[QWidget] = []
QUAD = [
    VariableSpec("x", 0.0),
    VariableSpec("a", 1.0, "watched"),
    VariableSpec("b", -2.0, "watched"),
    VariableSpec("c", 1.0, "constant"),
]


def setup(
    qtbot: QtBot, source: str = "a*x**2 + b*x + c", mode: str = "expression"
) -> tuple[StepperPanel, GraphView, GraphModel]:
    variables = QUAD if "a*x" in source else [VariableSpec("x", 0.5), VariableSpec("y", 1.5)]
    result = run(source, mode=mode, variables=variables if mode == "expression" else None)
    assert result.error is None
    model = GraphModel(result.tapes, names_of(result))
    window = QWidget()
    view = GraphView(model)
    view.animation_ms = 0
    box = QVBoxLayout(window)
    box.addWidget(view)
    panel = StepperPanel(model, view)
    box.addWidget(panel)
    qtbot.addWidget(window)
    window.resize(1000, 800)
    with qtbot.waitActive(window):
        window.show()
        window.activateWindow()
    panel.setProperty("testWindow", window)  # keep the parentless window alive
    KEEP.append(window)
    return panel, view, model


def grad_text(view: GraphView, label: str) -> str | None:
    for item in view.items.values():
        if item.node.label == label:
            lines = [t for t, role in item.lines() if role == "gradient"]
            return lines[0] if lines else None
    raise KeyError(label)


def test_buttons_step_the_quadratic_and_fill_the_log(qtbot: QtBot) -> None:
    panel, view, _ = setup(qtbot)
    button = panel.findChild(QPushButton, "backwardStepButton")
    assert panel.backward is not None and panel.backward.done  # starts where gradient() ended
    qtbot.mouseClick(panel.findChild(QPushButton, "backwardResetButton"), Qt.MouseButton.LeftButton)
    assert panel.backward.position == 0
    assert grad_text(view, "x") is None and grad_text(view, "f") == "∂ = 1"
    for _ in range(3):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert grad_text(view, "x") == "∂ = −2" and grad_text(view, "b") == "∂ = 0"
    assert grad_text(view, "a") is None  # the a·x² step has not run yet
    assert panel.log.count() == 5 and panel.log.currentRow() == 2
    assert panel.detail.text().startswith("v3 = b · x")
    current = [it for it in view.items.values() if it.state == "current"]
    assert [it.node.op for it in current] == ["multiply"]
    assert sum(e.glowing for e in view.edge_items) == 2
    qtbot.mouseClick(panel.findChild(QPushButton, "backwardBackButton"), Qt.MouseButton.LeftButton)
    assert grad_text(view, "x") is None and panel.backward.position == 2


def test_log_click_keyboard_and_slider(qtbot: QtBot) -> None:
    panel, view, _ = setup(qtbot)
    panel.jump(0)
    panel.log.clicked.emit(panel.log.model().index(4))  # a click on the fifth line
    assert panel.backward.position == 5 and grad_text(view, "x") == "∂ = −2"
    qtbot.keyClick(panel.window(), Qt.Key.Key_Home)
    assert panel.backward.position == 0
    qtbot.keyClick(panel.window(), Qt.Key.Key_Right)
    qtbot.keyClick(panel.window(), Qt.Key.Key_Right)
    assert panel.backward.position == 2 and panel.slider.value() == 2
    qtbot.keyClick(panel.window(), Qt.Key.Key_Left)
    assert panel.backward.position == 1
    panel.slider.setValue(4)
    assert panel.backward.position == 4


def test_play_runs_to_the_end_and_stops(qtbot: QtBot) -> None:
    panel, _, _ = setup(qtbot)
    panel.jump(0)
    panel.speed.setValue(20)
    qtbot.mouseClick(panel.play_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not panel.play_button.isChecked(), timeout=5000)
    assert panel.backward.done


def test_predict_then_reveal(qtbot: QtBot) -> None:
    panel, view, _ = setup(qtbot)
    panel.predict.setChecked(True)
    panel.jump(3)
    assert grad_text(view, "x") == "∂ = ?" and grad_text(view, "f") == "∂ = 1"
    qtbot.mouseClick(panel.reveal_button, Qt.MouseButton.LeftButton)
    assert grad_text(view, "x") == "∂ = −2" and grad_text(view, "b") == "∂ = 0"


def test_forward_stepper_shows_values_left_to_right(qtbot: QtBot) -> None:
    panel, view, _ = setup(qtbot)
    panel.mode.setCurrentText(FORWARD)
    assert panel.forward is not None and panel.forward.position == 0
    values = {
        it.node.label: [t for t, r in it.lines() if r == "value"] for it in view.items.values()
    }
    assert values["f"] == ["= ?"] and values["x"] == ["= 0"]
    panel.step_forward()
    assert panel.detail.text() == "v1 = x ^ 2 = 0"
    assert panel.log.count() == 5


def test_script_with_fan_out_logs_the_accumulation(qtbot: QtBot) -> None:
    source = (
        "import tensorflow as tf\nx = tf.constant(3.0)\nwith tf.GradientTape() as tape:\n"
        "    tape.watch(x)\n    y = x*x\ng = tape.gradient(y, x)\n"
    )
    panel, view, _ = setup(qtbot, source, "script")
    assert "x.grad = 3 + 3 = 6" in panel.log.line(0)
    assert grad_text(view, "x") == "∂ = 6"


def test_gradient_check_table_and_error_curve(qtbot: QtBot) -> None:
    panel, _, _ = setup(qtbot, "sin(x) * exp(-y) + x**3", "expression")
    check = panel.gradcheck
    qtbot.mouseClick(check.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: check.table.rowCount() > 0, timeout=10_000)
    rows = {
        check.table.item(i, 0).text(): check.table.item(i, 3).text()
        for i in range(check.table.rowCount())
    }
    assert set(rows) == {"x", "y"}
    assert all(float(e) < 1e-5 for e in rows.values())
    assert "agree" in check.status.text()
    qtbot.waitUntil(lambda: getattr(check, "curve", None) is not None, timeout=10_000)
    errors = [e for _, e in check.curve]
    assert errors[0] > 1e-4 and min(errors) < 1e-6  # truncation error shrinks with h


def test_the_control_row_wraps_instead_of_cutting_the_mode_box(qtbot: QtBot) -> None:
    from PySide6.QtGui import QFont

    panel, _, _ = setup(qtbot)
    window = panel.property("testWindow")
    in_second = lambda: panel.second_row.indexOf(panel.extras) >= 0  # noqa: E731
    window.resize(1400, 800)
    qtbot.waitUntil(lambda: not in_second())  # 1,400 px at the normal size: one row
    assert panel.back_button.width() < 60 and panel.step_button.width() < 60
    big = QFont(panel.font())
    big.setPointSizeF(big.pointSizeF() * 1.5)
    for w in (panel, *panel.findChildren(QWidget)):  # what presenter mode does, parent first
        w.setFont(big)
    window.resize(760, 800)
    qtbot.waitUntil(in_second)
    metrics = panel.step_button.fontMetrics()  # sized for the new font, not the one before
    fitted = metrics.horizontalAdvance("▶") + 2 * metrics.height()
    qtbot.waitUntil(lambda: panel.step_button.width() == fitted)
    assert panel.mode.width() >= panel.mode.sizeHint().width()  # "Backward pass", not cut
    assert panel.slider.width() >= 60
    window.resize(1600, 800)
    qtbot.waitUntil(lambda: not in_second())


def test_a_new_value_in_the_calls_label_moves_no_control(qtbot: QtBot) -> None:
    """Typing changes "tape.gradient(f, x) → 7.237" each key: the row stays as it was."""
    panel, _, model = setup(qtbot, "x*x + y")

    def rerun(x: float) -> None:
        result = run("x*x + 1.5", mode="expression", variables=[VariableSpec("x", x)])
        model.set_tapes(result.tapes, names_of(result))
        qtbot.wait(10)

    rerun(0.6)
    box = panel.pass_box
    qtbot.waitUntil(lambda: box.count() == 1 and box.isVisible())
    before = [w.geometry() for w in (box, panel.reset_button, panel.play_button, panel.slider)]
    label = box.itemText(0)
    assert label.endswith("→ 1.2")  # df/dx = 2x
    for x in (0.7, 0.625, 0.9, 0.5625):  # (one digit more or less: 1.4, 1.25, 1.8, 1.125)
        rerun(x)
        assert box.itemText(0) != label  # (the value changed)
        label = box.itemText(0)
        now = [w.geometry() for w in (box, panel.reset_button, panel.play_button, panel.slider)]
        assert now == before
        assert box.width() > box.fontMetrics().horizontalAdvance(label)  # shown whole


def test_a_long_tape_explains_only_the_steps_the_log_shows(qtbot: QtBot) -> None:
    source = (
        "import tensorflow as tf\nx = tf.Variable(1.0)\nwith tf.GradientTape() as t:\n"
        "    y = x\n    for i in range(400):\n        y = y * 1.0001 + 0.001\n"
        "g = t.gradient(y, x)\n"
    )
    panel, view, _ = setup(qtbot, source, mode="script")
    qtbot.waitUntil(lambda: not view.building and bool(view.items), timeout=20_000)
    qtbot.wait(50)  # the log lays out and paints
    infos = panel.backward.infos
    assert len(infos) == 800 and panel.log.count() == 800
    explained = [k for k in range(len(infos)) if infos.explained(k)]
    assert 0 < len(explained) < 100  # the lines on screen (the end: gradient() is done)
    assert explained[-1] == 799
    spacing = panel.log.fontMetrics().lineSpacing()
    for k in (0, 1, 400):  # the step's line and one per input with a gradient (y, not 0.001)
        assert panel.log.model_.lines(k) == 2
        assert panel.log.sizeHintForIndex(panel.log.model_.index(k)).height() == 2 * spacing + 4
    assert panel.log.line(0).count("\n") == 1  # the text spans the lines it was sized for
    panel.jump(3)  # Home, then three steps: the step just done is shown, so explained
    qtbot.wait(50)
    assert infos.explained(2) and panel.log.currentRow() == 2
    assert panel.log.line(2).startswith("  3. ")


def test_new_lines_are_laid_out_after_the_graph_is_drawn(qtbot: QtBot) -> None:
    """Selecting a line of a new log lays every line out: that waits for the next event turn."""
    panel, _view, model = setup(qtbot)
    sized: list[int] = []
    real = panel.log.lines.sizeHint

    def counting(option: object, index: object) -> object:
        sized.append(1)
        return real(option, index)  # type: ignore[arg-type]

    panel.log.lines.sizeHint = counting  # type: ignore[method-assign]
    result = run("a*x**2 + b*x + c" + " + sin(x)" * 40, mode="expression", variables=QUAD)
    model.set_tapes(result.tapes, names_of(result))  # the stepper and its log are rebuilt
    assert panel.log.count() > 80
    assert len(sized) < 10  # not laid out yet: the graph's turn comes first
    qtbot.waitUntil(lambda: len(sized) >= panel.log.count())  # then every line
    assert panel.log.currentRow() == panel.log.count() - 1  # the last step (gradient() done)
    last = panel.log.visualRect(panel.log.model_.index(panel.log.count() - 1))
    assert panel.log.viewport().rect().intersects(last)  # scrolled to it
    panel.step_back()  # later steps select at once: the lines are laid out already
    assert panel.log.currentRow() == panel.log.count() - 2


def glowing_ends(view: GraphView) -> list[tuple[str, str, int]]:
    return sorted((e.source.node.id, e.target.node.id, e.input_position)
                  for e in view.edge_items if e.glowing)  # fmt: skip


def test_each_step_lights_exactly_its_edges_also_in_a_new_scene(qtbot: QtBot) -> None:
    panel, view, model = setup(qtbot)
    panel.jump(0)

    def expected() -> list[tuple[str, str, int]]:
        current = panel.backward.current  # type: ignore[union-attr]
        if current is None:
            return []
        op = f"o{current.record.id}"
        return sorted((model.node_for_tensor(c.tensor_id), op, c.position)
                      for c in current.contributions)  # fmt: skip

    seen = []
    for k in [1, 2, 3, 2, 5, 0, 4]:
        panel.jump(k)
        assert glowing_ends(view) == expected(), k
        seen.append(len(glowing_ends(view)))
    assert max(seen) > 0 and 0 in seen  # lit, and none before the first step
    old = view.edge_items
    xy = [VariableSpec("x", 0.5), VariableSpec("y", 1.5)]
    result = run("sin(x) * y + x", mode="expression", variables=xy)
    with qtbot.waitSignal(view.layoutFinished, timeout=10_000):
        model.set_tapes(result.tapes, names_of(result))  # a new scene: other edge items
    assert view.edge_items is not old and view.edge_items
    for k in [1, 2, 0, 3]:
        panel.jump(k)
        assert glowing_ends(view) == expected(), k


LOOP = """import tensorflow as tf
x = tf.Variable(1.0)
with tf.GradientTape() as t:
    y = x
    for i in range(200):
        y = tf.sin(y) * {k}
g = t.gradient(y, x)
"""


def test_a_big_graphs_re_run_keeps_the_steppers_marks_on_every_node(qtbot: QtBot) -> None:
    from tapeviz.models.values import same_value

    panel, view, model = setup(qtbot, LOOP.format(k=1.01), mode="script")
    qtbot.waitUntil(lambda: len(view.items) > 300 and not view.building, timeout=20_000)
    qtbot.waitUntil(lambda: view._filling is None, timeout=20_000)  # a big graph: by slices
    result = run(LOOP.format(k=1.02), mode="script")
    assert result.error is None
    model.set_tapes(result.tapes, names_of(result))  # the same structure, other values
    assert model.same_structure and view._update is not None
    panel.jump(150)  # a step back while the new values are still being put on the nodes
    qtbot.waitUntil(lambda: view._update is None, timeout=10_000)
    qtbot.wait(300)  # the stepper's restyle slices
    stepper = panel.backward
    assert stepper is not None
    adjoints = stepper.adjoints_at()
    wrong = [
        nid for nid, it in view.items.items()
        if not same_value(it.gradient, adjoints.get(it.node.tensor_id))
    ]  # fmt: skip
    assert wrong == []  # the step's gradients, not the finished pass's


def test_a_big_graphs_stepper_follows_a_re_run_on_the_next_turn_once(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The arrival's turn puts the values on the graph; the stepper is rebuilt after it."""
    from tapeviz.ui.stepper import panel as panels

    panel, view, model = setup(qtbot, LOOP.format(k=1.01), mode="script")
    qtbot.waitUntil(lambda: len(view.items) > 300 and not view.building, timeout=20_000)
    qtbot.waitUntil(lambda: view._filling is None, timeout=20_000)
    monkeypatch.setattr(panels, "LATER_NODES", 300)  # (the graph has ~600 nodes)
    built: list[object] = []
    real = panels.build_steppers
    monkeypatch.setattr(panels, "build_steppers", lambda m: built.append(m) or real(m))
    old = panel.backward
    result = run(LOOP.format(k=1.02), mode="script")
    assert result.error is None
    model.set_tapes(result.tapes, names_of(result))  # the same structure, other values
    assert panel.backward is old and built == []  # not in this turn
    panel._rebuild()  # something rebuilds it first (a mode change, say) ...
    qtbot.wait(100)
    assert len(built) == 1 and panel.backward is not old  # ... then the queued one does not
    assert panel.backward is not None
    assert same_gradients(panel.backward.adjoints_at(), model)


def same_gradients(adjoints: dict[int, object], model: GraphModel) -> bool:
    from tapeviz.models.values import same_value

    return all(
        same_value(model.gradients.get(nid), adjoints.get(node.tensor_id))
        for nid, node in model.nodes.items()
        if nid in model.gradients
    )


def test_a_call_naming_many_parameters_never_widens_the_window(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """At 1366×768 ×1.5 a gradient() call over a model's every variable elides in its box."""
    from PySide6.QtCore import QSettings

    from tapeviz.models.session.file import Session
    from tapeviz.ui import MainWindow

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    qtbot.waitExposed(w)
    w.set_font_scale(1.5)
    names = [f"layer_{k}_kernel" for k in range(12)]
    source = "import tensorflow as tf\n" + "".join(f"{n} = tf.Variable({k}.0)\n"
                                                   for k, n in enumerate(names))  # fmt: skip
    source += "with tf.GradientTape() as tape:\n    loss = " + " + ".join(names) + "\n"
    source += f"grads = tape.gradient(loss, [{', '.join(names)}])\n"
    w.apply_session(Session(source=source, mode="script"))
    qtbot.waitUntil(lambda: w.last_result is not None and w._cancel is None, timeout=10_000)
    w.show_view("stepper")
    qtbot.wait(300)
    assert w.stepper.pass_box.count() == 1 and len(w.stepper.pass_box.itemText(0)) > 200
    assert w.minimumSizeHint().width() <= 1366
    assert w.width() <= 1366
    w.studio.shutdown()


def test_a_torch_gradient_hook_is_stepped_with_its_numbers(qtbot: QtBot) -> None:
    source = (
        "import torch\nw = torch.tensor([1.0, -2.0], requires_grad=True)\nh = w * w\n"
        "h.register_hook(lambda g: g * 0.5)\nloss = (h * torch.tensor([4.0, 1.0])).sum()\n"
        "loss.backward()\n"
    )
    panel, view, _ = setup(qtbot, source, "script")
    lines = [panel.log.line(k) for k in range(panel.log.count())]
    assert sum("h's gradient hook made ḡ = (2,) [2, 0.5]" in t for t in lines) == 1, lines
    assert grad_text(view, "w") == "∂ = (2,) [4, −2]"  # the hooked pass, not [8, −4]
    assert grad_text(view, "h") == "∂ = (2,) [2, 0.5]"  # what the hook made of [4, 1]
