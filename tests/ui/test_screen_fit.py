"""Issue 33, item 3: the window never outgrows a 1,366×768 screen; a rebuild keeps its geometry.

Clean mode on and off at 150 % grew the window to 1,583 px (the stepper's clean row was still
its minimum when the docks came back), and each language switch put it 25 px lower. The
scenario runs in its own process on an offscreen screen of 1,366×768 (the tests' is 800×800).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from pytestqt.qtbot import QtBot

from tapeviz.ui.window.screen_fit import fit_to_screen

SCENARIO = r"""
import json, sys, time
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
app = QApplication([])
QSettings.setDefaultFormat(QSettings.Format.IniFormat)
QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, sys.argv[1])
from tapeviz.ui import MainWindow

def pump(seconds=0.3):
    end = time.time() + seconds
    while time.time() < end:
        app.processEvents()
        time.sleep(0.01)

def ran(w):
    end = time.time() + 30
    pump(0.2)
    while (w.runner.running or w.studio.busy) and time.time() < end:
        pump(0.05)
    pump(0.3)

out = []
def note(tag, w):
    room = w.screen().availableGeometry()
    f, g = w.frameGeometry(), w.geometry()
    out.append({"tag": tag, "frame": [f.x(), f.y(), f.width(), f.height()],
                "geometry": [g.x(), g.y(), g.width(), g.height()],
                "room": [room.x(), room.y(), room.width(), room.height()]})

w = MainWindow()
w.graph.animation_ms = 0
w.show()
from tapeviz.ui.window.screen_fit import fit_to_screen
fit_to_screen(w)  # as the app does at start
pump()
note("start", w)
w.set_font_scale(1.5); pump(); note("scale 1.5", w)
w.load_preset("quadratic"); ran(w); note("quadratic", w)
for _ in range(2):
    w.presenter.set_clean(True); pump(); note("clean", w)
    w.presenter.set_clean(False); pump(); note("clean off", w)
w.show_view("studio"); ran(w); note("studio", w)
w.show_view("stepper"); pump(); note("stepper", w)
w.presenter.reset_action.trigger(); pump(); note("ctrl 0", w)
w.set_font_scale(1.5); pump(); note("scale 1.5 again", w)
for code in ("zh_CN", "en", "zh_CN", "en"):
    w = w.set_language(code); pump(0.6); note("language " + code, w)
print("GEOMETRY " + json.dumps(out), flush=True)
w.close(); pump()
"""


def run_scenario(tmp_path: Path) -> list[dict]:
    screen = tmp_path / "screen.json"
    screen.write_text(json.dumps({"screens": [{
        "name": "projector", "x": 0, "y": 0, "width": 1366, "height": 768,
        "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1,
    }]}))  # fmt: skip
    env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={screen}",
           "TAPEVIZ_DATA_DIR": str(tmp_path / "data")}  # fmt: skip
    proc = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", SCENARIO, str(tmp_path / "settings")],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    line = next(x for x in proc.stdout.splitlines() if x.startswith("GEOMETRY "))
    return json.loads(line.removeprefix("GEOMETRY "))


def test_the_window_stays_on_a_1366x768_screen_and_a_rebuild_keeps_it(tmp_path: Path) -> None:
    notes = run_scenario(tmp_path)
    for n in notes:
        x, y, w, h = n["frame"]
        rx, ry, rw, rh = n["room"]
        assert rx <= x and ry <= y and x + w <= rx + rw and y + h <= ry + rh, n
    start = notes[0]["geometry"]
    assert all(n["geometry"] == start for n in notes), [n for n in notes if n["geometry"] != start]


def test_fit_to_screen_shrinks_and_moves_a_window_into_the_screen(qtbot: QtBot) -> None:
    from PySide6.QtWidgets import QWidget

    w = QWidget()
    qtbot.addWidget(w)
    room = w.screen().availableGeometry()
    w.setGeometry(room.x() + 200, room.y() + 100, room.width() + 300, room.height() + 50)
    w.show()
    qtbot.waitExposed(w)
    fit_to_screen(w)
    frame = w.frameGeometry()
    assert room.contains(frame), (room, frame)
