"""The window's start: what its first paint needs, and the rest right after it."""

from __future__ import annotations

import os
import subprocess
import sys
import types
from pathlib import Path

from tests.ui.test_light_imports import parse_names

ROOT = Path(__file__).resolve().parents[2]
LATE = ("pyqtgraph", "pygments.lexers", "tapeviz.ui.window.code_export_dialog",
        "tapeviz.ui.plots.surface_plot",
        "tapeviz.ui.timeline.plots", "tapeviz.ui.figures.canvas")  # fmt: skip


def run(code: str) -> list[str]:
    """The last printed list of a fresh offscreen process running ``code``."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", code],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    return parse_names(out.stdout.strip().splitlines()[-1])


START = (
    "import sys, time\nfrom PySide6.QtWidgets import QApplication\napp = QApplication([])\n"
    "from tapeviz.ui import MainWindow\nfrom tapeviz.models import kernel\n"
    "w = MainWindow(); w.resize(1366, 768); w.show(); w.repaint()\n"
)


def test_the_first_paint_loads_no_plotting_library_and_starts_no_worker() -> None:
    code = START + f"print([m for m in {LATE!r} if m in sys.modules]"
    code += " + ['idle'] * len(kernel.POOL._idle))\n"
    assert run(code) == []


def test_right_after_the_first_paint_a_worker_warms_and_pyqtgraph_is_imported() -> None:
    code = START + (
        "end = time.time() + 30\n"
        "while time.time() < end and not ('pyqtgraph' in sys.modules and kernel.POOL._idle):\n"
        "    app.processEvents()\n"
        "print([m for m in ('pyqtgraph', 'pygments.lexers') if m in sys.modules]"
        " + ['idle'] * len(kernel.POOL._idle))\n"
    )
    assert run(code) == ["pyqtgraph", "idle"]  # the export dialog's Pygments: still when asked


def test_pyside_is_given_the_same_answer_about_each_module() -> None:
    import tapeviz.ui  # noqa: F401  (installs the check)
    from tapeviz.engine import tape
    from tapeviz.ui import pyside_imports, theme

    feature = sys.modules[pyside_imports.FEATURE]
    check = feature._mod_uses_pyside
    original = check.original
    assert pyside_imports.quicken_feature_check() is False  # once
    for module in (theme, tape, pyside_imports, sys, types, os):
        assert check(module) == original(module), module.__name__
    assert check(theme) and not check(tape) and not check(sys)


def test_a_module_without_a_readable_source_gets_pysides_own_answer(tmp_path: Path) -> None:
    from tapeviz.ui import pyside_imports

    calls: list[str] = []

    def original(module: types.ModuleType) -> bool:
        calls.append(module.__name__)
        return True

    gone = types.ModuleType("gone")
    gone.__file__ = str(tmp_path / "gone.py")  # never written
    compiled = types.ModuleType("compiled")
    compiled.__file__ = str(tmp_path / "compiled.cpython-311-x86_64-linux-gnu.so")
    (tmp_path / "plain.py").write_text("import numpy\n")
    plain = types.ModuleType("plain")
    plain.__file__ = str(tmp_path / "plain.py")
    assert pyside_imports.uses_pyside(gone, original) is True
    assert pyside_imports.uses_pyside(compiled, original) is True
    assert pyside_imports.uses_pyside(plain, original) is False
    assert calls == ["gone", "compiled"]
