"""A pasted Keras fit on the Timeline tab: one timeline, epochs on the scrubber, the History beside
the loss, layer-named parameters, and tensors as a norm, an element or a heat strip."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtCore import QPointF
from pytestqt.qtbot import QtBot

from tapeviz.models.timeline.timeline import timelines_of
from tapeviz.sandbox import RunResult, run
from tapeviz.ui import MainWindow
from tapeviz.ui.theme import DARK
from tapeviz.ui.timeline.heat import MAX_ROWS, evenly, strip_of
from tapeviz.ui.timeline.history_plot import HistoryPlot, history_keys
from tapeviz.ui.timeline.panel import TimelinePanel
from tapeviz.ui.timeline.plots import TimelinePlots

FIT = """import numpy as np
import tensorflow as tf
np.random.seed(0)
x = np.random.normal(size=(100, 3)).astype("float32")
y = x @ np.array([[1.0], [-2.0], [0.5]], dtype="float32")
model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"),
                             tf.keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse", metrics=["mae"])
history = model.fit(x, y, epochs=3, batch_size=32, validation_split=0.2, verbose=0)
"""
STEPS = 3 * math.ceil(80 / 32)  # validation_split=0.2 trains on the first 80 rows


@pytest.fixture(scope="module")
def fit() -> RunResult:
    result = run(FIT)
    assert result.error is None, result.error
    return result


@pytest.fixture
def panel(qtbot: QtBot, fit: RunResult) -> TimelinePanel:
    p = TimelinePanel()
    qtbot.addWidget(p)
    p.resize(1300, 420)
    p.show()
    qtbot.waitExposed(p)
    p.set_run(timelines_of(fit))
    return p


def test_the_fit_is_one_timeline_with_its_epochs_and_history(
    panel: TimelinePanel, fit: RunResult
) -> None:
    tl = panel.timeline
    assert tl is not None and len(panel.timelines) == 1 and tl.steps == STEPS == 9
    c = panel.controls
    assert c.scrubber.maximum() == 8 and c.scrubber.epochs.tolist() == [3, 6]
    assert "Keras fit, 3 epochs, 9 steps" in panel.status.text()
    history = panel.plot_area.history
    assert history.isVisible() and history.keys == ["loss", "val_loss", "mae", "val_mae"]
    for key, curve in zip(history.keys, history.curves, strict=True):
        x, y = curve.getData()
        assert x.tolist() == [1.0, 2.0, 3.0]
        assert y.tolist() == pytest.approx(fit.namespace["history"].history[key])
    panel.set_step(4)
    assert "epoch 2 of 3, batch 2 of 3" in c.step_label.text()
    assert history.cursor.value() == pytest.approx(1 + 2 / 3)
    panel.set_step(8)
    assert history.cursor.value() == pytest.approx(3.0)  # the last batch: the epoch's values
    assert history.step_at(1.1) == 2 and history.step_at(2.0) == 5


def test_the_parameters_are_named_by_the_layers(panel: TimelinePanel) -> None:
    assert panel.timeline is not None
    labels = [p.label for p in panel.timeline.parameters]
    assert labels == ["‖dense/kernel‖", "‖dense/bias‖", "‖dense_1/kernel‖", "dense_1/bias"]
    assert "‖dense/kernel‖ = " in panel.controls.step_label.text()


def test_tensors_as_a_norm_an_element_or_a_heat_strip(panel: TimelinePanel) -> None:
    c, plots, tl = panel.controls, panel.plot_area, panel.timeline
    assert tl is not None
    assert [c.tensor_mode.itemText(i) for i in range(c.tensor_mode.count())] == [
        "Tensors: norm", "Tensors: element", "Tensors: heat strip"
    ]  # fmt: skip
    assert plots.params.isVisible() and not plots.heat.isVisible()
    c.tensor_mode.setCurrentIndex(1)
    c.element.setValue(2)
    assert plots.params.series[0]["y"][0] == pytest.approx(np.ravel(tl.value_at(0, 0))[2])
    c.tensor_mode.setCurrentIndex(2)
    assert plots.heat.isVisible() and not plots.params.isVisible() and not c.element.isVisible()
    assert c.element_index() is None and c.heat_strip()
    values = plots.heat.values
    assert values.shape[0] == tl.steps + 1
    kernel = np.ravel(tl.value_at(0, 4))
    top = max(np.abs(np.ravel(tl.value_at(0, k))).max() for k in range(tl.steps + 1))
    assert values[4, :24] == pytest.approx(kernel / top)  # dense/kernel: 24 elements, all shown
    panel.set_step(5)
    assert plots.heat.cursor.value() == 5
    c.tensor_mode.setCurrentIndex(0)
    assert plots.params.isVisible() and not plots.heat.isVisible()


def test_a_big_tensor_shows_evenly_spaced_elements() -> None:
    picked = evenly(100_352, MAX_ROWS)
    assert len(picked) == MAX_ROWS and picked[0] == 0 and picked[-1] == 100_351
    assert evenly(5, MAX_ROWS).tolist() == [0, 1, 2, 3, 4]


def test_a_click_in_the_history_goes_to_that_epochs_last_step(
    panel: TimelinePanel, qtbot: QtBot
) -> None:
    history = panel.plot_area.history

    class Click:
        def __init__(self, x: float) -> None:
            self.point = history.getViewBox().mapViewToScene(QPointF(x, 0.0))

        def scenePos(self) -> QPointF:
            return self.point

    panel.plot_area._on_extra_clicked(history, Click(2.0))
    assert panel.k == 5


def test_a_loop_of_the_scripts_own_has_no_history(qtbot: QtBot) -> None:
    result = run("import tensorflow as tf\nw = tf.Variable([1.0, 2.0])\nfor i in range(5):\n"
                 "    with tf.GradientTape() as t:\n        loss = tf.reduce_sum(w * w)\n"
                 "    w.assign_sub(0.1 * t.gradient(loss, w))\n")  # fmt: skip
    p = TimelinePanel()
    qtbot.addWidget(p)
    p.show()
    p.set_run(timelines_of(result))
    assert p.timeline is not None and p.timeline.epochs is None
    assert not p.plot_area.history.isVisible() and not len(p.controls.scrubber.epochs)
    assert "epoch" not in p.controls.step_label.text()
    image, names, edges = strip_of(p.timeline)
    assert image.shape == (6, 2) and names == [(0, "w")] and edges == []


def test_a_pasted_fit_in_the_window(qtbot: QtBot, window: MainWindow) -> None:
    """The issue's check: a fit of 3 epochs with a partial batch, in the real window."""
    window.mode.setCurrentIndex(1)
    window.editor.setPlainText(FIT)
    window.run_code()
    qtbot.waitUntil(lambda: window.last_result is not None and window._cancel is None,
                    timeout=60_000)  # fmt: skip
    panel = window.timeline
    assert panel.timeline is not None and len(panel.timelines) == 1
    assert panel.timeline.steps == STEPS
    assert [p.name for p in panel.timeline.parameters][:2] == ["dense/kernel", "dense/bias"]
    assert history_keys(panel.timeline.epochs.history) == ["loss", "val_loss", "mae", "val_mae"]
    assert panel.controls.scrubber.epochs.tolist() == [3, 6]
    panel.set_step(2)  # the partial batch: 16 of the 80 training rows
    tape = panel.timeline.step_tapes(2)[0].tape
    assert tape.records[0].inputs[0].shape[0] == 16
    assert window.model.entries  # the graph shows the step's tape


def test_a_fits_first_history_plot_is_made_on_a_part_of_its_own(
    qtbot: QtBot, fit: RunResult
) -> None:
    # Making the History plot's widgets took 20-35 ms, and drawing it 10-15 ms more: done in
    # one part, a streamed fit's first snapshot blocked the window for 50-60 ms.
    plots = TimelinePlots()
    qtbot.addWidget(plots)
    tl = timelines_of(fit)[0]
    assert len(plots.draw_parts(tl, False, None)) == 5  # all at once: made with the frame
    parts = plots.draw_parts(tl, False, None, by_turns=True)
    assert plots._history is None and len(parts) == 6
    parts[0]()
    made = plots._history
    assert made is not None and made.curves == [] and made.isHidden()
    for part in parts[1:]:
        part()
    assert plots.history is made and len(made.curves) == 4 and not made.isHidden()
    assert len(plots.draw_parts(tl, False, None, by_turns=True)) == 5  # made: no part again


def test_a_big_fits_first_drawing_not_by_turns_draws_its_frame_at_once(
    qtbot: QtBot, fit: RunResult, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A big loop drawn without by_turns runs its frame (the History, the marks) at once and the
    # plots by turns: the frame must still be the first part there.
    from tapeviz.ui.timeline import panel as panel_module

    monkeypatch.setattr(panel_module, "SLICED_STEPS", 5)
    p = TimelinePanel()
    qtbot.addWidget(p)
    p.show()
    p.set_run(timelines_of(fit))
    history = p.plot_area.history
    assert p.drawing and len(history.curves) == 4 and not history.isHidden()


def test_the_history_drawn_again_moves_its_curves_data(qtbot: QtBot, fit: RunResult) -> None:
    # A streamed fit redraws its History at every snapshot: the same keys, theme and scale
    # move the curves' data (10-20 ms of pyqtgraph items made again, before).
    plot = HistoryPlot()
    qtbot.addWidget(plot)
    epochs = timelines_of(fit)[0].epochs
    assert epochs is not None
    plot.draw(epochs, False)
    curves = list(plot.curves)
    plot.draw(epochs, True)  # log scale: the same curves, their values as log10
    assert plot.curves == curves and len(curves) == 4
    loss = np.asarray(fit.namespace["history"].history["loss"])
    assert curves[0].getData()[1].tolist() == pytest.approx(np.log10(loss).tolist())
    assert plot.getAxis("left").labelText == "log₁₀"
    plot.restyle(DARK, 1.5)  # another scale: its pens are made again, wider
    plot.draw(epochs, False)
    assert all(c not in curves for c in plot.curves) and len(plot.curves) == 4
    assert plot.curves[0].opts["pen"].widthF() == pytest.approx(3.0)
    assert plot.curves[0].getData()[1].tolist() == pytest.approx(loss.tolist())
    plot.draw(None, False)
    assert plot.curves == [] and plot.keys == []
