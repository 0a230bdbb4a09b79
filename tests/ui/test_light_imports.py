"""The window's graph path reads results from the worker: it never loads the interpreter."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("tapeviz.tf", "tapeviz.sandbox.runner", "tapeviz.sandbox.language.stmt")


def loaded_after(modules: list[str], then: str = "") -> list[str]:
    """The heavy modules in ``sys.modules`` of a fresh process after importing ``modules``."""
    code = "import sys\n" + "".join(f"import {m}\n" for m in modules) + then
    code += f"print([m for m in {HEAVY!r} if m in sys.modules])\n"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert out.returncode == 0, out.stderr
    return parse_names(out.stdout.strip().splitlines()[-1])


def parse_names(text: str) -> list[str]:
    """``['a', 'b']`` -> the names."""
    return [part.strip().strip("'") for part in text.strip("[]").split(",") if part.strip()]


def test_the_graph_path_does_not_load_the_interpreter_or_tapeviz_tf() -> None:
    path = [
        "tapeviz.sandbox",
        "tapeviz.sandbox.process.isolated",
        "tapeviz.models.graph.model",
        "tapeviz.ui.graph.pane",
        "tapeviz.ui.stepper.panel",
        "tapeviz.ui.window.editor",
        "tapeviz.ui.window.tape_list",
    ]
    assert loaded_after(path) == []


def test_the_interpreter_loads_when_first_used() -> None:
    then = "from tapeviz.sandbox import run\n"
    assert loaded_after(["tapeviz.sandbox"], then) == list(HEAVY)


def test_the_whole_window_starts_without_the_interpreter() -> None:
    """Studio, timeline, exports and all: the window's start loads none of it (cold start)."""
    then = "from PySide6.QtWidgets import QApplication\napp = QApplication([])\n"
    then += "w = tapeviz.ui.window.main_window.MainWindow()\n"
    assert loaded_after(["tapeviz.ui.window.main_window"], then) == []
