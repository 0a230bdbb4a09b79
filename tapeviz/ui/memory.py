"""The window process's allocator: large arrays go back to the system when they are freed.

glibc serves an allocation above its mmap threshold from a fresh mapping, freed at once; but
after the first such free it raises the threshold (up to 32 MB), so the histories, surfaces and
frames of one preset after another come from the heap instead, where fragments of them keep
memory that the process never returns (RSS crept by 10 to 20 MB per pass over the presets).
:func:`tune_allocator` fixes the threshold at 256 kB and caps the per-thread heaps (the pool's
threads decode results into theirs), once, before the work starts; :func:`trim` hands freed
heap memory back after a full collection. Elsewhere than glibc both do nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from typing import Any

M_MMAP_THRESHOLD = -3  # mallopt parameters (malloc.h)
M_ARENA_MAX = -8
MMAP_THRESHOLD = 256 * 1024
ARENA_MAX = 2
_LIBC: list[Any] = []
_TUNED: list[bool] = []


def _libc() -> Any:
    if not _LIBC:
        lib = None
        if sys.platform.startswith("linux"):
            try:
                lib = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
                lib.mallopt  # noqa: B018 (glibc has it; musl does not)
                lib.malloc_trim  # noqa: B018
            except (OSError, AttributeError):
                lib = None
        _LIBC.append(lib)
    return _LIBC[0]


def tune_allocator() -> bool:
    """Fix glibc's mmap threshold and cap its heaps (once); whether it applied."""
    if _TUNED:
        return _TUNED[0]
    lib = _libc()
    ok = bool(lib) and bool(lib.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))
    if ok:
        lib.mallopt(M_ARENA_MAX, ARENA_MAX)
    _TUNED.append(ok)
    return ok


def trim() -> None:
    """Give freed heap memory back to the system (after a full garbage collection)."""
    lib = _libc()
    if lib:
        lib.malloc_trim(0)
