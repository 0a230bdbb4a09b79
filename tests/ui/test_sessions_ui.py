"""Autosave, crash restore and recent files in the real window."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from tapeviz.models.session.autosave import Autosave
from tapeviz.models.session.file import Session
from tapeviz.sandbox import VariableSpec
from tapeviz.ui import MainWindow, workers


@pytest.fixture(autouse=True)
def data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("TAPEVIZ_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def make(qtbot: QtBot) -> MainWindow:
    w = MainWindow()
    qtbot.addWidget(w)
    return w


def test_autosave_writes_the_work_and_a_clean_close_removes_it(
    qtbot: QtBot, data_dir: Path
) -> None:
    w = make(qtbot)
    assert (data_dir / "running.lock").exists()
    w.apply_session(Session(source="x**2 + 1", variables=(VariableSpec("x", 2.0),)), False)
    assert w.autosave_now()
    assert not w.autosave_now()  # unchanged: not written again
    assert "x**2 + 1" in (data_dir / "autosave.tapeviz").read_text("utf-8")
    w.close()
    workers.wait_all()
    assert not (data_dir / "running.lock").exists()
    assert not (data_dir / "autosave.tapeviz").exists()


def test_after_a_crash_the_autosaved_work_is_restored(qtbot: QtBot, data_dir: Path) -> None:
    crashed = Autosave()  # a previous run that never closed
    crashed.start()
    table = (VariableSpec("w", 0.5), VariableSpec("x", 2.0))
    crashed.save(Session(source="tanh(w*x)  # 我的工作", variables=table))
    w = make(qtbot)
    assert w.offer_restore(ask=False)
    assert w.editor.toPlainText() == "tanh(w*x)  # 我的工作"
    assert [s.name for s in w.variables.specs()] == ["w", "x"]
    qtbot.waitUntil(lambda: bool(w.model.nodes) and not w.runner.running, timeout=30_000)
    assert [n.op for n in w.model.nodes.values() if n.op] == ["multiply", "tanh"]  # it ran


def test_no_restore_offer_after_a_clean_close(qtbot: QtBot) -> None:
    first = make(qtbot)
    first.apply_session(Session(source="x"), False)
    first.autosave_now()
    first.close()
    second = make(qtbot)
    assert not second.offer_restore(ask=False)


def test_recent_files_newest_first_and_reopenable(qtbot: QtBot, tmp_path: Path) -> None:
    w = make(qtbot)
    for name in ("a", "b", "a"):
        w.apply_session(Session(source=f"{name}*2", variables=(VariableSpec(name, 1.0),)), False)
        w.save_session(tmp_path / f"{name}.tapeviz")
    recent = w.recent_files()
    assert [Path(p).name for p in recent[:2]] == ["a.tapeviz", "b.tapeviz"]
    w.recent_menu.aboutToShow.emit()
    actions = w.recent_menu.actions()
    assert [a.text() for a in actions[:2]] == ["a.tapeviz", "b.tapeviz"]
    actions[1].trigger()  # read in the pool: the window goes on meanwhile
    qtbot.waitUntil(lambda: w.editor.toPlainText() == "b*2")
    qtbot.waitUntil(lambda: w._cancel is None)
    assert w.editor.toPlainText() == "b*2"


def test_saving_to_an_unwritable_place_says_so(qtbot: QtBot, tmp_path: Path) -> None:
    w = make(qtbot)
    w.apply_session(Session(source="x"), False)
    w.save_session(tmp_path / "no-such-dir" / "x.tapeviz")
    assert "Cannot save" in w.statusBar().currentMessage()
    assert w.path is None
