"""Render the README's screenshots offscreen: ``python -m tapeviz.ui.screenshots [DIR]``."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

from tapeviz.models.graph.model import GraphModel
from tapeviz.sandbox import VariableSpec
from tapeviz.ui.graph.expression_panel import ExpressionPanel
from tapeviz.ui.graph.view import GraphView

QUADRATIC = [VariableSpec("x", 0.0), VariableSpec("a", 1.0, "watched"),
             VariableSpec("b", -2.0, "watched"), VariableSpec("c", 1.0, "constant")]  # fmt: skip


def _fresh_settings() -> None:
    """Settings in a new folder: the default layout and limits, never the user's."""
    import tempfile

    from PySide6.QtCore import QSettings

    fmt, scope = QSettings.Format.IniFormat, QSettings.Scope.UserScope
    QSettings.setPath(fmt, scope, tempfile.mkdtemp())


def _window(size: tuple[int, int] = (1366, 768), theme: str = "light") -> Any:
    """A shown main window of ``size`` (projector size by default), animations off."""
    from tapeviz.ui.window.main_window import MainWindow

    window = MainWindow()
    window.graph.animation_ms = 0
    window.resize(*size)
    window.show()
    if theme == "dark":
        window.dark_action.trigger()
    return window


def _until(done: Callable[[], bool], seconds: float) -> None:
    """Process events until ``done()`` (work in workers), at most ``seconds``."""
    from PySide6.QtTest import QTest

    for _ in range(int(seconds * 50)):
        if done():
            return
        QTest.qWait(20)


def _ran(window: Any) -> Callable[[], bool]:
    """Whether ``window``'s run has ended with a result."""
    return lambda: window.last_result is not None and not window.runner.running


def graph_quadratic(out: Path) -> Path:
    """The seed quadratic a·x² + b·x + c as a graph with values and gradients."""
    model = GraphModel()
    view = GraphView(model)
    view.animation_ms = 0
    panel = ExpressionPanel(model, view, QUADRATIC, "a*x**2 + b*x + c")
    panel.resize(1200, 640)
    panel.show()
    QApplication.processEvents()
    view.fit()
    QApplication.processEvents()
    path = out / "graph_quadratic.png"
    panel.grab().save(str(path))
    panel.close()
    return path


def stepper_frames(out: Path) -> list[Path]:
    """Three frames of stepping the quadratic's backward pass: after steps 1, 3 and 5."""
    from PySide6.QtWidgets import QVBoxLayout, QWidget

    from tapeviz.sandbox.process.isolated import run_isolated as run
    from tapeviz.ui.graph.expression_panel import names_of
    from tapeviz.ui.stepper.panel import StepperPanel

    result = run("a*x**2 + b*x + c", mode="expression", variables=QUADRATIC)
    model = GraphModel(result.tapes, names_of(result))
    window = QWidget()
    box = QVBoxLayout(window)
    view = GraphView(model)
    view.animation_ms = 0
    box.addWidget(view, 3)
    panel = StepperPanel(model, view)
    box.addWidget(panel, 2)
    window.resize(1200, 900)
    window.show()
    QApplication.processEvents()
    view.fit()
    paths = []
    for k in (1, 3, 5):
        panel.jump(k)
        QApplication.processEvents()
        path = out / f"stepper_quadratic_{k}.png"
        window.grab().save(str(path))
        paths.append(path)
    window.close()
    return paths


def main_window(out: Path) -> list[Path]:
    """The whole window at projector size (1366×768) on the quadratic: light, dark, text at 1.5×."""
    from PySide6.QtTest import QTest

    _fresh_settings()
    window = _window()
    window.load_preset("quadratic")
    _until(_ran(window), 10)  # the run is in a worker
    QTest.qWait(300)
    window.stepper.jump(3)
    QTest.qWait(200)
    paths = [out / "main_window_light.png", out / "main_window_dark.png",
             out / "main_window_presenter_1_5.png"]  # fmt: skip
    window.grab().save(str(paths[0]))
    window.dark_action.trigger()
    window.stepper.jump(4)
    QTest.qWait(300)
    window.grab().save(str(paths[1]))
    window.dark_action.trigger()
    window.presenter.set_font_scale(1.5)  # a lecturer's Ctrl + Ctrl +: the back row reads it
    QTest.qWait(500)
    window.grab().save(str(paths[2]))
    window.presenter.set_font_scale(1.0)
    window.close()
    return paths


def main_window_seed(out: Path) -> Path:
    """The TensorFlow guide's first block at 1366×768: its graph, and ``Out: 6.0`` under it."""
    from PySide6.QtTest import QTest

    _fresh_settings()
    window = _window()
    window.load_preset("basics-2-1-constant-watch")
    _until(_ran(window), 10)
    QTest.qWait(300)
    path = out / "main_window_seed_out.png"
    window.grab().save(str(path))
    window.close()
    return path


def main_window_studio(out: Path) -> list[Path]:
    """The window on the Rosenbrock race with the studio in front, at 1366×768 and 1920×1080."""
    from PySide6.QtTest import QTest

    _fresh_settings()
    paths = []
    for size, theme in (((1366, 768), "light"), ((1920, 1080), "dark")):
        window = _window(size, theme)
        window.load_preset("rosenbrock-race")
        raced = _ran(window)
        studio = window.studio  # the sandbox check, then the race, in workers
        _until(lambda r=raced, st=studio: r() and st.race is not None and not st.busy, 30)
        window.studio.set_step(700)
        QTest.qWait(400)
        window.graph.fit()
        QTest.qWait(100)
        path = out / f"main_window_studio_{theme}.png"
        window.grab().save(str(path))
        paths.append(path)
        window.close()
    return paths


def main_window_timeline(out: Path) -> list[Path]:
    """A script's loop on the timeline: seed SGD at step 40 (and a GIF), raw years diverging."""
    from PySide6.QtTest import QTest

    from tapeviz.ui.window.preferences import settings

    _fresh_settings()

    settings().setValue("limits/wall_time", 120)  # 10,000 epochs even on a slow machine
    paths = []
    for preset, size, theme, step in (
        ("training-2-1-sgd-apply-gradients", (1366, 768), "light", 40),
        ("training-2-1-linear-regression-raw", (1920, 1080), "dark", 4),
    ):
        window = _window(size, theme)
        window.load_preset(preset)
        _until(_ran(window), 60)
        window.timeline.set_step(step)
        QTest.qWait(300)
        window.graph.fit()
        QTest.qWait(100)
        name = "sgd" if "sgd" in preset else "raw_years"
        path = out / f"main_window_timeline_{name}.png"
        window.grab().save(str(path))
        paths.append(path)
        if name == "sgd":
            gif = out / "timeline_sgd.gif"
            exporter = window.timeline.export("gif", gif, frames=60, width=900)
            done: list[str] = []
            exporter.finished.connect(done.append)
            _until(lambda d=done: bool(d), 60)
            paths.append(gif)
        window.close()
    return paths


PLOTS_SCRIPT = """\
import matplotlib.pyplot as plt

class Quadratic:
    def __init__(self, a, b):
        self.a, self.b = a, b
    def __call__(self, x, y):
        return self.a * x**2 + self.b * y**2

f = Quadratic(1.0, 10.0)
x, y = tf.Variable(-1.8), tf.Variable(0.9)
opt = tf.keras.optimizers.SGD(learning_rate=0.09, momentum=0.5)
path, losses = [], []
for step in range(40):
    with tf.GradientTape() as tape:
        loss = f(x, y)
    opt.apply_gradients(zip(tape.gradient(loss, [x, y]), [x, y]))
    path.append((x.numpy(), y.numpy()))
    losses.append(loss)

fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
left.semilogy(losses, "o-", ms=3, label="SGD, momentum 0.5")
left.set(title="Loss per step", xlabel="step", ylabel="f(x, y)")
left.legend()
X, Y = np.meshgrid(np.linspace(-2, 2, 81), np.linspace(-1, 1, 41))
cs = right.contour(X, Y, f(X, Y), levels=[0.1, 0.5, 1, 2, 4, 8])
right.clabel(cs)
right.plot([p[0] for p in path], [p[1] for p in path], "r.-", label="path")
right.set_title("The path on $f = x^2 + 10 y^2$")
right.legend()
plt.show()
"""


def main_window_plots(out: Path) -> Path:
    """The window with the Plots tab in front: a pasted class-based loop plotted with pyplot."""
    from PySide6.QtTest import QTest

    from tapeviz.models.session.file import Session

    _fresh_settings()
    window = _window()
    window.apply_session(Session(source=PLOTS_SCRIPT, mode="script"))
    _until(_ran(window), 10)
    QTest.qWait(400)
    path = out / "main_window_plots.png"
    window.grab().save(str(path))
    window.close()
    return path


def main_window_torch(out: Path) -> list[Path]:
    """PyTorch code: the micrograd lecture's neuron stepped backward, a small nn trained."""
    from PySide6.QtTest import QTest

    _fresh_settings()
    paths = []
    for preset, steps in (("torch-micrograd-neuron", 3), ("torch-nn-training", 0)):
        window = _window()
        window.load_preset(preset)
        _until(_ran(window), 30)
        QTest.qWait(300)
        if steps:
            window.lower_tabs.show_view("stepper")
            window.stepper.jump(steps)
        else:
            window.timeline.set_step(12)
        QTest.qWait(300)
        if steps:
            window.graph.fit_all()  # the whole neuron on screen
        else:
            window.graph.fit_readable()  # a network step: readable, scrolled
        QTest.qWait(200)
        path = out / f"main_window_{preset.replace('-', '_')}.png"
        window.grab().save(str(path))
        paths.append(path)
        window.close()
    return paths


def main(argv: list[str] | None = None) -> int:
    """Write every screenshot into the directory given (default ``assets/screenshots``)."""
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0] if args else "assets/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication([])
    shots = (graph_quadratic, stepper_frames, main_window, main_window_seed, main_window_studio,
             main_window_timeline, main_window_plots, main_window_torch)  # fmt: skip
    for shot in shots:
        print(shot(out))
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
