"""What keeps the Network view's frames cheap for the UI thread (N5 of issue 29).

The training thread makes the layers' heat maps; the window copies them on whole pixels; the
thread waits while the window draws; the loss axes keep their ticks while the curves grow; the
biases are painted in their values' colours.
"""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from PySide6.QtCore import QPoint
from pytestqt.qtbot import QtBot

from tapeviz.models.network.config import FEATURES
from tapeviz.ui.network import atlas as atlas_module
from tapeviz.ui.network import trainer_thread as tt
from tapeviz.ui.network.heat import indices
from tapeviz.ui.network.loss_plot import nice_ceiling, sticky_range
from tapeviz.ui.network.panel import NetworkPanel
from tests.ui.test_network_panel import panel, play_for, settle

__all__ = ["panel"]  # (the fixture, shared with the panel's tests)


def big(qtbot: QtBot, panel: NetworkPanel) -> None:
    panel.change(lambda c: c.with_net(features=FEATURES, hidden=(8,) * 6))
    settle(qtbot, panel)


def test_the_thread_makes_the_layers_heat_maps_and_the_window_copies_them(
    qtbot: QtBot, panel: NetworkPanel, monkeypatch: pytest.MonkeyPatch
) -> None:
    big(qtbot, panel)
    real = atlas_module.layer_strips
    made_here: list[int] = []
    made_there: list[int] = []
    monkeypatch.setattr(atlas_module, "layer_strips",
                        lambda *a: made_here.append(1) or real(*a))  # fmt: skip
    monkeypatch.setattr(panel.thread, "atlas_renderer",
                        lambda *a: made_there.append(1) or real(*a))  # fmt: skip
    shown = play_for(qtbot, panel, 8)
    assert made_here == [] and len(made_there) >= len(shown)
    d = panel.diagram
    strips = d.atlas()
    ratio = d.devicePixelRatioF()
    for rect, _image in strips:  # on whole pixels: copied, never resampled
        assert float(rect.left() * ratio).is_integer() and float(rect.top() * ratio).is_integer()
    fresh = real(d.atlas_.spec, d.layer_grids)  # what the window would have made itself
    n_inputs = len(strips) - len(fresh)
    assert n_inputs == 1 and len(fresh) == 7  # 6 hidden layers and the output
    for (rect, image), (rect2, image2) in zip(strips[n_inputs:], fresh, strict=True):
        assert rect == rect2 and image == image2


def test_a_new_layout_makes_the_heat_maps_in_the_window_at_once(
    qtbot: QtBot, panel: NetworkPanel
) -> None:
    """A frame made for the old layout is not used for the new one (its squares differ)."""
    big(qtbot, panel)
    d = panel.diagram
    old = d.atlas_.spec
    stale = atlas_module.layer_strips(old, d.layer_grids)
    panel.resize(1100, 480)
    qtbot.waitUntil(lambda: d.atlas() is not None and d.atlas_.spec is not old, timeout=5_000)
    d.atlas_.offer(old, stale, d.layers_version)  # (a late frame of the old layout)
    for (rect, _), (rect2, _) in zip(d.atlas()[1:], stale, strict=True):
        assert rect != rect2


def test_the_thread_waits_while_the_window_draws(
    qtbot: QtBot, panel: NetworkPanel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A frame's pieces, the links' strokes and a curvature's iterations wait for release()."""
    big(qtbot, panel)
    thread = panel.thread
    monkeypatch.setattr(tt, "HOLD_S", 10.0)
    spec, weights, draw = panel.diagram.links.spec, thread.trainers[0].weights, thread.link_renderer
    assert draw is not None
    jobs = {
        "frame": thread._frame_now,
        "links": lambda: draw(spec, weights, thread._offer_gil),
        "curvature": thread._measure_curvature,
    }
    for name, job in jobs.items():
        done = threading.Event()
        thread.hold()
        worker = threading.Thread(target=lambda job=job, done=done: (job(), done.set()))
        worker.start()
        time.sleep(0.3)  # (each takes < 60 ms unheld)
        assert not done.is_set(), name
        thread.release()
        worker.join(5)
        assert done.is_set(), name


def test_nice_ceilings_and_sticky_ranges() -> None:
    assert [nice_ceiling(v) for v in (0.07, 0.1, 0.11, 0.7, 2.5, 7, 130, 0, -1, np.nan)] == [
        0.08, 0.1, 0.15, 0.8, 3.0, 8.0, 150.0, 1.0, 1.0, 1.0,
    ]  # fmt: skip
    assert sticky_range([np.array([0.0, 3.0, 41.0])], 0.0) == (0.0, 50.0)
    assert sticky_range([np.array([0.69, 0.4]), np.array([np.nan, np.inf])], 0.0) == (0.0, 0.8)
    assert sticky_range([np.array([-0.35, 2.0])], 0.0) == pytest.approx((-0.4, 2.6))
    assert sticky_range([np.array([np.nan]), np.array([])], 0.0) == (0.0, 1.0)


def test_the_loss_axes_keep_their_ticks_while_the_curves_grow(
    qtbot: QtBot, panel: NetworkPanel
) -> None:
    """pyqtgraph lays an axis out again (3-5 ms) whenever its range moves: not every frame."""
    plot = panel.output.plot
    moved: list[object] = []
    plot.getViewBox().sigRangeChanged.connect(lambda *_a: moved.append(1))
    play_for(qtbot, panel, 40, epoch=60)
    (x0, x1), (y0, y1) = plot.getViewBox().viewRange()
    run = panel.frame.runs[0]
    assert x0 <= 0 and run.epochs[-1] <= x1  # every point inside
    losses = np.concatenate([run.train_loss, run.test_loss])
    assert y0 <= np.nanmin(losses) and np.nanmax(losses) <= y1
    assert 0 < len(moved) <= 12, len(moved)  # (a move per frame before: ~40)


def test_each_bias_is_painted_in_its_values_colour(qtbot: QtBot, panel: NetworkPanel) -> None:
    d = panel.diagram
    image = d.grab().toImage()
    ratio = image.devicePixelRatio()
    checked = 0
    for layer, j, rect in d.geometry_.biases:
        b = d.weight(layer, -1, j)
        want = int(d.table[indices(np.array([b]))[0]]) & 0xFFFFFF
        c = rect.center()
        got = image.pixel(QPoint(round(c.x() * ratio), round(c.y() * ratio))) & 0xFFFFFF
        assert got == want, (layer, j, hex(got), hex(want))
        checked += 1
    assert checked == len(d.geometry_.biases) > 0
