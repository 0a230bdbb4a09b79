"""What lives as long as the window is frozen out of full collections once it has started."""

from __future__ import annotations

import gc

from pytestqt.qtbot import QtBot

from tapeviz.ui import MainWindow, workers


def test_the_started_window_is_left_out_of_full_collections(
    qtbot: QtBot, window: MainWindow
) -> None:
    qtbot.waitUntil(lambda: window.timeline._plots is not None, timeout=20_000)  # then settles
    qtbot.wait(100)
    assert gc.get_freeze_count() > 10_000
    frozen = gc.get_freeze_count()
    cycle: list[object] = []
    cycle.append(cycle)
    del cycle
    assert gc.collect() >= 1  # what is made afterwards is collected as before
    workers.settle()  # a new window settles again: unfreezes, collects, freezes
    assert abs(gc.get_freeze_count() - frozen) < frozen // 2
