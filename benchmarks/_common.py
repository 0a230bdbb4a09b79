"""What every benchmark script shares: best-of timing and the correctness guard."""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable
from typing import Any


def best_of(fn: Callable[[], Any], repeats: int, gc_on: bool = True) -> float:
    """Best wall time of ``repeats`` calls of ``fn``, in seconds (a collection before each)."""
    best = float("inf")
    enabled = gc.isenabled()  # off where tapeviz.ui.workers collects on the UI thread: keep it
    for _ in range(repeats):
        gc.collect()
        if not gc_on:
            gc.disable()
        try:
            t0 = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - t0)
        finally:
            if enabled:
                gc.enable()
    return best


def check(ok: bool, what: str) -> None:
    """Abort the benchmark (exit 1) when a workload computed a wrong answer."""
    if not ok:
        sys.exit(f"CORRECTNESS FAILURE: {what}; benchmark aborted")
