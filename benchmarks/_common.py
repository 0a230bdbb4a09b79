"""What every benchmark script shares: best-of timing and the correctness guard."""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable
from typing import Any


def best_of(fn: Callable[[], Any], repeats: int, gc_on: bool = True, number: int = 1) -> float:
    """Best wall time per call of ``fn`` over ``repeats`` rounds of ``number`` calls, in seconds.

    A full collection runs before each round. Work of well under a millisecond is timed over
    several calls per round (see :func:`calls_for`): one call right after a collection mostly
    measures the caches the collection emptied.
    """
    best = float("inf")
    enabled = gc.isenabled()  # off where tapeviz.ui.workers collects on the UI thread: keep it
    for _ in range(repeats):
        gc.collect()
        if not gc_on:
            gc.disable()
        try:
            t0 = time.perf_counter()
            for _ in range(number):
                fn()
            best = min(best, (time.perf_counter() - t0) / number)
        finally:
            if enabled:
                gc.enable()
    return best


def calls_for(seconds: float, round_s: float = 0.02) -> int:
    """How many calls of work taking ``seconds`` fill a timing round of ``round_s``."""
    return max(1, int(round_s / max(seconds, 1e-9)))


def check(ok: bool, what: str) -> None:
    """Abort the benchmark (exit 1) when a workload computed a wrong answer."""
    if not ok:
        sys.exit(f"CORRECTNESS FAILURE: {what}; benchmark aborted")


def settled(pool: Any, timeout: float = 60.0) -> None:
    """Wait until the pool's spare worker has started: its start is not what a figure measures.

    A spare joins a second after the last idle worker is taken (``client.SPARE_DELAY_S``), and
    its start takes a core for about a second.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with pool._lock:
            idle = list(pool._idle)
        if len(idle) > pool.spares and all(w.wait_ready(timeout) for w in idle):
            return
        time.sleep(0.05)
