"""Studio exports decode: GIF frame count, MP4 duration, CSV rows, PNG and SVG files."""

from __future__ import annotations

import csv

import pytest
from PySide6.QtGui import QImage

from tapeviz.models.descent.demos import studio_presets
from tapeviz.ui.studio.export import FPS, MAX_FRAMES, frame_steps
from tapeviz.ui.studio.studio import OptimizationStudio

PRESETS = studio_presets()


@pytest.fixture
def studio(make_studio) -> OptimizationStudio:
    return make_studio(1000, 600, PRESETS["rosenbrock-race"], steps=300)


def test_frame_steps() -> None:
    assert frame_steps(300, MAX_FRAMES["gif"])[0] == 0
    assert frame_steps(300, MAX_FRAMES["gif"])[-1] == 300
    assert len(frame_steps(300, MAX_FRAMES["gif"])) == MAX_FRAMES["gif"]
    assert frame_steps(5, 120) == [0, 1, 2, 3, 4, 5]


def test_gif_has_one_frame_per_exported_step(qtbot, studio, tmp_path) -> None:
    iio = pytest.importorskip("imageio.v3")
    studio.set_step(42)
    path = tmp_path / "race.gif"
    exporter = studio.export("gif", path, frames=40, width=600)
    with qtbot.waitSignal(exporter.finished, timeout=60_000):
        pass
    frames = iio.imread(path, index=None)
    assert frames.shape[0] == len(frame_steps(300, 40)) == 40
    assert frames.shape[2] == 600
    assert frames[0].std() > 0 and (frames[0] != frames[-1]).any()  # the paths grew
    assert studio.k == 42  # the cursor is back where it was


def test_mp4_duration(qtbot, studio, tmp_path) -> None:
    pytest.importorskip("imageio_ffmpeg")
    import imageio.v2 as imageio

    path = tmp_path / "race.mp4"
    exporter = studio.export("mp4", path, frames=60)
    with qtbot.waitSignal(exporter.finished, timeout=120_000):
        pass
    reader = imageio.get_reader(path)
    meta = reader.get_meta_data()
    frames = len(frame_steps(300, 60))
    assert meta["fps"] == FPS["mp4"]
    assert meta["duration"] == pytest.approx(frames / FPS["mp4"], abs=0.1)
    assert sum(1 for _ in reader) == frames
    reader.close()


def test_csv_png_svg(studio, tmp_path) -> None:
    rows = list(csv.reader(studio.export("csv", tmp_path / "h.csv").open(encoding="utf-8")))
    assert len(rows) == 1 + 4 * 301 and rows[0][:4] == ["run", "optimizer", "step", "loss"]
    png = studio.export("png", tmp_path / "plots.png")
    image = QImage(str(png))
    assert image.width() == 2 * studio.plot_area.width()
    svg = studio.export("svg", tmp_path / "plots.svg").read_text("utf-8")
    assert svg.startswith("<?xml") and "<svg" in svg
    assert svg.count("<polyline") + svg.count("<path") > 50  # vectors: axes, contours, paths
    assert svg.count("<image") == 1  # only the heat map is a bitmap
    messages: list[str] = []
    studio.statusMessage.connect(messages.append)
    assert studio.export("bmp", tmp_path / "x.bmp") is None  # reported, not raised into Qt
    assert "unknown export" in messages[-1]
    assert studio.export("png", tmp_path / "no-such-dir" / "x.png") is None
    assert "Export failed" in messages[-1] and "cannot write" in messages[-1]


def test_an_animation_that_cannot_be_written_fails_and_frees_the_studio(
    qtbot, studio, tmp_path
) -> None:
    (tmp_path / "file").write_text("x")
    studio.set_step(10)
    exporter = studio.export("gif", tmp_path / "file" / "x.gif", frames=5)
    if exporter is None:  # refused at once: also fine, as long as it says so
        assert "Export failed" in studio.panel.status.text()
        return
    with qtbot.waitSignal(exporter.failed, timeout=20_000):
        pass
    assert not studio.busy and "Export failed" in studio.panel.status.text()
    assert studio.k == 10  # the cursor is back where the lecturer left it


def test_a_writer_that_fails_on_close_is_reported(qtbot, studio, tmp_path, monkeypatch) -> None:
    exporter = studio.export("gif", tmp_path / "x.gif", frames=3)

    def broken_close() -> None:
        raise OSError("disk full")

    monkeypatch.setattr(exporter.writer, "close", broken_close)
    with qtbot.waitSignal(exporter.failed, timeout=20_000) as blocker:
        pass
    assert blocker.args == ["disk full"] and not studio.busy
    assert "Export failed: disk full" in studio.panel.status.text()
