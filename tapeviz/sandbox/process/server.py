"""The worker process: ``python -m tapeviz.sandbox.process.server [HANDLERS_MODULE]``.

It speaks :mod:`wire` on its stdin/stdout (the real file descriptors are moved aside first, so
nothing the user's code or a C library prints can corrupt a frame) and runs one request at a
time on its main thread (8 MB of C stack for the parser and the interpreter). Stop is SIGUSR1:
the running request's cancel token is set, so the run ends at its next statement; a second
thread only watches for the window's end of the pipe closing. The operating system enforces
what the sandbox's own checks might miss: an address-space limit (``RLIMIT_AS``) a margin
above the memory limit, a CPU-time limit per request (``RLIMIT_CPU``), no core files. The
parent adds a wall-clock kill and an empty working folder, and gives it no descriptors but its
pipes and no environment but its own.

Handlers are ``fn(args, frame, ctx) -> (doc, writer)``; :func:`run_handler` is built in, and the
module named on the command line (``tapeviz.models.kernel``) adds the studio's.
"""

from __future__ import annotations

import ctypes
import dataclasses
import faulthandler
import gc
import importlib
import itertools
import mmap
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from tapeviz.sandbox.process import kept, results, results_decode, wire
from tapeviz.sandbox.process.encoder import Encoder
from tapeviz.sandbox.process.wire import Frame, ProtocolError, Writer
from tapeviz.sandbox.runtime.kept_tapes import KeptTapes

Handler = Callable[[Any, Frame, "Context"], tuple[Any, Writer]]
HANDLERS: dict[str, Handler] = {}
# op -> the window's own reading of that op's answer (the answer's frame -> raises
# ProtocolError), and what to send instead when it refuses: the same code on both sides of the
# wall, so the window never gets an answer it calls malformed.
Check = Callable[[Frame, Any, Frame], object]  # (answer, request args, request frame)
Refusal = Callable[[Any, str, Any], tuple[Any, Writer]]
CHECKS: dict[str, tuple[Check, Refusal]] = {}
# Ops whose window side makes the same refusal itself (with the same function) when it cannot
# read a small answer: the worker's own reading (a whole decode, ~0.3-0.9 ms) is then needed
# only for an answer past the window's frame caps' reach, so a small cell's live re-run does
# not pay it. ``SMALL_ANSWER``: bytes of JSON and blobs together.
WINDOW_REFUSES = ("run",)
SMALL_ANSWER = 4 << 20
TICK_S = 0.03  # seconds of a run between two batches of its finished tapes encoded
SEND_FIRST_S = 0.08  # a streamed run's first snapshot, seconds after it started
SESSION: dict[str, Any] = {}  # what this worker keeps between requests (compiled programs)
MARGIN_MB = 160  # address space above the memory limit: thread stacks, numpy's buffers
RECYCLE_MB = 600  # a worker whose resident memory grew this much since it started exits
HARD_GRACE = 0.4  # seconds past a run's wall time before the OS ends the worker (SIGALRM)


class Context:
    """What a handler gets besides its arguments: cancellation and progress."""

    def __init__(self, request: int, out: Callable[[Any, Writer | None], None]) -> None:
        from tapeviz.sandbox.runtime.limits import CancelToken

        self.request = request
        self.cancel = CancelToken()
        self._out = out
        self._last = 0.0
        self.policy: kept.Policy | None = None  # how a run's big values go (its snapshots too)
        # What the answer was made from, dropped once it is sent: freeing a big run's objects
        # (~20 ms for 10,000 tapes) then overlaps the window's decoding instead of delaying it.
        self.made_from: Any = None
        self.encoder = Encoder()  # a run's finished tapes, encoded while it runs
        self.stream = False  # the window asked for snapshots
        self._began = self._next_send = 0.0

    def progress(self, fraction: float) -> None:
        """Report progress (at most every 50 ms)."""
        now = time.monotonic()
        if now - self._last >= 0.05 or fraction >= 1.0:
            self._last = now
            self._out({"id": self.request, "progress": float(fraction)}, None)

    def cancelled(self) -> bool:
        """Whether the window asked this request to stop."""
        return self.cancel.cancelled

    def tick(self, created: KeptTapes, so_far: Callable[[], Any]) -> None:
        """A run's checkpoint: its finished tapes encoded now; sent too when the run streams.

        A streamed run is sent at 3x its age (0.1 s, 0.3 s, 0.9 s, ...; ``took``: the seconds
        encoding it cost). One whose snapshot cannot be encoded (a value the window would
        refuse) sends none; its final answer says what was wrong.
        """
        started = time.perf_counter()
        try:
            self.encoder.add_finished(created, created.cap)  # (max_tapes, or less: memory)
        except Exception:  # (the final answer encodes the run afresh and reports it)
            return
        if not self.stream or started < self._next_send:
            return
        result = so_far()
        n = self.encoder.n
        if result is None or (n < 2 and not result.output and not result.figures):
            return
        # Only the tapes encoded so far: the newer ones may still get their gradient() calls
        # (encoded now, they would make the run's end encode it all afresh).
        marks = tuple(m for m in result.output_marks if m[1] <= n)
        result = dataclasses.replace(result, tapes=result.tapes[:n], output_marks=marks)
        if not self.encoder.still([info.tape for info in result.tapes]):
            self.encoder = Encoder(self.encoder.table.threshold)  # (a tape changed: afresh, once)
        writer = Writer()
        try:
            policy = self.policy.snapshot() if self.policy is not None else None
            doc = results.encode(result, writer, policy, self.encoder)
        except Exception:  # (the final answer reports it)
            return
        took = time.perf_counter() - started
        self._next_send = started + took + 2 * max(started - self._began, SEND_FIRST_S)
        self._out({"id": self.request, "snapshot": doc, "took": took}, writer)


def _limits(doc: Any) -> Any:
    from tapeviz.sandbox.runtime.limits import Limits

    fields = Limits.__dataclass_fields__
    values = {}
    for key, value in (doc or {}).items():
        if key in fields and type(value) in (int, float) and value >= 0:
            values[key] = type(getattr(Limits(), key))(value)
    return Limits(**values)


def run_handler(args: Any, frame: Frame, ctx: Context) -> tuple[Any, Writer]:
    """``run``: a script or expression through :func:`tapeviz.sandbox.run`."""
    from tapeviz.sandbox import run
    from tapeviz.sandbox.program import Programs
    from tapeviz.sandbox.variables import VariableSpec

    source = wire.text(args, "source", 20_000_000)
    mode = wire.text(args, "mode", 20)
    variables = [
        VariableSpec(
            wire.text(v, "name", 200),
            _value(v, frame),
            wire.text(v, "kind", 20),
            wire.text(v, "dtype", 20),
        )
        for v in wire.need(args, "variables", list)
    ]
    kept.KEPT.start()  # the last run's kept values are dropped before this one allocates
    ctx.policy = kept.Policy.of(args)
    ctx.encoder = Encoder(ctx.policy.threshold)
    ctx.stream = args.get("stream") is True
    ctx._began = time.perf_counter()
    ctx._next_send = ctx._began + SEND_FIRST_S
    limits = _limits(args.get("limits"))
    result = run(
        source,
        mode=mode,
        variables=variables,
        limits=limits,
        cancel=ctx.cancel,
        ticks=ctx.tick if mode == "script" else None,
        tick_every=TICK_S,
        programs=SESSION.setdefault("programs", Programs()),
    )
    writer = Writer()
    ctx.made_from = result
    return results.encode(result, writer, ctx.policy, ctx.encoder), writer


def _value(doc: Any, frame: Frame) -> Any:
    value = doc.get("value") if isinstance(doc, dict) else None
    if isinstance(value, dict):
        return frame.array(value)
    if type(value) in (int, float, bool):
        return value
    raise ProtocolError("a variable's value must be a number or an array")


def _check_run(answer: Frame, args: Any, request: Frame) -> object:
    from tapeviz.sandbox.process.isolated import wire_result

    return results_decode.decode(wire_result(answer))


def _refuse_run(args: Any, why: str, refused: Any) -> tuple[Any, Writer]:
    """A run whose result the window would refuse: the user's error says what was too big."""
    writer = Writer()
    return results.encode(results_decode.refused(why, refused), writer), writer


HANDLERS["run"] = run_handler
CHECKS["run"] = (_check_run, _refuse_run)
HANDLERS["ping"] = lambda args, frame, ctx: ({"pong": True}, Writer())
HANDLERS["value"] = kept.value_handler


def _window_refuses(op: Any, body: bytes, blobs: wire.Blobs) -> bool:
    """Whether the window itself refuses this answer if it cannot read it (see WINDOW_REFUSES)."""
    if op not in WINDOW_REFUSES or len(blobs) > 10_000:
        return False
    return len(body) + sum(len(b) if isinstance(b, bytes) else b.nbytes for b in blobs) < (
        SMALL_ANSWER
    )


def _where(path: str | None) -> Any:
    """A 32-bit integer in the file ``path`` (mapped): the parent reads it after a crash."""
    if not path:
        return None
    try:
        with open(path, "r+b") as f:
            shared = mmap.mmap(f.fileno(), 8)
    except (OSError, ValueError):
        return None
    return ctypes.c_uint32.from_buffer(shared)


def _started(where: Any, rid: int) -> None:
    """Mark request ``rid`` begun (the second word after the line): a crash now is its own."""
    if where is not None:
        ctypes.c_uint32.from_address(ctypes.addressof(where) + 4).value = rid & 0xFFFFFFFF


def _os_limits(memory_mb: int) -> None:
    try:
        import resource
    except ImportError:  # Windows: the parent's wall-clock kill still holds
        return
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if sys.platform.startswith("linux"):  # macOS does not enforce RLIMIT_AS
        with open("/proc/self/statm") as f:
            size = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        cap = size + (memory_mb + MARGIN_MB) * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def _cpu_limit(seconds: float) -> None:
    try:
        import resource
    except ImportError:
        return
    used = resource.getrusage(resource.RUSAGE_SELF)
    spent = used.ru_utime + used.ru_stime
    soft = int(spent + seconds) + 1
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def _watch_parent(fd: int) -> None:
    """End this process as soon as the window's end of the pipe closes (it quit or died).

    ``poll`` with no events asked for still reports a hang-up: this thread never reads, so
    requests stay for the main thread, yet a worker in the middle of user code (or stuck in C)
    does not outlive the window.
    """
    import select

    if not hasattr(select, "poll"):
        return
    watcher = select.poll()
    watcher.register(fd, 0)
    while True:
        for _, event in watcher.poll():
            if event & (select.POLLHUP | select.POLLERR | select.POLLNVAL):
                os._exit(0)


def serve(stdin: Any, stdout: Any, where: Any = None) -> None:
    """Answer requests until the parent closes the pipe."""

    def send(doc: Any, writer: Writer | None) -> None:
        wire.write(stdout, doc, writer)

    current: list[Context] = []

    def interrupt(signum: int, frame: Any) -> None:  # SIGUSR1 from the window: Stop
        if current:
            current[0].cancel.cancel()

    if hasattr(signal, "SIGUSR1"):
        signal.signal(signal.SIGUSR1, interrupt)
    threading.Thread(target=_watch_parent, args=(stdin.fileno(),), daemon=True).start()
    from tapeviz.sandbox.runtime import limits as run_limits

    start_rss = run_limits.resident_bytes()
    send({"ready": True, "pid": os.getpid()}, None)
    while True:
        try:
            frame = wire.read(stdin)
        except (ProtocolError, OSError, ValueError):
            return
        doc = frame.doc
        rid = doc.get("id") if isinstance(doc, dict) else None
        if type(rid) is not int:
            continue
        ctx = Context(rid, send)
        current[:] = [ctx]
        _started(where, rid)  # a crash from here on is the request's
        try:
            handler = HANDLERS.get(doc.get("op"))  # type: ignore[arg-type]
            if handler is None:
                raise ProtocolError(f"unknown request {str(doc.get('op'))[:40]!r}")
            args = doc.get("args") or {}
            wall = args.get("limits", {}).get("wall_time", 10.0) if isinstance(args, dict) else 10
            _cpu_limit(float(wall) * 2 + 5 if isinstance(wall, int | float) else 15.0)
            out, writer = handler(args, frame, ctx)
            current.clear()
            answer = wire.encode({"id": rid, "ok": True, "result": out}, writer)
            check = CHECKS.get(doc.get("op"))  # type: ignore[arg-type]
            if check is not None and not _window_refuses(doc.get("op"), *answer):
                try:
                    check[0](wire.loopback(*answer), args, frame)
                except ProtocolError as exc:
                    out, writer = check[1](args, str(exc)[:500], out)
                    answer = wire.encode({"id": rid, "ok": True, "result": out}, writer)
            wire.send(stdout, *answer)
            del answer, out, writer
        except MemoryError:
            send({"id": rid, "ok": False, "error": "memory", "message": "out of memory"}, None)
        except ProtocolError as exc:
            send({"id": rid, "ok": False, "error": "protocol", "message": str(exc)[:2000]}, None)
        except Exception as exc:  # a bug of ours: the message goes back, the worker goes on
            text = f"{type(exc).__name__}: {str(exc)[:2000]}"
            send({"id": rid, "ok": False, "error": "internal", "message": text}, None)
        finally:
            current.clear()
            ctx.made_from = None  # the run's objects go once answered, while the window decodes
            if hasattr(signal, "setitimer"):  # (every run disarms its own; this is a backstop)
                signal.setitimer(signal.ITIMER_REAL, 0)
        grown = (run_limits.resident_bytes() - start_rss) // 2**20
        if grown > RECYCLE_MB:
            return  # the parent starts a fresh worker: a long session never accumulates


def _warm_up() -> None:
    """Import the runtime and run once before saying ready: no user's run pays for it.

    The first run in a fresh worker imported the sandbox's runtime and its TensorFlow, Keras
    and PyTorch look-alikes (~0.65 s): a 100,000-tape script's first timeline step came 0.7 s
    after Run instead of 0.1 s. Done before the memory limit is set, so it is not the user's.
    """
    from tapeviz.sandbox import run

    run("1")


def main(argv: list[str]) -> int:
    """Set the process up (descriptors, limits, ids) and serve."""
    proto_in = os.fdopen(os.dup(0), "rb", buffering=1 << 16)
    proto_out = os.fdopen(os.dup(1), "wb", buffering=1 << 16)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(2, 1)  # stray C-level writes to stdout go to stderr, never into a frame
    sys.stdout = sys.stderr
    faulthandler.enable(sys.stderr)
    base = int(os.environ.get("TAPEVIZ_ID_BASE", "0") or 0)
    if base > 0:
        from tapeviz.engine import tensor

        tensor._ids = itertools.count(base)  # distinct from the window's own tensor ids
    from tapeviz.sandbox.runtime import limits as run_limits

    where = _where(os.environ.get("TAPEVIZ_WHERE"))
    run_limits.WHERE[:] = [] if where is None else [where]
    if hasattr(signal, "SIGALRM"):  # a run past its wall time: the kernel ends the process
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        run_limits.HARD_GRACE[:] = [HARD_GRACE]
    for name in argv[1:]:
        if name.startswith("tapeviz.") and name.replace(".", "").replace("_", "").isalnum():
            module = importlib.import_module(name)
            module.register(HANDLERS, CHECKS)
    _warm_up()
    _os_limits(int(os.environ.get("TAPEVIZ_MEMORY_MB", "800") or 800))
    sys.setrecursionlimit(4000)
    # User code allocates objects by the million (every op a tensor and a record): collect
    # young garbage less often, and never scan the interpreter's and the modules' own objects
    # again (30 % faster on the seed's 10,000-epoch regression). A run near its memory limit
    # still collects everything first (limits.reclaim).
    gc.freeze()
    gc.set_threshold(20_000, 50, 100)
    serve(proto_in, proto_out, where)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
