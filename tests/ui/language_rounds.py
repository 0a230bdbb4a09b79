"""Switch to Chinese and back many times, as one program: ``python -X faulthandler ...``.

Each switch rebuilds the window; every rebuild must keep the window's size, the graph's zoom
and centre, the tape and gradient() call shown and the chain-rule panel's state (mode,
position, predict mode, the front tab, the speed). Run by tests/ui/test_language_rounds.py in
a subprocess, so that a segfault shows its stack (faulthandler) instead of killing pytest.
Prints ``ROUNDS OK`` and exits 0 when every round kept everything and no exception reached a
Qt slot.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import traceback
from collections.abc import Callable

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

ERRORS: list[str] = []
WAIT = 60.0  # s: a shared, slow machine may take long; the checks do not depend on speed
MOVED = 2  # scene px the graph may move in a rebuild (scrolling rounds to whole pixels)


def _hook(kind: type[BaseException], value: BaseException, tb: object) -> None:
    ERRORS.append("".join(traceback.format_exception(kind, value, tb)))  # type: ignore[arg-type]
    sys.__excepthook__(kind, value, tb)  # type: ignore[arg-type]


def wait_until(app: QApplication, done: Callable[[], bool], what: str) -> None:
    """Run the event loop until ``done()`` (or fail after :data:`WAIT` seconds)."""
    end = time.monotonic() + WAIT
    while not done():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        app.processEvents()
        time.sleep(0.01)


def shown(window: object) -> bool:
    """The window's run is done and its graph shows the carried view."""
    w: object = window
    return (
        w.last_result is not None  # type: ignore[attr-defined]
        and not w.runner.running  # type: ignore[attr-defined]
        and bool(w.graph.items)  # type: ignore[attr-defined]
        and w.carried.pending is None  # type: ignore[attr-defined]
    )


def state(window: object) -> dict:
    """Everything a switch must keep, rounded where it is a float."""
    w: object = window
    view = w.view_state()  # type: ignore[attr-defined]
    size = w.size()  # type: ignore[attr-defined]
    return {
        "size": (size.width(), size.height()),
        "tape": view["tape"],
        "call": view["call"],
        "stepper": view["stepper"],
        "auto": view["graph"]["auto"],
        "zoom": round(view["graph"]["zoom"], 3),
        "corner": tuple(round(c) for c in view["graph"]["corner"]),
        "clean": w.clean_action.isChecked(),  # type: ignore[attr-defined]
        "text": w.editor.toPlainText(),  # type: ignore[attr-defined]
    }


def main() -> int:
    """Set a lesson up, then switch the language ``--rounds`` times there and back."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    sys.excepthook = _hook
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    folder = tempfile.mkdtemp(prefix="tapeviz-rounds-")
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, folder)
    app = QApplication.instance() or QApplication(sys.argv)
    from tapeviz.ui import MainWindow, i18n

    i18n.install("en")
    window = MainWindow()
    window.graph.animation_ms = 0
    window.resize(1366, 768)
    window.show()
    window.load_preset("basics-2-2-4-persistent")
    wait_until(app, lambda: shown(window), "the preset's graph")
    window.model.select_call(0)  # tape.gradient(y, x): the first of the two calls
    window.stepper.jump(1)
    window.stepper.predict.setChecked(True)
    window.stepper.tabs.setCurrentIndex(1)  # the gradient check
    window.stepper.speed.setValue(3.0)
    window.graph.zoom(1.25)  # the lecturer's own zoom, not the fit
    window.graph.centerOn(window.graph.items["s0"])
    app.processEvents()
    want = state(window)
    assert want["call"] == 0 and want["stepper"]["position"] == 1 and not want["auto"], want
    for k in range(args.rounds):
        for language in ("zh_CN", "en"):
            new = window.set_language(language)
            assert new is not window, "the window was not rebuilt"
            new.graph.animation_ms = 0
            window = new
            wait_until(app, lambda w=window: shown(w), f"round {k + 1}: the {language} graph")
            assert i18n.installed() == language
            got = state(window)
            drift = max(abs(a - b) for a, b in zip(got.pop("corner"), want["corner"], strict=True))
            assert drift <= MOVED, f"round {k + 1} ({language}): the graph moved {drift} px"
            kept = {key: value for key, value in want.items() if key != "corner"}
            assert got == kept, f"round {k + 1} ({language}) changed {got} from {kept}"
            model = window.model
            grads = {model.nodes[n].label: float(v) for n, v in model.gradients.items()}
            assert grads == {"x": 6.0, "y": 1.0}, grads  # still the first call's pass
        print(f"round {k + 1} kept everything (the graph within {drift} px)", flush=True)
    if ERRORS:
        print("\n".join(ERRORS), file=sys.stderr)
        return 1
    print("ROUNDS OK", flush=True)
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
