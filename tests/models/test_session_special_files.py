"""Opening a pipe, a device, a folder or a huge file is refused at once, never waited on."""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tapeviz.models.session import file as sessions
from tapeviz.models.session import safe_io
from tapeviz.models.session.file import MAX_BYTES, Session, SessionError

pytestmark = pytest.mark.skipif(
    sys.platform != "linux", reason="POSIX special files, /proc/self/fd"
)
QUICK_S = 5.0  # a refusal takes milliseconds; a regression would block or read for ever


def within(seconds: float, action: Callable[[], Any], unblock: Callable[[], None]) -> Any:
    """``action()``'s result or exception, failing (not hanging) when it takes too long.

    It runs in a daemon thread; ``unblock`` releases it if it is stuck (so the run can end).
    """
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(action())
        except BaseException as exc:  # handed to the test
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    start = time.monotonic()
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        unblock()
        pytest.fail(f"still busy after {seconds} s (it blocks or reads without end)")
    assert time.monotonic() - start < seconds
    return outcome[0]


def refused(path: Path, message: str, unblock: Callable[[], None] = lambda: None) -> None:
    result = within(QUICK_S, lambda: sessions.load(path), unblock)
    assert isinstance(result, SessionError), result
    assert message in str(result)


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "x.tapeviz"
    os.mkfifo(path)
    yield path


def release(fifo: Path) -> None:
    """Open the writing end without waiting: a reader stuck in open() then gets end of file."""
    with contextlib.suppress(OSError):
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))


def test_a_named_pipe_is_refused_at_once(fifo: Path) -> None:
    refused(fifo, "x.tapeviz is a named pipe (FIFO), not a session file", lambda: release(fifo))


def regular_stat(tmp_path: Path, size: int | None = None) -> os.stat_result:
    """The stat of a regular file (with ``st_size`` replaced)."""
    Session().save(tmp_path / "regular.tapeviz")
    st = os.stat(tmp_path / "regular.tapeviz")
    return st if size is None else os.stat_result((*st[:6], size, *st[7:]))


def pretend(monkeypatch: pytest.MonkeyPatch, name: str, fake: os.stat_result, target: str) -> None:
    """``os.stat`` or ``os.fstat`` says ``fake`` for ``target`` (a path or an fd's path)."""
    real = getattr(os, name)

    def patched(what: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        where = os.readlink(f"/proc/self/fd/{what}") if isinstance(what, int) else str(what)
        return fake if where == target else real(what, *args, **kwargs)

    monkeypatch.setattr(os, name, patched)


def test_a_pipe_swapped_in_after_the_check_is_refused_on_the_open_descriptor(
    fifo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pretend(monkeypatch, "stat", regular_stat(tmp_path), str(fifo))  # the check saw a file
    refused(fifo, "named pipe", lambda: release(fifo))


def test_a_link_to_dev_zero_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "x.tapeviz"
    link.symlink_to("/dev/zero")
    refused(link, "x.tapeviz is a device, not a session file")


def test_an_endless_file_that_says_it_is_empty_is_cut_at_the_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What the byte cap is for: a file whose size says 0 but that never ends.
    fake = regular_stat(tmp_path, size=0)
    pretend(monkeypatch, "stat", fake, "/dev/zero")
    pretend(monkeypatch, "fstat", fake, "/dev/zero")
    result = within(QUICK_S, lambda: safe_io.read_regular("/dev/zero", 1_000), lambda: None)
    assert isinstance(result, safe_io.FileTooLarge)


def test_a_folder_and_a_socket_are_refused(tmp_path: Path) -> None:
    (tmp_path / "x.tapeviz").mkdir()
    refused(tmp_path / "x.tapeviz", "x.tapeviz is a folder, not a session file")
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(tmp_path / "s.tapeviz"))
        refused(tmp_path / "s.tapeviz", "s.tapeviz is a socket")


def padded(size: int) -> bytes:
    """A valid session file of exactly ``size`` bytes (spaces after the JSON)."""
    text = Session(source="x**2").dumps().encode()
    return text + b" " * (size - len(text))


def test_the_byte_cap_is_exact(tmp_path: Path) -> None:
    path = tmp_path / "big.tapeviz"
    path.write_bytes(padded(MAX_BYTES))
    assert sessions.load(path).source == "x**2"
    path.write_bytes(padded(MAX_BYTES + 1))
    refused(path, "larger than 5 MB")


def test_a_link_to_a_good_session_opens(tmp_path: Path) -> None:
    Session(source="x**3").save(tmp_path / "real.tapeviz")
    (tmp_path / "link.tapeviz").symlink_to(tmp_path / "real.tapeviz")
    assert sessions.load(tmp_path / "link.tapeviz").source == "x**3"
