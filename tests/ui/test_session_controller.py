"""The session controller on its own: fake work in and out, a real settings file, no window."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMenu, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from tapeviz.models.session.autosave import Autosave
from tapeviz.models.session.file import Session
from tapeviz.sandbox import VariableSpec
from tapeviz.ui.window.sessions import MAX_RECENT, SessionController


class Work:
    """Stands for the window: the session it shows, what was applied, the messages."""

    def __init__(self) -> None:
        self.session = Session(source="x**2", variables=(VariableSpec("x", 3.0),))
        self.applied: list[tuple[str, bool]] = []
        self.messages: list[str] = []

    def apply(self, session: Session, run_now: bool) -> None:
        self.session = session
        self.applied.append((session.source, run_now))


@pytest.fixture
def parts(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TAPEVIZ_DATA_DIR", str(tmp_path / "data"))
    store = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    host = QWidget()
    qtbot.addWidget(host)
    work = Work()
    controller = SessionController(
        host, lambda: work.session, work.apply, work.messages.append, lambda: store
    )
    yield controller, work, host
    controller.stop_autosave()


def test_save_then_open_goes_through_the_callbacks(parts, tmp_path: Path) -> None:
    controller, work, host = parts
    controller.save_session(tmp_path / "one.tapeviz")
    assert (
        controller.path == tmp_path / "one.tapeviz"
        and host.windowTitle() == "tapeviz — one.tapeviz"
    )
    assert work.messages[-1].startswith("Saved ")
    work.session = Session(source="other")
    assert controller.open_session(tmp_path / "one.tapeviz")
    assert work.applied == [("x**2", True)]  # opened and run
    (tmp_path / "bad.tapeviz").write_text("{broken", "utf-8")
    assert not controller.open_session(tmp_path / "bad.tapeviz")
    assert work.messages[-1].startswith("⚠ Cannot open bad.tapeviz")
    assert controller.path == tmp_path / "one.tapeviz"  # the work and its file are kept


def test_save_asks_for_a_name_only_without_a_file(
    parts, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    controller, _, _ = parts
    from PySide6.QtWidgets import QFileDialog

    asked: list[bool] = []
    chosen = str(tmp_path / "picked")
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *a, **k: (asked.append(True), (chosen, ""))[1]
    )
    controller.save()
    assert controller.path == tmp_path / "picked.tapeviz" and asked == [True]  # suffix added
    controller.save()
    assert asked == [True]  # the second save writes the same file


def test_recent_files_are_capped_newest_first_and_fill_a_menu(
    parts, qtbot: QtBot, tmp_path: Path
) -> None:
    controller, work, _ = parts
    menu = QMenu()
    controller.fill_recent_menu(menu)
    assert [a.text() for a in menu.actions()] == ["No recent sessions"]
    assert not menu.actions()[0].isEnabled()
    for i in range(MAX_RECENT + 2):
        controller.save_session(tmp_path / f"s{i}.tapeviz")
    names = [Path(p).name for p in controller.recent_files()]
    assert names == [f"s{i}.tapeviz" for i in range(MAX_RECENT + 1, 1, -1)]
    controller.fill_recent_menu(menu)
    menu.actions()[-1].trigger()  # read in the pool: the window goes on meanwhile
    qtbot.waitUntil(lambda: bool(work.applied))
    assert work.applied[-1] == ("x**2", True) and controller.path.name == "s2.tapeviz"


def test_autosave_and_restore_after_a_crash(
    parts, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    controller, work, _ = parts
    controller.start_autosave()
    assert controller.autosave.lock.exists() and controller.autosave_timer.isActive()
    assert controller.autosave_now() and not controller.autosave_now()  # unchanged: not again
    assert not controller.offer_restore(ask=False)  # this run did not crash
    crashed = Autosave()  # what the next start finds: the lock and the autosave are still there
    assert crashed.crashed
    again = SessionController(
        QWidget(), lambda: work.session, work.apply, work.messages.append, controller.store
    )
    monkeypatch.setattr(QMessageBox, "question", lambda *a: QMessageBox.StandardButton.Yes)
    assert again.offer_restore()
    assert work.applied[-1] == ("x**2", True)  # restored and run (in a worker): its graph too
    assert work.messages[-1] == "Restored the autosaved work."
    controller.stop_autosave()
    assert not controller.autosave.lock.exists()
