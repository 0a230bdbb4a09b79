"""Optimization studio benchmark: replayed races, surface sampling, one animation frame.

Run from the repository root::

    python benchmarks/bench_descent.py          # full run
    python benchmarks/bench_descent.py --quick  # smoke run for tests/CI (< 30 s)

- race: 6 optimizers (SGD, Momentum, Nesterov, Adam, RMSprop, Adagrad) × 10,000 steps on
  Rosenbrock from (−1.2, 1), float64, ``compute_race`` (the loss traced once and replayed with
  a run axis); best of N, including the trace and the replay's self-check. The peer, in the
  same run, is a fresh GradientTape and ``apply_gradients`` every step (the seed's loop) for
  2 of the optimizers over 1,000 steps; the ratio compares time per run-step. The two must
  agree bit for bit (checked).
- surface: the 200×200 grid of the traced Rosenbrock (engine IMPL on arrays, no tape) against
  the same formula hand-written in numpy; plus the contour lines the studio draws.
- frame: an OptimizationStudio offscreen (1600×900) playing the Rosenbrock race preset with
  4 runs of 10,000 steps: ``show_step(k)`` and a repaint of the four plots, median of N
  frames. "graph" adds what a linked graph view costs when the studio sends a step's tape:
  ``tape_at`` (the sandbox run of step k) and a GraphModel + GraphView update (the studio
  sends a tape at most 4 times a second while playing).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from dataclasses import replace

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
from _common import best_of  # benchmarks/_common.py, beside this script
from PySide6 import __version__ as pyside_version
from PySide6.QtWidgets import QApplication

import tapeviz as tv
from tapeviz.models.descent.demos import studio_presets
from tapeviz.models.descent.optimizer_config import PALETTE, OptimizerConfig, RunConfig
from tapeviz.models.descent.problem import Problem
from tapeviz.models.descent.replay import Replay
from tapeviz.models.descent.runs import compute_race
from tapeviz.models.descent.surface import Sampler
from tapeviz.models.graph.model import GraphModel
from tapeviz.sandbox import VariableSpec

ROSENBROCK = Problem(
    "(1 - x)**2 + 100*(y - x**2)**2",
    [VariableSpec("x", -1.2, dtype="float64"), VariableSpec("y", 1.0, dtype="float64")],
)
OPTIMIZERS = [
    ("SGD", 1e-3),
    ("Momentum", 1e-3),
    ("Nesterov", 1e-3),
    ("Adam", 0.05),
    ("RMSprop", 1e-3),
    ("Adagrad", 0.1),
]
RUNS = [
    RunConfig(OptimizerConfig(k, {"learning_rate": lr}), PALETTE[i])
    for i, (k, lr) in enumerate(OPTIMIZERS)
]


def bench_race(reps: int) -> dict[str, float]:
    steps = 10_000
    replay = best_of(lambda: compute_race(ROSENBROCK, RUNS, steps), reps)
    method = compute_race(ROSENBROCK, RUNS, 50).method
    one_by_one = best_of(lambda: compute_race(ROSENBROCK, RUNS, steps, method="replay"), 1)
    eager_steps = 1_000
    eager = best_of(lambda: compute_race(ROSENBROCK, RUNS[:2], eager_steps, method="eager"), 1)
    a = compute_race(ROSENBROCK, RUNS[:2], eager_steps, method="eager")
    b = compute_race(ROSENBROCK, RUNS, eager_steps)
    same = all(np.array_equal(x.params, y.params) for x, y in zip(a.runs, b.runs, strict=False))
    if not same:
        sys.exit("FAILURE: the replay and the eager tape disagree")
    per_replay = replay / (len(RUNS) * (steps + 1))
    per_eager = eager / (2 * (eager_steps + 1))
    print(
        f"race: 6 × {steps:,} Rosenbrock steps {replay * 1e3:.0f} ms ({method}); one run at a "
        f"time {one_by_one * 1e3:.0f} ms; eager tape {per_eager * 1e6:.1f} µs/step vs "
        f"{per_replay * 1e6:.2f} µs/step replayed: {per_eager / per_replay:.0f}x; "
        f"bit-identical: {same}"
    )
    return {
        "race": replay,
        "ratio": per_eager / per_replay,
        "eager_projected": per_eager * len(RUNS) * (steps + 1),
    }


def bench_surface(reps: int) -> dict[str, float]:
    loss = ROSENBROCK.compile()
    sampler = Sampler(Replay(loss.trace(ROSENBROCK.start())))
    grid = sampler.grid(0, 1, (-2.0, 2.0), (-1.0, 3.0), n=200)
    ours = best_of(lambda: sampler.grid(0, 1, (-2.0, 2.0), (-1.0, 3.0), n=200), reps)

    def by_hand() -> np.ndarray:
        x, y = np.meshgrid(np.linspace(-2, 2, 200), np.linspace(-1, 3, 200))
        return (1 - x) ** 2 + 100 * (y - x**2) ** 2

    hand = best_of(by_hand, reps)
    if not np.array_equal(grid.z, by_hand()):
        sys.exit("FAILURE: the sampled surface differs from the formula")
    contours = best_of(grid.contours, reps)
    print(
        f"surface: 200×200 grid {ours * 1e3:.1f} ms (hand-written numpy {hand * 1e3:.2f} ms, "
        f"{ours / hand:.1f}x); {len(grid.levels)} contour levels {contours * 1e3:.1f} ms; "
        f"log-spaced: {grid.log}"
    )
    return {"surface": ours, "hand": hand, "contours": contours}


def bench_frame(app: QApplication, frames: int) -> dict[str, float]:
    from tapeviz.ui.graph.view import GraphView
    from tapeviz.ui.studio.studio import OptimizationStudio

    preset = studio_presets()["rosenbrock-race"]
    studio = OptimizationStudio()
    studio.resize(1600, 900)
    studio.show()
    studio.set_config(replace(preset.config, steps=10_000))
    studio.set_problem(preset.problem)
    t0 = time.perf_counter()
    while studio.race is None and time.perf_counter() - t0 < 60:
        app.processEvents()
        time.sleep(0.005)
    if studio.race is None:
        sys.exit("FAILURE: the studio computed nothing")
    app.processEvents()
    plots = [studio.surface, *studio.steps.plots]
    points = sum(len(r["x"]) for r in studio.surface.runs)

    def frame(k: int) -> None:
        studio.show_step(k)
        for plot in plots:
            plot.viewport().repaint()

    for k in range(5):
        frame(3000 + k)
    times = []
    for i in range(frames):
        t = time.perf_counter()
        frame(4000 + 97 * i)
        times.append(time.perf_counter() - t)
    model, view = GraphModel(), GraphView()
    view.animation_ms = 0
    view.set_model(model)
    view.resize(800, 600)
    view.show()
    graph = []
    for i in range(max(5, frames // 5)):
        t = time.perf_counter()
        result = studio.race.tape_at(0, 4000 + 97 * i)
        model.set_tapes(result.tapes)
        view.viewport().repaint()
        graph.append(time.perf_counter() - t)
    studio.shutdown()
    studio.close()
    view.close()
    out = {
        "frame": statistics.median(times),
        "worst": max(times),
        "graph": statistics.median(graph),
    }
    print(
        f"frame: 4 runs × 10,000 steps ({points:,} path points), surface + 3 plots: median "
        f"{out['frame'] * 1e3:.1f} ms, worst {out['worst'] * 1e3:.1f} ms of {frames}; graph "
        f"update (tape_at + GraphModel + GraphView repaint) {out['graph'] * 1e3:.1f} ms"
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short smoke run (< 30 s)")
    quick = parser.parse_args().quick
    reps, frames = (1, 15) if quick else (3, 60)
    app = QApplication.instance() or QApplication(sys.argv)
    print(
        f"tapeviz {tv.__version__} | Python {platform.python_version()} | numpy "
        f"{np.__version__} | PySide6 {pyside_version} ({app.platformName()}) | "
        f"{platform.machine()}, {os.cpu_count()} CPUs | best of {reps}"
        f"{' (--quick)' if quick else ''}"
    )
    race = bench_race(reps)
    surface = bench_surface(max(reps, 3))
    frame = bench_frame(app, frames)
    print()
    print(
        f"RESULT 6 optimizers × 10,000 Rosenbrock steps in {race['race'] * 1e3:.0f} ms "
        f"(eager tape would take ~{race['eager_projected']:.1f} s, {race['ratio']:.0f}x "
        f"slower; target < 1 s) {'PASS' if race['race'] < 1.0 else 'MISS'}"
    )
    print(
        f"RESULT 200×200 Rosenbrock surface in {surface['surface'] * 1e3:.1f} ms "
        f"(hand-written numpy {surface['hand'] * 1e3:.2f} ms; target < 200 ms) "
        f"{'PASS' if surface['surface'] < 0.2 else 'MISS'}"
    )
    total = frame["frame"]
    print(
        f"RESULT animation frame (3 plots + surface, 4 runs × 10,000 steps) "
        f"{total * 1e3:.1f} ms median (graph view update {frame['graph'] * 1e3:.1f} ms, sent "
        f"≤ 4×/s; target < 16 ms) {'PASS' if total < 0.016 else 'MISS'}"
    )


if __name__ == "__main__":
    main()
