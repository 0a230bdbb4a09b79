"""Opening files in the window: never on the UI thread's time, and what opens can be applied."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from pytestqt.qtbot import QtBot

from tapeviz.models.session import file as sessions
from tapeviz.models.session.autosave import Autosave
from tapeviz.models.session.checks import GRAPH_KEYS
from tapeviz.models.session.file import Session, SessionError
from tapeviz.sandbox import VariableSpec
from tapeviz.sandbox.process.isolated import variables_doc
from tapeviz.sandbox.process.wire import Writer
from tapeviz.ui import MainWindow, workers

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="named pipes")
WORK = "a*x**2 + 1  # my edit"
QUICK_S = 1.0  # an open returns at once; the read itself happens in the pool


def _docs() -> ModuleType:
    path = Path(__file__).parents[1] / "models" / "session_docs.py"
    spec = importlib.util.spec_from_file_location("session_docs", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


docs = _docs()


@pytest.fixture(autouse=True)
def data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("TAPEVIZ_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    """A named pipe ``x.tapeviz``; a reader stuck on it is released at teardown."""
    path = tmp_path / "x.tapeviz"
    os.mkfifo(path)
    yield path
    release(path)


def release(fifo: Path) -> None:
    """Open the writing end without waiting: a reader stuck in open() then gets end of file."""
    with contextlib.suppress(OSError):
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))


def message(w: MainWindow) -> str:
    return w.statusBar().currentMessage()


@posix_only
def test_opening_a_pipe_returns_at_once_and_says_why(
    qtbot: QtBot, window: MainWindow, fifo: Path
) -> None:
    window.apply_session(Session(source=WORK, variables=(VariableSpec("x", 1.0),)), False)
    start = time.monotonic()
    window.sessions.open_in_background(fifo)  # what the menu, the recent files and argv do
    assert time.monotonic() - start < QUICK_S
    qtbot.waitUntil(lambda: "named pipe" in message(window), timeout=5_000)
    why = "x.tapeviz is a named pipe (FIFO), not a session file"
    assert message(window) == f"⚠ Cannot open x.tapeviz: {why}"
    assert window.editor.toPlainText() == WORK and window.path is None  # the work is kept
    watchdog = threading.Timer(5.0, release, [fifo])  # a regression fails instead of hanging
    watchdog.start()
    try:
        start = time.monotonic()
        assert not window.open_session(fifo)  # the synchronous path (tests, scripts) too
        assert time.monotonic() - start < QUICK_S
    finally:
        watchdog.cancel()


@posix_only
def test_a_pipe_in_the_recent_files_does_not_freeze_the_window(
    qtbot: QtBot, window: MainWindow, fifo: Path
) -> None:
    window.sessions.store().setValue("recent/files", [str(fifo)])
    window.recent_menu.aboutToShow.emit()
    start = time.monotonic()
    window.recent_menu.actions()[0].trigger()
    assert time.monotonic() - start < QUICK_S
    qtbot.waitUntil(lambda: "named pipe" in message(window), timeout=5_000)


def test_a_good_file_opens_in_the_background_and_the_last_open_wins(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    for name in ("first", "second"):
        Session(source=f"{name} * x", variables=(VariableSpec("x", 2.0),)).save(
            tmp_path / f"{name}.tapeviz"
        )
    window.sessions.open_in_background(tmp_path / "first.tapeviz")
    window.sessions.open_in_background(tmp_path / "second.tapeviz")  # before the first arrived
    qtbot.waitUntil(lambda: window.editor.toPlainText() == "second * x", timeout=5_000)
    assert workers.wait_all(5_000)
    qtbot.wait(50)  # anything still on its way is delivered now
    assert window.editor.toPlainText() == "second * x"
    assert window.path == tmp_path / "second.tapeviz"
    assert window.windowTitle() == "tapeviz — second.tapeviz"
    assert window.recent_files()[0] == str((tmp_path / "second.tapeviz").resolve())


def test_a_crash_restore_reads_in_the_background(qtbot: QtBot, data_dir: Path) -> None:
    crashed = Autosave()  # a previous run that never closed
    crashed.start()
    crashed.save(Session(source="tanh(x)", variables=(VariableSpec("x", 0.5),)))
    w = MainWindow()
    qtbot.addWidget(w)
    others: list[bool] = []
    w.sessions.restore_in_background(ask=False, otherwise=lambda: others.append(True))
    qtbot.waitUntil(lambda: w.editor.toPlainText() == "tanh(x)", timeout=5_000)
    assert others == []  # restored: nothing else is opened
    qtbot.waitUntil(lambda: not w.runner.running, timeout=30_000)


@posix_only
def test_an_unreadable_autosave_falls_back_to_what_was_asked(qtbot: QtBot, data_dir: Path) -> None:
    Autosave().start()
    os.mkfifo(data_dir / "autosave.tapeviz")  # the lock and an "autosave" that is a pipe
    try:
        w = MainWindow()
        qtbot.addWidget(w)
        others: list[bool] = []
        w.sessions.restore_in_background(ask=False, otherwise=lambda: others.append(True))
        qtbot.waitUntil(lambda: others == [True], timeout=5_000)
    finally:
        release(data_dir / "autosave.tapeviz")


APP = """
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([])
from tapeviz.ui import MainWindow
from tapeviz.ui.app import run_app

def check():
    for w in app.topLevelWidgets():
        if isinstance(w, MainWindow) and "named pipe" in w.statusBar().currentMessage():
            print(w.isVisible(), w.statusBar().currentMessage(), flush=True)
            w.close()
            app.exit(0)
            return
    QTimer.singleShot(20, check)

QTimer.singleShot(0, check)
QTimer.singleShot(20_000, lambda: app.exit(3))
sys.exit(run_app(session_file=sys.argv[1]))
"""


@posix_only
def test_the_app_opens_a_file_from_the_command_line_in_the_background(
    fifo: Path, tmp_path: Path
) -> None:
    # In a process of its own: a window alive in the app's event loop would outlast this test.
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "TAPEVIZ_DATA_DIR": str(tmp_path / "d"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}  # fmt: skip
    done = subprocess.run([sys.executable, "-c", APP, str(fifo)], capture_output=True, text=True,
                          env=env, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    why = "x.tapeviz is a named pipe (FIFO), not a session file"
    assert done.stdout.splitlines() == [f"True ⚠ Cannot open x.tapeviz: {why}"]


def test_the_loader_knows_the_graph_panes_settings(window: MainWindow) -> None:
    assert set(GRAPH_KEYS) == set(window.graph_settings())


@settings(
    max_examples=30,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(document=docs.documents())
def test_every_session_that_loads_can_be_applied(window: MainWindow, document: str) -> None:
    try:
        session = sessions.loads(document)
    except SessionError:
        return
    window.apply_session(session, False)  # what opening a file does, but for the run
    assert "Traceback" not in message(window) and "Internal error" not in message(window)
    specs = window.variables.specs()  # what a run reads (ValueError if a row does not parse)
    assert [(s.name, s.dtype) for s in specs] == [(v.name, v.dtype) for v in session.variables]
    with warnings.catch_warnings(), np.errstate(all="raise"):
        warnings.simplefilter("error")
        variables_doc(specs, Writer())  # the run's request to the worker process
    problem = window.runner.problem()
    assert problem is not None
    problem.start()  # the studio's start point
    window.current_session().dumps().encode("utf-8")  # the next autosave
