"""Helpers of the lecture-room tests (issue 33): the window at 1366×768 and presenter scale 1.5."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QRectF
from pytestqt.qtbot import QtBot

from tapeviz.models.session.file import Session
from tapeviz.ui import MainWindow

WIDTH, HEIGHT, SCALE = 1366, 768, 1.5


@pytest.fixture
def room(window: MainWindow, qtbot: QtBot) -> Iterator[MainWindow]:
    """The window at a projector's 1366×768, text at 150 % (Ctrl + twice)."""
    window.resize(WIDTH, HEIGHT)
    qtbot.waitUntil(lambda: window.width() == WIDTH)
    window.set_font_scale(SCALE)
    yield window
    window.set_font_scale(1.0)


def ran(qtbot: QtBot, w: MainWindow, timeout: int = 30_000) -> None:
    """Wait until the editor's run (and a queued one) has ended."""
    qtbot.waitUntil(lambda: not w.runner.running and not w.runner.live_pending, timeout=timeout)


def show(qtbot: QtBot, w: MainWindow, session: Session) -> None:
    """Apply ``session`` and wait until its graph is drawn."""
    w.runner.last_result = None
    w.apply_session(session)
    qtbot.waitUntil(
        lambda: w.last_result is not None and not w.runner.running and bool(w.graph.items),
        timeout=30_000,
    )


def on_screen(w: MainWindow) -> QRectF:
    """The part of the scene the graph view shows."""
    view = w.graph
    return view.mapToScene(view.viewport().rect()).boundingRect()


def outside(w: MainWindow) -> list[str]:
    """The labels of the nodes not wholly in the graph's viewport."""
    seen = on_screen(w)
    return [it.node.label for it in w.graph.items.values()
            if not seen.contains(it.sceneBoundingRect())]  # fmt: skip


def off_centre(w: MainWindow) -> tuple[float, float]:
    """How far (px) the middle of the nodes' box is from the middle of the viewport."""
    box = QRectF()
    for it in w.graph.items.values():
        box = box.united(it.sceneBoundingRect())
    middle = w.graph.mapFromScene(box.center())
    port = w.graph.viewport().rect().center()
    return middle.x() - port.x(), middle.y() - port.y()
