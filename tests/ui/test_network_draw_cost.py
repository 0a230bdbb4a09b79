"""What keeps the Network view's frames cheap for the UI thread (N5 of issue 29).

The training thread makes the layers' heat maps; the window copies them on whole pixels; the
thread waits while the window draws; the loss axes keep their ticks while the curves grow; the
biases are painted in their values' colours.
"""

from __future__ import annotations

import math
import threading
import time

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QRectF
from PySide6.QtGui import QImage, QPainter
from pytestqt.qtbot import QtBot

from tapeviz.models.network.config import FEATURES
from tapeviz.ui.network import atlas as atlas_module
from tapeviz.ui.network import trainer_thread as tt
from tapeviz.ui.network.diagram import NetworkDiagram
from tapeviz.ui.network.frames import RunFrame
from tapeviz.ui.network.heat import indices
from tapeviz.ui.network.loss_plot import LossPlot, nice_ceiling, sticky_range
from tapeviz.ui.network.panel import NetworkPanel
from tests.ui.test_network_panel import PaintCount, panel, play_for, settle

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
    assert nice_ceiling(1e-310) == 1e-310 and nice_ceiling(1e307) == 1e307  # (no 10ᵏ overflow)
    assert sticky_range([np.array([0.0, 3.0, 41.0])], 0.0) == (0.0, 50.0)
    assert sticky_range([np.array([0.69, 0.4]), np.array([np.nan, np.inf])], 0.0) == (0.0, 0.8)
    assert sticky_range([np.array([-0.35, 2.0])], 0.0) == pytest.approx((-0.4, 2.6))
    assert sticky_range([np.array([np.nan]), np.array([])], 0.0) == (0.0, 1.0)


def run_frame(epochs: int, runs: int = 1) -> tuple[RunFrame, ...]:
    """``runs`` runs after ``epochs`` epochs: losses falling from 0.7, the test loss above."""
    e = np.arange(epochs + 1, dtype=np.float64)
    train = 0.7 * np.exp(-e / 20)
    test = [train + 0.05 * (k + 1) for k in range(runs)]
    out = np.zeros((3, 3))
    return tuple(
        RunFrame(k, "SGD", "SGD", epochs, 10 * epochs, e, train, test[k], (), out, None, 0.03)
        for k in range(runs)
    )


def test_the_loss_axes_keep_their_ticks_while_the_curves_grow(qtbot: QtBot) -> None:
    """pyqtgraph lays an axis out again (3-5 ms) whenever its range moves: not every redraw."""
    plot = LossPlot()
    qtbot.addWidget(plot)
    moved: list[object] = []
    plot.getViewBox().sigRangeChanged.connect(lambda *_a: moved.append(1))
    for epochs in range(1, 201):  # 200 redraws as training goes on (a race of two)
        runs = run_frame(epochs, runs=2)
        plot.show_runs(runs)
        (x0, x1), (y0, y1) = plot.ranges
        assert x0 <= 0 and epochs <= x1 and y0 <= 0 and y1 >= 0.8  # every point inside
    assert 0 < len(moved) <= 20, len(moved)  # (auto-range: a move per redraw, 200)
    plot.show_runs(run_frame(3))  # a new network: the axes shrink back to its data
    assert plot.ranges == ((0.0, 10.0), (0.0, 0.8))  # (at least 10 epochs: whole ticks)


def test_the_epoch_axis_ticks_are_whole_epochs(qtbot: QtBot) -> None:
    """Before the first epoch and after a few, no tick reads a fraction of an epoch."""
    plot = LossPlot()
    qtbot.addWidget(plot)
    plot.resize(260, 160)
    plot.restyle(plot.theme, 1.5)  # presenter scale: the labels are big, the plot small
    plot.show()
    for runs in ((), run_frame(0), run_frame(3), run_frame(14), run_frame(230)):
        plot.show_runs(runs)
        qtbot.wait(20)
        axis = plot.getPlotItem().getAxis("bottom")
        low, high = plot.getViewBox().viewRange()[0]
        ticks = [v for _, vs in axis.tickValues(low, high, axis.width()) for v in vs]
        assert len(ticks) >= 2 and all(float(v).is_integer() for v in ticks), ticks
        if not runs or runs[0].epochs[-1] <= 10:  # 0 to 10 until the data pass it: no jump
            assert plot.ranges[0] == (0.0, 10.0)


@pytest.mark.parametrize("scale", [1.0, 1.5, 2.0])
def test_every_loss_axis_label_is_whole_inside_the_plot(qtbot: QtBot, scale: float) -> None:
    """The highest loss tick's label sits at the plot's top edge: half of it was cut off."""
    plot = LossPlot()
    qtbot.addWidget(plot)
    plot.resize(260, 200)
    plot.restyle(plot.theme, scale)
    plot.show()
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    for runs in ((), run_frame(14), run_frame(230)):
        plot.show_runs(runs)
        qtbot.wait(30)
        for name in ("left", "bottom"):
            axis = plot.getPlotItem().getAxis(name)
            painter = QPainter(image)
            try:
                texts = axis.generateDrawSpecs(painter)[2]  # (rect, flags, text) as drawn
            finally:
                painter.end()
            assert len(texts) >= 2, (name, texts)
            box = QRectF(plot.rect())
            for rect, _, text in texts:
                drawn = plot.mapFromScene(axis.mapRectToScene(rect)).boundingRect()
                assert box.contains(QRectF(drawn)), (scale, name, text, drawn, box)


def test_the_loss_axes_hold_every_point_of_a_trained_network(
    qtbot: QtBot, panel: NetworkPanel
) -> None:
    play_for(qtbot, panel, 20, epoch=30)
    (x0, x1), (y0, y1) = panel.output.plot.getViewBox().viewRange()
    run = panel.frame.runs[0]
    assert x0 <= 0 and run.epochs[-1] <= x1
    losses = np.concatenate([run.train_loss, run.test_loss])
    assert y0 <= np.nanmin(losses) and np.nanmax(losses) <= y1


def test_the_heat_maps_follow_every_new_layout(qtbot: QtBot) -> None:
    """A layout made between two paints gets its own strips (an old one's id may be reused)."""
    d = NetworkDiagram()
    qtbot.addWidget(d)
    d.resize(700, 420)
    d.show()
    qtbot.waitExposed(d)
    rng = np.random.default_rng(3)
    for k in range(120):
        hidden = tuple(int(n) for n in rng.integers(1, 9, size=rng.integers(0, 7)))
        d.set_shape(("x1", "x2"), hidden)
        d.resize(700 + k % 3 * 37, 420 - k % 2 * 23)  # (a second layout before the paint)
        d._relayout()
        strips = d.atlas()
        columns = d.geometry_.columns
        assert len(strips) == len(columns), (k, hidden)
        ratio = d.devicePixelRatioF()
        for (rect, _), squares in zip(strips, columns, strict=True):
            for sq in squares:  # each square covered to its edges, from whole device pixels
                assert rect.left() * ratio == math.floor(rect.left() * ratio + 1e-6)
                assert rect.left() <= sq.left() + 1e-6 and sq.right() <= rect.right() + 1e-6
                assert rect.top() <= sq.top() + 1e-6 and sq.bottom() <= rect.bottom() + 1e-6


def test_a_layout_at_a_reused_address_gets_its_own_strips_and_links(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CPython may give a new layout the address of one just freed: an id is no key.

    Every object is given one id here (the worst case of reuse); the strips and the links
    must still follow the layout drawn.
    """
    from tapeviz.ui.network import diagram_paint

    for module in (atlas_module, diagram_paint):
        monkeypatch.setattr(module, "id", lambda _obj: 1, raising=False)
    d = NetworkDiagram()
    qtbot.addWidget(d)
    d.resize(700, 420)
    d.set_shape(("x1", "x2"), (4, 2))
    assert len(d.atlas()) == 4 and d.links.get(d) is not None
    spec = d.links.spec
    d.set_shape(("x1", "x2"), (3,))
    assert len(d.atlas()) == len(d.geometry_.columns) == 3  # inputs, 3 neurons, the output
    d.links.get(d)
    assert d.links.spec is not spec and len(d.links.spec.links) == len(d.geometry_.links)


def test_the_output_map_sits_on_whole_device_pixels(qtbot: QtBot, panel: NetworkPanel) -> None:
    m = panel.output.maps[0]
    ratio = m.devicePixelRatioF()
    for w, h in ((301, 299), (333, 250), (287, 341)):
        m.resize(w, h)
        r = m.plot_rect()
        for v in (r.left(), r.top(), r.width()):
            assert (v * ratio).is_integer(), (w, h, r)
        assert r.width() == r.height() and r.right() <= w and r.bottom() <= h


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


def test_a_frame_repaints_the_neurons_and_links_not_the_buttons(
    qtbot: QtBot, panel: NetworkPanel
) -> None:
    d = panel.diagram
    area = d.frame_rect()  # the layers' squares and biases, and every link
    geo = d.geometry_
    for r in [r for col in geo.columns[1:] for r in col] + [b[2] for b in geo.biases]:
        assert area.contains(r.toAlignedRect())
    for x, y in d.geometry_.samples.reshape(-1, 2):
        assert area.contains(round(x), round(y))
    assert not area.contains(d.geometry_.columns[0][-1].toAlignedRect())  # (inputs: static)
    buttons = [d.add_layer, d.remove_layer, *[b for trio in d.column_buttons for b in trio]]
    counter = PaintCount(*buttons)
    shown = play_for(qtbot, panel, 10)
    assert len(shown) >= 10 and counter.paints <= len(buttons), counter.paints  # (every frame)


def test_the_curvature_readout_changes_only_when_its_words_do(
    qtbot: QtBot, panel: NetworkPanel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every frame says 2/λmax; re-setting a style sheet re-polishes the label (and repaints)."""
    top = panel.top
    styled: list[str] = []
    real = top.curvature.setStyleSheet
    monkeypatch.setattr(top.curvature, "setStyleSheet", lambda s: (styled.append(s), real(s)))
    for _ in range(5):
        top.set_curvature(4.0, 0.03)  # 2/λmax = 0.5: under it
    assert top.curvature.text() == "2/λmax = 0.5" and len(styled) <= 1
    top.set_curvature(4.0, 0.9)  # over it: the warning colour and ⚠
    assert top.curvature.text().endswith("⚠") and panel.theme.warning in styled[-1]
    assert top.lr.limit == 0.5
