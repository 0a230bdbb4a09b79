"""``import os`` in a script: paths and the run's own folder, nothing of the real system.

Scripts that save a model find their folder the usual way (``os.path.join``,
``os.path.dirname``, ``os.path.exists(checkpoint_path)``, ``os.makedirs(d, exist_ok=True)``,
``os.listdir(checkpoint_dir)``): every name here works on the run's own folder, which lives in
memory (:mod:`tapeviz.tf.run_files`), whose root ``/`` is the run's working folder.
``os.environ`` is the run's own, empty at the start of each run (``os.environ[
"TF_CPP_MIN_LOG_LEVEL"] = "2"`` works and changes nothing else).
"""

from __future__ import annotations

import posixpath
from typing import Any

from tapeviz.engine.namespace import Namespace
from tapeviz.tf import run_files

__all__ = ["OS"]


def _text(path: Any) -> str:
    return run_files.fspath(path)


def join(path: Any, *paths: Any) -> str:
    """``os.path.join``."""
    return posixpath.join(_text(path), *(_text(p) for p in paths))


def dirname(path: Any) -> str:
    """``os.path.dirname``."""
    return posixpath.dirname(_text(path))


def basename(path: Any) -> str:
    """``os.path.basename``."""
    return posixpath.basename(_text(path))


def split(path: Any) -> tuple[str, str]:
    """``os.path.split``."""
    return posixpath.split(_text(path))


def splitext(path: Any) -> tuple[str, str]:
    """``os.path.splitext``."""
    return posixpath.splitext(_text(path))


def normpath(path: Any) -> str:
    """``os.path.normpath``."""
    return posixpath.normpath(_text(path))


def abspath(path: Any) -> str:
    """The path in the run's folder (its root ``/`` is the working folder)."""
    return run_files.normpath(path)


def expanduser(path: Any) -> str:
    """``os.path.expanduser``: the path unchanged (no home folder here)."""
    return _text(path)


def getcwd() -> str:
    """The run's working folder: the root of its own folder."""
    return "/"


def getenv(key: str, default: Any = None) -> Any:
    """A name of the run's ``os.environ``."""
    return run_files.ENVIRON.get(key, default)


def cpu_count() -> int:
    """One: a run computes on one CPU thread."""
    return 1


OS = Namespace(
    "os",
    {
        "path": Namespace(
            "os.path",
            {"join": join, "dirname": dirname, "basename": basename, "split": split,
             "splitext": splitext, "normpath": normpath, "abspath": abspath,
             "expanduser": expanduser, "exists": run_files.exists, "isfile": run_files.isfile,
             "isdir": run_files.isdir, "getsize": run_files.getsize, "sep": "/"},
        ),
        "listdir": run_files.listdir, "makedirs": run_files.makedirs, "mkdir": run_files.mkdir,
        "remove": run_files.remove, "unlink": run_files.remove, "getcwd": getcwd,
        "environ": run_files.ENVIRON, "getenv": getenv, "cpu_count": cpu_count, "sep": "/",
        "curdir": ".", "pardir": "..",
    },
)  # fmt: skip
