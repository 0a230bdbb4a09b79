"""Graph view benchmark: model build, layout (ours vs grandalf vs dot), scene build, repaint.

Run from the repository root::

    python benchmarks/bench_graph.py          # full run: tapes of 100, 1,000 and 3,000 ops
    python benchmarks/bench_graph.py --quick  # smoke run for tests/CI: 100 and 300 ops (< 20 s)

Each tape is recorded by the engine (a GradientTape over two tv.Variables: a mix of
mul/add/sin/tanh, each op using the previous result and every 8th op also an earlier one,
as an unrolled computation does), then ``tape.gradient`` is called so the model computes
gradients too. Every layout engine gets the same ids, edges and node sizes (from NodeItems).

Columns (ms; best of N with ``time.perf_counter``, gc enabled):

- model: ``GraphModel([tape])``, including its backward pass.
- layered / grandalf / dot: the layout alone. grandalf runs once in a child process above
  300 nodes, capped at 60 s ("> 60 s": skipped); ``--quick`` skips it above 300 nodes.
- view: a fresh 1600x900 GraphView, ``set_model`` until ``filled`` (NodeItems, layout in a
  worker above 300 nodes, every item and edge added to the scene, fit); scene = view - layered.
- total = model + view ("laid out and built"); block = how long set_model itself took; gap =
  the longest the UI event loop went without running a 5 ms timer until then.
- repaint: the 1,000-op scene fitted in the view, ``view.render`` into a viewport-sized QImage
  and ``viewport().repaint()`` + processEvents, best of 10 each.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import multiprocessing as mp
import os
import platform
import queue
import sys
import time
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from _common import best_of  # benchmarks/_common.py, beside this script
from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication

import tapeviz as tv
from tapeviz.models.graph import layout
from tapeviz.models.graph.model import GraphModel
from tapeviz.ui.graph.items import NodeItem
from tapeviz.ui.graph.view import GraphView
from tapeviz.ui.graph.view_build import BACKGROUND_LAYOUT
from tapeviz.ui.theme import LIGHT

GRANDALF_CAP = 60.0  # s
Graph = tuple[list[str], list[tuple[str, str]], dict[str, tuple[float, float]]]


def record_tape(n: int) -> Any:
    """A tape of ``n`` ops (mul/add/sin/tanh), differentiated once."""
    a, b = tv.Variable(0.9, name="a"), tv.Variable(0.5, name="b")
    outs: list[Any] = []
    with tv.GradientTape() as tape:
        y = a * b
        for k in range(n - 1):
            if k % 4 == 0:
                y = y * 0.9
            elif k % 4 == 1:
                y = y + (outs[-7] if k % 8 == 1 and len(outs) >= 7 else 0.1)  # an earlier one
            else:
                y = tv.sin(y) if k % 4 == 2 else tv.tanh(y)
            outs.append(y)
    tape.gradient(y, [a, b])
    return tape


def graph_of(model: GraphModel) -> Graph:
    """What GraphView hands the layout engine: ids, edges and NodeItem sizes."""
    sizes = {nid: NodeItem(node, LIGHT).size() for nid, node in model.nodes.items()}
    return list(model.nodes), [(e.source, e.target) for e in model.edges], sizes


def _grandalf_child(graph: Graph, out: Any) -> None:
    sys.setrecursionlimit(100_000)
    t0 = time.perf_counter()
    layout.grandalf(*graph)
    out.put(time.perf_counter() - t0)


def grandalf_once(graph: Graph) -> float | None:
    """One grandalf layout in a child process; None if it took longer than the cap."""
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    proc = ctx.Process(target=_grandalf_child, args=(graph, out), daemon=True)
    proc.start()
    try:
        return out.get(timeout=GRANDALF_CAP + 15)  # + the child's start-up
    except queue.Empty:
        return None
    finally:
        proc.terminate()
        proc.join()


def show_model(model: GraphModel) -> tuple[GraphView, float, float, float]:
    """A fresh 1600x900 view showing ``model``: (view, block s, view s, longest UI gap s)."""
    view = GraphView()
    view.resize(1600, 900)
    loop, done, ticks = QEventLoop(), [], []
    timer = QTimer(interval=5)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    # every item built (a big graph shows the part in view at layoutFinished, then fills in)
    view.filled.connect(lambda: (done.append(time.perf_counter()), loop.quit()))
    gc.collect()
    timer.start()
    t0 = time.perf_counter()
    ticks.append(t0)
    view.set_model(model)
    block = time.perf_counter() - t0
    if not done:
        QTimer.singleShot(300_000, loop.quit)
        loop.exec()
    timer.stop()
    if not done:
        sys.exit("FAILURE: the view was never filled (worker error?)")
    ticks.append(done[0])
    gap = max(b - a for a, b in itertools.pairwise(ticks))
    return view, block, done[0] - t0, max(gap, block)


def dispose(view: GraphView) -> None:
    view.close()
    view.deleteLater()
    QApplication.processEvents()


def bench_size(n: int, reps: int, quick: bool) -> dict[str, Any]:
    tape = record_tape(n)
    model = GraphModel([tape])
    if not model.gradients or model.too_large:
        sys.exit(f"FAILURE: model of {n} ops has no gradients or is too large to draw")
    graph = graph_of(model)
    nodes = len(graph[0])
    big = nodes > BACKGROUND_LAYOUT
    row: dict[str, Any] = {"ops": n, "nodes": nodes, "edges": len(graph[1])}
    row["model"] = best_of(lambda: GraphModel([tape]), reps)
    row["layered"] = best_of(lambda: layout.layered(*graph), reps)
    if big and quick:
        row["grandalf"] = "skip"
    elif big:
        took = grandalf_once(graph)
        row["grandalf"] = took if took is not None and took <= GRANDALF_CAP else "> 60 s"
    else:
        row["grandalf"] = best_of(lambda: layout.grandalf(*graph), reps)
    if layout.dot_available():
        row["dot"] = best_of(lambda: layout.dot(*graph), reps if not big else 1)
    runs = []
    for _ in range(reps):
        view, *times = show_model(model)
        runs.append(times)
        if len(view.items) != nodes or len(view.edge_items) != len(graph[1]):
            sys.exit(f"FAILURE: the view of {n} ops has the wrong number of items")
        dispose(view)
    row["block"], row["view"], row["gap"] = (min(col) for col in zip(*runs, strict=True))
    row["scene"] = row["view"] - row["layered"]
    row["total"] = row["model"] + row["view"]
    row["graph_model"] = model
    return row


def bench_repaint(model: GraphModel, repeats: int = 10) -> tuple[float, float]:
    """Best render-to-QImage and viewport-repaint times of the model's fitted scene."""
    view, *_ = show_model(model)
    view.show()
    QApplication.processEvents()
    view.fit()
    vp = view.viewport()
    image = QImage(vp.size(), QImage.Format.Format_ARGB32_Premultiplied)

    def render() -> None:
        painter = QPainter(image)
        view.render(painter)
        painter.end()

    def repaint() -> None:
        vp.repaint()
        QApplication.processEvents()

    rendered, repainted = best_of(render, repeats), best_of(repaint, repeats)
    dispose(view)
    return rendered, repainted


def fmt(v: Any, width: int = 9) -> str:
    if v is None:
        return "—".rjust(width)
    return f"{v * 1e3:{width}.1f}" if isinstance(v, float) else str(v).rjust(width)


COLUMNS = ("ops", "nodes", "edges", "model", "layered", "grandalf", "dot", "view", "scene",
           "total", "block", "gap")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short smoke run (< 20 s)")
    quick = parser.parse_args().quick
    sizes, reps = ((100, 300), 3) if quick else ((100, 1000, 3000), 5)
    app = QApplication.instance() or QApplication(sys.argv)
    print(f"tapeviz {tv.__version__} | Python {platform.python_version()} | PySide6 "
          f"{pyside_version} ({app.platformName()}) | {platform.machine()}, {os.cpu_count()} "
          f"CPUs | best of {reps}{' (--quick)' if quick else ''}")  # fmt: skip
    if not layout.dot_available():
        print("dot not on PATH: the dot column is empty")
    rows = []
    for n in sizes:
        rows.append(bench_size(n, reps, quick))
        print(f"  {n:,} ops done", flush=True)
    print("\ntimes in ms" + "".join(f"{c:>9}" for c in COLUMNS[1:]))
    for r in rows:
        print(f"{r['ops']:>11,}" + "".join(fmt(r.get(c)) for c in COLUMNS[1:]))
    print(
        "grandalf: best of N up to 300 nodes; above, one run in a child process"
        + (" (skipped in --quick)" if quick else ", capped at 60 s")
    )
    for r in rows:
        if isinstance(r["grandalf"], float):
            print(f"  {r['ops']:>5,} ops: layered {r['layered'] / r['grandalf']:.3f}x grandalf"
                  + (f", {r['layered'] / r['dot']:.3f}x dot" if "dot" in r else ""))  # fmt: skip
        elif r["grandalf"] == "> 60 s":
            print(f"  {r['ops']:>5,} ops: grandalf skipped, a single run took over 60 s")
    mid, big = rows[-1] if quick else rows[1], rows[-1]
    rendered, repainted = bench_repaint(mid["graph_model"])
    worst = max(rendered, repainted)
    ms = {k: f"{v * 1e3:.0f}" for k, v in mid.items() if isinstance(v, float)}
    print(
        f"\nrepaint, {mid['ops']:,}-op scene fitted in 1600x900 ({mid['nodes']} nodes): render "
        f"to QImage {rendered * 1e3:.1f} ms, viewport().repaint() {repainted * 1e3:.1f} ms\n"
    )
    print(
        f"RESULT {mid['ops']:,} ops laid out and built in {ms['total']} ms (model {ms['model']} "
        f"+ view {ms['view']}; target < 1 s) {'PASS' if mid['total'] < 1.0 else 'MISS'}"
    )
    print(
        f"RESULT repaint of {mid['ops']:,}-op scene {worst * 1e3:.1f} ms, worse of the two "
        f"(target < 30 ms) {'PASS' if worst < 0.030 else 'MISS'}"
    )
    print(f"RESULT set_model blocks {big['block'] * 1e3:.0f} ms for {big['ops']:,} ops (target "
          f"< 100 ms; longest UI gap until laid out {big['gap'] * 1e3:.0f} ms) "
          f"{'PASS' if big['block'] < 0.100 else 'MISS'}")  # fmt: skip


if __name__ == "__main__":
    main()
