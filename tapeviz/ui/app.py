"""Start the app: the QApplication, the main window, and what to open first."""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QApplication

from tapeviz.ui.main_window import MainWindow


def run_app(session_file: str | None = None, preset: str | None = None) -> int:
    """Open the window on a session file or a preset and run the event loop."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("tapeviz")
    app.setOrganizationName("tapeviz")
    window = MainWindow()
    if session_file:
        window.open_session(session_file)
    elif preset:
        if preset not in _preset_names():
            print(f"tapeviz: no preset {preset!r}; 'tapeviz presets' lists them", file=sys.stderr)
            return 2
        window.load_preset(preset)
    window.show()
    return app.exec()


def _preset_names() -> list[str]:
    from tapeviz.models.presets import PRESETS

    return list(PRESETS)
