"""Files by path without surprises: atomic writes that never follow a planted link, capped reads.

A session, the autosave and the lock are written by name into folders other programs (or other
users, in a shared folder) can write too. :func:`atomic_write_text` makes a new file with a
random name (``O_CREAT | O_EXCL | O_NOFOLLOW``, mode 0o600), writes it, syncs it, sets its
permissions, and renames it over the target: a rename replaces a symbolic link at the target's
name instead of writing through it, and no fixed temporary name exists to plant a link at.

:func:`read_regular` opens without blocking (a named pipe with no writer would wait for ever),
refuses anything that is not a regular file (checked on the opened descriptor, so a swap
between the check and the open does not help), and reads at most ``limit + 1`` bytes (a link to
``/dev/zero`` reports size 0 and never ends).
"""

from __future__ import annotations

import contextlib
import functools
import os
import stat
import tempfile
from pathlib import Path

CHUNK = 1 << 16
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
)


class NotRegularFile(OSError):
    """The path names a folder, a pipe, a socket or a device, not a file."""

    def __init__(self, path: Path, kind: str) -> None:
        super().__init__(f"{path.name} is {kind}, not a file")
        self.kind = kind


class FileTooLarge(OSError):
    """The file holds more than the reader takes."""

    def __init__(self, path: Path, limit: int) -> None:
        super().__init__(f"{path.name} is larger than {limit:,} bytes")
        self.limit = limit


def kind_of(mode: int) -> str | None:
    """What a ``st_mode`` names when it is not a regular file (None for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


@functools.cache
def _umask() -> int:
    """The process's umask, read once (``os.umask`` can only be read by setting it)."""
    try:
        for line in Path("/proc/self/status").read_text("ascii").splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _usual_mode(path: Path) -> int:
    """The permissions the target gets: those of the regular file it replaces, else the umask's."""
    try:
        st = os.lstat(path)
    except OSError:
        st = None
    if st is not None and stat.S_ISREG(st.st_mode):
        return stat.S_IMODE(st.st_mode)
    return 0o666 & ~_umask()


def atomic_write_bytes(path: str | Path, data: bytes, mode: int | None = None) -> None:
    """Replace ``path`` with a regular file holding ``data``, all at once or not at all.

    ``mode`` is the file's permissions (default: those of the file replaced, or ``0o666`` less
    the umask). A symbolic link at ``path`` is replaced, never followed. On failure no
    temporary file is left and the OSError names ``path``.
    """
    path = Path(path)
    final_mode = _usual_mode(path) if mode is None else mode
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
            if hasattr(os, "fchmod"):
                os.fchmod(f.fileno(), final_mode)
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        if exc.errno is None:
            raise
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    _sync_folder(path.parent)


def atomic_write_text(
    path: str | Path, text: str, mode: int | None = None, encoding: str = "utf-8"
) -> None:
    """:func:`atomic_write_bytes` of ``text`` encoded (UnicodeEncodeError before any file)."""
    atomic_write_bytes(path, text.encode(encoding), mode)


def _sync_folder(folder: Path) -> None:
    """Make the rename durable where the system allows it (best effort)."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(folder, flags)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def read_regular(path: str | Path, limit: int) -> bytes:
    """The bytes of the regular file at ``path`` (links followed), at most ``limit`` of them.

    Raises :class:`NotRegularFile` for a folder, pipe, socket or device (never opened when
    seen first, never waited on when swapped in), :class:`FileTooLarge` past ``limit`` bytes,
    and OSError when the file cannot be read. Never blocks on a special file.
    """
    path = Path(path)
    kind = kind_of(os.stat(path).st_mode)  # most special files are never even opened
    if kind is not None:
        raise NotRegularFile(path, kind)
    flags = os.O_RDONLY
    for name in ("O_NONBLOCK", "O_CLOEXEC", "O_NOCTTY", "O_BINARY"):
        flags |= getattr(os, name, 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)  # what was opened, whatever the name points at now
        kind = kind_of(st.st_mode)
        if kind is not None:
            raise NotRegularFile(path, kind)
        if st.st_size > limit:
            raise FileTooLarge(path, limit)
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise FileTooLarge(path, limit)
        return b"".join(chunks)
    finally:
        os.close(fd)
