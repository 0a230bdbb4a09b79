"""Background work off the UI thread: run a function in the thread pool, get a signal back.

Python's cyclic garbage collector runs in whichever thread happens to allocate. When it frees a
Qt object's Python wrapper in a pool thread, ``~QObject`` waits there for the GIL while the UI
thread, holding the GIL, waits for a Qt lock that the pool thread holds: a deadlock (seen in a CI
run of the monkey test). So the first job turns automatic collection off and a UI-thread timer
collects instead (the pattern of pyqtgraph's ``GarbageCollector``). A sandboxed run that goes
over its memory limit first asks the UI thread for a full collection (:func:`collect_now`), so
memory that only reference cycles hold does not fail the run.

A pool thread running Python holds the GIL for up to the interpreter's switch interval (5 ms)
each time the UI thread asks for it, and a repaint crosses between Qt and Python many times: a
pyqtgraph repaint beside a computing worker took 300 ms. Jobs therefore run with a 1 ms switch
interval (:data:`SWITCH_S`), which brought that repaint under 100 ms.
"""

from __future__ import annotations

import contextlib
import gc
import sys
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, Qt, QThreadPool, QTimer, Signal

from tapeviz.sandbox.runtime import limits
from tapeviz.ui import memory, turns

GC_MS = 25  # how often the UI thread collects young garbage (often: each pass stays short)
FULL_GC_S = 60.0  # and the oldest generation at most this often: a full pass can take 100 ms
FULL_WAIT_S = 120.0  # a due full pass waits this long at most for the pool's jobs to end
RECLAIM_WAIT_S = 2.0  # how long a worker over its memory limit waits for a UI-thread collection
SWITCH_S = 0.001  # the GIL switch interval while jobs run (the UI thread gets it back quickly)
RECLAIM_SPACING = 10.0  # such collections take at most about 1/10 of the UI thread's time
# Big graphs' objects stay out of full passes (keep_out) this long, until a small graph is shown;
# at most THAW_ANYWAY_S with big graphs shown all along.
KEEP_OUT_S, THAW_ANYWAY_S = 600.0, 1800.0
_GC_TIMER: list[QTimer] = []
_LAST_FULL = [0.0]
_PASSES = [0]  # young passes that followed allocation since the last full one (its due count)
_FULL_DUE: list[float | None] = [None]  # since when a due full pass waits for jobs to end
_KEPT_OUT: list[float | None] = [None]  # since when big graphs' objects are frozen (keep_out)
_SMALL_SHOWN = [True]  # the graph shown now is small (a thaw is cheap)


class WorkerSignals(QObject):
    """Signals of one job; they are delivered in the UI thread."""

    finished = Signal(object)
    failed = Signal(str)
    ended = Signal()  # after either, or after a cancelled job (whose result is dropped)


class Worker:
    """Runs ``fn(*args)`` in the pool; a cancelled job's result is dropped.

    A plain object whose ``run`` the pool calls: a QRunnable subclass handed to the pool stays
    owned by C++ for good (without auto-delete), and with it its Python wrapper.
    """

    def __init__(self, fn: Callable[..., Any], *args: Any) -> None:
        self.fn: Callable[..., Any] | None = fn
        self.args = args
        self.signals = WorkerSignals()
        self.cancelled = False

    def run(self) -> None:
        try:
            try:
                assert self.fn is not None
                result = self.fn(*self.args)
            except Exception:  # reported to the UI, never lost
                if not self.cancelled:
                    self.signals.failed.emit(traceback.format_exc(limit=3))
                return
            if not self.cancelled:
                self.signals.finished.emit(result)
        finally:
            self.signals.ended.emit()


_ACTIVE: list[Worker] = []


def submit(
    fn: Callable[..., Any],
    *args: Any,
    on_done: Callable[[Any], None],
    on_error: Callable[[str], None] | None = None,
) -> Worker:
    """Run ``fn(*args)`` in the global thread pool; ``on_done(result)`` runs in the UI thread."""
    collect_in_ui_thread()
    if sys.getswitchinterval() > SWITCH_S:
        sys.setswitchinterval(SWITCH_S)
    worker = Worker(fn, *args)
    _ACTIVE.append(worker)

    def done(result: Any) -> None:
        _forget(worker)
        on_done(result)

    def failed(text: str) -> None:
        _forget(worker)
        if on_error is not None:
            on_error(text)

    worker.signals.finished.connect(done)
    worker.signals.failed.connect(failed)
    worker.signals.ended.connect(lambda: _release(worker))
    QThreadPool.globalInstance().start(worker.run)
    return worker


def busy() -> bool:
    """Whether a job runs in the pool (its Python competes with the UI thread for the GIL)."""
    return bool(_ACTIVE)


def _forget(worker: Worker) -> None:
    if worker in _ACTIVE:
        _ACTIVE.remove(worker)


def _release(worker: Worker) -> None:
    """A job has ended (in the UI thread): drop what it holds.

    Its signals' connections hold the closures above, which hold the worker: a cycle through
    C++ that the garbage collector cannot see, so without this every job (its arguments and
    its result) would stay in memory for good, cancelled ones too.
    """
    _forget(worker)
    worker.fn, worker.args = None, ()
    signals = worker.signals
    for signal in (signals.finished, signals.failed, signals.ended):
        with contextlib.suppress(RuntimeError, TypeError):
            signal.disconnect()
    signals.deleteLater()


def wait_all(timeout_ms: int = 10_000) -> bool:
    """Wait for every running job (tests and application exit)."""
    return QThreadPool.globalInstance().waitForDone(timeout_ms)


def collect_in_ui_thread() -> bool:
    """Collect garbage only in the UI thread from now on (idempotent); False without an app."""
    if _GC_TIMER and shiboken6.isValid(_GC_TIMER[0]):
        return True
    _GC_TIMER.clear()  # a previous application's timer and collector are gone with it
    _COLLECTOR.clear()
    app = QCoreApplication.instance()
    if app is None:
        return False
    memory.tune_allocator()  # before the pool's threads allocate
    gc.disable()
    timer = QTimer(app)
    timer.setInterval(GC_MS)
    timer.timeout.connect(_collect)
    timer.start()
    _GC_TIMER.append(timer)
    _COLLECTOR.append(_Collector(app))
    limits.set_reclaimer(collect_now)
    return True


class _Collector(QObject):
    """Runs a full collection in the UI thread when a worker asks for one."""

    requested = Signal(object)  # a threading.Event, set when the collection is done

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self.requested.connect(self._collect, Qt.ConnectionType.QueuedConnection)

    def _collect(self, done: threading.Event) -> None:
        _full_collection()
        done.set()


_COLLECTOR: list[_Collector] = []
_RECLAIMED = [float("-inf"), 0.0]  # when the last requested collection ended, how long it took


def _full_collection() -> None:
    t0 = time.monotonic()
    if _KEPT_OUT[0] is not None:  # (memory is short: frozen cycles too)
        _thaw()
    else:
        gc.collect()
    memory.trim()
    now = time.monotonic()
    _RECLAIMED[:] = [now, now - t0]
    _LAST_FULL[0], _PASSES[0] = now, 0


def collect_now(timeout_s: float = RECLAIM_WAIT_S) -> bool:
    """A full collection in the UI thread; from a worker, wait for it. Whether one ran.

    A sandboxed run over its memory limit calls this before failing: memory held only by
    reference cycles would otherwise wait for the UI timer's next full pass (up to a minute).
    No collection (False) when the application is gone, when the last requested one ended less
    than RECLAIM_SPACING times its own duration ago (the window stays responsive), or when the
    UI thread does not answer within ``timeout_s`` (it may be waiting for that very worker).
    """
    if threading.current_thread() is threading.main_thread():
        _full_collection()
        return True
    if not _COLLECTOR or not shiboken6.isValid(_COLLECTOR[0]):
        return False  # never in a worker: that is what the UI-thread collection avoids
    ended, took = _RECLAIMED
    if time.monotonic() - ended < RECLAIM_SPACING * took:
        return False
    done = threading.Event()
    try:
        _COLLECTOR[0].requested.emit(done)
    except RuntimeError:  # deleted between the check and the call
        return False
    return done.wait(timeout_s)


def settle() -> None:
    """Collect once, then leave what lives now out of every later full collection.

    Called when the window has started (its widgets, the modules, pyqtgraph, the timeline's
    plots: ~80,000 objects that live as long as the window). A full collection walked them all
    each time, ~30 ms of the UI thread (50 ms under load) once a big run had arrived; frozen
    (``gc.freeze``), it walks only what was made since. What they hold is still freed by
    reference counting; a cycle among them that dies later waits for the next ``settle`` (a
    new window: a language switch; a thaw, see :func:`keep_out`), which unfreezes first.
    """
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    _LAST_FULL[0], _PASSES[0], _KEPT_OUT[0] = time.monotonic(), 0, None


def _thaw() -> None:
    """A full pass of everything (``settle``); a big graph still shown stays kept out after it."""
    settle()
    if not _SMALL_SHOWN[0]:  # (frozen again with the rest: its later cycles wait for a thaw)
        _KEPT_OUT[0] = time.monotonic()


def keep_out(big: bool) -> None:
    """A graph is shown whole; a ``big`` one's objects are left out of later full passes.

    A full pass walks every object alive: with a 20,000-op graph shown, ~900,000, which froze
    the window for 270-430 ms once a minute. Frozen once shown (``gc.freeze``, after a young
    pass: no young garbage goes with them), they are still freed by reference counting when
    the graph goes (its items let go of each other as they are deleted, see
    ``graph/retire.py``: a replaced 20,000-op graph left 19 objects in cycles). Each full pass
    while they are out freezes what it found alive, so the next walks only what is new. What
    dies later in a cycle among them waits for a thaw, a full pass of everything: the first
    after KEEP_OUT_S with a small graph shown (~70 ms then, the window's own objects), or
    after THAW_ANYWAY_S whatever is shown.
    """
    _SMALL_SHOWN[0] = not big
    if big:
        gc.collect(1)
        gc.freeze()
        if _KEPT_OUT[0] is None:
            _KEPT_OUT[0] = time.monotonic()


def postpone_full_collection() -> None:
    """No full collection for the next FULL_GC_S (a big graph is being built: ~150 ms each)."""
    _LAST_FULL[0] = time.monotonic()


_QUEUED: list[Any] = [None]  # the queue of slices a collection waits in (None: none waits)


def _collect() -> None:
    """The timer's collection, now, or on a turn of its own if slices of work are under way.

    A collection (3-15 ms while a worker decodes a big run) in the pass of a 12 ms slice made
    25-30 ms turns.
    """
    if turns.crowded():
        queue = turns.turns()
        if _QUEUED[0] is not queue:  # (a queue gone with its application holds none)
            _QUEUED[0] = queue
            queue.later(_collect_queued)
        return
    _collect_now()


def _collect_queued() -> None:
    _QUEUED[0] = None
    _collect_now()


def _collect_now() -> None:
    """What automatic collection would have done by now: young garbage, now and then a full pass.

    CPython runs a full collection only when the long-lived objects grew by a quarter since the
    last one; that count is not visible from Python, so full passes are spaced in time instead.
    The two young generations are collected together (see below); a full pass waits until no
    job runs (a big result decoding in the pool would double its 50-150 ms), for at most
    FULL_WAIT_S (jobs back to back).
    """
    counts, thresholds = gc.get_count(), gc.get_threshold()
    if counts[0] > thresholds[0]:  # (CPython counts every pass, an idle tick's too: not those)
        _PASSES[0] += 1
    now = time.monotonic()
    if _PASSES[0] > thresholds[2] and now - _LAST_FULL[0] >= FULL_GC_S:
        if busy() and _FULL_DUE[0] is None:
            _FULL_DUE[0] = now  # put off while jobs run ...
        if not busy() or now - (_FULL_DUE[0] or now) >= FULL_WAIT_S:  # ... but not for ever
            _LAST_FULL[0], _FULL_DUE[0], _PASSES[0] = now, None, 0
            kept = _KEPT_OUT[0]
            held = now - kept if kept is not None else 0.0
            if held >= THAW_ANYWAY_S or (held >= KEEP_OUT_S and _SMALL_SHOWN[0]):
                _thaw()  # what big graphs left frozen is collected now
            else:
                gc.collect(2)
                if kept is not None:  # its survivors join the big graph's: walked once
                    gc.freeze()
            memory.trim()
            return
    # Both young generations in one pass, each time: a pass then costs what was allocated
    # since the last one. Left to pile up over ten passes while a worker decodes a big run,
    # the middle generation took 20-40 ms to collect on the UI thread. Each tick, whatever
    # the count says: every object freed counts one off it, so while a replaced graph was
    # freed the count read ~0 with a new graph's million objects young, and the pass that
    # came at last took 90-120 ms (an empty pass costs a microsecond).
    gc.collect(1)
