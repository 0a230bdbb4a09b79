"""The soak: ~3 minutes of a lecturer's session in a subprocess, failing on any crash.

Segfaults in the window are release blockers; in a subprocess under ``-X faulthandler`` one
shows its stack here instead of killing pytest.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SOAK = Path(__file__).with_name("soak.py")
SECONDS = float(os.environ.get("TAPEVIZ_SOAK_SECONDS", "170"))


@pytest.mark.timeout(SECONDS + 300)
def test_a_lecturers_session_never_crashes_the_window() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run(
        [sys.executable, "-X", "faulthandler", str(SOAK), "--seconds", str(SECONDS)],
        capture_output=True,
        text=True,
        env=env,
        timeout=SECONDS + 240,
    )
    tail = (done.stdout[-3000:] + "\n" + done.stderr[-6000:]).strip()
    assert done.returncode == 0, f"the soak ended with status {done.returncode}:\n{tail}"
    assert "SOAK OK" in done.stdout, tail
