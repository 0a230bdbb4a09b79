"""Fixtures shared by the window tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from tapeviz.ui import MainWindow, workers


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
