"""The timeline benchmark runs end to end in --quick mode and prints its three RESULT lines."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.timeout(300)
def test_bench_timeline_quick_runs() -> None:
    proc = subprocess.run(
        [sys.executable, "benchmarks/bench_timeline.py", "--quick"],
        cwd=ROOT,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        capture_output=True,
        text=True,
        timeout=280,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    results = [line for line in proc.stdout.splitlines() if line.startswith("RESULT")]
    assert [r.split()[1] for r in results] == ["T1", "T2", "T3"]
    assert all(r.endswith(("PASS", "MISS")) for r in results)
