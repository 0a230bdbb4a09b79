"""The wall-time limit ends a run within half a second of its time, in Python code or in C.

The run's own checks stop Python code at the limit; C code that never comes back to them
(``x += range(...)`` extends a list inside one C call) is ended by the operating system: the
worker arms a real-time timer whose SIGALRM keeps its default action. Before, the window's
backstop killed such a run 2 s late (12 s against a 10 s limit).
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import pytest

from tapeviz.sandbox import Limits, run
from tapeviz.sandbox.process.client import Pool
from tapeviz.sandbox.process.isolated import run_isolated
from tapeviz.sandbox.runtime import limits as run_limits

IN_C = {
    "+= a range": "x = []\nx += range(5 * 10**7)\n",
    "|= zip": "d = {}\nd |= zip(range(5 * 10**7), range(5 * 10**7))\n",
    "sorted of a big range": "y = 1\nx = sorted(range(3 * 10**7), reverse=True)\n",
}
LIMIT = 1.5
SLACK = 0.5 + 0.35  # the promise, and a loaded CI machine's scheduling and pipe round trip


@pytest.mark.parametrize("name", list(IN_C))
def test_a_run_in_c_code_ends_within_half_a_second_of_its_limit(pool: Pool, name: str) -> None:
    run_isolated("1", pool=pool)  # a warm worker: the time below is the run's own
    started = time.monotonic()
    result = run_isolated(IN_C[name], pool=pool, limits=Limits(wall_time=LIMIT))
    took = time.monotonic() - started
    assert result.error is not None
    if result.error.kind == "refused" or result.error.limit != "wall time":
        return  # refused or stopped by another limit first: never late either
    assert took < LIMIT + SLACK, f"{name}: ended after {took:.2f} s for a {LIMIT} s limit"
    assert "time limit" in result.error.message
    assert result.error.line == IN_C[name].count("\n")  # the line that was running
    healthy = run_isolated("x = 2\nx * 3", pool=pool)
    assert healthy.error is None and float(healthy.value) == 6


def test_a_run_that_finishes_in_time_is_never_killed(pool: Pool) -> None:
    script = "import numpy as np\nfor i in range(30):\n    np.sort(np.random.rand(10**5))\n"
    for _ in range(3):
        result = run_isolated(script, pool=pool, limits=Limits(wall_time=LIMIT))
        assert result.error is None, result.error


def test_the_window_never_arms_the_timer() -> None:
    assert run_limits.HARD_GRACE == []  # only the worker process sets it
    before = signal.getitimer(signal.ITIMER_REAL)[0]  # (pytest-timeout's own, if any)
    result = run("x = 1\nfor i in range(10):\n    x = x + i\n", limits=Limits(wall_time=0.5))
    assert result.error is None
    after = signal.getitimer(signal.ITIMER_REAL)[0]
    assert (before == 0) == (after == 0) and after <= before


DEADLINES = textwrap.dedent(
    """
    import signal, time
    from tapeviz.sandbox.runtime import limits
    limits.HARD_GRACE[:] = [0.1]
    with limits.hard_deadline(5.0):
        with limits.hard_deadline(0.2):
            inner = signal.getitimer(signal.ITIMER_REAL)[0]
        outer = signal.getitimer(signal.ITIMER_REAL)[0]
    after = signal.getitimer(signal.ITIMER_REAL)[0]
    with limits.hard_deadline(0.5):
        with limits.hard_deadline(9.0):  # an inner block never extends the outer deadline
            kept = signal.getitimer(signal.ITIMER_REAL)[0]
    print(round(inner, 1), round(outer), after, kept <= 0.6, flush=True)
    with limits.hard_deadline(0.2):
        time.sleep(5)
    print("not ended")
    """
)


def test_nested_deadlines_keep_the_earliest_and_the_kernel_ends_the_process() -> None:
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", DEADLINES], capture_output=True, text=True, timeout=30
    )
    assert done.stdout.split("\n")[0] == "0.3 5 0.0 True", done.stderr
    assert "not ended" not in done.stdout
    assert done.returncode == -14  # SIGALRM
    assert time.monotonic() - started < 5
