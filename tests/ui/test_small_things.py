"""Issue 33, item 6: the small things a class notices.

One minus sign (−) in the chain rule and on the nodes; scatter points above a contourf, with an
edge; an exported picture's title without "(click to start)"; a saved session titled by its
own text, not by the preset it began as; a crash restore only for a real lock.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pyqtgraph as pg
import pytest
from pytestqt.qtbot import QtBot

from tapeviz.models.descent.demos import studio_presets
from tapeviz.models.session import file as sessions
from tapeviz.models.session.autosave import Autosave
from tapeviz.models.session.file import Session
from tapeviz.models.session.presets import PRESETS
from tapeviz.sandbox import VariableSpec, run
from tapeviz.ui import MainWindow
from tapeviz.ui.figures.panel import PlotsPanel
from tapeviz.ui.plots.title import shown_title
from tests.ui.lecture_room import show

HYPHEN_MINUS = re.compile(r"(?<![\w)\]])-(?=\d)")  # a number's sign written as a hyphen


def test_the_chain_rule_and_the_nodes_use_one_minus_sign(qtbot: QtBot, window: MainWindow) -> None:
    session = Session(source="(1 - x)*w - 2", variables=(VariableSpec("x", 2.0),
                                                       VariableSpec("w", -3.0)))  # fmt: skip
    show(qtbot, window, session)
    stepper = window.stepper.backward
    texts = [stepper.infos[k].text for k in range(len(stepper))]
    assert any("−1" in t for t in texts), texts  # ∂/∂b of a − b: the formula's own sign
    assert not [t for t in texts if HYPHEN_MINUS.search(t)], texts  # never "−1 = -1"
    assert not [t for t in texts if "+ −" in t or "× −" in t], texts  # "+ (−3)", not "+ −3"
    node_text = [t for it in window.graph.items.values() for t, _ in it.lines()]
    assert any("−" in t for t in node_text) and not [t for t in node_text
                                                      if HYPHEN_MINUS.search(t)]  # fmt: skip


def test_scatter_points_lie_above_a_contourf_with_an_edge(qtbot: QtBot) -> None:
    source = (
        "import numpy as np\nimport matplotlib.pyplot as plt\n"
        "xx, yy = np.meshgrid(np.linspace(-3, 3, 40), np.linspace(-3, 3, 40))\n"
        "plt.scatter([-1.0, 1.0, 2.0], [-1.5, 2.0, 1.0], c=[0, 1, 1], cmap='coolwarm')\n"
        "plt.contourf(xx, yy, (xx + yy > 0).astype(float), cmap='coolwarm')\n"
    )
    result = run(source)
    assert result.error is None, result.error
    panel = PlotsPanel()
    qtbot.addWidget(panel)
    panel.resize(700, 600)
    panel.show()
    panel.set_figures(result.figures)
    items = panel.panels[0].canvas.items[0]
    scatter = next(i for i in items if isinstance(i, pg.ScatterPlotItem))
    fill = next(i for i in items if isinstance(i, pg.ImageItem))
    assert scatter.zValue() > fill.zValue()  # drawn first in the script, on top all the same
    assert scatter.opts["pen"].style() != 0 and scatter.opts["pen"].widthF() > 0  # an edge


def test_an_exported_animation_has_no_click_to_start_title(
    qtbot: QtBot, make_studio, tmp_path: Path
) -> None:
    studio = make_studio(1000, 600, studio_presets()["rosenbrock-race"], steps=100)
    surface = studio.surface
    assert "(click to start)" in shown_title(surface)
    titles: list[str] = []
    real = studio.show_step
    studio.show_step = (  # type: ignore[method-assign]
        lambda k: titles.append(shown_title(surface)) or real(k)
    )
    exporter = studio.export("gif", tmp_path / "race.gif", frames=5)
    with qtbot.waitSignal(exporter.finished, timeout=60_000):
        pass
    studio.show_step = real  # type: ignore[method-assign]
    frames, back = titles[:-1], titles[-1]  # every frame; then the cursor back where it was
    assert frames and all(t == "Loss surface" for t in frames), titles
    assert "(click to start)" in back and "(click to start)" in shown_title(surface)


def test_a_still_export_has_no_click_to_start_title(
    qtbot: QtBot, make_studio, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tapeviz.ui.plots import export

    studio = make_studio(1000, 600, studio_presets()["rosenbrock-race"], steps=100)
    seen: list[str] = []
    real = export.render_image
    monkeypatch.setattr(
        export,
        "render_image",
        lambda w, s=1.0: seen.append(shown_title(studio.surface)) or real(w, s),
    )
    studio.export("png", tmp_path / "race.png")
    assert seen == ["Loss surface"] and (tmp_path / "race.png").exists()


def test_a_saved_session_is_titled_by_its_edited_text(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    window.load_preset("quadratic")
    qtbot.waitUntil(lambda: window.last_result is not None and not window.runner.running)
    assert window.current_session().title == PRESETS["quadratic"].title
    window.editor.setPlainText("a*x**2 + b*x + c + sin(x)")
    path = tmp_path / "mine.tapeviz"
    window.save_session(path)
    saved = sessions.load(path)
    assert saved.title == "a*x**2 + b*x + c + sin(x)" and saved.title != PRESETS["quadratic"].title
    assert saved.name == "" and saved.notes == ""  # the preset's notes are about its own text


def _lock(data: Path, text: str) -> Autosave:
    data.mkdir(parents=True, exist_ok=True)
    (data / "running.lock").write_text(text)
    (data / "autosave.tapeviz").write_text(Session(source="x*x").dumps())
    return Autosave(data)


@pytest.mark.skipif(os.name != "posix", reason="process ids are checked on POSIX")
def test_a_crash_restore_is_offered_only_for_a_real_lock(tmp_path: Path) -> None:
    assert not _lock(tmp_path / "a", "").crashed  # an empty lock is no lock
    assert not _lock(tmp_path / "b", "not a pid\n").crashed
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert not _lock(tmp_path / "c", str(alive.pid)).crashed  # another window, running
    finally:
        alive.kill()
        alive.wait()
    assert _lock(tmp_path / "d", str(alive.pid)).crashed  # its process is gone: it crashed
    link = tmp_path / "e"
    link.mkdir()
    (link / "target").write_text(str(alive.pid))
    (link / "running.lock").symlink_to(link / "target")
    (link / "autosave.tapeviz").write_text(Session(source="x*x").dumps())
    assert not Autosave(link).crashed  # a link is not our lock
