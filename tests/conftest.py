"""Test-wide setup: Qt must run offscreen on machines without a display."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable

import pytest

# Set before anything imports Qt; without it a headless run aborts (exit 134, no message).
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The app's settings and autosaves go to a throwaway folder, never the user's own.
_HOME = tempfile.mkdtemp(prefix="tapeviz-tests-")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME, "config")
os.environ["TAPEVIZ_DATA_DIR"] = os.path.join(_HOME, "data")


@pytest.fixture
def lines_of() -> Callable[[str], list[str]]:
    """Run a script in the sandbox (in-process); the lines it printed. The run must not fail."""
    from tapeviz.sandbox import run

    def lines(code: str) -> list[str]:
        r = run(code)
        assert r.error is None, r.error
        return r.output.splitlines()

    return lines
