"""Issue 33, item 8: without a display ``tapeviz`` says so in one line (not Qt's abort)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tapeviz.ui.display import debian_package, display_problem, missing_libraries


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11 and Wayland are Linux's")
def test_tapeviz_without_a_display_says_what_is_missing_in_one_line() -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}  # fmt: skip
    proc = subprocess.run([sys.executable, "-X", "faulthandler", "-m", "tapeviz"], env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert proc.returncode == 2, proc.stderr[-2000:]  # not 134 (Qt's abort)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tapeviz: no display"), proc.stderr
    assert "tapeviz export" in lines[0]  # how to render files without a window


def test_missing_xcb_libraries_are_named_as_debian_packages() -> None:
    gone = {"libxcb-cursor.so.0", "libxkbcommon-x11.so.0", "libX11-xcb.so.1"}
    problem = display_problem({"DISPLAY": ":0"}, "linux", lambda lib: lib not in gone)
    assert problem is not None
    assert "sudo apt install libx11-xcb1 libxkbcommon-x11-0 libxcb-cursor0 (" in problem
    assert "README" in problem and "tapeviz export" in problem
    assert display_problem({"DISPLAY": ":0"}, "linux", lambda lib: True) is None
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}, "linux", lambda lib: False) is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux", lambda lib: False) is None
    assert display_problem({}, "darwin", lambda lib: False) is None
    assert missing_libraries(lambda lib: lib != "libxcb-icccm.so.4") == ["libxcb-icccm.so.4"]
    assert (
        debian_package("libX11.so.6") == "libx11-6" and debian_package("libxcb.so.1") == "libxcb1"
    )
