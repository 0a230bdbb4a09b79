"""Start the app: the QApplication, the main window, and what to open first."""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QApplication

from tapeviz.models.session.presets import PRESETS


def run_app(session_file: str | None = None, preset: str | None = None) -> int:
    """Open the window on a session file or a preset and run the event loop."""
    if preset and not session_file and preset not in PRESETS:
        print(f"tapeviz: no preset {preset!r}; 'tapeviz presets' lists them", file=sys.stderr)
        return 2
    from tapeviz.ui import memory
    from tapeviz.ui.window.main_window import MainWindow

    memory.tune_allocator()  # before Qt and the thread pool allocate
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("tapeviz")
    app.setOrganizationName("tapeviz")
    from tapeviz.ui import i18n
    from tapeviz.ui.window.preferences import settings

    i18n.install(i18n.language_for(str(settings().value("prefs/language", "system"))))
    window = MainWindow()
    window.show()
    if window.offer_restore():  # the last run crashed: its autosaved work comes first
        pass
    elif session_file:
        window.open_session(session_file)
    elif preset:
        window.load_preset(preset)
    return app.exec()
