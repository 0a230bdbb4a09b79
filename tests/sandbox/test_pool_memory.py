"""A worker that kept much of a heavy run's memory is let go before the next run.

The memory limit is the worker's address space at its start plus the limit: a worker that
still held a heavy run's memory failed the same script run again at once ("more than 800 MB
of memory"), every time, until it happened to exit.
"""

from __future__ import annotations

import sys

import pytest

from tapeviz.sandbox import Limits
from tapeviz.sandbox.process.client import Pool
from tapeviz.sandbox.process.isolated import run_isolated

HEAVY = """import tensorflow as tf
w = tf.Variable(tf.random.normal([200, 200]) * 0.01)
x = tf.random.normal([200, 200])
opt = tf.keras.optimizers.SGD(0.01)
for step in range(150):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
    opt.apply_gradients([(tape.gradient(loss, w), w)])
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc tells a worker's size")
def test_a_heavy_script_runs_again_and_again_with_its_whole_memory() -> None:
    pool = Pool()
    pool.configure(memory_mb=300)
    limits = Limits(wall_time=60, max_memory_mb=300)
    try:
        pids = []
        for _ in range(3):
            result = run_isolated(HEAVY, limits=limits, pool=pool)
            assert result.error is None, result.error.message  # (the 2nd failed before)
            assert len(result.tapes) > 50  # (kept until half the memory: the run goes on)
            pids.append(pool._affine["run"].proc.pid)
        assert len(set(pids)) > 1  # a grown worker let go, a fresh one ran
    finally:
        pool.shutdown()
