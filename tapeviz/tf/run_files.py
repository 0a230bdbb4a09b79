"""The run's own folder: files a script saves live in memory, for that run only.

Saving in tapeviz (``model.save``, ``model.save_weights``, ``tf.train.Checkpoint``,
``tf.saved_model.save``, ``torch.save``, ...) writes to a virtual folder that belongs to the run:

- a file is data only: numpy arrays (copied, read-only) and a JSON-able config, kept as JSON
  text so that what is read back is a fresh copy (never pickle). A few kinds also keep a
  reference to a live object of the same run (a ``tf.function``'s traced program, the class of
  a model defined in the script, a whole ``torch.nn.Module``): that is why no file outlives
  its run;
- paths name places in this folder only. A relative path starts at the folder's root (the
  run's working folder, ``/``), an absolute path is read inside the folder, ``..`` stops at
  the root: nothing ever reaches the disk. Saving into a folder that does not exist yet
  creates it (a notebook's ``!mkdir -p`` line is not run by tapeviz);
- the folder holds at most :data:`MAX_BYTES` (64 MB: the arrays' bytes plus the config text)
  in at most :data:`MAX_FILES` files; a save past that fails with a limit error, as the run's
  other limits do;
- the folder (and :data:`ENVIRON`, the run's ``os.environ``) is emptied when a run starts and
  dropped when it ends (per-run state, :mod:`tapeviz.tf.run_state`).
"""

from __future__ import annotations

import fnmatch
import json
import os
import posixpath
import re
import threading
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

import numpy as np

from tapeviz.engine.guard import ResourceLimitError
from tapeviz.tf import run_state

__all__ = [
    "MAX_BYTES",
    "MAX_FILES",
    "Environ",
    "StoredFile",
    "exists",
    "fspath",
    "glob",
    "isdir",
    "isfile",
    "listdir",
    "makedirs",
    "normpath",
    "read",
    "remove",
    "rmtree",
    "write",
]

MAX_BYTES = 64 * 2**20
MAX_FILES = 10_000
MAX_PATH = 4096  # characters in a path (the usual PATH_MAX)


class StoredFile(NamedTuple):
    """One saved file: its kind, its config (JSON text), its arrays and an optional live object."""

    kind: str
    config_json: str
    arrays: Mapping[str, np.ndarray]
    live: Any
    size: int

    @property
    def config(self) -> Any:
        """A fresh copy of the config."""
        return json.loads(self.config_json)


class _Folder:
    """The files (path → StoredFile) and the folders a run made, with their total size."""

    def __init__(self) -> None:
        self.files: dict[str, StoredFile] = {}
        self.dirs: dict[str, None] = {"/": None}
        self.size = 0


class _State(threading.local):
    def __init__(self) -> None:
        self.folder = _Folder()
        self.environ: dict[str, str] = {}


_STATE = _State()
run_state.register_attributes(
    "tapeviz.tf.run_files", _STATE, lambda: {"folder": _Folder(), "environ": {}}
)


def fspath(path: Any) -> str:
    """``path`` as text (``str``, ``bytes`` or a path object), as ``os.fspath`` takes it."""
    if isinstance(path, bytes):
        return path.decode()
    if isinstance(path, str):
        return path
    if hasattr(type(path), "__fspath__"):
        out = os.fspath(path)
        return out.decode() if isinstance(out, bytes) else out
    raise TypeError(f"expected str, bytes or os.PathLike object, not {type(path).__name__}")


def check_length(text: str) -> None:
    """Refuse a path longer than the system's (4,096 characters), as the OS does."""
    if len(text) > MAX_PATH:
        raise OSError(36, f"File name too long: '{text[:40]}…' (a path has at most {MAX_PATH:,} "
                          "characters)")  # fmt: skip


def normpath(path: Any) -> str:
    """Where ``path`` is in the run's folder: an absolute, normalised name (``..`` stops at /)."""
    text = fspath(path).replace("\\", "/")
    check_length(text)
    if not text:
        raise FileNotFoundError("[Errno 2] No such file or directory: ''")
    return posixpath.normpath(posixpath.join("/", text)).replace("//", "/")


def _parents(key: str) -> Iterator[str]:
    parent = posixpath.dirname(key)
    while parent != "/":
        yield parent
        parent = posixpath.dirname(parent)


def _size(config_json: str, arrays: Mapping[str, np.ndarray], extra: int) -> int:
    return len(config_json) + sum(int(a.nbytes) for a in arrays.values()) + int(extra)


def _refuse(shown: str, total: int, files: int) -> ResourceLimitError:
    if files > MAX_FILES:
        text = (
            f"saving '{shown}' would make {files:,} files (or folders) in the run's folder, more "
            f"than the limit of {MAX_FILES:,}"
        )
    else:
        text = (
            f"saving '{shown}' would make the run's saved files {total / 2**20:,.1f} MB, more "
            f"than the limit of {MAX_BYTES // 2**20} MB (what a script saves stays in memory, "
            "for the run only)"
        )
    return ResourceLimitError(text, "save", "saved files")


def write(
    path: Any,
    kind: str,
    config: Any,
    arrays: Mapping[str, Any] | None = None,
    live: Any = None,
    extra_bytes: int = 0,
) -> str:
    """Store a file at ``path`` (replacing one there); returns its key in the folder.

    ``config`` must be JSON-able (it is kept as JSON text); ``arrays`` are copied.
    """
    key = normpath(path)
    folder = _STATE.folder
    if key in folder.dirs:
        raise IsADirectoryError(f"[Errno 21] Is a directory: '{fspath(path)}'")
    for parent in _parents(key):
        if parent in folder.files:
            raise NotADirectoryError(f"[Errno 20] Not a directory: '{fspath(path)}'")
    config_json = json.dumps(config, allow_nan=True)
    stored = {str(k): np.array(np.asarray(v), copy=True) for k, v in (arrays or {}).items()}
    for a in stored.values():
        a.setflags(write=False)
    size = _size(config_json, stored, extra_bytes)
    old = folder.files.get(key)
    total = folder.size - (old.size if old else 0) + size
    count = len(folder.files) + (old is None)
    if total > MAX_BYTES or count > MAX_FILES:
        raise _refuse(fspath(path), total, count)
    for parent in _parents(key):
        folder.dirs.setdefault(parent, None)
    folder.files[key] = StoredFile(kind, config_json, stored, live, size)
    folder.size = total
    return key


def read(path: Any) -> StoredFile | None:
    """The file at ``path``, or None if there is none."""
    return _STATE.folder.files.get(normpath(path))


def exists(path: Any) -> bool:
    """Whether a file or a folder is at ``path``."""
    key = normpath(path)
    folder = _STATE.folder
    return key in folder.files or key in folder.dirs


def isfile(path: Any) -> bool:
    """Whether a file is at ``path``."""
    return normpath(path) in _STATE.folder.files


def isdir(path: Any) -> bool:
    """Whether a folder is at ``path``."""
    return normpath(path) in _STATE.folder.dirs


def getsize(path: Any) -> int:
    """The bytes a file takes (arrays plus config text)."""
    found = read(path)
    if found is None:
        raise FileNotFoundError(f"[Errno 2] No such file or directory: '{fspath(path)}'")
    return found.size


def listdir(path: Any = ".") -> list[str]:
    """The names in the folder at ``path`` (files and folders, sorted)."""
    key = normpath(path)
    folder = _STATE.folder
    if key in folder.files:
        raise NotADirectoryError(f"[Errno 20] Not a directory: '{fspath(path)}'")
    if key not in folder.dirs:
        raise FileNotFoundError(f"[Errno 2] No such file or directory: '{fspath(path)}'")
    names = {posixpath.basename(k) for k in (*folder.files, *folder.dirs)
             if k != "/" and posixpath.dirname(k) == key}  # fmt: skip
    return sorted(names)


def makedirs(path: Any, exist_ok: bool = False) -> None:
    """Create the folder ``path`` and its parents."""
    key = normpath(path)
    folder = _STATE.folder
    if key in folder.files or any(p in folder.files for p in _parents(key)):
        raise FileExistsError(f"[Errno 17] File exists: '{fspath(path)}'")
    if key in folder.dirs:
        if not exist_ok:
            raise FileExistsError(f"[Errno 17] File exists: '{fspath(path)}'")
        return
    if len(folder.dirs) + len(folder.files) > 2 * MAX_FILES:
        raise _refuse(fspath(path), folder.size, len(folder.dirs) + len(folder.files))
    for parent in (*reversed(list(_parents(key))), key):
        folder.dirs.setdefault(parent, None)


def mkdir(path: Any) -> None:
    """Create the folder ``path`` (its parent must exist)."""
    key = normpath(path)
    folder = _STATE.folder
    if key in folder.dirs or key in folder.files:
        raise FileExistsError(f"[Errno 17] File exists: '{fspath(path)}'")
    if posixpath.dirname(key) not in folder.dirs:
        raise FileNotFoundError(f"[Errno 2] No such file or directory: '{fspath(path)}'")
    makedirs(path)


def remove(path: Any) -> None:
    """Delete the file at ``path``."""
    key = normpath(path)
    folder = _STATE.folder
    if key in folder.dirs:
        raise IsADirectoryError(f"[Errno 21] Is a directory: '{fspath(path)}'")
    old = folder.files.pop(key, None)
    if old is None:
        raise FileNotFoundError(f"[Errno 2] No such file or directory: '{fspath(path)}'")
    folder.size -= old.size


def rmtree(path: Any) -> None:
    """Delete the folder at ``path`` and everything in it."""
    key = normpath(path)
    folder = _STATE.folder
    if key not in folder.dirs:
        raise FileNotFoundError(f"[Errno 2] No such file or directory: '{fspath(path)}'")
    inside = key.rstrip("/") + "/"
    for name in [k for k in folder.files if k.startswith(inside)]:
        folder.size -= folder.files.pop(name).size
    for name in [k for k in folder.dirs if k.startswith(inside) or k == key]:
        if name != "/":
            del folder.dirs[name]


def glob(pattern: Any) -> list[str]:
    """The paths matching ``pattern`` (``*``, ``?``, ``[...]`` within one folder level)."""
    text = fspath(pattern)
    key = normpath(text)
    folder = _STATE.folder
    depth = key.count("/")
    names = (k for k in (*folder.files, *folder.dirs) if k != "/" and k.count("/") == depth)
    match = re.compile(fnmatch.translate(key)).match  # (fnmatch's own cache outlives the run)
    hits = sorted(k for k in names if match(k))
    if text.startswith("/"):
        return hits
    base = normpath(".")
    prefix = "./" if text.startswith("./") else ""
    return [prefix + posixpath.relpath(h, base) for h in hits]


class Environ:
    """The run's ``os.environ``: a dict of text that starts empty for each run."""

    def _data(self) -> dict[str, str]:
        return _STATE.environ

    def __getitem__(self, key: str) -> str:
        return self._data()[key]

    def __setitem__(self, key: str, value: str) -> None:
        if not isinstance(key, str) or not isinstance(value, str):
            raise TypeError(
                "str expected, not " + type(value if isinstance(key, str) else key).__name__
            )
        if len(self._data()) >= 1000 and key not in self._data():
            raise ResourceLimitError("os.environ holds at most 1,000 names", "environ", "size")
        self._data()[key] = value

    def __delitem__(self, key: str) -> None:
        del self._data()[key]

    def __contains__(self, key: object) -> bool:
        return key in self._data()

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._data()))

    def __len__(self) -> int:
        return len(self._data())

    def get(self, key: str, default: Any = None) -> Any:
        """The value of ``key``, or ``default``."""
        return self._data().get(key, default)

    def setdefault(self, key: str, default: str) -> str:
        """The value of ``key``, set to ``default`` first if it has none."""
        if key not in self._data():
            self[key] = default
        return self._data()[key]

    def pop(self, key: str, *default: Any) -> Any:
        """Remove ``key`` and return its value (or ``default``)."""
        return self._data().pop(key, *default)

    def keys(self) -> list[str]:
        """The names set."""
        return list(self._data())

    def values(self) -> list[str]:
        """The values set."""
        return list(self._data().values())

    def items(self) -> list[tuple[str, str]]:
        """(name, value) pairs."""
        return list(self._data().items())

    def __repr__(self) -> str:
        return f"environ({self._data()!r})"


ENVIRON = Environ()
