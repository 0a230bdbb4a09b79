"""Repeated preset loads keep the same objects: no Qt items, widgets or jobs pile up."""

from __future__ import annotations

import gc

from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtWidgets import QApplication, QGraphicsView
from pytestqt.qtbot import QtBot

from tapeviz.models.session.presets import PRESETS
from tapeviz.ui import MainWindow, memory, workers

PASS = [  # a graph, a script, studio races (surface and curve), a loop's timeline
    "basics-2-2-4-persistent",
    "training-2-1-sgd-apply-gradients",
    "rosenbrock-race",
    "seed-quadratic-sgd",
    "beale",
]


def _counts(w: MainWindow) -> tuple[int, ...]:
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    gc.collect()
    scenes = {id(v.scene()): v.scene() for v in w.findChildren(QGraphicsView) if v.scene()}
    jobs = sum(isinstance(o, workers.Worker) for o in gc.get_objects())
    signals = sum(isinstance(o, workers.WorkerSignals) for o in gc.get_objects())
    return (
        sum(len(s.items()) for s in scenes.values()),
        len(w.findChildren(QObject)),
        len(QApplication.allWidgets()),
        jobs,
        signals,
    )


def _one_pass(qtbot: QtBot, w: MainWindow) -> None:
    for name in PASS:
        assert name in PRESETS
        w.load_preset(name)
        qtbot.waitUntil(lambda: w._cancel is None and not w.studio.busy, timeout=60_000)
    qtbot.wait(100)  # the last answers (tapes of the shown step) arrive


def test_passes_over_presets_leave_no_objects_behind(qtbot: QtBot, window: MainWindow) -> None:
    _one_pass(qtbot, window)
    first = _counts(window)
    _one_pass(qtbot, window)
    second = _counts(window)
    _one_pass(qtbot, window)
    assert _counts(window) == second
    assert second[:3] == first[:3]  # scene items, QObjects, widgets
    assert second[3] <= 3 and second[4] <= 3  # the jobs the window still points at, no more


def test_finished_and_cancelled_jobs_are_freed(qtbot: QtBot) -> None:
    got: list[int] = []
    before = sum(isinstance(o, workers.Worker) for o in gc.get_objects())
    jobs = [workers.submit(lambda i=i: i, on_done=got.append) for i in range(20)]
    for job in jobs[::2]:
        job.cancelled = True
    qtbot.waitUntil(lambda: all(j.fn is None for j in jobs), timeout=10_000)
    assert set(range(1, 20, 2)) <= set(got) <= set(range(20))  # uncancelled ones all arrive
    jobs.clear()
    job = None  # the loop's last reference
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    gc.collect()
    assert sum(isinstance(o, workers.Worker) for o in gc.get_objects()) <= before


def test_the_allocator_is_tuned_once() -> None:
    assert memory.tune_allocator() == memory.tune_allocator()  # idempotent, False off glibc
    memory.trim()  # harmless anywhere
