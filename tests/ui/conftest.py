"""Fixtures shared by the window tests."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from tapeviz.models.descent.demos import StudioPreset
from tapeviz.ui import MainWindow, workers
from tapeviz.ui.graph.view import GraphView
from tapeviz.ui.studio.studio import OptimizationStudio


@pytest.fixture(autouse=True)
def _no_frozen_graphs() -> Iterator[None]:
    """A big graph shown in one test leaves nothing frozen (``workers.keep_out``) for the next.

    Frozen objects are out of ``gc.get_objects()`` and ``gc.get_referrers()``: a later test's
    leak check would see nothing, and a thaw could land in a timing test.
    """
    yield
    if workers._KEPT_OUT[0] is not None:
        gc.unfreeze()
    workers._KEPT_OUT[0], workers._SMALL_SHOWN[0] = None, True


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    """A shown main window with its own settings folder; its workers finish before teardown."""
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    w = MainWindow()
    w.graph.animation_ms = 0
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.studio.shutdown()
    workers.wait_all()


@pytest.fixture
def graph_view(qtbot: QtBot) -> GraphView:
    """A shown 900x500 graph view on its own, without animations."""
    view = GraphView()
    view.animation_ms = 0
    view.resize(900, 500)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    return view


def _race(
    qtbot: QtBot, studio: OptimizationStudio, preset: StudioPreset, **changes: object
) -> None:
    """Give ``studio`` the preset's problem and settings (``changes`` on top); wait for the race."""
    studio.set_config(replace(preset.config, **changes))
    with qtbot.waitSignal(studio.busyChanged, timeout=30_000, check_params_cb=lambda b: not b):
        studio.set_problem(preset.problem)


@pytest.fixture
def run_race(qtbot: QtBot) -> Callable[..., None]:
    """``run_race(studio, preset, **changes)``: a new race in ``studio``, waited for."""
    return lambda studio, preset, **changes: _race(qtbot, studio, preset, **changes)


@pytest.fixture
def make_studio(qtbot: QtBot) -> Iterator[Callable[..., OptimizationStudio]]:
    """``make_studio(width, height, preset=None, **changes)``: a shown studio, its race run.

    Every studio made is shut down at teardown.
    """
    made: list[OptimizationStudio] = []

    def make(
        width: int, height: int, preset: StudioPreset | None = None, **changes: object
    ) -> OptimizationStudio:
        studio = OptimizationStudio()
        qtbot.addWidget(studio)
        studio.resize(width, height)
        studio.show()
        made.append(studio)
        if preset is not None:
            _race(qtbot, studio, preset, **changes)
        return studio

    yield make
    for studio in made:
        studio.shutdown()
