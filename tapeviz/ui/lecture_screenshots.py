"""Every tab at a projector's 1366×768, text at 100 % and 150 %, light and dark.

``python -m tapeviz.ui.lecture_screenshots [DIR]`` writes ``{tab}_{scale}_{theme}.png`` (20
pictures) to ``DIR`` (``assets/screenshots/lecture_room``): what a lecturer checks before a
class, and what a review of the layout looks at.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tapeviz.models.session.file import Session
from tapeviz.ui.screenshots import PLOTS_SCRIPT
from tapeviz.ui.theme import DARK, LIGHT

SIZE = (1366, 768)
NETWORK_SCRIPT = """import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
X = rng.uniform(-1, 1, size=(300, 2)).astype("float32")
y = (X[:, 0] ** 2 + X[:, 1] ** 2 < 0.45).astype("float32")
model = tf.keras.Sequential([tf.keras.Input(shape=(2,)),
                             tf.keras.layers.Dense(6, activation="tanh"),
                             tf.keras.layers.Dense(3, activation="tanh"),
                             tf.keras.layers.Dense(1, activation="sigmoid")])
model.compile(optimizer=tf.keras.optimizers.Adam(0.03), loss="binary_crossentropy")
history = model.fit(X, y, epochs=40, batch_size=30, validation_split=0.2, verbose=0)
"""
SCALES = (1.0, 1.5)
TABS = (  # tab, what it shows: a preset, or a session's script
    ("stepper", "micrograd-neuron"),
    ("studio", "rosenbrock-race"),
    ("timeline", "training-2-1-sgd-apply-gradients"),
    ("plots", PLOTS_SCRIPT),
    ("network", NETWORK_SCRIPT),  # a pasted Keras fit on 2-D data, drawn after its last step
)


def _wait(window: object, seconds: float = 60.0) -> None:
    """Until the window's run, its studio race and its drawing are done."""
    for _ in range(int(seconds / 0.02)):
        w: object = window
        if (w.last_result is not None and not w.runner.running  # type: ignore[attr-defined]
                and not w.studio.busy):  # type: ignore[attr-defined]  # fmt: skip
            break
        QTest.qWait(20)
    QTest.qWait(400)


def lecture_room(out: Path) -> list[Path]:
    """The 20 pictures (see the module docstring); their paths."""
    from tapeviz.ui.window.main_window import MainWindow

    fmt, scope = QSettings.Format.IniFormat, QSettings.Scope.UserScope
    QSettings.setPath(fmt, scope, tempfile.mkdtemp())  # the default layout, not the user's
    out.mkdir(parents=True, exist_ok=True)
    window = MainWindow()
    window.graph.animation_ms = 0
    window.resize(*SIZE)
    window.show()
    paths = []
    for tab, work in TABS:
        window.runner.last_result = None
        if tab in ("plots", "network"):
            window.apply_session(Session(source=work, mode="script"))
        else:
            window.load_preset(work)
        _wait(window)
        window.show_view(tab)
        _wait(window)
        net = window.network  # type: ignore[attr-defined]
        if tab == "network":  # the fit, once offered to the view, after its last step
            for _ in range(500):
                if net.script is not None:
                    break
                QTest.qWait(20)
            if net.script is not None:
                net.show_script_step(net.script.steps, announce=True)  # the Timeline too
                QTest.qWait(300)
        for scale in SCALES:
            for theme in (LIGHT, DARK):
                window.set_theme(theme)
                window.set_font_scale(scale)
                QTest.qWait(500)
                path = out / f"{tab}_{round(scale * 100)}_{theme.name}.png"
                window.grab().save(str(path))
                paths.append(path)
    window.set_theme(LIGHT)
    window.set_font_scale(1.0)
    window.close()
    return paths


def main(argv: list[str] | None = None) -> int:
    """Write the pictures to the folder given (default: assets/screenshots/lecture_room)."""
    args = sys.argv[1:] if argv is None else argv
    from tapeviz.models.resources import assets_dir

    out = Path(args[0]) if args else assets_dir() / "screenshots" / "lecture_room"
    app = QApplication.instance() or QApplication([])
    app.setApplicationName("tapeviz")
    for path in lecture_room(out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
