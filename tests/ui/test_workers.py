"""The thread pool helper: results come back in the UI thread, garbage is collected there only."""

from __future__ import annotations

import gc
import threading

from pytestqt.qtbot import QtBot

from tapeviz.ui import workers


def test_results_and_errors_come_back_in_the_ui_thread(qtbot: QtBot) -> None:
    seen: list[tuple[str, bool]] = []
    main = threading.main_thread()
    workers.submit(
        lambda: 6 * 7, on_done=lambda r: seen.append((r, threading.current_thread() is main))
    )

    def failed(text: str) -> None:
        seen.append(
            ("error" if "ZeroDivision" in text else text, threading.current_thread() is main)
        )

    workers.submit(lambda: 1 / 0, on_done=seen.append, on_error=failed)
    qtbot.waitUntil(lambda: len(seen) == 2)
    assert sorted(seen, key=str) == sorted([(42, True), ("error", True)], key=str)


def test_garbage_is_collected_by_a_ui_thread_timer_not_in_workers(qtbot: QtBot) -> None:
    workers.submit(lambda: None, on_done=lambda r: None)
    assert not gc.isenabled()  # a collection in a pool thread could free Qt objects there
    collected: list[str] = []

    class Cycle:
        def __init__(self) -> None:
            self.me = self

        def __del__(self) -> None:
            collected.append(threading.current_thread().name)

    thresholds = gc.get_threshold()
    gc.set_threshold(1, 1, 1)
    try:
        Cycle()
        qtbot.waitUntil(lambda: bool(collected), timeout=max(2000, 5 * workers.GC_MS))
    finally:
        gc.set_threshold(*thresholds)
    assert collected == [threading.main_thread().name]
