"""Smoke test: the engine benchmark runs end to end in --quick mode."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.timeout(120)
def test_bench_engine_quick_runs() -> None:
    proc = subprocess.run(
        [sys.executable, "benchmarks/bench_engine.py", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=110,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "RESULT" in proc.stdout
