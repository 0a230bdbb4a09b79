"""After ``kill -9`` the next start restores the text and shows its graph (run in a worker)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from tapeviz.models.session.presets import PRESETS
from tapeviz.sandbox.process.remote import RemoteTape
from tapeviz.ui import MainWindow, workers

CRASHING = """
import os, sys, time
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
app = QApplication([])
QSettings.setDefaultFormat(QSettings.Format.IniFormat)
QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, sys.argv[1])
from tapeviz.ui import MainWindow
w = MainWindow()
w.show()
w.load_preset("basics-2-2-4-persistent")
w.autosave_now()
print("SAVED", flush=True)
while True:  # the lecturer works on until the process is killed
    app.processEvents()
    time.sleep(0.01)
"""


@pytest.mark.timeout(180)
def test_after_kill_9_the_work_comes_back_with_its_graph(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    env = {**os.environ, "TAPEVIZ_DATA_DIR": str(data), "QT_QPA_PLATFORM": "offscreen"}
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    crashed = subprocess.Popen(
        [sys.executable, "-c", CRASHING, str(tmp_path / "settings")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
    )  # fmt: skip
    try:
        assert crashed.stdout is not None
        assert crashed.stdout.readline().strip() == "SAVED"
    finally:
        os.kill(crashed.pid, signal.SIGKILL)
        crashed.wait(timeout=30)
    assert crashed.returncode == -signal.SIGKILL
    assert (data / "running.lock").exists() and (data / "autosave.tapeviz").exists()

    monkeypatch.setenv("TAPEVIZ_DATA_DIR", str(data))
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    try:
        assert window.offer_restore(ask=False)
        assert window.editor.toPlainText() == PRESETS["basics-2-2-4-persistent"].source
        qtbot.waitUntil(lambda: bool(window.graph.items) and not window.runner.running,
                        timeout=60_000)  # fmt: skip
        labels = sorted(n.label for n in window.model.nodes.values())
        assert labels == ["x", "y", "z"]
        x = window.model.node_for_tensor(window.model.entry.tape.watched()[0].id)
        assert float(window.model.gradients[x]) == 108.0
        assert isinstance(window.model.entry.tape, RemoteTape)  # run in a worker process
        assert "6.0\n108.0" in window.console.toPlainText()
    finally:
        window.close()
        workers.wait_all()
