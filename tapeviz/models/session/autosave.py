"""Autosave and crash recovery: the current work is written every few seconds to the data dir.

A lock file marks a running window; a clean close removes both. If the next start finds the lock
and an autosave, the previous run ended without closing (a crash, a killed process) and the app
offers to restore the autosaved work: only for a real lock (:func:`lock_left_behind`), a file
naming a process that is gone, never for an empty or foreign file or another running window's.

Both files are written with :func:`~tapeviz.models.session.safe_io.atomic_write_text` (private,
mode 0o600): a link planted at either name, or at a temporary name, never redirects a write.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from tapeviz.models.session import file as sessions
from tapeviz.models.session.file import Session, SessionError
from tapeviz.models.session.safe_io import atomic_write_text

PRIVATE = 0o600  # the work and the lock are the user's alone


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists (POSIX; elsewhere it is taken as gone)."""
    if os.name != "posix":
        return False  # (os.kill would end it there)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


def lock_left_behind(lock: Path) -> bool:
    """Whether ``lock`` is a window's lock whose process is gone (so it did not close).

    A real lock is a regular file (not a link) holding a process id. Another running window's
    lock is not left behind; this process's own id in it is (an earlier process had the id).
    """
    try:
        if lock.is_symlink() or not lock.is_file() or lock.stat().st_size > 32:
            return False
        text = lock.read_text("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return False
    if not text.isdigit() or int(text) <= 0:
        return False
    pid = int(text)
    return pid == os.getpid() or not _running(pid)


def data_dir() -> Path:
    """The user data folder (``TAPEVIZ_DATA_DIR`` overrides it, e.g. in tests)."""
    override = os.environ.get("TAPEVIZ_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir("tapeviz", False))


class Autosave:
    """The autosave file and the running-window lock in ``folder``."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder or data_dir()
        self.path = self.folder / "autosave.tapeviz"
        self.lock = self.folder / "running.lock"
        self.crashed = self.path.is_file() and lock_left_behind(self.lock)  # seen at start-up
        self._last = ""

    def start(self) -> None:
        """Mark a window as running."""
        self.folder.mkdir(parents=True, exist_ok=True)
        atomic_write_text(self.lock, str(os.getpid()), PRIVATE)

    def save(self, session: Session) -> bool:
        """Write the work if it changed since the last save; True when written."""
        text = session.dumps()
        if text == self._last:
            return False
        self.folder.mkdir(parents=True, exist_ok=True)
        atomic_write_text(self.path, text, PRIVATE)
        self._last = text
        return True

    def recover(self) -> Session | None:
        """The autosaved work left by a run that did not close, if it is readable."""
        if not self.crashed:
            return None
        try:
            return sessions.load(self.path)
        except SessionError:
            return None

    def discard(self) -> None:
        """Forget the crashed work (the user declined to restore it)."""
        self.crashed = False

    def stop(self) -> None:
        """A clean close: remove the lock and the autosave."""
        for path in (self.lock, self.path):
            path.unlink(missing_ok=True)
