"""Animation exports: the race sampled to a frame rate and a length, one palette, encoded aside."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from tapeviz.models.descent.demos import studio_presets
from tapeviz.ui.plots import gif
from tapeviz.ui.plots.export import (
    FPS,
    MAX_FRAMES,
    MAX_SECONDS,
    Encoder,
    pixels,
    render_image,
    scaled,
)
from tapeviz.ui.plots.title import export_titles
from tapeviz.ui.studio.studio import OptimizationStudio

RACE = studio_presets()["rosenbrock-race"]


@pytest.fixture
def studio(make_studio) -> OptimizationStudio:
    return make_studio(1000, 600, RACE, steps=2000)


def test_the_default_length_is_a_few_seconds_at_the_frame_rate() -> None:
    assert {k: FPS[k] * MAX_SECONDS[k] for k in FPS} == MAX_FRAMES
    assert MAX_FRAMES["gif"] == 80 and MAX_FRAMES["mp4"] == 120


def test_a_2000_step_race_is_sampled_to_the_default_frames_ending_at_its_end(
    qtbot, studio, tmp_path
) -> None:
    iio = pytest.importorskip("imageio.v3")
    path = tmp_path / "race.gif"
    rendered: list[int] = []
    real = studio.show_step
    studio.show_step = lambda k: rendered.append(k) or real(k)  # type: ignore[method-assign]
    exporter = studio.export("gif", path)
    assert exporter.steps[0] == 0 and exporter.steps[-1] == studio.race.length == 2000
    assert len(exporter.steps) == MAX_FRAMES["gif"]
    assert np.diff(exporter.steps).min() >= 25  # evenly spread: 2,000 steps in 80 frames
    with qtbot.waitSignal(exporter.finished, timeout=60_000):
        pass
    studio.show_step = real  # type: ignore[method-assign]
    # The palette's frame first, then every step once, then the cursor back where it was.
    assert rendered == [2000, *exporter.steps, 0]
    frames = iio.imread(path, index=None)
    assert frames.shape[0] == MAX_FRAMES["gif"]
    # The last frame is the end of the paths: the studio at step 2,000, on the file's palette.
    studio.show_step(2000)
    restore = export_titles(studio.plot_area)  # as exported: "Loss surface", no click hint
    image = render_image(studio.plot_area)
    restore()
    if image.width() > exporter.width:
        image = image.scaledToWidth(exporter.width, Qt.TransformationMode.SmoothTransformation)
    end = pixels(image)
    want = np.stack([(end >> 16) & 255, (end >> 8) & 255, end & 255], axis=-1)

    def off(frame: np.ndarray) -> int:  # pixels further from the end's picture than a palette step
        return int((np.abs(frame.astype(int) - want.astype(int)).max(axis=-1) > 24).sum())

    assert off(frames[-1]) * 20 < off(frames[0])  # the last frame is step 2,000, not step 0
    assert (frames[-1] != frames[0]).any(axis=-1).sum() > 500  # the paths grew


def test_the_palette_mapping_keeps_its_own_colours_and_finds_the_nearest() -> None:
    rng = np.random.default_rng(3)
    frame = rng.integers(0, 256, (40, 60, 3), dtype=np.uint8)
    frame[:20] = [255, 255, 255]
    frame[20:25] = [213, 94, 0]
    palette = gif.palette_of(frame, colors=64)
    idx = gif.indices(frame, palette)
    assert idx.shape == (40, 60) and idx.max() < len(palette)
    on_palette = palette[idx]
    np.testing.assert_array_equal(palette[gif.indices(on_palette, palette)], on_palette)
    # Every colour goes to its nearest palette entry (the sum of channel differences, as Qt's).
    err = np.abs(on_palette.astype(int) - frame.astype(int)).sum(axis=-1)
    best = np.abs(frame[..., None, :].astype(int) - palette[None, None].astype(int)).sum(-1)
    np.testing.assert_array_equal(err, best.min(axis=-1))


def test_the_gif_writer_maps_only_changed_pixels_to_the_same_indices(tmp_path) -> None:
    iio = pytest.importorskip("imageio.v3")
    rng = np.random.default_rng(5)
    first = rng.integers(0, 256, (30, 40, 3), dtype=np.uint8)
    second = first.copy()
    second[10:14, 5:30] = rng.integers(0, 256, (4, 25, 3), dtype=np.uint8)
    palette = gif.palette_of(first, colors=32)
    writer = gif.GifWriter(tmp_path / "x.gif", 20, palette)
    mapped: list[int] = []
    real = gif.nearest

    def counting(pixels: np.ndarray, table: list[int]) -> np.ndarray:
        mapped.append(pixels.size)
        return real(pixels, table)

    gif.nearest = counting  # type: ignore[assignment]
    try:
        writer.append_data(first)
        writer.append_data(second)
    finally:
        gif.nearest = real  # type: ignore[assignment]
    assert mapped[0] == 30 * 40 and 0 < mapped[1] <= 4 * 25  # the second: what changed
    writer.close()
    back = iio.imread(tmp_path / "x.gif", index=None)[..., :3]
    for frame, shown in zip((first, second), back, strict=True):  # as a whole mapping
        np.testing.assert_array_equal(shown, palette[gif.indices(frame, palette)])


def test_each_gif_frame_stores_only_the_box_of_what_changed(tmp_path) -> None:
    iio = pytest.importorskip("imageio.v3")
    from PIL import Image

    base = np.full((30, 40, 3), 255, np.uint8)
    moved = base.copy()
    moved[10:14, 5:30] = [213, 94, 0]
    wider = np.zeros((34, 48, 3), np.uint8)  # the area grew mid-export: cut to the first size
    palette = gif.palette_of(np.concatenate([moved, wider[:30, :40]]))
    writer = gif.GifWriter(tmp_path / "x.gif", 20, palette)
    for f in (base, moved, moved, wider):
        writer.append_data(f)
    writer.close()
    boxes = []
    with Image.open(tmp_path / "x.gif") as im:
        assert im.size == (40, 30) and im.n_frames == 4
        for i in range(4):
            im.seek(i)
            boxes.append(im.tile[0][1])  # where the frame's pixels go
            assert im.info["duration"] == 50
    assert boxes == [(0, 0, 40, 30), (5, 10, 30, 14), (0, 0, 1, 1), (0, 0, 40, 30)]
    back = iio.imread(tmp_path / "x.gif", index=None)[..., :3]
    np.testing.assert_array_equal(back[1], back[2])  # a 1-pixel transparent frame: unchanged
    assert (back[3] == 0).all()


def test_the_gif_writer_keeps_frames_and_unchanged_pixels(tmp_path) -> None:
    iio = pytest.importorskip("imageio.v3")
    base = np.full((30, 50, 3), 255, np.uint8)
    base[:, :10] = [0, 114, 178]
    frames = []
    for i in range(6):
        f = base.copy()
        f[5 + 3 * i : 8 + 3 * i, 20:40] = [213, 94, 0]
        frames.append(f)
    writer = gif.GifWriter(tmp_path / "x.gif", 20, gif.palette_of(frames[-1]))
    for f in frames:
        writer.append_data(f)
    writer.close()
    writer.close()  # a second time: nothing
    back = iio.imread(tmp_path / "x.gif", index=None)[..., :3]
    assert back.shape == (6, 30, 50, 3)
    np.testing.assert_array_equal(back, np.stack(frames))


def test_frames_are_encoded_in_order_off_the_ui_thread_and_errors_surface() -> None:
    seen: list[tuple[int, str]] = []

    class Writer:
        def append_data(self, frame: np.ndarray) -> None:
            if int(frame[0]) == 7:
                raise OSError("disk full")
            seen.append((int(frame[0]), threading.current_thread().name))

    encoder = Encoder(Writer(), depth=2)
    for i in range(5):
        encoder.put(np.array([i]))
    encoder.drain()
    assert [i for i, _ in seen] == [0, 1, 2, 3, 4]
    assert all(name.startswith("tapeviz-encoder") for _, name in seen)
    failing = Encoder(Writer())
    failing.put(np.array([7]))
    with pytest.raises(OSError, match="disk full"):
        for i in range(10):
            failing.put(np.array([i]))
        failing.drain()


def test_the_video_writer_pipes_qt_pixels_in_their_colours_cropped_to_even(tmp_path) -> None:
    iio = pytest.importorskip("imageio.v3")
    from PySide6.QtGui import QColor, QImage

    from tapeviz.ui.plots.video import VideoWriter

    writer = VideoWriter(tmp_path / "x.mp4", 30)
    for shade in (0, 60, 120):
        image = QImage(65, 47, QImage.Format.Format_RGB32)  # odd: H.264 needs even sizes
        image.fill(QColor(255, shade, 0))  # orange to yellow on the left …
        for x in range(32, 65):
            for y in range(47):
                image.setPixelColor(x, y, QColor(0, 0, 255))  # … blue on the right
        writer.append_data(image)
    writer.close()
    writer.close()  # a second time: nothing
    frames = iio.imread(tmp_path / "x.mp4", index=None).astype(int)
    assert frames.shape == (3, 46, 64, 3)
    left, right = (
        frames[:, 10:36, 4:24].mean(axis=(1, 2)),
        frames[:, 10:36, 40:60].mean(axis=(1, 2)),
    )
    assert (left[:, 0] > 200).all() and (left[:, 2] < 60).all()  # red stays red …
    assert (right[:, 2] > 200).all() and (right[:, 0] < 60).all()  # … and blue blue
    assert left[0, 1] < left[1, 1] < left[2, 1]  # the frames in order
    with pytest.raises(ValueError, match="a frame of"):
        other = VideoWriter(tmp_path / "y.mp4", 30)
        other.append_data(QImage(64, 46, QImage.Format.Format_RGB32))
        try:
            other.append_data(QImage(32, 46, QImage.Format.Format_RGB32))
        finally:
            other.close()


def test_frames_are_scaled_filtered_into_a_reused_image(studio) -> None:
    studio.show_step(studio.race.length)
    frame = render_image(studio.plot_area)
    small = scaled(frame, 400)
    assert small.width() == 400 and small.height() == round(frame.height() * 400 / frame.width())
    again = scaled(frame, 400, small)
    assert again is small  # painted over, no new image
    fresh = pixels(scaled(frame, 400))
    np.testing.assert_array_equal(pixels(again), fresh)
    area = pixels(frame.scaledToWidth(400, Qt.TransformationMode.SmoothTransformation))
    channels = [(fresh >> s & 255).astype(int) - (area >> s & 255) for s in (0, 8, 16)]
    assert np.mean(np.abs(channels)) < 3  # close to an area average: filtered, not sampled
    assert scaled(frame, 5000) is frame and scaled(frame, None) is frame


def test_below_half_size_frames_are_area_averaged_not_sampled() -> None:
    stripes = np.full((60, 900), 0xFFFFFFFF, np.uint32)
    stripes[:, ::3] = 0xFF000000  # a 1-px black line every 3 px
    image = QImage(stripes.data, 900, 60, 4 * 900, QImage.Format.Format_RGB32).copy()
    row = pixels(scaled(image, 300))[10] & 255  # a third of the size: 3 px per pixel
    assert row.max() - row.min() <= 12  # an even grey, not lines that come and go
    assert 150 < row.mean() < 190
