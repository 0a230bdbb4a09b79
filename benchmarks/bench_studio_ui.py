"""The studio's speed a user feels, in the real window (offscreen): S1, M1 and X1 of issue 17.

Run from the repository root::

    python benchmarks/bench_studio_ui.py          # full run (~2 min)
    python benchmarks/bench_studio_ui.py --quick  # smoke run (fewer repeats and passes)

It shares ``bench_ui.py``'s window, event loop and RESULT lines (PASS/MISS, peers measured in
the same run). Every figure includes the worker process that runs the loss.

- S1 a learning-rate change in the Rosenbrock race (4 runs × 2,000 steps) → that run's new path
  on screen (the surface view painted with it): the median of N changes, against a bare
  pyqtgraph ``setData`` of 2,000 points until its view painted. Target ≤ 100 ms; the longest
  UI-thread block meanwhile, including the paints of every plot that follow, ≤ 16 ms.
- M1 resident memory over passes over every preset, loaded in turn in the window with the real
  event loop (DeferredDelete processed): growth per pass (median of the passes after the first,
  target ≤ 2 MB), and after every preset and a 6 × 10,000-step race (target ≤ 250 MB). It runs
  before X1, whose exports build their own studio.
- X1 ``tapeviz export`` of the Rosenbrock race in-process: GIF ≤ 2 s, MP4 ≤ 2.5 s (median of N),
  against encoding the same number of blank frames of the same size (the writer's own floor).
"""

from __future__ import annotations

import argparse
import gc
import itertools
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from bench_ui import APP, RESULTS, Gaps, report, resident_mb, wait, window
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget

SETTLE_S = 0.15  # after a change is on screen, the loop runs on this long inside the block's watch


class Paints(QObject):
    """Counts the paint events of a widget (a view's viewport) while ``ready()`` holds."""

    def __init__(self, widget: QWidget, ready: Callable[[], bool] = lambda: True) -> None:
        super().__init__()
        self.count, self.ready = 0, ready
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Count a paint; never consume the event."""
        if event.type() == QEvent.Type.Paint and self.ready():
            self.count += 1
        return False


def bare_path(repeats: int) -> float:
    """Peer: a 2,000-point ``setData`` on a shown PlotWidget, repainted (median ms)."""
    plot = pg.PlotWidget()
    plot.resize(700, 500)
    plot.show()
    item = plot.plot([0.0], [0.0])
    xs = np.arange(2001, dtype=float)
    paints = Paints(plot.viewport())
    wait(lambda: False, 0.3)
    times = []
    for i in range(repeats):
        t0 = time.perf_counter()
        item.setData(xs, np.sin(xs / (50 + i)))
        before = paints.count
        wait(lambda b=before: paints.count > b, 10)
        times.append(time.perf_counter() - t0)
    plot.close()
    return statistics.median(times) * 1e3


def studio_change(w: object, repeats: int) -> None:
    """S1: learning-rate changes of the selected run → the race with its new path drawn."""
    w.load_preset("rosenbrock-race")  # type: ignore[attr-defined]
    w.show_studio() if hasattr(w, "show_studio") else None  # type: ignore[attr-defined]
    studio = w.studio  # type: ignore[attr-defined]
    wait(lambda: studio.race is not None and not studio.busy, 120)
    wait(lambda: False, 0.3)
    peer = bare_path(repeats * 3)
    slider = studio.panel.lr_slider
    old = studio.race
    paints = Paints(studio.surface.viewport(), lambda: studio.race is not old)
    times, worst = [], []
    for i in range(repeats):
        old, paints.count = studio.race, 0
        with Gaps() as gaps:
            t0 = time.perf_counter()
            slider.step(-0.05 if i % 2 == 0 else 0.05)  # an arrow key: 1/20 of a decade
            # the new path is on screen once the surface view painted with the new race
            wait(lambda: paints.count > 0, 120)
            times.append(time.perf_counter() - t0)
            wait(lambda: False, SETTLE_S)  # the other plots' new curves paint meanwhile
        worst.append(gaps.worst_ms)
        wait(lambda: False, 0.25)  # a user's pause between two changes
    report(
        "S1 lr change -> new path on screen (4 x 2,000 steps)",
        statistics.median(times) * 1e3,
        "ms",
        100.0,
        peer,
    )
    report("S1 longest UI-thread block meanwhile (median)", statistics.median(worst), "ms", 16.0)


def memory(w: object, passes: int) -> None:
    """M1: resident memory over passes over every preset, then after a 6 × 10,000 race."""
    from dataclasses import replace

    from tapeviz.models.session.presets import PRESETS

    sizes = []
    for _ in range(passes):
        for name in PRESETS:
            w.load_preset(name)  # type: ignore[attr-defined]
            wait(lambda: w._cancel is None and not w.studio.busy, 120)  # type: ignore[attr-defined]
        wait(lambda: False, 0.2)
        gc.collect()
        sizes.append(resident_mb())
    growth = [b - a for a, b in itertools.pairwise(sizes[1:])] or [sizes[-1] - sizes[0]]
    print(f"   (growth per pass after the first: {', '.join(f'{g:+.1f}' for g in growth)} MB)")
    print(f"   (RSS after each pass: {', '.join(f'{s:.0f}' for s in sizes)} MB)")
    report("M1 resident memory growth per pass over the presets", statistics.median(growth),
           "MB", 2.0)  # fmt: skip
    w.load_preset("rosenbrock-race")  # type: ignore[attr-defined]
    studio = w.studio  # type: ignore[attr-defined]
    wait(lambda: studio.race is not None and not studio.busy, 120)
    config = studio.config()
    runs = (config.runs * 2)[:6]
    studio.set_config(replace(config, runs=runs, steps=10_000, selected=0))
    wait(lambda: studio.race is not None and not studio.busy and studio.race.steps == 10_000, 300)
    wait(lambda: False, 0.2)
    gc.collect()
    report("M1 resident memory after every preset and a 6 x 10,000 race", resident_mb(), "MB",
           250.0)  # fmt: skip


def blank_frames(kind: str, frames: int, size: tuple[int, int], folder: Path) -> float:
    """Peer: imageio writing ``frames`` frames of ``size`` with the exporter's settings (s)."""
    import imageio.v2 as imageio

    from tapeviz.ui.plots.export import FPS

    h, w = size
    frame = np.full((h, w, 3), 255, np.uint8)
    t0 = time.perf_counter()
    if kind == "gif":
        writer = imageio.get_writer(folder / "blank.gif", mode="I", duration=1000 / FPS[kind])
    else:
        writer = imageio.get_writer(folder / "blank.mp4", fps=FPS[kind], codec="libx264",
                                    macro_block_size=2)  # fmt: skip
    for i in range(frames):
        frame[i % h, :, :] = 0
        writer.append_data(frame)
    writer.close()
    return time.perf_counter() - t0


def exports(repeats: int) -> None:
    """X1: GIF and MP4 of the Rosenbrock race through ``tapeviz export`` (median of N)."""
    import imageio.v2 as imageio

    from tapeviz import cli

    folder = Path(tempfile.mkdtemp(prefix="tapeviz-export-"))
    for kind, target in (("gif", 2.0), ("mp4", 2.5)):
        times = []
        path = folder / f"race.{kind}"
        for _ in range(repeats):
            gc.collect()
            t0 = time.perf_counter()
            code = cli.main(["export", "--preset", "rosenbrock-race", f"--{kind}", str(path)])
            times.append(time.perf_counter() - t0)
            assert code == 0, code
        reader = imageio.get_reader(path)
        count = reader.count_frames() if kind == "mp4" else reader.get_length()
        h, w = reader.get_data(0).shape[:2]
        reader.close()
        peer = blank_frames(kind, count, (h, w), folder)
        print(f"   ({kind}: {count} frames of {w}x{h}, "
              f"{path.stat().st_size / 1024:.0f} kB)")  # fmt: skip
        report(f"X1 {kind.upper()} export of the Rosenbrock race", statistics.median(times), "s",
               target, peer)  # fmt: skip


def main() -> int:
    """Run every figure (fewer repeats in --quick)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", choices=["s1", "m1", "x1"], action="append")
    args = parser.parse_args()
    only = args.only or ["s1", "m1", "x1"]
    w = window()
    wait(lambda: False, 1.0)  # the worker warms up
    if "s1" in only:
        studio_change(w, 3 if args.quick else 7)
    if "m1" in only:  # before the exports: their own studio and encoders are not the window's
        memory(w, 2 if args.quick else 5)
    if "x1" in only:
        exports(1 if args.quick else 3)
    w.close()  # type: ignore[attr-defined]
    APP.processEvents()
    print(f"{sum('PASS' in r for r in RESULTS)} of {len(RESULTS)} figures within target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
