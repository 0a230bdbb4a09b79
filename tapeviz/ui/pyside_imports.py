"""PySide6's per-import check, made cheap: a third of the window's own import time.

Once PySide6 is imported, its ``__feature__`` support (PYSIDE-2029) asks of every module
imported after it whether it uses PySide6, by ``inspect.getsource(module)`` and a search for
the string "PySide6": tokenizing and line-caching each of the ~200 modules the window
imports, ~60 ms of a ~200 ms import here. :func:`quicken_feature_check` gives PySide6 the same
answer from the file's bytes (the same search, without the tokenizer) and leaves every other
case (builtins, modules without a ``.py`` file, unreadable files) to PySide6's own check.
"""

from __future__ import annotations

import sys
from types import ModuleType

import PySide6  # noqa: F401  (makes PySide6's feature support; importing it is the window's first step)

FEATURE = "shibokensupport.feature"


def uses_pyside(module: ModuleType, original: object) -> bool:
    """PySide6's answer for ``module``: does its source contain "PySide6"."""
    path = getattr(module, "__file__", None)
    if isinstance(path, str) and path.endswith(".py"):
        try:
            with open(path, "rb") as f:
                return b"PySide6" in f.read()
        except OSError:
            pass
    return bool(original(module))  # type: ignore[operator]


def quicken_feature_check() -> bool:
    """Install the cheap check in PySide6's feature support (once; False if it is not there)."""
    feature = sys.modules.get(FEATURE)
    original = getattr(feature, "_mod_uses_pyside", None)
    if not callable(original) or getattr(original, "original", None) is not None:
        return False

    def check(module: ModuleType) -> bool:
        return uses_pyside(module, original)

    check.original = original  # type: ignore[attr-defined]
    feature._mod_uses_pyside = check  # type: ignore[union-attr]
    return True
