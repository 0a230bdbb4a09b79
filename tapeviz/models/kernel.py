"""The worker processes' request table: everything that runs user code, in one place.

:func:`register` is called inside each worker (``server.py`` imports this module by name) and
adds the studio's requests and ``tapeviz grad`` to the built-in ``run``; :func:`start` makes the
application's pool use it and warms a worker before the first keystroke needs one.
"""

from __future__ import annotations

from typing import Any

from tapeviz.sandbox.process.client import POOL, Pool
from tapeviz.sandbox.process.wire import Frame, Writer, need, text
from tapeviz.sandbox.variables import VariableSpec

MODULE = __name__


def grad_handler(args: Any, frame: Frame, ctx: Any) -> tuple[Any, Writer]:
    """``grad``: the lines ``tapeviz grad`` prints."""
    from tapeviz.models import derivatives

    rows = []
    for v in need(args, "variables", list):
        value = frame.array(need(v, "value", dict))
        rows.append(VariableSpec(text(v, "name", 200), value[()] if value.ndim == 0 else value,
                                 text(v, "kind", 20), text(v, "dtype", 20)))  # fmt: skip
    try:
        lines = derivatives.derivatives(text(args, "text", 100_000), rows, need(args, "order", int))
    except ValueError as exc:
        return {"problem": str(exc)[:5000]}, Writer()
    return {"lines": lines}, Writer()


def register(handlers: dict[str, Any], checks: dict[str, Any] | None = None) -> None:
    """Add this module's requests (and the window's readings of their answers) to a worker."""
    from tapeviz.models.descent import answer_checks, remote  # the worker's: not the window's

    remote.register(handlers)
    if checks is not None:  # each answer read as the window will, before it is sent
        checks.update(answer_checks.CHECKS)
    handlers["grad"] = grad_handler


def start(pool: Pool | None = None, *, warm: bool = True) -> Pool:
    """Configure ``pool`` (the application's by default) with these handlers and warm it."""
    pool = pool or POOL
    pool.require(MODULE)
    if warm:
        pool.warm()
    return pool


def derivatives_in_worker(
    text_: str, variables: list[VariableSpec], order: int = 1, pool: Pool | None = None
) -> list[str]:
    """:func:`tapeviz.models.derivatives.derivatives`, computed in a worker (ValueError)."""
    from tapeviz.sandbox.process.client import WorkerFailure
    from tapeviz.sandbox.process.isolated import failure_error, variables_doc
    from tapeviz.sandbox.runtime.limits import Limits

    pool = pool or POOL
    pool.require(MODULE)
    writer = Writer()
    args = {"text": text_, "order": int(order), "variables": variables_doc(variables, writer)}
    try:
        frame = pool.call("grad", args, writer, timeout=30.0)
    except WorkerFailure as exc:
        raise ValueError(failure_error(exc, Limits(wall_time=30.0)).message) from None
    doc = frame.doc.get("result") if isinstance(frame.doc, dict) else None
    if not isinstance(doc, dict):
        raise ValueError("the worker sent a malformed answer")
    if "problem" in doc:
        raise ValueError(text(doc, "problem", 5000))
    return [str(line)[:10_000] for line in need(doc, "lines", list)]
