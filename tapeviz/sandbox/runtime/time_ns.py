"""``import time``, ``import timeit``, ``from datetime import datetime`` in a script: the clock.

Tutorials time their loops (keras-io's "Time taken: 0.52s", TF's ``timeit.timeit(lambda:
power(x, 100), number=1000)``): a script may read the clock, nothing more. ``time.sleep`` is
not here (a run has a time limit to spend on work); ``timeit`` takes a function, never a
string of code, and each call of it counts against the run's limits like any other.
"""

from __future__ import annotations

import datetime as _datetime
import time as _time
from typing import Any

from tapeviz.engine.namespace import Namespace
from tapeviz.sandbox.runtime.policy import check_callable

__all__ = ["DATETIME", "TIME", "TIMEIT"]


def _time_now() -> float:
    """Seconds since the epoch (``time.time()``)."""
    return _time.time()


def _perf_counter() -> float:
    """A clock for measuring short durations (``time.perf_counter()``)."""
    return _time.perf_counter()


def _monotonic() -> float:
    """A clock that never goes back (``time.monotonic()``)."""
    return _time.monotonic()


def _process_time() -> float:
    """CPU time of the process (``time.process_time()``)."""
    return _time.process_time()


TIME = Namespace(
    "time",
    {"time": _time_now, "perf_counter": _perf_counter, "monotonic": _monotonic,
     "process_time": _process_time, "time_ns": lambda: _time.time_ns(),
     "perf_counter_ns": lambda: _time.perf_counter_ns()},
)  # fmt: skip


def _run_n(stmt: Any, number: int) -> float:
    if isinstance(stmt, str):
        raise TypeError("timeit in tapeviz takes a function (a lambda), not a string of code")
    check_callable(stmt)
    count = int(number)
    start = _time.perf_counter()
    for _ in range(count):
        stmt()
    return _time.perf_counter() - start


def timeit(
    stmt: Any = None,
    setup: Any = None,
    timer: Any = None,
    number: int = 1000000,
    globals: Any = None,
) -> float:
    """Seconds taken by ``number`` calls of ``stmt`` (a function)."""
    if setup is not None and not isinstance(setup, str):
        check_callable(setup)
        setup()
    return _run_n(stmt, number)


def repeat(
    stmt: Any = None,
    setup: Any = None,
    timer: Any = None,
    repeat: int = 5,
    number: int = 1000000,
    globals: Any = None,
) -> list[float]:
    """``timeit`` ``repeat`` times: a list of seconds."""
    return [timeit(stmt, setup, number=number) for _ in range(int(repeat))]


TIMEIT = Namespace(
    "timeit",
    {"timeit": timeit, "repeat": repeat, "default_timer": _perf_counter},
)

_DATETIME_CLASS = Namespace(
    "datetime.datetime",
    {"now": lambda tz=None: _datetime.datetime.now(),
     "today": lambda: _datetime.datetime.today()},
)  # fmt: skip
DATETIME = Namespace(
    "datetime",
    {"datetime": _DATETIME_CLASS,
     "date": Namespace("datetime.date", {"today": lambda: _datetime.date.today()})},
)  # fmt: skip
