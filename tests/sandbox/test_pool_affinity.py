"""Requests with an affinity key go to the worker that served the key before (its caches)."""

from __future__ import annotations

import time

from tapeviz.sandbox.process.client import Pool, Worker


def _wait_two_ready(pool: Pool) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with pool._lock:
            idle = list(pool._idle)
        if len(idle) >= 2 and all(w.wait_ready(30) for w in idle):  # reads their "ready"
            return
        time.sleep(0.05)
    raise AssertionError("the pool did not warm two workers")


def test_an_affinity_key_keeps_its_worker_while_plain_requests_rotate() -> None:
    pool = Pool()
    used: list[Worker] = []
    real = pool._acquire

    def acquire(affinity: str | None = None) -> Worker:
        w = real(affinity)
        used.append(w)
        return w

    pool._acquire = acquire  # type: ignore[method-assign]
    try:
        pool.warm()
        pool.call("ping", {}, timeout=30)
        _wait_two_ready(pool)
        used.clear()
        for _ in range(4):
            pool.call("ping", {}, timeout=30)
        assert len(set(map(id, used))) == 2  # without a key: the idle workers take turns
        used.clear()
        keyed = []
        for between in (1, 2, 1, 2):  # other requests in between: the plain turn order shifts
            pool.call("ping", {}, affinity="descent", timeout=30)
            keyed.append(used[-1])
            for _ in range(between):
                pool.call("ping", {}, timeout=30)
        assert all(w is keyed[0] for w in keyed)
        keyed[0].kill()  # its worker gone: the key moves to another one
        keyed[0]._wait_closed()
        pool.call("ping", {}, affinity="descent", timeout=30)
        assert used[-1] is not keyed[0] and pool._affine["descent"] is used[-1]
    finally:
        pool.shutdown()
