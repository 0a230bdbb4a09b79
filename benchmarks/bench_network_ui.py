"""The Network view training in the window (offscreen): frames, steps and the UI thread's blocks.

Run from the repository root::

    python benchmarks/bench_network_ui.py          # 6 s of training
    python benchmarks/bench_network_ui.py --quick  # 2 s

- N5 (issue 29): Playground's spiral with all 7 input features and 6 hidden layers of 8
  neurons (every neuron's heat map at 50×50) playing: frames drawn per second (target ≥ 30),
  training steps per second (target ≥ 200), and the UI thread's longest block (target ≤ 16 ms):
  the longest event-loop pass, and the longest wait for the GIL after a 1 ms sleep (the
  training thread holding it). The peer, measured in the same run: a bare PySide6 widget that
  repaints 48 heat maps of 50×50 (numpy → QImage, as many as the view draws) as fast as a
  5 ms timer lets it while a Python thread trains the same-sized network in plain numpy.

The last lines read ``RESULT N5 fps: figure=… target>=30 PASS|MISS`` (and steps, block).
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import threading
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's tapeviz

import numpy as np
from PySide6.QtCore import QTimer
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication, QWidget

APP = QApplication.instance() or QApplication([])


def pump(seconds: float) -> tuple[float, float]:
    """Run the event loop for ``seconds``: its longest pass and longest GIL wait, ms."""
    end = time.perf_counter() + seconds
    longest = waited = 0.0
    while time.perf_counter() < end:
        t0 = time.perf_counter()
        APP.processEvents()
        t1 = time.perf_counter()
        time.sleep(0.001)
        longest = max(longest, t1 - t0)
        waited = max(waited, time.perf_counter() - t1 - 0.001)
    return longest * 1e3, waited * 1e3


def tapeviz_run(seconds: float) -> dict[str, float]:
    """N5 in the Network view."""
    from tapeviz.models.network.config import FEATURES
    from tapeviz.ui import workers
    from tapeviz.ui.network.panel import NetworkPanel

    workers.collect_in_ui_thread()  # as the window: garbage collected in the UI thread only
    panel = NetworkPanel()
    panel.resize(1366, 600)
    panel.show()
    end = time.perf_counter() + 30
    while (panel.built is None or panel.busy) and time.perf_counter() < end:
        pump(0.01)
    panel.change(lambda c: c.with_net(features=FEATURES, hidden=(8,) * 6))
    while (panel.built is None or panel.busy) and time.perf_counter() < end:
        pump(0.01)
    workers.settle()
    shown: list[float] = []
    panel.frameShown.connect(lambda _e: shown.append(time.perf_counter()))
    panel.frame_ms.clear()
    step0 = panel.thread.trainers[0].step
    panel.play()
    pump(0.5)  # (the first frames: the loss plots' first draws)
    shown.clear()
    step0 = panel.thread.trainers[0].step
    t0 = time.perf_counter()
    longest, waited = pump(seconds)
    took = time.perf_counter() - t0
    steps = panel.thread.trainers[0].step - step0
    panel.pause()
    frame = statistics.median(panel.frame_ms) if panel.frame_ms else float("nan")
    panel.shutdown()
    panel.close()
    return {"fps": len(shown) / took, "steps": steps / took, "longest": longest,
            "waited": waited, "frame_ms": frame}  # fmt: skip


class _Peer(QWidget):
    """48 heat maps of 50×50 repainted from numpy as often as a 5 ms timer fires."""

    def __init__(self) -> None:
        super().__init__()
        self.resize(1366, 600)
        self.maps = np.zeros((48, 50, 50), np.float32)
        self.frames = 0
        self.timer = QTimer(self)
        self.timer.setInterval(5)
        self.timer.timeout.connect(self.repaint)

    def paintEvent(self, _event: object) -> None:
        p = QPainter(self)
        rgb = (np.clip(self.maps * 127 + 128, 0, 255)).astype(np.uint8)
        for k in range(48):
            img = np.ascontiguousarray(np.repeat(rgb[k][:, :, None], 4, axis=2))
            q = QImage(img.data, 50, 50, 200, QImage.Format.Format_RGB32)
            p.drawImage((k % 12) * 100, (k // 12) * 100, q.scaled(90, 90))
        p.end()
        self.frames += 1


def peer_run(seconds: float) -> dict[str, float]:
    """The bare peer: its repaints per second while a numpy network trains in a thread."""
    w = _Peer()
    w.show()
    stop = threading.Event()
    steps = [0]

    def train() -> None:
        rng = np.random.default_rng(0)
        sizes = [7, 8, 8, 8, 8, 8, 8, 1]
        ws = [rng.normal(size=ab).astype(np.float32) * 0.3 for ab in itertools.pairwise(sizes)]
        x = rng.normal(size=(10, 7)).astype(np.float32)
        grid = rng.normal(size=(2500, 7)).astype(np.float32)
        while not stop.is_set():
            acts = [x]
            for m in ws:
                acts.append(np.tanh(acts[-1] @ m))
            d = acts[-1]
            for k in range(len(ws) - 1, -1, -1):
                d = d * (1 - acts[k + 1] ** 2)
                g = acts[k].T @ d
                d = d @ ws[k].T
                ws[k] -= 0.01 * g
            steps[0] += 1
            if steps[0] % 20 == 0:  # the heat maps of a frame
                a = grid
                out = []
                for m in ws[:-1]:
                    a = np.tanh(a @ m)
                    out.append(a.T.reshape(8, 50, 50))
                w.maps = np.concatenate(out)

    thread = threading.Thread(target=train, daemon=True)
    thread.start()
    w.timer.start()
    pump(0.3)
    w.frames = 0
    s0, t0 = steps[0], time.perf_counter()
    longest, waited = pump(seconds)
    took = time.perf_counter() - t0
    stop.set()
    thread.join()
    fps, rate = w.frames / took, (steps[0] - s0) / took
    w.close()
    return {"fps": fps, "steps": rate, "longest": longest, "waited": waited}


def main() -> int:
    """Print N5's figures and the peer's."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    seconds = 2.0 if parser.parse_args().quick else 6.0
    ours = tapeviz_run(seconds)
    peer = peer_run(seconds)
    block = max(ours["longest"], ours["waited"])
    print(
        f"N5 tapeviz: {ours['fps']:.1f} frames/s, {ours['steps']:.0f} steps/s, a frame drawn in "
        f"{ours['frame_ms']:.1f} ms (median); the UI thread's longest event-loop pass "
        f"{ours['longest']:.1f} ms, longest GIL wait {ours['waited']:.1f} ms"
    )
    print(
        f"N5 peer (bare widget, 48 maps, numpy training thread): {peer['fps']:.1f} frames/s, "
        f"{peer['steps']:.0f} steps/s; longest pass {peer['longest']:.1f} ms, GIL wait "
        f"{peer['waited']:.1f} ms; tapeviz/peer frames {ours['fps'] / peer['fps']:.2f}x"
    )
    verdicts = [
        ("fps", ours["fps"], ">=30", ours["fps"] >= 30),
        ("steps_per_s", ours["steps"], ">=200", ours["steps"] >= 200),
        ("ui_block_ms", block, "<=16", block <= 16),
    ]
    for name, value, target, ok in verdicts:
        print(f"RESULT N5 {name}: figure={value:.1f} target{target} {'PASS' if ok else 'MISS'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
