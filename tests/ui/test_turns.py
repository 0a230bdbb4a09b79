"""Turns: one slice of background work per event-loop pass, whoever asks, in order."""

from __future__ import annotations

import itertools

import pytest
from PySide6.QtCore import QObject, QTimer
from pytestqt.qtbot import QtBot

from tapeviz.ui import turns, workers


def test_slices_of_several_kinds_take_turns_one_per_pass(qtbot: QtBot) -> None:
    log: list[str] = []
    ticks = [0]  # a zero timer: it fires once per pass of the event loop
    ticker = QTimer()
    ticker.setInterval(0)
    ticker.timeout.connect(lambda: ticks.__setitem__(0, ticks[0] + 1))
    ticker.start()

    def producer(name: str, left: list[int]) -> None:
        log.append(f"{name}@{ticks[0]}")
        left[0] -= 1
        if left[0]:
            turns.later(lambda: producer(name, left))

    turns.later(lambda: producer("a", [3]))
    turns.later(lambda: producer("b", [3]))
    qtbot.waitUntil(lambda: len(log) == 6, timeout=5_000)
    ticker.stop()
    assert [entry.split("@")[0] for entry in log] == ["a", "b", "a", "b", "a", "b"]
    passes = [int(entry.split("@")[1]) for entry in log]
    assert all(b > a for a, b in itertools.pairwise(passes))  # never two in a pass


def test_a_slice_whose_owner_was_deleted_is_skipped(qtbot: QtBot) -> None:
    import shiboken6

    ran: list[str] = []
    owner = QObject()
    turns.later(lambda: ran.append("gone"), owner)
    turns.later(lambda: ran.append("kept"))
    shiboken6.delete(owner)
    qtbot.waitUntil(lambda: ran == ["kept"], timeout=5_000)
    qtbot.wait(20)
    assert ran == ["kept"]


def test_a_failing_slice_does_not_stop_the_others(qtbot: QtBot) -> None:
    ran: list[str] = []

    def fails() -> None:
        raise RuntimeError("a bug in one slice")

    with qtbot.captureExceptions() as raised:
        turns.later(fails)
        turns.later(lambda: ran.append("next"))
        qtbot.waitUntil(lambda: ran == ["next"], timeout=5_000)
    assert [str(e[1]) for e in raised] == ["a bug in one slice"]


def test_a_slice_frees_what_it_held_in_its_own_turn(qtbot: QtBot) -> None:
    import weakref

    class Held:
        pass

    held = Held()
    gone = weakref.ref(held)
    turns.later(lambda _h=held: None)
    del held
    assert gone() is not None  # (kept until its turn)
    qtbot.waitUntil(lambda: gone() is None and not turns.pending(), timeout=5_000)


def test_the_collector_takes_a_turn_of_its_own_while_slices_run(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    order: list[str] = []
    monkeypatch.setattr(workers, "_collect_now", lambda: order.append("gc"))
    timer = workers._GC_TIMER[0] if workers._GC_TIMER else None
    if timer is not None:  # the real timer's collections would join in
        timer.stop()
    qtbot.waitUntil(lambda: not turns.pending(), timeout=5_000)  # (one it queued, say)
    monkeypatch.setattr(workers, "_QUEUED", [None])
    try:
        check_collector_turns(qtbot, order)
    finally:
        if timer is not None:
            timer.start()


def check_collector_turns(qtbot: QtBot, order: list[str]) -> None:
    """Slices calling the timer's collection: it runs between them, queued once each time."""

    def slice_(k: int) -> None:
        order.append(f"slice {k}")
        workers._collect()  # the timer's collection, due in this very pass (twice)
        workers._collect()
        if k < 2:
            turns.later(lambda: slice_(k + 1))

    turns.later(lambda: slice_(0))
    qtbot.waitUntil(lambda: not turns.pending() and "slice 2" in order, timeout=5_000)
    qtbot.waitUntil(lambda: order[-1] == "gc", timeout=5_000)
    assert order == ["slice 0", "gc", "slice 1", "gc", "slice 2", "gc"]  # queued once each
    qtbot.wait(10)  # nothing ran or waits: the timer collects at once
    assert not turns.crowded()
    workers._collect()
    assert order[-1] == "gc" and len(order) == 7


def test_until_done_runs_a_step_a_turn_until_it_is_done_then_the_end(qtbot: QtBot) -> None:
    import shiboken6

    owner, gone = QObject(), QObject()
    log: list[str] = []
    left = [3]

    def step() -> bool:
        log.append("step")
        left[0] -= 1
        return left[0] == 0

    turns.until_done(step, owner, lambda: log.append("then"))
    turns.until_done(lambda: log.append("never") is None, gone, lambda: log.append("never"))
    shiboken6.delete(gone)
    assert log == []  # (nothing in this turn)
    qtbot.waitUntil(lambda: "then" in log, timeout=5_000)
    qtbot.wait(20)
    assert log == ["step", "step", "step", "then"]
