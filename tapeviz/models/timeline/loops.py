"""Loops in a run: stretches of tapes whose structure repeats with a short period.

A loop that records one tape per iteration repeats with period 1; one with nested tapes (an
outer and an inner tape each iteration) with period 2, and so on. The scan is greedy from the
first tape: at each position it takes the period that covers the most tapes in whole steps
(the smaller period on a tie), if that makes at least :data:`MIN_STEPS` steps; otherwise the
tape stays on its own. A few unrelated tapes therefore make no loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

MIN_STEPS = 3  # iterations before a repetition counts as a loop
MAX_PERIOD = 8  # tapes recorded per iteration, at most


class Loop(NamedTuple):
    """Tapes ``start`` to ``start + period·steps`` (exclusive), ``period`` per step."""

    start: int
    period: int
    steps: int

    @property
    def stop(self) -> int:
        """One past the loop's last tape."""
        return self.start + self.period * self.steps


def _run_lengths(codes: np.ndarray, p: int) -> np.ndarray:
    """For each tape i, how many j ≥ i in a row have ``codes[j] == codes[j + p]``."""
    n = len(codes)
    out = np.zeros(n, np.int64)
    if n <= p:
        return out
    same = codes[:-p] == codes[p:]
    breaks = np.append(np.flatnonzero(~same), len(same))  # the end counts as a break
    stop = breaks[np.searchsorted(breaks, np.arange(len(same)))]
    out[: len(same)] = stop - np.arange(len(same))
    return out


def find_loops(
    codes: np.ndarray,
    usable: Callable[[int, int], bool] = lambda start, period: True,
    min_steps: int = MIN_STEPS,
    max_period: int = MAX_PERIOD,
) -> list[Loop]:
    """The loops among tapes with structure ``codes``, in order, not overlapping.

    ``usable(start, period)`` may refuse a candidate (for example one whose steps ask for no
    gradient); the scan then tries the next period.
    """
    codes = np.asarray(codes, np.int64)
    n = len(codes)
    runs = [_run_lengths(codes, p) for p in range(1, max_period + 1)]
    loops: list[Loop] = []
    i = 0
    while i < n:
        best: Loop | None = None
        for p in range(1, max_period + 1):
            steps = (int(runs[p - 1][i]) + p) // p
            if steps < min_steps or i + steps * p > n:
                continue
            if (best is None or steps * p > best.steps * best.period) and usable(i, p):
                best = Loop(i, p, steps)
        if best is None:
            i += 1
            continue
        loops.append(best)
        i = best.stop
    return loops
