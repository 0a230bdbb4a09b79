"""A pasted Keras fit on 2-D data shows in the Network view: its network, data and every step.

The view and the Timeline tab move together; Playground's settings hand the network to
Playground; a demo leaves the script's network; a fit the view cannot draw says why.
"""

from __future__ import annotations

import numpy as np
from pytestqt.qtbot import QtBot

from tapeviz.ui import MainWindow
from tapeviz.ui.network.script_mode import SCRIPT
from tapeviz.ui.network.trainer_thread import OUTPUT_GRID

FIT = """import numpy as np
import tensorflow as tf
rng = np.random.default_rng(0)
X = rng.uniform(-1, 1, size=(120, 2)).astype("float32")
y = (X[:, 0] ** 2 + X[:, 1] ** 2 < 0.5).astype("float32")
model = tf.keras.Sequential([tf.keras.Input(shape=(2,)),
    tf.keras.layers.Dense(4, activation="tanh"), tf.keras.layers.Dense(1, activation="sigmoid")])
model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="binary_crossentropy")
history = model.fit(X, y, epochs=4, batch_size=24, validation_split=0.2, verbose=0)
"""
STEPS = 4 * 4  # 96 training points in batches of 24
WAIT_MS = 30_000


def _run(qtbot: QtBot, w: MainWindow, code: str) -> None:
    w.mode.setCurrentIndex(1)  # Script
    w.editor.setPlainText(code)
    w.run_code()
    qtbot.waitUntil(lambda: w._cancel is None and w.runner.last_result is not None,
                    timeout=WAIT_MS)  # fmt: skip


def test_the_fit_is_drawn_step_by_step_with_the_timeline(qtbot: QtBot, window: MainWindow) -> None:
    w, net = window, window.network
    _run(qtbot, w, FIT)
    qtbot.waitUntil(lambda: net.script is not None, timeout=WAIT_MS)
    assert net.script.steps == STEPS and w.timeline.timeline.steps == STEPS
    assert net.top.demo.currentData() == SCRIPT and "2-4-1 network" in net.message.full
    assert not net.top.export_actions["code"].isEnabled()  # its code is the editor's
    assert "your script" in net.top.export_actions["code"].toolTip()
    assert not any(b.isChecked() for b in net.data_controls.buttons.values())  # its own points
    assert net.top.export_actions["gif"].isEnabled()
    w.show_view("network")
    first = net.frame.runs[0]
    assert first.epoch == 0 and first.step == 0 and len(first.train_loss) == 0
    assert net.output.test_loss.text() == "Test loss —"  # no epoch yet: nothing to say
    np.testing.assert_array_equal(first.weights[0][0], net.script.spec.layout.weights(
        net.script.row(0))[0][0])  # fmt: skip
    net.step()  # one epoch: the Timeline goes there too (and the graph shows its tape)
    assert net.script_k == 4 and w.timeline.k == 4 and net.frame.runs[0].epoch == 1
    w.timeline.set_step(9)  # the Timeline's cursor moves the view
    assert net.script_k == 9 and net.frame.runs[0].step == 9
    net.play()
    assert net.playing
    qtbot.waitUntil(lambda: not net.playing, timeout=WAIT_MS)
    last = net.frame.runs[0]
    assert net.script_k == STEPS and last.epoch == 4
    np.testing.assert_array_equal(last.train_loss, w.timeline.timeline.epochs.history["loss"])
    assert w.timeline.k == STEPS - 1  # where the replay rested
    net.reset()
    assert net.script_k == 0 and w.timeline.k == 0
    output = net.frame.runs[0].output
    assert output.shape == (OUTPUT_GRID,) * 2 and -1 <= output.min() <= output.max() <= 1


def test_a_setting_hands_the_network_to_playground(qtbot: QtBot, window: MainWindow) -> None:
    w, net = window, window.network
    _run(qtbot, w, FIT)
    qtbot.waitUntil(lambda: net.script is not None, timeout=WAIT_MS)
    points = net.script.config.data.custom
    w.show_view("network")
    net.change_layers(+1)
    assert net.script is None and net.top.demo.findData(SCRIPT) < 0
    qtbot.waitUntil(lambda: net.built is not None and net.built.generation > 0 and not net.busy,
                    timeout=WAIT_MS)  # fmt: skip
    assert net.config.data.custom == points and net.config.net.hidden == (4, 2)
    assert "Playground now trains your script's network" in net.message.full
    assert net.top.export_actions["code"].isEnabled()


def test_the_data_column_shows_the_scripts_split_and_batch(
    qtbot: QtBot, window: MainWindow
) -> None:
    """Batch 40 (past the slider's 30) on every point: said as the script has them, and
    Playground's noise and new points are off until a setting hands the network over."""
    w, net = window, window.network
    _run(qtbot, w, FIT.replace("batch_size=24, validation_split=0.2", "batch_size=40"))
    qtbot.waitUntil(lambda: net.script is not None, timeout=WAIT_MS)
    data = net.data_controls
    assert data.batch_label.text() == "Batch size: 40"
    assert data.ratio_label.text() == "Training data: 100 %"
    assert data.noise_label.text() == "Noise: —"
    assert not data.noise.isEnabled() and not data.regen.isEnabled()
    assert "own points" in data.regen.toolTip()
    w.show_view("network")
    net.change_layers(+1)  # Playground takes the network: its own settings, all live
    assert net.script is None and data.noise.isEnabled() and data.regen.isEnabled()
    assert data.batch_label.text() == f"Batch size: {data.batch.value()}"


def test_a_demo_leaves_and_a_run_without_a_fit_too(qtbot: QtBot, window: MainWindow) -> None:
    w, net = window, window.network
    _run(qtbot, w, FIT)
    qtbot.waitUntil(lambda: net.script is not None, timeout=WAIT_MS)
    net.load_preset(net.top.demo.itemData(2))
    assert net.script is None and net.top.demo.findData(SCRIPT) < 0
    _run(qtbot, w, FIT)
    qtbot.waitUntil(lambda: net.script is not None, timeout=WAIT_MS)
    _run(qtbot, w, "import tensorflow as tf\nx = tf.Variable(1.0)\n")
    assert net.script is None


def test_a_fit_the_view_cannot_draw_says_why(qtbot: QtBot, window: MainWindow) -> None:
    w, net = window, window.network
    _run(qtbot, w, FIT.replace('activation="tanh"', 'activation="elu"'))
    qtbot.waitUntil(lambda: "not drawn here" in net.message.full, timeout=WAIT_MS)
    assert net.script is None and "uses elu" in net.message.full


def test_the_scripts_fit_exports_as_an_animation_and_its_history(
    qtbot: QtBot, window: MainWindow, tmp_path
) -> None:
    import csv

    from PIL import Image

    w, net = window, window.network
    _run(qtbot, w, FIT)
    qtbot.waitUntil(lambda: net.script is not None, timeout=WAIT_MS)
    w.show_view("network")
    exporter = net.export("gif", tmp_path / "fit.gif", frames=100, width=400)
    with qtbot.waitSignal(exporter.finished, timeout=WAIT_MS):
        pass
    with Image.open(tmp_path / "fit.gif") as gif:
        assert gif.n_frames == STEPS + 1  # every step, and after the last
    assert net.script_k == 0 and net.frame.runs[0].step == 0  # the view is back where it was
    rows = list(csv.reader(net.export("csv", tmp_path / "fit.csv").open(encoding="utf-8")))
    assert rows[0] == ["epoch", "loss", "val_loss"] and len(rows) == 5
    history = w.timeline.timeline.epochs.history
    assert [float(r[2]) for r in rows[1:]] == history["val_loss"].tolist()


TORCH = """import torch
from torch import nn
from sklearn.datasets import make_moons
X, y = make_moons(150, noise=0.1, random_state=0)
X, y = torch.tensor(X, dtype=torch.float32), torch.tensor(y, dtype=torch.float32)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 6), nn.Tanh(), nn.Linear(6, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.5)
loss_fn = nn.BCEWithLogitsLoss()
for epoch in range(12):
    loss = loss_fn(model(X).squeeze(), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_a_torch_loop_is_drawn_with_its_loss(qtbot: QtBot, window: MainWindow) -> None:
    w, net = window, window.network
    _run(qtbot, w, TORCH)
    qtbot.waitUntil(lambda: net.script is not None, timeout=WAIT_MS)
    assert net.script.steps == 12 and w.timeline.timeline.steps == 12
    assert "2-6-1 network" in net.message.full and "SGD lr 0.5" in net.message.full
    assert "BCEWithLogitsLoss" in net.message.full
    w.show_view("network")
    net.step()  # one step of the loop (each counts as an epoch)
    assert net.script_k == 1 and w.timeline.k == 1
    net.play()
    qtbot.waitUntil(lambda: not net.playing, timeout=WAIT_MS)
    last = net.frame.runs[0]
    assert net.script_k == 12 and last.epoch == 12
    np.testing.assert_allclose(last.train_loss, w.timeline.timeline.loss[:12], rtol=1e-6)
