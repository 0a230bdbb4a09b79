"""``from pathlib import Path`` in a script: paths in the run's own folder.

Courses save models with ``MODEL_PATH = Path("models"); MODEL_PATH.mkdir(parents=True,
exist_ok=True); torch.save(model.state_dict(), MODEL_PATH / "model_0.pth")``. :class:`Path` is
the pure-path part of pathlib (``/``, ``name``, ``stem``, ``suffix``, ``parent``, ``parts``,
``with_suffix``) over the run's in-memory folder (:mod:`tapeviz.tf.run_files`, as ``os``):
``exists``, ``is_file``, ``is_dir``, ``mkdir``, ``unlink``, ``iterdir``, ``glob`` and
``stat().st_size``. Nothing reaches the real file system; text files are not kept.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from typing import Any

from tapeviz.engine.namespace import Namespace
from tapeviz.tf import run_files

__all__ = ["PATHLIB", "Path"]


class StatResult:
    """What ``Path.stat()`` gives: the file's size."""

    def __init__(self, size: int) -> None:
        self.st_size = size


class Path:
    """A path in the run's folder (``PosixPath``): join with ``/``, ask the folder about it."""

    def __init__(self, *parts: Any) -> None:
        texts = [run_files.fspath(p) for p in parts]
        if sum(map(len, texts)) + len(texts) > run_files.MAX_PATH:  # (before joining them)
            run_files.check_length("/".join(t[:64] for t in texts[:64]) + " " * run_files.MAX_PATH)
        joined = posixpath.join(*texts) if texts else "."
        self._text = posixpath.normpath(joined) if joined else "."

    # -- the path itself -------------------------------------------------------------------------
    def __fspath__(self) -> str:
        return self._text

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"PosixPath({self._text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Path) and other._text == self._text

    def __hash__(self) -> int:
        return hash(self._text)

    def __lt__(self, other: Path) -> bool:
        return self._text < other._text

    def __truediv__(self, other: Any) -> Path:
        return Path(self._text, other)

    def __rtruediv__(self, other: Any) -> Path:
        return Path(other, self._text)

    def joinpath(self, *others: Any) -> Path:
        """The path joined with ``others``."""
        return Path(self._text, *others)

    @property
    def name(self) -> str:
        """The last part (``model_0.pth``)."""
        return posixpath.basename(self._text) if self._text not in (".", "/") else ""

    @property
    def suffix(self) -> str:
        """The last part's extension (``.pth``)."""
        return posixpath.splitext(self.name)[1]

    @property
    def suffixes(self) -> list[str]:
        """Every extension of the last part (``['.tar', '.gz']``)."""
        name = self.name.lstrip(".")
        return ["." + s for s in name.split(".")[1:]] if "." in name else []

    @property
    def stem(self) -> str:
        """The last part without its extension."""
        return posixpath.splitext(self.name)[0]

    @property
    def parent(self) -> Path:
        """The folder holding this path."""
        return Path(posixpath.dirname(self._text) or ".")

    @property
    def parts(self) -> tuple[str, ...]:
        """The path's parts (``('models', 'model_0.pth')``)."""
        head = ("/",) if self._text.startswith("/") else ()
        return head + tuple(p for p in self._text.split("/") if p and p != ".")

    def with_suffix(self, suffix: str) -> Path:
        """The same path with another extension."""
        return self.parent / (self.stem + str(suffix))

    def with_name(self, name: str) -> Path:
        """The same folder, another last part."""
        return self.parent / str(name)

    def absolute(self) -> Path:
        """The path from the run folder's root."""
        return Path(run_files.normpath(self._text))

    def resolve(self, strict: bool = False) -> Path:
        """The path from the run folder's root, normalised."""
        return self.absolute()

    def is_absolute(self) -> bool:
        """Whether the path starts at the root."""
        return self._text.startswith("/")

    # -- the run's folder ------------------------------------------------------------------------
    def exists(self) -> bool:
        """Whether a file or folder is there."""
        return run_files.exists(self._text)

    def is_file(self) -> bool:
        """Whether a file is there."""
        return run_files.isfile(self._text)

    def is_dir(self) -> bool:
        """Whether a folder is there."""
        return run_files.isdir(self._text)

    def mkdir(self, mode: int = 0o777, parents: bool = False, exist_ok: bool = False) -> None:
        """Make the folder (with its parents if asked)."""
        if parents:
            run_files.makedirs(self._text, exist_ok=exist_ok)
        elif not (exist_ok and run_files.isdir(self._text)):
            run_files.mkdir(self._text)

    def unlink(self, missing_ok: bool = False) -> None:
        """Delete the file."""
        if missing_ok and not run_files.exists(self._text):
            return
        run_files.remove(self._text)

    def iterdir(self) -> Iterator[Path]:
        """The paths in this folder."""
        return iter([self / name for name in run_files.listdir(self._text)])

    def glob(self, pattern: str) -> Iterator[Path]:
        """The paths in this folder matching ``pattern``."""
        base = self._text.rstrip("/") or "/"
        return iter([Path(p) for p in run_files.glob(posixpath.join(base, str(pattern)))])

    def stat(self) -> StatResult:
        """The file's size (``st_size``)."""
        return StatResult(run_files.getsize(self._text))

    @classmethod
    def cwd(cls) -> Path:
        """The run's working folder."""
        return cls(run_files.normpath("."))


PATHLIB = Namespace("pathlib", {"Path": Path, "PosixPath": Path, "PurePath": Path,
                                "PurePosixPath": Path})  # fmt: skip
