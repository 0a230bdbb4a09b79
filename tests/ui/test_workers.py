"""The thread pool helper: results come back in the UI thread, garbage is collected there only."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest
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


class Cycle:
    """Garbage only the cyclic collector frees; notes the thread that freed it."""

    def __init__(self, log: list[str]) -> None:
        self.me, self.log = self, log

    def __del__(self) -> None:
        self.log.append(threading.current_thread().name)


def test_garbage_is_collected_by_a_ui_thread_timer_not_in_workers(qtbot: QtBot) -> None:
    workers.submit(lambda: None, on_done=lambda r: None)
    assert not gc.isenabled()  # a collection in a pool thread could free Qt objects there
    collected: list[str] = []
    thresholds = gc.get_threshold()
    gc.set_threshold(1, 1, 1)
    try:
        Cycle(collected)
        qtbot.waitUntil(lambda: bool(collected), timeout=max(2000, 5 * workers.GC_MS))
    finally:
        gc.set_threshold(*thresholds)
    assert collected == [threading.main_thread().name]


def test_a_run_over_its_memory_limit_has_the_ui_thread_collect_its_cycles(qtbot: QtBot) -> None:
    from tapeviz.sandbox import Limits, run

    cycles = (
        "import numpy as np\n"
        "for i in range(90):\n"
        "    a = [np.ones(200_000)]  # 1.6 MB that only a reference cycle holds\n"
        "    a.append(a)\n"
    )
    workers.submit(lambda: None, on_done=lambda r: None)
    assert not gc.isenabled()
    where: list[str] = []

    def job() -> object:
        Cycle(where)  # garbage: collected where the run's memory check has it collected
        return run(cycles, limits=Limits(max_memory_mb=80, wall_time=30.0))

    with qtbot.waitCallback(timeout=30_000) as done:
        workers.submit(job, on_done=done)
    result = done.args[0]
    assert result.error is None, result.error  # 144 MB of cycles against an 80 MB limit
    assert where == [threading.main_thread().name]


def test_a_worker_does_not_wait_forever_for_a_busy_ui_thread(qtbot: QtBot) -> None:
    workers.submit(lambda: None, on_done=lambda r: None)
    got: list[bool] = []
    thread = threading.Thread(target=lambda: got.append(workers.collect_now(timeout_s=0.2)))
    thread.start()  # the UI thread is not processing events: the request waits, then gives up
    thread.join(5)
    assert got == [False]
    assert workers.collect_now() is True  # from the UI thread itself: in place


def test_requested_collections_are_spaced_and_stop_with_the_application(qtbot: QtBot) -> None:
    import shiboken6

    workers.submit(lambda: None, on_done=lambda r: None)

    def from_a_worker() -> bool:
        got: list[bool] = []
        thread = threading.Thread(target=lambda: got.append(workers.collect_now(timeout_s=5)))
        thread.start()
        qtbot.waitUntil(lambda: not thread.is_alive(), timeout=10_000)
        return got[0]

    workers._RECLAIMED[:] = [float("-inf"), 0.0]
    assert from_a_worker() is True
    ended, took = workers._RECLAIMED
    workers._RECLAIMED[:] = [ended, max(took, 1.0)]  # as if it had taken a second
    assert from_a_worker() is False  # within ten times that: the window stays responsive
    workers._RECLAIMED[:] = [float("-inf"), 0.0]
    for obj in (*workers._COLLECTOR, *workers._GC_TIMER):  # what quitting the app does
        shiboken6.delete(obj)
    assert from_a_worker() is False  # no Qt error, and no collection in the worker
    assert workers.collect_in_ui_thread() is True  # a (new) application: installed again
    assert from_a_worker() is True


def test_young_garbage_is_collected_in_one_pass_and_a_full_one_waits_for_idle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    passes: list[int] = []
    counts = [0, 0, 0]
    monkeypatch.setattr(workers.gc, "collect", lambda generation=2: passes.append(generation))
    monkeypatch.setattr(workers.gc, "get_count", lambda: tuple(counts))
    monkeypatch.setattr(workers.gc, "get_threshold", lambda: (700, 10, 10))
    monkeypatch.setattr(workers.memory, "trim", lambda: None)
    monkeypatch.setattr(workers, "_LAST_FULL", [float("-inf")])
    monkeypatch.setattr(workers, "_FULL_DUE", [None])
    monkeypatch.setattr(workers, "_PASSES", [0])
    monkeypatch.setattr(workers, "_KEPT_OUT", [None])  # (no big graph's objects kept out)
    counts[:] = [701, 3, 2]
    workers._collect_now()
    assert passes == [1]  # both young generations at once (the middle never piles up)
    counts[:] = [0, 0, 50]  # idle ticks' passes (CPython counts them): no full pass for them
    workers._collect_now()
    assert passes == [1, 1]
    workers._PASSES[0] = 11  # eleven passes after allocation: a full pass is due
    workers._LAST_FULL[0] = workers.time.monotonic() - 1.5 * workers.FULL_GC_S
    monkeypatch.setattr(workers, "busy", lambda: True)
    workers._collect_now()
    assert passes == [1, 1, 1]  # not while a job runs
    monkeypatch.setattr(workers, "busy", lambda: False)
    workers._collect_now()
    assert passes == [1, 1, 1, 2]
    workers._PASSES[0] = 11
    workers._collect_now()
    assert passes == [1, 1, 1, 2, 1]  # and then not again before FULL_GC_S
    workers._LAST_FULL[0] = workers.time.monotonic() - 3.5 * workers.FULL_GC_S
    monkeypatch.setattr(workers, "busy", lambda: True)
    workers._collect_now()  # due, and put off: the wait starts now
    assert passes == [1, 1, 1, 2, 1, 1]
    workers._FULL_DUE[0] = workers.time.monotonic() - workers.FULL_WAIT_S
    workers._collect_now()
    assert passes == [1, 1, 1, 2, 1, 1, 2]  # jobs back to back for minutes: a full pass anyway


def test_a_young_pass_comes_each_tick_though_frees_kept_the_count_down(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(workers, "_LAST_FULL", [workers.time.monotonic()])  # (no full pass)
    was = gc.isenabled()
    gc.disable()
    try:
        old = [[k] for k in range(50_000)]
        gc.collect()  # (old now, as a shown graph's objects are)
        new = [[k] for k in range(50_000)]  # a new graph made while the last one is freed:
        del old  # every object freed counts one off the young generation's count
        assert gc.get_count()[0] <= gc.get_threshold()[0]
        workers._collect_now()
        # The new objects left the young generations in that pass: left there, the pass that
        # came at last walked a 20,000-op graph's million objects at once (90-120 ms).
        assert len(gc.get_objects(0)) + len(gc.get_objects(1)) < 1_000
        assert len(new) == 50_000
    finally:
        if was:
            gc.enable()


@pytest.fixture
def idle_timer(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The collector's state afresh, no job running, automatic collection off; unfrozen after."""
    for name, value in [("_LAST_FULL", [0.0]), ("_FULL_DUE", [None]), ("_PASSES", [0]),
                        ("_KEPT_OUT", [None]), ("_SMALL_SHOWN", [True])]:  # fmt: skip
        monkeypatch.setattr(workers, name, value)
    monkeypatch.setattr(workers, "busy", lambda: False)
    monkeypatch.setattr(workers.memory, "trim", lambda: None)
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.unfreeze()  # (a test's freezes do not outlive it)
        if was:
            gc.enable()


class _Box:
    """An object that can be in a reference cycle (as a graph item and its edges are)."""

    other: object = None


def _full_pass() -> None:
    """The timer's tick when a full pass is due and no job runs."""
    workers._PASSES[0], workers._LAST_FULL[0] = 100, float("-inf")
    workers._collect_now()


def test_a_big_graphs_objects_stay_out_of_full_passes_until_a_thaw(
    idle_timer: None,
) -> None:
    import weakref

    shown = [_Box() for _ in range(1000)]  # a big graph's items, in one ring
    for i, box in enumerate(shown):
        box.other = shown[i - 1]
    gone = weakref.ref(shown[0])
    before = gc.get_freeze_count()
    workers.keep_out(True)  # shown whole: out of full passes
    assert gc.get_freeze_count() >= before + 1000
    del shown, box  # it dies in a cycle: reference counting cannot free it
    kept = gc.get_freeze_count()
    made = [[k] for k in range(500)]  # what the window makes afterwards
    _full_pass()
    assert gone() is not None  # not walked: frozen
    assert gc.get_freeze_count() >= kept + 500  # the pass's survivors joined them
    assert made
    workers.keep_out(False)  # a small graph is shown ...
    _full_pass()
    assert gone() is not None  # ... but the thaw waits KEEP_OUT_S
    workers._KEPT_OUT[0] -= workers.KEEP_OUT_S
    _full_pass()
    assert gone() is None and workers._KEPT_OUT[0] is None  # thawed: collected


def test_big_graphs_shown_all_along_are_thawed_after_a_longer_wait(
    idle_timer: None,
) -> None:
    import weakref

    a, b = _Box(), _Box()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    workers.keep_out(True)
    del a, b
    half = workers.THAW_ANYWAY_S / 2 + 1
    workers._KEPT_OUT[0] -= half  # past KEEP_OUT_S, but big graphs all along: not yet
    _full_pass()
    assert gone() is not None
    workers.keep_out(True)  # another big graph: the wait counts from the first
    workers._KEPT_OUT[0] -= half
    _full_pass()
    assert gone() is None  # thawed: collected
    assert workers._KEPT_OUT[0] is not None  # and the big graph shown is kept out again
