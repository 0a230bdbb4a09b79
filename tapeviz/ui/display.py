"""Whether a window can open here, said in one line before Qt aborts on it.

Without a display, or without the X11 libraries of Qt's xcb plugin, ``QApplication`` ends the
process with "could not load the Qt platform plugin xcb … Aborted". :func:`display_problem`
finds both first (no Qt import: it only reads the environment and loads the libraries).
"""

from __future__ import annotations

import ctypes
import os
import re
import sys
from collections.abc import Callable, Mapping

# What Qt's xcb platform plugin (libqxcb.so, libQt6XcbQpa.so.6) links to, besides libc and GL.
XCB_LIBRARIES = (
    "libxcb.so.1", "libX11.so.6", "libX11-xcb.so.1", "libxkbcommon.so.0",
    "libxkbcommon-x11.so.0", "libxcb-cursor.so.0", "libxcb-icccm.so.4", "libxcb-image.so.0",
    "libxcb-keysyms.so.1", "libxcb-randr.so.0", "libxcb-render.so.0", "libxcb-render-util.so.0",
    "libxcb-shape.so.0", "libxcb-shm.so.0", "libxcb-sync.so.1", "libxcb-util.so.1",
    "libxcb-xfixes.so.0", "libxcb-xkb.so.1",
)  # fmt: skip
HEADLESS = "tapeviz export --preset NAME --gif out.gif (see 'tapeviz export --help')"


def debian_package(library: str) -> str:
    """The Debian package of a shared library: ``libxcb-cursor.so.0`` -> ``libxcb-cursor0``."""
    match = re.fullmatch(r"(.+)\.so\.(\d+)", library)
    if match is None:
        return library
    stem, number = match.group(1).lower(), match.group(2)
    return f"{stem}-{number}" if stem[-1].isdigit() else f"{stem}{number}"


def _loads(library: str) -> bool:
    try:
        ctypes.CDLL(library)
    except OSError:
        return False
    return True


def missing_libraries(loads: Callable[[str], bool] = _loads) -> list[str]:
    """The libraries of Qt's xcb plugin that do not load here."""
    return [lib for lib in XCB_LIBRARIES if not loads(lib)]


def display_problem(
    env: Mapping[str, str] | None = None,
    platform: str = sys.platform,
    loads: Callable[[str], bool] = _loads,
) -> str | None:
    """Why no window can open here, in one line (None: it can, or Qt decides elsewhere)."""
    env = os.environ if env is None else env
    if env.get("QT_QPA_PLATFORM") or not platform.startswith("linux"):
        return None  # a platform asked for by name (offscreen, wayland, …), or not Linux
    if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        return (
            "no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset): run it "
            f"in a desktop session or over ssh -X, or render files without a window: {HEADLESS}"
        )
    if env.get("WAYLAND_DISPLAY") and not env.get("DISPLAY"):
        return None  # Qt's wayland plugin
    missing = missing_libraries(loads)
    if missing:
        packages = " ".join(dict.fromkeys(debian_package(lib) for lib in missing))
        return (
            f"Qt's X11 (xcb) plugin needs libraries that are not installed: sudo apt install "
            f"{packages} (the README lists them); without a window: {HEADLESS}"
        )
    return None
