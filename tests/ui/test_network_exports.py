"""The Network view's exports: an animation of its epochs (or a script's steps), a PNG, a CSV."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
from PIL import Image
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from tapeviz.ui.network.film import NetworkFilm
from tapeviz.ui.network.panel import NetworkPanel

WAIT_MS = 30_000


def _trained(qtbot: QtBot, epochs: int) -> NetworkPanel:
    panel = NetworkPanel()
    qtbot.addWidget(panel)
    panel.resize(1300, 560)
    panel.show()
    qtbot.waitExposed(panel)
    panel.load_preset("xor_hidden")
    qtbot.waitUntil(lambda: panel.built is not None and not panel.busy, timeout=WAIT_MS)
    for _ in range(epochs):
        panel.step()
        qtbot.waitUntil(lambda: not panel.busy, timeout=WAIT_MS)
    return panel


def test_the_film_draws_each_epoch_from_its_exact_weights(qtbot: QtBot) -> None:
    panel = _trained(qtbot, 3)
    shown = panel.frame
    assert shown.runs[0].epoch == 3
    film = NetworkFilm(panel)
    assert film.length == 3 and film.k == 3
    film.show_step(0)
    first = panel.frame.runs[0]
    assert first.epoch == 0 and first.step == 0 and len(first.train_loss) == 1
    for (w, b), (w0, b0) in zip(first.weights, panel.built.initial, strict=True):
        np.testing.assert_array_equal(w, w0)  # reset's weights, bit for bit
        np.testing.assert_array_equal(b, b0)
    film.show_step(3)  # the last epoch: the picture the view showed
    np.testing.assert_array_equal(panel.frame.runs[0].output, shown.runs[0].output)
    np.testing.assert_array_equal(panel.frame.runs[0].train_loss, shown.runs[0].train_loss)
    film.busyChanged.emit(False)
    assert panel.frame is shown


def test_a_gif_has_a_frame_per_epoch_and_the_view_comes_back(qtbot: QtBot, tmp_path: Path) -> None:
    panel = _trained(qtbot, 3)
    shown = panel.frame
    path = tmp_path / "net.gif"
    exporter = panel.export("gif", path, frames=10, width=400)
    with qtbot.waitSignal(exporter.finished, timeout=WAIT_MS):
        pass
    with Image.open(path) as gif:
        assert gif.n_frames == 4 and gif.size[0] == 400  # epochs 0, 1, 2, 3
    assert panel.frame is shown and "Exported net.gif" in panel.message.full


def test_a_png_and_the_losses_as_csv(qtbot: QtBot, tmp_path: Path) -> None:
    panel = _trained(qtbot, 2)
    png = panel.export("png", tmp_path / "net.png")
    image = QImage(str(png))
    assert image.width() == 2 * panel.stage.width() and image.height() == 2 * panel.stage.height()
    out = panel.export("csv", tmp_path / "losses.csv")
    rows = list(csv.reader(out.open(encoding="utf-8")))
    run = panel.frame.runs[0]
    assert rows[0] == ["epoch", f"{run.label} train", f"{run.label} test"]
    assert [int(r[0]) for r in rows[1:]] == [0, 1, 2]
    assert [float(r[1]) for r in rows[1:]] == run.train_loss.tolist()


def test_an_export_that_cannot_be_written_says_so(qtbot: QtBot, tmp_path: Path) -> None:
    panel = _trained(qtbot, 1)
    assert panel.export("gif", tmp_path / "missing" / "net.gif") is None
    assert "Export failed" in panel.message.full
