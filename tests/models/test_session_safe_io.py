"""Saving the work never writes through a planted link, and a failed save leaves nothing behind."""

from __future__ import annotations

import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from tapeviz.models.session import file as sessions
from tapeviz.models.session.autosave import Autosave
from tapeviz.models.session.file import Session

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX links and permissions")
WORK = Session(source="x**2 + 1", name="work")
SECRET = "the victim's own text\n"


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A file elsewhere that a planted link points at; it must never change."""
    path = tmp_path / "elsewhere" / "victim.txt"
    path.parent.mkdir()
    path.write_text(SECRET, "utf-8")
    return path


def plant(link: Path, target: Path) -> Path:
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(target)
    return link


def saved(path: Path) -> Session:
    assert path.is_file() and not path.is_symlink()
    return sessions.load(path)


def test_a_link_at_the_old_temporary_names_is_not_followed(tmp_path: Path, victim: Path) -> None:
    folder = tmp_path / "work"
    for name in ("work.tapeviz.tmp", ".work.tapeviz.tmp"):
        plant(folder / name, victim)
    WORK.save(folder / "work.tapeviz")
    assert victim.read_text("utf-8") == SECRET
    assert saved(folder / "work.tapeviz") == WORK
    # The links are left alone and no temporary file is left over.
    names = sorted(p.name for p in folder.iterdir())
    assert names == [".work.tapeviz.tmp", "work.tapeviz", "work.tapeviz.tmp"]


def test_a_link_at_the_autosave_temporary_name_is_not_followed(
    tmp_path: Path, victim: Path
) -> None:
    autosave = Autosave(tmp_path / "data")
    plant(tmp_path / "data" / "autosave.tapeviz.tmp", victim)
    assert autosave.save(WORK)
    assert victim.read_text("utf-8") == SECRET
    assert saved(autosave.path) == WORK


def test_a_link_at_the_lock_is_replaced_not_followed(tmp_path: Path, victim: Path) -> None:
    autosave = Autosave(tmp_path / "data")
    plant(autosave.lock, victim)
    autosave.start()
    assert victim.read_text("utf-8") == SECRET
    assert not autosave.lock.is_symlink() and autosave.lock.read_text("utf-8") == str(os.getpid())


@pytest.mark.parametrize("which", ["session", "autosave"])
def test_a_link_at_the_file_itself_becomes_a_regular_file(
    tmp_path: Path, victim: Path, which: str
) -> None:
    if which == "session":
        target = plant(tmp_path / "work" / "work.tapeviz", victim)
        WORK.save(target)
    else:
        autosave = Autosave(tmp_path / "data")
        target = plant(autosave.path, victim)
        autosave.save(WORK)
    assert victim.read_text("utf-8") == SECRET
    assert saved(target) == WORK


def test_the_usual_permissions(tmp_path: Path) -> None:
    path = tmp_path / "work.tapeviz"
    mask = os.umask(0o027)
    os.umask(mask)
    WORK.save(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask  # a new file: as any other
    path.chmod(0o640)
    WORK.with_source("y").save(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640  # a replaced file keeps its own
    autosave = Autosave(tmp_path / "data")
    autosave.start()
    autosave.save(WORK)
    for private in (autosave.path, autosave.lock):
        assert stat.S_IMODE(private.stat().st_mode) == 0o600


def test_a_failed_replace_leaves_no_temporary_file(tmp_path: Path) -> None:
    folder = tmp_path / "work"
    (folder / "work.tapeviz").mkdir(parents=True)  # a folder where the file would go
    with pytest.raises(IsADirectoryError) as info:
        WORK.save(folder / "work.tapeviz")
    assert info.value.filename == str(folder / "work.tapeviz")
    assert [p.name for p in folder.iterdir()] == ["work.tapeviz"]


def as_unprivileged(action: Callable[[], None]) -> str:
    """Run ``action`` as a user without root's right to write anywhere; its error as text.

    As root, a forked child drops to ``nobody`` first (root writes into read-only folders).
    """
    if os.geteuid() != 0:
        try:
            action()
        except OSError as exc:
            return f"{type(exc).__name__}: {exc}"
        return "no error"
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        os.close(read)
        text = "no error"
        try:
            os.setgid(65534)
            os.setuid(65534)
            action()
        except BaseException as exc:
            text = f"{type(exc).__name__}: {exc}"
        os.write(write, text.encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as f:
        text = f.read().decode()
    os.waitpid(pid, 0)
    return text


def test_saving_into_a_read_only_folder_says_so_and_leaves_nothing() -> None:
    folder = Path(tempfile.mkdtemp(prefix="tapeviz-readonly-"))  # reachable by `nobody`
    try:
        folder.chmod(0o555)
        error = as_unprivileged(lambda: WORK.save(folder / "work.tapeviz"))
        assert error == f"PermissionError: [Errno 13] Permission denied: '{folder}/work.tapeviz'"
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o700)
        shutil.rmtree(folder)
