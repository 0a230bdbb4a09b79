"""Smoke test: the optimization studio benchmark runs end to end in --quick mode."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.timeout(180)
def test_bench_descent_quick_runs() -> None:
    proc = subprocess.run(
        [sys.executable, "benchmarks/bench_descent.py", "--quick"],
        cwd=ROOT,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        capture_output=True,
        text=True,
        timeout=170,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    results = [line for line in proc.stdout.splitlines() if line.startswith("RESULT")]
    assert len(results) == 3
    assert all(line.endswith(("PASS", "MISS")) for line in results)
    assert "bit-identical: True" in proc.stdout
