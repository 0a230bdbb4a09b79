"""The Network tab in the main window: its keys, the graph pane's link, presenter scale, theme."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from tapeviz.ui import MainWindow
from tapeviz.ui.network.panel import NetworkPanel
from tapeviz.ui.theme import DARK
from tapeviz.ui.window.lower_tabs import NETWORK_TAB, STEPPER_TAB

WAIT_MS = 20_000


def settle(qtbot: QtBot, panel: NetworkPanel) -> None:
    qtbot.waitUntil(lambda: panel.built is not None and not panel.busy, timeout=WAIT_MS)


def op_count(window: MainWindow) -> int:
    entries = window.model.entries
    return len(entries[window.model.current].tape.records) if entries else 0


def test_the_network_tab_and_its_keys(qtbot: QtBot, window: MainWindow) -> None:
    tabs = window.lower_tabs
    assert tabs.widget(NETWORK_TAB) is window.network
    assert tabs.tabText(NETWORK_TAB) == "Network"
    assert not any(sc.isEnabled() for sc in tabs.network_shortcuts)
    window.show_view("network")
    assert tabs.network_view and tabs.currentIndex() == NETWORK_TAB
    assert all(sc.isEnabled() for sc in tabs.network_shortcuts)
    others = [*tabs.studio_shortcuts, *tabs.timeline_shortcuts, *tabs.stepper.shortcuts]
    assert not any(sc.isEnabled() for sc in others)
    net = window.network
    settle(qtbot, net)
    qtbot.keyClick(window, Qt.Key.Key_Right)  # one epoch
    settle(qtbot, net)
    assert net.frame.runs[0].epoch == 1
    window.transport("forward")  # the Run menu's entries drive the tab in front too
    settle(qtbot, net)
    assert net.frame.runs[0].epoch == 2
    qtbot.keyClick(window, Qt.Key.Key_Space)
    assert net.playing
    qtbot.keyClick(window, Qt.Key.Key_Space)
    assert not net.playing
    qtbot.keyClick(window, Qt.Key.Key_Home)
    settle(qtbot, net)
    assert net.frame.runs[0].epoch == 0
    net.play()
    window.show_view("stepper")  # leaving the tab pauses the training
    assert not net.playing
    assert not any(sc.isEnabled() for sc in tabs.network_shortcuts)


def test_the_graph_shows_the_current_steps_tape(qtbot: QtBot, window: MainWindow) -> None:
    window.show_view("network")
    net = window.network
    settle(qtbot, net)
    qtbot.waitUntil(lambda: net.tape is not None, timeout=WAIT_MS)
    assert op_count(window) > 0
    assert net.tape.step == 0
    net.step()  # the next epoch's first step (25 batches of 10 later)
    settle(qtbot, net)
    qtbot.waitUntil(lambda: net.tape is not None and net.tape.step == 25, timeout=WAIT_MS)
    shown = window.model.entries[window.model.current].tape
    assert shown is net.tape.tape and len(shown.records) > 0
    names = {t.name for r in shown.records for t in r.inputs if getattr(t, "name", None)}
    assert any(name.startswith("dense/kernel") for name in names)
    window.show_view("stepper")  # the backward pass steps that very tape
    assert window.lower_tabs.currentIndex() == STEPPER_TAB
    assert window.model.entries[window.model.current].tape is shown
    stepper = window.stepper.stepper
    assert stepper is not None
    window.stepper.jump(0)
    assert stepper.position == 0
    window.stepper.step_forward()
    assert stepper.position > 0


def test_presenter_scale_at_1366_by_768_cuts_no_control_off(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.resize(1366, 768)
    window.set_font_scale(1.5)
    window.presenter.set_clean(True)  # the lecture layout: graph and tabs only
    window.show_view("network")
    net = window.network
    settle(qtbot, net)
    net.load_preset("spiral_deep")
    settle(qtbot, net)
    qtbot.wait(50)
    assert window.width() <= 1366
    check_inside(net)
    window.presenter.set_clean(False)  # with the docks too: nothing cut off, if smaller
    qtbot.wait(100)
    assert window.width() <= 1366
    check_inside(net)


def check_inside(panel: NetworkPanel) -> None:
    inside = panel.rect()
    cut = []
    for w in panel.findChildren(QWidget):
        if not w.isVisibleTo(panel) or w.objectName().startswith("qt_"):
            continue
        box = QRect(w.mapTo(panel, w.rect().topLeft()), w.size())
        if not inside.contains(box):
            cut.append((w.objectName() or type(w).__name__, box.getRect()))
    assert cut == [], f"outside the {inside.getRect()} panel: {cut}"


def test_dark_theme_and_scale_reach_the_panel(qtbot: QtBot, window: MainWindow) -> None:
    window.set_theme(DARK)
    window.set_font_scale(1.25)
    net = window.network
    assert net.theme is DARK and net.scale == 1.25
    assert net.diagram.theme is DARK and net.output.maps[0].theme is DARK


def test_a_saved_session_keeps_the_network(qtbot: QtBot, window: MainWindow) -> None:
    import numpy as np

    from tapeviz.models.session.file import loads

    assert window.current_session().network is None  # never used: nothing to keep
    window.show_view("network")
    net = window.network
    net.load_preset("xor_hidden")
    settle(qtbot, net)
    for _ in range(3):
        net.step()
        settle(qtbot, net)
    saved = window.session_to_save()
    assert saved.network is not None
    weights = [np.asarray(w) for w, _ in net.frame.runs[0].weights]
    net.new_weights()  # the view moves on; loading the file brings the saved network back
    settle(qtbot, net)
    window.apply_session(loads(saved.dumps()), run_now=False)
    settle(qtbot, net)
    assert net.config.data.dataset == "xor" and net.config.net.hidden == (4,)
    back = [np.asarray(w) for w, _ in net.frame.runs[0].weights]
    assert all(np.array_equal(a, b) for a, b in zip(weights, back, strict=True))
    run = net.frame.runs[0]  # the counter goes on from the saved epoch
    assert run.epoch == 3 and net.top.epoch.text().endswith("3") and run.epochs.tolist() == [3]
    net.step()
    settle(qtbot, net)
    assert net.frame.runs[0].epoch == 4 and net.frame.runs[0].epochs.tolist() == [3, 4]
    net.reset()  # back to the first weights and epoch 0
    settle(qtbot, net)
    assert net.frame.runs[0].epoch == 0
    bad = saved.to_dict()
    bad["network"]["weights"] = [[[[1.0]], [0.0]]]  # the wrong shape for this network
    from tapeviz.models.session.file import from_dict

    window.apply_session(from_dict(bad), run_now=False)
    assert net.config.data.dataset == "xor"  # the last good state stays
    assert "⚠" in net.message.full


def test_export_gives_the_network_as_keras_and_pytorch_scripts(
    qtbot: QtBot, window: MainWindow
) -> None:
    import ast

    from tapeviz.sandbox import run

    window.show_view("network")
    net = window.network
    net.load_preset("circle_squares")
    settle(qtbot, net)
    for _ in range(2):
        net.step()
        settle(qtbot, net)
    net.top.export_actions["code"].trigger()
    dialog = window.findChild(QWidget, "codeExportDialog")
    assert dialog is not None and list(dialog.texts) == ["keras", "pytorch"]
    keras = dialog.texts["keras"]
    ast.parse(keras)
    result = run(keras)  # the script trains, in tapeviz, to the losses the view shows
    assert result.error is None, result.error
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("epoch 2: train ")
    shown = float(net.frame.runs[0].train_loss[-1])
    assert abs(float(last.split()[3]) - shown) <= 1e-5 * max(1.0, abs(shown))
    dialog.close()
    window.show_view("stepper")  # the same command exports the function elsewhere
    other = window.export_code()
    assert other.keys == ["tensorflow", "pytorch", "jax"]


def test_a_demos_note_is_said_once_and_a_warning_reaches_the_status_bar(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.show_view("network")
    net = window.network
    net.load_preset("circle_linear")
    settle(qtbot, net)
    note = net.message.full
    assert note and net.message.isVisible()
    assert note not in window.statusBar().currentMessage()  # not the same sentence twice
    assert not net.change(lambda c: c.with_data(noise=0.9))  # refused: noise is 0 … 0.5
    assert window.statusBar().currentMessage().startswith("⚠")
    assert net.message.full.startswith("⚠")
    net.show_message("")  # the warning goes: from the status bar too
    assert not window.statusBar().currentMessage().startswith("⚠")


def test_a_network_drawn_too_small_says_how_to_give_it_room(
    qtbot: QtBot, window: MainWindow
) -> None:
    from tapeviz.ui.network.text import cramped

    window.resize(1366, 768)
    window.show_view("network")
    net = window.network
    settle(qtbot, net)
    qtbot.wait(50)
    assert net.message.full != cramped()  # Playground's 4-2 at scale 1: readable
    window.set_font_scale(1.5)  # the room's scale: neurons ~24 px, less than 20 px × 1.5
    qtbot.waitUntil(lambda: net.message.full == cramped(), timeout=WAIT_MS)
    window.set_font_scale(1.0)
    qtbot.waitUntil(lambda: net.message.full != cramped(), timeout=WAIT_MS)
    window.set_font_scale(1.5)
    net.set_config(net.config.with_net(hidden=(8, 8, 8, 8, 8, 8)))
    settle(qtbot, net)
    qtbot.waitUntil(lambda: net.message.full == cramped(), timeout=WAIT_MS)
    window.presenter.set_clean(True)  # the whole window: the tip goes
    qtbot.waitUntil(lambda: net.message.full != cramped(), timeout=WAIT_MS)
