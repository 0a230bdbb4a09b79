"""A lecturer's session at a person's pace, as one program: ``python -X faulthandler soak.py``.

Typing with pauses (expression mode, live re-runs between keys), every preset, big graphs,
the studio playing, the Network tab training and racing, language round trips, presenter
scale and the dark theme, a crashing script. Run by tests/ui/test_soak.py in a subprocess so
that a segfault shows its stack (via faulthandler) instead of killing pytest. Prints ``SOAK
OK`` and exits 0 when nothing crashed and no exception reached a Qt slot.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
import traceback

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent, QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

ERRORS: list[str] = []


def _hook(kind: type[BaseException], value: BaseException, tb: object) -> None:
    ERRORS.append("".join(traceback.format_exception(kind, value, tb)))  # type: ignore[arg-type]
    sys.__excepthook__(kind, value, tb)  # type: ignore[arg-type]


def pause(app: QApplication, seconds: float) -> None:
    """Let the event loop run (timers, workers' results) for ``seconds``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        app.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)  # as app.exec() does
        time.sleep(0.005)


def current(app: QApplication) -> object:
    """The main window now shown (a language switch replaces it)."""
    from tapeviz.ui import MainWindow

    shown = [w for w in app.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
    return shown[-1]


def type_slowly(app: QApplication, window: object, text: str, rng: random.Random) -> None:
    """Type ``text`` key by key with a person's pauses (0.05-0.5 s)."""
    editor = window.editor  # type: ignore[attr-defined]
    editor.setFocus()
    for ch in text:
        QTest.keyClicks(editor, ch)
        pause(app, rng.choice([0.05, 0.1, 0.3, 0.45]))


STREAMED = """import tensorflow as tf
w = tf.Variable([2.0, -1.5])
for step in range(10_000_000):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum((w - [1.0, 0.5]) ** 2)
    w.assign_sub(0.001 * tape.gradient(loss, w))
    if step % 1000 == 0:
        print("step", step, float(loss))
"""


def main() -> int:
    """Run the phases until ``--seconds`` have passed."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=170.0)
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()
    sys.excepthook = _hook
    folder = tempfile.mkdtemp(prefix="tapeviz-soak-")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, folder)
    app = QApplication.instance() or QApplication(sys.argv)
    QMessageBox.question = lambda *a, **k: QMessageBox.StandardButton.No  # type: ignore[method-assign]
    from tapeviz.models.session.presets import PRESETS
    from tapeviz.ui import MainWindow

    rng = random.Random(args.seed)
    window = MainWindow()
    window.resize(1366, 768)
    window.show()
    pause(app, 0.5)
    deadline = time.monotonic() + args.seconds
    rounds = 0
    big = "import tensorflow as tf\nx = tf.Variable(1.0)\nwith tf.GradientTape() as t:\n"
    big += "    y = x\n    for i in range(1500):\n        y = y * 1.0001 + 0.001\n"
    big += "print(t.gradient(y, x))\n"
    crash = "t = ()\nfor i in range(400000):\n    t = (t,)\nd = dict([[t, 1]])\n"
    while time.monotonic() < deadline:
        rounds += 1
        window = current(app)
        window.load_preset("quadratic")  # type: ignore[attr-defined]
        pause(app, 0.5)
        window.editor.selectAll()  # type: ignore[attr-defined]
        type_slowly(app, window, "sigmoid(w*x + b)", rng)
        pause(app, 0.6)
        for name in rng.sample(list(PRESETS), 6):
            current(app).load_preset(name)  # type: ignore[attr-defined]
            pause(app, rng.uniform(0.2, 0.8))
            for _ in range(rng.randint(0, 6)):
                QTest.keyClick(current(app), rng.choice([Qt.Key.Key_Right, Qt.Key.Key_Left,
                                                         Qt.Key.Key_Home]))  # fmt: skip
                pause(app, 0.05)
        window = current(app)
        window.load_preset("rosenbrock-race")  # type: ignore[attr-defined]
        pause(app, 2.0)
        window.transport("play")  # type: ignore[attr-defined]
        pause(app, 1.5)
        window.transport("play")  # type: ignore[attr-defined]
        window.set_font_scale(rng.choice([1.0, 1.5, 2.0]))  # type: ignore[attr-defined]
        window.set_theme(rng.choice(list(__import__("tapeviz.ui.theme", fromlist=["THEMES"])
                                         .THEMES.values())))  # fmt: skip
        pause(app, 0.3)
        for source in (big, crash):
            window.mode.setCurrentIndex(1)  # type: ignore[attr-defined]
            window.editor.setPlainText(source)  # type: ignore[attr-defined]
            window.run_code()  # type: ignore[attr-defined]
            pause(app, 4.0)
        # A long loop streams in: scrub and play while it runs, then Stop it.
        window.editor.setPlainText(STREAMED)  # type: ignore[attr-defined]
        window.run_code()  # type: ignore[attr-defined]
        pause(app, 1.0)
        panel = window.timeline  # type: ignore[attr-defined]
        for _ in range(5):
            if panel.timeline is not None:
                panel.set_step(rng.randrange(panel.timeline.steps))
            pause(app, 0.3)
        window.transport("play")  # type: ignore[attr-defined]
        pause(app, 0.8)
        window.runner.stop()  # type: ignore[attr-defined]
        pause(app, 1.0)
        # The Network tab: train, race, step the network's tape in the stepper, leave playing.
        window.show_view("network")  # type: ignore[attr-defined]
        net = window.network  # type: ignore[attr-defined]
        net.load_preset(rng.choice(["spiral_deep", "xor_hidden", "moons_micrograd"]))
        pause(app, 0.5)
        net.play()
        pause(app, 1.5)
        net.set_race(("SGD", "Adam"))
        net.play()
        pause(app, 1.0)
        window.show_view("stepper")  # type: ignore[attr-defined]
        for _ in range(4):
            QTest.keyClick(window, Qt.Key.Key_Right)  # type: ignore[arg-type]
            pause(app, 0.05)
        if rounds % 2 == 1:
            net.play()  # training while the window is rebuilt in another language
            new = window.set_language("zh_CN")  # type: ignore[attr-defined]
            pause(app, 1.0)
            new = new.set_language("en")
            pause(app, 1.0)
            window = new
        print(f"round {rounds} done, {len(ERRORS)} errors", flush=True)
    current(app).close()  # type: ignore[attr-defined]
    pause(app, 0.5)
    if ERRORS:
        print(f"SOAK FAILED: {len(ERRORS)} exceptions in slots", flush=True)
        return 1
    print(f"SOAK OK after {rounds} rounds", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
