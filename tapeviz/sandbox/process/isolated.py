"""``run_isolated``: :func:`tapeviz.sandbox.run` in a worker process, with the same result type.

Whatever the code does to its process (a segfault, a hang inside C, memory past the limit),
the caller gets a :class:`~tapeviz.sandbox.runner.RunResult` whose ``error`` says what happened,
and the next call gets a fresh worker.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from tapeviz.sandbox.errors import RAISE_LIMIT, UserCodeError
from tapeviz.sandbox.messages import say
from tapeviz.sandbox.process import results_decode, summaries
from tapeviz.sandbox.process.client import POOL, WALL_GRACE, Pool, WorkerFailure
from tapeviz.sandbox.process.wire import ProtocolError, Writer
from tapeviz.sandbox.result import RunResult
from tapeviz.sandbox.runtime.limits import CancelToken, Limits
from tapeviz.sandbox.variables import VariableSpec, specs

EXITED = "the worker exited (status "  # the client's words for an exit without a signal


def variables_doc(table: Sequence[VariableSpec], writer: Writer) -> list[dict[str, Any]]:
    """The variables table as request data (values as arrays)."""
    out = []
    for s in table:
        value = s.value.numpy() if hasattr(s.value, "numpy") else s.value
        arr = np.asarray(value, dtype=np.dtype(s.dtype))
        out.append({"name": s.name, "kind": s.kind, "dtype": s.dtype, "value": writer.array(arr)})
    return out


def failure_error(exc: WorkerFailure, limits: Limits) -> UserCodeError:
    """The user's view of a request that ended without an answer."""
    line = exc.line
    if exc.reason == "stop":
        return UserCodeError.of(say("stopped"), line, kind="cancelled")
    if exc.reason == "time":
        message = say("wall_time", seconds=f"{limits.wall_time:g}")
        hint = say("hint_endless_loop")
        return UserCodeError.of(message, line, None, hint, "limit", "wall time")
    if exc.reason == "memory":
        message = say("memory", cap=f"{limits.max_memory_mb:,}")
        return UserCodeError.of(message, line, None, RAISE_LIMIT, "limit", "memory")
    if exc.reason == "crash":
        why = exc.message
        if why.startswith(EXITED) and why.endswith(")"):
            message = say("crash_status", status=why[len(EXITED) : -1])
        else:
            message = say("crash", why=why)
        return UserCodeError.of(message, line, kind="crash")
    return UserCodeError(f"internal error: {exc.message}", line, kind="internal")


def run_isolated(
    source: str,
    *,
    mode: str = "script",
    variables: Mapping[str, Any] | Sequence[VariableSpec] | None = None,
    limits: Limits | None = None,
    cancel: CancelToken | None = None,
    pool: Pool | None = None,
    on_snapshot: Callable[[RunResult], None] | None = None,
) -> RunResult:
    """Run user code in a worker process; never raises for anything the code does.

    ``on_snapshot``: a script streams (see :class:`Snapshots`); this gets the run so far, on a
    thread of its own, never after this function returned.
    """
    started = time.perf_counter()
    limits = limits or Limits()
    writer = Writer()
    args = {
        "source": source, "mode": mode, "variables": variables_doc(specs(variables), writer),
        "limits": dataclasses.asdict(limits), "summarise": summaries.SUMMARY_BYTES,
    }  # fmt: skip
    pool = pool or POOL
    if pool.memory_mb != limits.max_memory_mb:
        pool.configure(memory_mb=limits.max_memory_mb)
    token = cancel or CancelToken()
    stream = Snapshots(on_snapshot, pool) if on_snapshot is not None and mode == "script" else None
    if stream is not None:
        args["stream"] = True
    try:
        frame = pool.call(
            "run", args, writer, timeout=limits.wall_time + WALL_GRACE,
            cancelled=lambda: token.cancelled, snapshot=stream and stream.put, affinity="run",
        )  # fmt: skip
        if stream is not None:
            stream.close()
        part = wire_result(frame)
        kept = part.doc.get("kept")  # this run's token: an older run's values are gone
        pool.values_token = kept if isinstance(kept, str) else None
        try:
            result = results_decode.decode(part, pool)
        except ProtocolError as exc:  # (a small answer the worker sent without reading it)
            pool.values_token = None
            result = results_decode.refused(str(exc), part.doc)
        except Exception as exc:  # a bug of ours in reading it: the user's error, never a raise
            pool.values_token = None
            err = UserCodeError(
                f"internal error: {type(exc).__name__}: {exc}"[:2000], kind="internal"
            )
            result = RunResult("", (), {}, None, time.perf_counter() - started, err)
    except WorkerFailure as exc:
        err = failure_error(exc, limits)
        return RunResult("", (), {}, None, time.perf_counter() - started, err)
    except ProtocolError as exc:
        err = UserCodeError(f"the worker sent a malformed answer ({exc})", kind="internal")
        return RunResult("", (), {}, None, time.perf_counter() - started, err)
    finally:
        if stream is not None:
            stream.close()
    return result


class Snapshots:
    """A streamed run's snapshots, decoded on a thread of their own, the newest only.

    The thread that waits for the answer hands each snapshot frame over and goes on reading the
    pipe (a worker never waits for the window to decode). A snapshot not decoded yet when a
    newer one arrives is dropped; one the window cannot read is skipped (the final answer
    stands on its own). After :meth:`close` nothing more is delivered.
    """

    def __init__(self, deliver: Callable[[RunResult], None], pool: Pool | None = None) -> None:
        self._deliver = deliver
        self._pool = pool
        self._cond = threading.Condition()
        self._frame: Any = None
        self._closed = False
        self._thread = threading.Thread(target=self._loop, name="tapeviz-snapshots", daemon=True)
        self._thread.start()

    def put(self, frame: Any) -> None:
        """A snapshot frame arrived (any newer one replaces it)."""
        with self._cond:
            self._frame = frame
            self._cond.notify()

    def close(self) -> None:
        """Deliver nothing more; returns once a delivery under way has ended."""
        with self._cond:
            self._closed, self._frame = True, None
            self._cond.notify()
        if self._thread is not threading.current_thread():
            self._thread.join()

    def _loop(self) -> None:
        while True:
            with self._cond:
                while self._frame is None and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
                frame, self._frame = self._frame, None
            try:
                part = frame.doc.get("snapshot") if isinstance(frame.doc, dict) else None
                if not isinstance(part, dict):
                    continue
                result = results_decode.decode(frame.part(part), self._pool)
            except ProtocolError:
                continue
            if self._closed:  # (close() joins this thread: no delivery after it returns)
                return
            self._deliver(result)


def wire_result(frame: Any) -> Any:
    """The ``result`` part of an answer, as a frame of its own (same blobs)."""
    doc = frame.doc.get("result") if isinstance(frame.doc, dict) else None
    if not isinstance(doc, dict):
        raise ProtocolError("an answer without a result")
    return frame.part(doc)
