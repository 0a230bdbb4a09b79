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
    from tapeviz.ui.display import display_problem

    problem = None if QApplication.instance() else display_problem()
    if problem is not None:  # Qt would abort ("could not load the Qt platform plugin xcb")
        print(f"tapeviz: {problem}", file=sys.stderr)
        return 2
    from tapeviz.ui import memory
    from tapeviz.ui.window.main_window import MainWindow
    from tapeviz.ui.window.screen_fit import fit_to_screen

    memory.tune_allocator()  # before Qt and the thread pool allocate
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("tapeviz")
    app.setOrganizationName("tapeviz")
    from tapeviz.ui import i18n
    from tapeviz.ui.window.preferences import settings

    i18n.install(i18n.language_for(str(settings().value("prefs/language", "system"))))
    window = MainWindow()
    window.show()
    fit_to_screen(window)  # a laptop's 1,366×768 with a panel: the whole window on it

    def first_work() -> None:
        """Without a restore: the session file (read in the pool), else the preset."""
        if session_file:
            window.sessions.open_in_background(session_file)
        elif preset:
            window.load_preset(preset)

    # The last run crashed: its autosaved work comes first. Files are read off the UI thread,
    # so a file on a hung network folder (or a pipe given by mistake) never freezes the window.
    window.sessions.restore_in_background(otherwise=first_work)
    return app.exec()
