"""A worker is warm when it says ready: a user's first run pays no imports, and its spare
starts only after the run that took the last idle worker had a second to itself."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from tapeviz.sandbox.process import client
from tapeviz.sandbox.process.client import Pool

FIRST_RUN = """
import sys
from tapeviz.sandbox.process import server
server._warm_up()
before = set(sys.modules)
from tapeviz.sandbox import run
result = run(
    "import tensorflow as tf\\nimport numpy as np\\nx = tf.Variable(1.0)\\n"
    "with tf.GradientTape() as t:\\n    y = tf.square(x) * np.float32(2.0)\\n"
    "print(t.gradient(y, x))\\n"
)
assert result.error is None, result.error
print(sorted(m for m in set(sys.modules) - before if m.startswith("tapeviz")))
"""


def test_a_warm_worker_s_first_tape_run_imports_nothing_more() -> None:
    """Before, the first run in a fresh worker imported the runtime (~0.65 s of a run)."""
    out = subprocess.run([sys.executable, "-c", FIRST_RUN], capture_output=True, text=True,
                         timeout=120, check=True)  # fmt: skip
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stdout


def test_the_server_warms_up_before_it_limits_memory_and_says_ready() -> None:
    import inspect

    from tapeviz.sandbox.process import server

    main = inspect.getsource(server.main)
    assert main.index("_warm_up()") < main.index("_os_limits(") < main.index("serve(")


def _workers(pool: Pool) -> int:
    with pool._lock:
        return len(pool._idle) + len(pool._busy)


def test_a_spare_starts_after_the_delay_not_beside_a_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(client, "SPARE_DELAY_S", 0.6)
    pool = Pool()
    try:
        pool.warm()
        assert pool._idle[0].wait_ready(60)
        pool.call("ping", {}, timeout=60)  # took the only idle worker, gave it back
        assert _workers(pool) == 1  # no spare started beside it
        deadline = time.monotonic() + 60
        while _workers(pool) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _workers(pool) == 2  # one beside it, once the delay passed
        pool.call("ping", {}, timeout=60)
        time.sleep(1.0)
        assert _workers(pool) == 2  # (a spare was idle: none more)
    finally:
        pool.shutdown()
