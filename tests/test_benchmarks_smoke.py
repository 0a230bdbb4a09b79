"""Smoke tests: every benchmark script runs end to end in --quick mode and prints RESULT lines."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def quick(script: str) -> str:
    proc = subprocess.run(
        [sys.executable, f"benchmarks/{script}", "--quick"],
        cwd=ROOT,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        capture_output=True,
        text=True,
        timeout=170,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "RESULT" in proc.stdout
    return proc.stdout


@pytest.mark.timeout(180)
@pytest.mark.parametrize(
    "script",
    [
        "bench_engine.py",
        "bench_sandbox.py",
        "bench_graph.py",
        "bench_isolation.py",
        "bench_network.py",
        "bench_figures_ui.py",
    ],
)
def test_benchmark_quick_runs(script: str) -> None:
    quick(script)


@pytest.mark.timeout(180)
def test_bench_descent_quick_runs() -> None:
    out = quick("bench_descent.py")
    results = [line for line in out.splitlines() if line.startswith("RESULT")]
    assert len(results) == 3
    assert all(line.endswith(("PASS", "MISS")) for line in results)
    assert "bit-identical: True" in out


@pytest.mark.timeout(180)
def test_bench_network_ui_quick_runs() -> None:
    out = quick("bench_network_ui.py")
    results = [line for line in out.splitlines() if line.startswith("RESULT N5")]
    assert [r.split(":")[0] for r in results] == [
        "RESULT N5 fps",
        "RESULT N5 steps_per_s",
        "RESULT N5 ui_block_ms",
    ]
    assert all(line.endswith(("PASS", "MISS")) for line in results)
