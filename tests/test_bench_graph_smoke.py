"""Smoke test: the graph view benchmark runs end to end in --quick mode."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.timeout(180)
def test_bench_graph_quick_runs() -> None:
    proc = subprocess.run(
        [sys.executable, "benchmarks/bench_graph.py", "--quick"],
        cwd=ROOT,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        capture_output=True,
        text=True,
        timeout=170,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "RESULT" in proc.stdout
