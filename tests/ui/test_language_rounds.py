"""Twenty language round trips in a subprocess: never a crash, and every rebuild keeps the view.

The rebuilt window must keep the window's size, the graph's zoom and place, the tape and
gradient() call shown and the chain-rule panel (see language_rounds.py). A segfault in a
subprocess under ``-X faulthandler`` shows its stack here instead of killing pytest.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROUNDS = Path(__file__).with_name("language_rounds.py")


@pytest.mark.timeout(900)
def test_twenty_round_trips_to_chinese_keep_everything_and_never_crash() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run(
        [sys.executable, "-X", "faulthandler", str(ROUNDS), "--rounds", "20"],
        capture_output=True,
        text=True,
        env=env,
        timeout=840,
    )
    tail = (done.stdout[-3000:] + "\n" + done.stderr[-6000:]).strip()
    assert done.returncode == 0, f"the round trips ended with status {done.returncode}:\n{tail}"
    assert "ROUNDS OK" in done.stdout, tail
    assert done.stdout.count("kept everything") == 20, tail
