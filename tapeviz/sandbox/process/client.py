"""The window's side of the process wall: worker processes, requests, Stop, crashes, restarts.

``POOL.call(op, args)`` sends a request to a warm worker and blocks the calling thread (never
the UI thread: the window calls it from its thread pool) until the answer, a crash, a time
limit or a Stop. A worker that crashed, was killed, or stopped answering is replaced; one
spare is kept warm so the next keystroke never waits for a process to start.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import mmap
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tapeviz
from tapeviz.sandbox.process import wire
from tapeviz.sandbox.process.wire import Frame, ProtocolError, Writer

STOP_GRACE = 0.3  # seconds a cancelled request may take to stop itself before the kill
WALL_GRACE = 2.0  # seconds past a request's own time limit before the kill
SNAPSHOT_TIME = 10.0  # seconds one snapshot may add to a request's deadline, at most
START_TIMEOUT = 60.0
# Seconds after the last idle worker is taken before a spare joins it: a new worker's start
# takes a core for ~1 s, which slowed the run that took the worker on a 2-core machine.
SPARE_DELAY_S = 1.0
RETIRE_SHARE = 0.25  # an idle worker grown by this share of the memory limit is let go
SIGNALS = {
    signal.SIGSEGV: "segmentation fault",
    signal.SIGBUS: "bus error",
    signal.SIGABRT: "aborted",
    signal.SIGFPE: "floating-point exception",
    signal.SIGILL: "illegal instruction",
    signal.SIGKILL: "killed",
}
if hasattr(signal, "SIGXCPU"):
    SIGNALS[signal.SIGXCPU] = "CPU time limit"
HARD_KILL = "wall time limit"  # a run's own wall time, ended by the kernel (limits.hard_deadline)
if hasattr(signal, "SIGALRM"):
    SIGNALS[signal.SIGALRM] = HARD_KILL
TIME_SIGNALS = tuple(getattr(signal, n) for n in ("SIGXCPU", "SIGALRM") if hasattr(signal, n))
_serial = itertools.count(1)


class WorkerFailure(Exception):
    """A request that ended without an answer: ``reason`` is crash, time, stop, protocol, gone."""

    def __init__(
        self, reason: str, message: str, line: int | None = None, started: bool = True
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.line = line
        self.started = started  # False: the worker died before it began (retry elsewhere)


class Worker:
    """One worker process and its pipes; one request at a time."""

    def __init__(self, handlers: tuple[str, ...], memory_mb: int) -> None:
        self.serial = next(_serial)
        self.memory_mb = memory_mb
        self.folder = Path(tempfile.mkdtemp(prefix="tapeviz-worker-"))
        self.where = self.folder / ".where"
        self.where.write_bytes(b"\0" * 8)
        self._where_map: mmap.mmap | None = None
        root = str(Path(tapeviz.__file__).resolve().parents[1])
        env = {
            "PATH": os.defpath,
            "PYTHONPATH": root,
            "PYTHONNOUSERSITE": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONHASHSEED": "0",
            "LC_ALL": "C.UTF-8",
            "OMP_NUM_THREADS": "1",
            "OPENBLAS_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
            "TAPEVIZ_ID_BASE": str(self.serial << 40),
            "TAPEVIZ_WHERE": str(self.where),
            "TAPEVIZ_MEMORY_MB": str(memory_mb),
            "HOME": str(self.folder),
            "TMPDIR": str(self.folder),
        }
        if sys.platform == "win32":
            env["SYSTEMROOT"] = os.environ.get("SYSTEMROOT", "")
        self.proc = subprocess.Popen(
            [sys.executable, "-s", "-m", "tapeviz.sandbox.process.server", *handlers],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=self.folder,
            env=env,
            close_fds=True,
            bufsize=0,
        )
        assert self.proc.stdout is not None
        self.inbox = wire.Inbox(self.proc.stdout.fileno())
        self._closed: str | None = None
        self.ready = False
        self.base_mb: float | None = None  # its address space once started (see Pool._bloated)
        self.requests = 0
        self._ids = itertools.count(1)
        self.stderr: deque[bytes] = deque(maxlen=200)
        threading.Thread(target=self._read_err, name="tapeviz-worker-err", daemon=True).start()

    # -- pipes -----------------------------------------------------------------------------
    def _recv(self, timeout: float) -> Frame | None:
        """The next frame (None on timeout); marks the worker closed when the pipe ends."""
        if self._closed is not None:
            return None
        try:
            frame = self.inbox.recv(timeout)
        except wire.Closed:
            self._closed = "closed"
            return None
        except (ProtocolError, OSError, ValueError) as exc:
            self._closed = f"protocol: {exc}"
            self.kill()
            return None
        if frame is not None and isinstance(frame.doc, dict) and frame.doc.get("ready") is True:
            self.ready = True
            self.base_mb = address_mb(self.proc.pid)  # (started: before it ran anything)
            return None
        return frame

    def _read_err(self) -> None:
        stream = self.proc.stderr
        assert stream is not None
        try:
            for line in iter(stream.readline, b""):
                self.stderr.append(line[:2000])
        except (OSError, ValueError):  # closed by close()
            pass

    @property
    def alive(self) -> bool:
        """Whether the process is running and its pipe open."""
        return self._closed is None and self.proc.poll() is None

    def wait_ready(self, timeout: float = START_TIMEOUT) -> bool:
        """Block until the worker has started (imports done)."""
        deadline = time.monotonic() + timeout
        while not self.ready and self._closed is None and time.monotonic() < deadline:
            self._recv(min(0.1, max(deadline - time.monotonic(), 0.0)))
        return self.ready and self._closed is None

    def _send(self, doc: Any, writer: Writer | None = None) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        with contextlib.suppress(OSError, ValueError):  # a closed pipe shows up on reading
            wire.write(stdin, doc, writer)

    def kill(self) -> None:
        """End the process now."""
        with contextlib.suppress(OSError):
            self.proc.kill()

    def close(self) -> None:
        """End the process and remove its folder."""
        self.kill()
        if self._where_map is not None:
            self._where_map.close()
            self._where_map = None
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(5)
        shutil.rmtree(self.folder, ignore_errors=True)

    # -- requests --------------------------------------------------------------------------
    def call(
        self,
        op: str,
        args: Any,
        writer: Writer | None = None,
        *,
        timeout: float = 10.0,
        cancelled: Callable[[], bool] | None = None,
        progress: Callable[[float], None] | None = None,
        snapshot: Callable[[Frame], None] | None = None,
    ) -> Frame:
        """Send a request and wait for its answer (see :class:`WorkerFailure`).

        ``snapshot`` gets a streamed run's snapshots (frames whose ``snapshot`` part is a
        result); the time the worker spent encoding one moves the deadline.
        """
        if not self.wait_ready():
            failure = self._failure(None)
            failure.started = False
            raise failure
        rid = next(self._ids)
        self.requests += 1
        self._reset_where()
        self._send({"id": rid, "op": op, "args": args}, writer)
        deadline = time.monotonic() + timeout
        stop_at: float | None = None
        while True:
            frame = self._recv(0.02)
            if frame is not None:
                doc = frame.doc
                if not isinstance(doc, dict) or doc.get("id") != rid:
                    continue  # a late answer to an abandoned request
                if "progress" in doc:
                    if progress is not None and isinstance(doc["progress"], float | int):
                        progress(min(max(float(doc["progress"]), 0.0), 1.0))
                    continue
                if "snapshot" in doc:
                    took = doc.get("took")
                    if type(took) is float and 0.0 <= took <= SNAPSHOT_TIME:
                        deadline += took
                    if snapshot is not None and stop_at is None:
                        snapshot(frame)
                    continue
                if doc.get("ok") is True:
                    return frame
                kind = doc.get("error")
                message = str(doc.get("message", ""))[:2000]
                raise WorkerFailure("memory" if kind == "memory" else "internal", message)
            if self._closed is not None:
                failure = self._failure(stop_at)
                failure.started = self._began() == rid
                raise failure
            now = time.monotonic()
            if stop_at is None and cancelled is not None and cancelled():
                self._interrupt()
                stop_at = now + STOP_GRACE
            if stop_at is not None and now > stop_at:
                self.kill()
                self._wait_closed()
                raise WorkerFailure("stop", "stopped by the user")
            if now > deadline:
                self.kill()
                self._wait_closed()
                raise WorkerFailure("time", f"the run took longer than {timeout:g} s")

    def _interrupt(self) -> None:
        """Ask the running request to stop at its next statement (SIGUSR1; see server.py)."""
        sig = getattr(signal, "SIGUSR1", None)
        if sig is None or self.proc.poll() is not None:
            return
        with contextlib.suppress(OSError):
            os.kill(self.proc.pid, sig)

    def _reset_where(self) -> None:
        if self._where_map is None:
            try:
                with open(self.where, "r+b") as f:  # mapped: the worker writes it in place
                    self._where_map = mmap.mmap(f.fileno(), 8)
            except (OSError, ValueError):
                return
        self._where_map[0:8] = b"\0" * 8

    def _wait_closed(self) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(2.0)

    def _began(self) -> int:
        """The request the worker last began (0 if unknown)."""
        if self._where_map is None:
            return 0
        return int.from_bytes(self._where_map[4:8], "little")

    def line(self) -> int | None:
        """The user's line the worker last reported (kept after a crash)."""
        if self._where_map is not None:
            value = int.from_bytes(self._where_map[0:4], "little")
        else:
            try:
                value = int.from_bytes(self.where.read_bytes()[:4], "little")
            except OSError:
                return None
        return value or None

    def _failure(self, stop_at: float | None) -> WorkerFailure:
        self._wait_closed()
        code = self.proc.poll()
        line = self.line()
        if stop_at is not None:
            return WorkerFailure("stop", "stopped by the user", line)
        if code is not None and code < 0:
            name = SIGNALS.get(signal.Signals(-code), signal.Signals(-code).name)
            reason = "time" if -code in TIME_SIGNALS else "crash"
            return WorkerFailure(reason, name, line)
        tail = b"".join(self.stderr).decode("utf-8", "replace")
        if "MemoryError" in tail:
            return WorkerFailure("memory", "out of memory", line)
        return WorkerFailure("crash", f"the worker exited (status {code})", line)


class Pool:
    """Warm workers for any thread: ``call`` takes an idle one (one spare stays warm)."""

    def __init__(self, handlers: tuple[str, ...] = (), spares: int = 1) -> None:
        self.handlers = tuple(handlers)
        self.spares = spares
        self.memory_mb = 800
        self._lock = threading.Lock()
        self._idle: list[Worker] = []
        self._busy: list[Worker] = []
        self._closed = False
        self._affine: dict[str, Worker] = {}  # the worker that last served an affinity key
        self.values_token: str | None = None  # the last run's kept values (see summaries.py)

    def configure(
        self, handlers: tuple[str, ...] | None = None, memory_mb: int | None = None
    ) -> None:
        """Change the handler modules or the memory limit (idle workers are replaced)."""
        with self._lock:
            changed = (handlers is not None and tuple(handlers) != self.handlers) or (
                memory_mb is not None and memory_mb != self.memory_mb
            )
            if handlers is not None:
                self.handlers = tuple(handlers)
            if memory_mb is not None:
                self.memory_mb = int(memory_mb)
            old = self._idle if changed else []
            if changed:
                self._idle = []
        for w in old:
            w.close()

    def require(self, module: str) -> None:
        """Make workers load handler module ``module`` (idle workers without it are replaced)."""
        if module not in self.handlers:
            self.configure(handlers=(*self.handlers, module))

    def warm(self) -> None:
        """Start a spare worker now if there is none (call at startup)."""
        with self._lock:
            if not self._closed and len(self._idle) < self.spares:
                self._idle.append(Worker(self.handlers, self.memory_mb))

    def _acquire(self, affinity: str | None = None) -> Worker:
        with self._lock:
            if self._closed:
                raise WorkerFailure("crash", "the application is closing")
            heavy = affinity == "run"  # (a run drops the last run's kept values anyway)
            for dead in [w for w in self._idle if not w.alive or w.memory_mb != self.memory_mb
                         or (heavy and self._bloated(w))]:  # fmt: skip
                self._idle.remove(dead)
                dead.close()
            ready = [w for w in self._idle if w.ready]  # a started one before one still starting
            last = self._affine.get(affinity) if affinity is not None else None
            if last is not None and last in ready:
                ready.insert(0, last)  # the worker that keeps this key's caches
            if ready or self._idle:
                w = (ready or self._idle)[0]
                self._idle.remove(w)
            else:
                w = Worker(self.handlers, self.memory_mb)
            self._busy.append(w)
            spare = len(self._idle) < self.spares
        if spare:
            timer = threading.Timer(SPARE_DELAY_S, self._replenish)
            timer.daemon = True
            timer.start()
        return w

    def _bloated(self, w: Worker) -> bool:
        """Whether ``w`` kept so much of its last runs that a run would not have its memory.

        The memory limit is the worker's address space at its start plus the limit: a worker
        still holding 600 MB of a heavy run's memory (freed memory the allocator keeps counts)
        failed the same script run again at once ("more than 800 MB of memory"). Such a
        worker is let go before a run (which drops the last run's kept values in any case);
        a fresh one runs it.
        """
        base = w.base_mb
        now = address_mb(w.proc.pid) if base is not None else None
        return base is not None and now is not None and now - base > self.memory_mb * RETIRE_SHARE

    def _replenish(self) -> None:
        """Start the spare a worker taken ``SPARE_DELAY_S`` ago needs, if it still needs one.

        One beside the workers there are (busy or back idle): what starting it when the worker
        was taken gave, without taking a core from the run that took it.
        """
        with self._lock:
            if not self._closed and len(self._idle) + len(self._busy) < self.spares + 1:
                self._idle.append(Worker(self.handlers, self.memory_mb))

    def _release(self, w: Worker) -> None:
        with self._lock:
            if w in self._busy:
                self._busy.remove(w)
            keep = w.alive and not self._closed and len(self._idle) < self.spares + 1
            if keep:
                self._idle.append(w)
            else:
                self._affine = {k: v for k, v in self._affine.items() if v is not w}
        if not keep:
            w.close()

    def call(
        self,
        op: str,
        args: Any,
        writer: Writer | None = None,
        affinity: str | None = None,
        **kw: Any,
    ) -> Frame:
        """Run one request in a worker (see :meth:`Worker.call`).

        A worker that died before it began the request (killed while idle) is replaced and
        the request sent again (a few times: every idle worker may have been killed). Requests
        with the same ``affinity`` go to the same worker while it is idle (its caches).
        """
        for attempt in (1, 2, 3, 4):
            w = self._acquire(affinity)
            if affinity is not None:
                with self._lock:
                    self._affine[affinity] = w
            try:
                return w.call(op, args, writer, **kw)
            except WorkerFailure as exc:
                if exc.started or attempt == 4 or exc.reason == "stop":
                    raise
            finally:
                self._release(w)
        raise AssertionError("unreachable")

    def call_on(self, pid: int, op: str, args: Any, *, timeout: float = 30.0) -> Frame:
        """Run one request in the worker whose process is ``pid`` (once it is idle).

        For what that worker alone holds (a run's kept values). ``WorkerFailure("gone")`` when
        the pool has no such worker, or it stays busy past ``timeout``.
        """
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                mine = [w for w in self._idle + self._busy if w.proc.pid == pid and w.alive]
                if mine and mine[0] in self._idle:
                    self._idle.remove(mine[0])
                    self._busy.append(mine[0])
                    break
            if not mine or time.monotonic() > deadline:
                raise WorkerFailure("gone", "the worker is gone", started=False)
            time.sleep(0.02)
        try:
            return mine[0].call(op, args, timeout=max(deadline - time.monotonic(), 1.0))
        finally:
            self._release(mine[0])

    def shutdown(self) -> None:
        """Stop every worker (the application is closing)."""
        with self._lock:
            self._closed = True
            workers = self._idle + self._busy
            self._idle, self._busy, self._affine = [], [], {}
        for w in workers:
            w.close()

    def restart(self) -> None:
        """Allow new workers again after :meth:`shutdown` (tests, a rebuilt window)."""
        with self._lock:
            self._closed = False


def address_mb(pid: int) -> float | None:
    """Process ``pid``'s address space, MB (what its memory limit counts; None: unknown)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[0]) * PAGE / 2**20
    except (OSError, ValueError, IndexError):
        return None


PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
POOL = Pool()
atexit.register(POOL.shutdown)  # no worker outlives the application
