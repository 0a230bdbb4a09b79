"""Resource limits of a run, and the budget a running script spends against them."""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tapeviz.sandbox.errors import Stop, limit_hit
from tapeviz.sandbox.messages import Message, Note, say
from tapeviz.sandbox.runtime.kept_tapes import KeptTapes, held_bytes


@dataclass(frozen=True)
class Limits:
    """Resource limits: defaults a lecturer never hits by accident; raise them in settings."""

    wall_time: float = 10.0  # seconds for the whole run (the seed regressions take 2-3 s)
    max_steps: int = 5_000_000  # statements executed plus loop iterations
    max_depth: int = 100  # nested calls of the user's own functions
    max_elements: int = 10_000_000  # elements in one tensor, array, list or string
    max_int_bits: int = 100_000  # bits of an integer result (10**10**10 has 3.3e10)
    max_output: int = 1_000_000  # characters printed
    max_tapes: int = 100_000  # GradientTapes kept in the result
    max_flops: int = 2_000_000_000  # multiply-adds of one matrix product
    max_memory_mb: int = 800  # growth of the process's resident memory during the run


BIG = 1_000_000  # elements: allocations this large check the memory budget first
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_RECLAIMER: list[Callable[[], bool]] = []
# Where the run is: a ctypes integer in memory the parent process reads if this one crashes
# (set by the worker process; every statement stores its line there).
WHERE: list[Any] = []
# Seconds past a run's wall time after which the operating system ends the worker (set by the
# worker process only: in the window a run never arms it). The run's own checks stop Python
# code at the limit; this ends C code that never returns to them (``x += range(10**9)``).
HARD_GRACE: list[float] = []


@contextlib.contextmanager
def hard_deadline(seconds: float) -> Iterator[None]:
    """End the process ``seconds`` + the grace from now unless the block has left by then.

    A real-time timer whose SIGALRM has its default action: the kernel ends the process, with
    no Python code (and no lock C code may hold) in the way. Nested blocks keep the earliest
    deadline; leaving a block restores the outer one.
    """
    if not HARD_GRACE or not hasattr(signal, "setitimer") or seconds <= 0:
        yield
        return
    outer, _ = signal.getitimer(signal.ITIMER_REAL)
    entered = time.monotonic()
    mine = seconds + HARD_GRACE[0]
    signal.setitimer(signal.ITIMER_REAL, min(mine, outer) if outer else mine)
    try:
        yield
    finally:
        if outer:
            left = outer - (time.monotonic() - entered)
            signal.setitimer(signal.ITIMER_REAL, max(left, 0.001))
        else:
            signal.setitimer(signal.ITIMER_REAL, 0)


SNAPSHOT_FIRST_S = 0.08  # a streamed run's first snapshot, seconds after it started


def extend_hard_deadline(seconds: float) -> None:
    """Move an armed :func:`hard_deadline` ``seconds`` later (time the script did not spend)."""
    if seconds <= 0 or not HARD_GRACE or not hasattr(signal, "setitimer"):
        return
    left, _ = signal.getitimer(signal.ITIMER_REAL)
    if left:
        signal.setitimer(signal.ITIMER_REAL, left + seconds)


def set_reclaimer(collect: Callable[[], bool] | None) -> Callable[[], bool] | None:
    """How a run over its memory limit collects garbage before failing (None: in place).

    An application whose automatic garbage collection is off (the window collects in its UI
    thread) sets a function that has that thread collect and returns whether it did. Returns
    the previous one.
    """
    previous = _RECLAIMER[0] if _RECLAIMER else None
    _RECLAIMER[:] = [] if collect is None else [collect]
    return previous


def reclaim() -> bool:
    """Collect cyclic garbage the way the application allows; whether a collection ran.

    Then hand freed heap memory back to the system (glibc keeps it otherwise, so the resident
    size the memory check reads would not go down).
    """
    if _RECLAIMER:
        collected = _RECLAIMER[0]()
    elif gc.isenabled():  # collection may run in this thread anyway
        gc.collect()
        collected = True
    else:
        return False
    if collected:
        _trim_heap()
    return collected


def _trim_heap() -> None:
    """Give freed heap memory back to the system (glibc's ``malloc_trim``, where it exists)."""
    if not _LIBC:
        try:
            import ctypes

            _LIBC.append(ctypes.CDLL("libc.so.6").malloc_trim)
        except (ImportError, OSError, AttributeError):
            _LIBC.append(None)
    trim = _LIBC[0]
    if trim is not None:
        trim(0)


_LIBC: list[Any] = []


_STATM: dict[int, int] = {}  # pid -> open descriptor of /proc/self/statm (read by pread)
_STATM_LOCK = threading.Lock()


def _statm() -> int:
    """An open /proc/self/statm of the calling process (a forked child opens its own)."""
    pid = os.getpid()
    fd = _STATM.get(pid)
    if fd is None:
        with _STATM_LOCK:
            fd = _STATM.get(pid)
            if fd is None:
                for inherited in _STATM.values():
                    os.close(inherited)
                _STATM.clear()
                # /proc/self, not /proc/<pid>: in a PID namespace the two differ.
                fd = _STATM[pid] = os.open("/proc/self/statm", os.O_RDONLY | os.O_CLOEXEC)
    return fd


def resident_bytes() -> int:
    """The process's resident memory now (Linux), else its peak so far; 0 if unknown."""
    try:
        return int(os.pread(_statm(), 128, 0).split()[1]) * _PAGE
    except (OSError, ValueError, IndexError, AttributeError):
        pass
    try:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024
    except (ImportError, OSError):
        return 0


class CancelToken:
    """Stops a running script from another thread (the UI's Stop button)."""

    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        """Ask the run to stop at its next statement."""
        self.cancelled = True


@dataclass
class Budget:
    """What a run has spent: steps, call depth, output; checked as the script runs."""

    limits: Limits
    cancel: CancelToken
    started: float = field(default_factory=time.perf_counter)
    steps: int = 0
    next_check: int = 0
    depth: int = 0
    output: list[str] = field(default_factory=list)
    output_len: int = 0
    notes: list[str] = field(default_factory=list)  # advice shown beside the output
    tape_names: dict[int, list[str]] = field(default_factory=dict)  # id(tape) -> bound names
    # The run's tapes so far (the runner sets it); each write notes how many there were then.
    tapes: KeptTapes | None = None
    tapes_capped: bool = False  # the kept tapes were capped to stay within the memory limit
    # (offset in the output, tapes created) whenever output is written after a new tape: the
    # output from ``offset`` on was written once that many tapes existed (a line ↔ a step).
    output_marks: list[tuple[int, int]] = field(default_factory=list)
    tripped: Stop | None = None  # the limit (or cancel) that ended the run
    memory_start: int = field(default_factory=resident_bytes)
    memory_checked: float = field(default_factory=time.perf_counter)
    where: Any = field(default_factory=lambda: WHERE[0] if WHERE else None)
    # A streamed run: what to call now and then (the run so far to the window), and when next.
    snapshot: Callable[[], None] | None = None
    next_snapshot: float = 0.0
    snapshot_every: float | None = None  # a fixed gap between snapshots (None: 3x the age)

    def note(self, text: Message | str) -> None:
        """Add a note for the user once (a :class:`Message`: said in the window's language)."""
        note = text if isinstance(text, Note) else Note(text)
        if note not in self.notes:
            self.notes.append(note)

    def check(self, line: int | None = None) -> None:
        """Called every few steps: cancellation, step count and wall time.

        Once a limit has stopped the run, every later check raises at once, so ``finally``
        blocks and ``__exit__`` handlers in user code cannot keep it running.
        """
        if self.tripped is not None:
            raise self.tripped
        self.next_check = self.steps + 16
        err: Stop | None = None
        if self.cancel.cancelled:
            err = Stop(say("stopped"), "cancelled")
        elif self.steps > self.limits.max_steps:
            err = limit_hit("steps", say("steps", cap=f"{self.limits.max_steps:,}"))
        else:
            now = time.perf_counter()
            if now - self.started > self.limits.wall_time:
                err = limit_hit(
                    "wall time",
                    say("wall_time", seconds=f"{self.limits.wall_time:g}"),
                    say("hint_endless_loop"),
                )
            elif now - self.memory_checked > 0.01:  # reading the RSS costs a few µs: throttle
                self.check_memory()
            if self.snapshot is not None and now >= self.next_snapshot:
                self.take_snapshot(now)
        if err is not None:
            raise self.trip(err, line)

    def take_snapshot(self, now: float) -> None:
        """Send the run so far; its time is not the script's (the deadlines move by it).

        Snapshots come at 3x the run's age (0.08 s, 0.24 s, 0.72 s, 2.2 s, ...): encoding them
        costs about half what encoding the final result does, however long the run.
        """
        send, self.snapshot = self.snapshot, None  # (never re-entered)
        assert send is not None
        try:
            send()
        except Exception:  # a snapshot is a courtesy: its failure never fails the run
            return  # (and no more snapshots of this run)
        finally:
            took = time.perf_counter() - now
            self.started += took
            extend_hard_deadline(took)
            gap = self.snapshot_every
            if gap is None:
                gap = 2 * max(now - self.started, SNAPSHOT_FIRST_S)
            self.next_snapshot = now + took + gap
        self.snapshot = send

    def trip(self, err: Stop, line: int | None = None) -> Stop:
        """Remember that the run is over: every later step raises ``err`` again."""
        if err.line is None:
            err.line = line
        self.tripped = err
        self.next_check = 0
        return err

    def write(self, text: str) -> None:
        """Append printed text, refusing more than ``max_output`` characters in all.

        Notes in ``output_marks`` how many tapes the run had created when the text was written.
        """
        tapes = self.tapes
        if tapes is not None and text:
            marks = self.output_marks
            if not marks or marks[-1][1] != tapes.total:  # (tapes not kept count too)
                marks.append((self.output_len, tapes.total))
        self.output_len += len(text)
        if self.output_len > self.limits.max_output:
            keep = len(text) - (self.output_len - self.limits.max_output)
            self.output.append(text[: max(0, keep)])
            raise self.trip(limit_hit("output", say("output", cap=f"{self.limits.max_output:,}")))
        self.output.append(text)

    def enter_call(self, name: str) -> None:
        """Count one more nested user-function call."""
        if self.tripped is not None:
            raise self.tripped
        if self.depth + 1 > self.limits.max_depth:
            raise self.trip(
                limit_hit(
                    "recursion",
                    say("recursion", name=name, cap=self.limits.max_depth),
                    say("hint_base_case"),
                )
            )
        self.depth += 1  # the caller decrements it in a finally block

    def check_memory(self) -> None:
        """Refuse to go on once the process has grown by more than ``max_memory_mb``.

        Over the limit, cyclic garbage is collected first: memory that only reference cycles
        hold is not the script's to account for (a script really over the limit still is, so
        it fails after one collection).
        """
        self.memory_checked = time.perf_counter()
        grown = (resident_bytes() - self.memory_start) // 2**20
        if self.memory_start and not self.tapes_capped and 2 * grown > self.limits.max_memory_mb:
            self._cap_tapes(grown)
        if not self.memory_start or grown <= self.limits.max_memory_mb:
            return
        if reclaim():
            grown = (resident_bytes() - self.memory_start) // 2**20
        if grown > self.limits.max_memory_mb:
            raise self.trip(
                limit_hit(
                    "memory",
                    say("memory_grown", grown=f"{grown:,}", cap=f"{self.limits.max_memory_mb:,}"),
                )
            )

    def _cap_tapes(self, grown_mb: int) -> None:
        """At half the memory limit: if the kept tapes hold most of it, keep no more of them.

        The run goes on; the tapes after these are counted but not kept (see ``KeptTapes``).
        """
        tapes = self.tapes
        if tapes is None or len(tapes) < 3:
            return
        self.tapes_capped = True  # (counting the tapes' bytes once is enough)
        held = held_bytes(tapes[:-1])
        if held < 0.4 * grown_mb * 2**20 or len(tapes) - 1 >= tapes.cap:
            return
        tapes.cap = len(tapes) - 1
        self.note(say("tapes_capped", kept=f"{tapes.cap:,}", mb=f"{held >> 20:,}"))

    def check_size(self, count: int, what: str) -> None:
        """Refuse a container or array of more than ``max_elements`` elements."""
        if count >= BIG:  # about to allocate a lot: is there memory left in the budget?
            self.check_memory()
        if count > self.limits.max_elements:
            raise self.trip(
                limit_hit(
                    "size",
                    say("size", what=what, count=f"{count:,}", cap=f"{self.limits.max_elements:,}"),
                )
            )

    def check_flops(self, count: int, what: str) -> None:
        """Refuse a single operation of more than ``max_flops`` multiply-adds."""
        if count > self.limits.max_flops:
            raise self.trip(
                limit_hit(
                    "work",
                    say("work", what=what, count=f"{count:,}", cap=f"{self.limits.max_flops:,}"),
                )
            )

    def check_int_bits(self, bits: int, what: str) -> None:
        """Refuse an integer of more than ``max_int_bits`` bits."""
        if bits > self.limits.max_int_bits:
            raise self.trip(
                limit_hit(
                    "integer size",
                    say(
                        "int_bits", what=what, bits=f"{bits:,}", cap=f"{self.limits.max_int_bits:,}"
                    ),
                )
            )
