"""The main window's dialogs and window actions: language, preferences, code export, About."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QActionGroup
from PySide6.QtWidgets import QMessageBox

from tapeviz.models.session.presets import PRESETS
from tapeviz.ui import i18n, workers
from tapeviz.ui.i18n import LANGUAGES
from tapeviz.ui.window.code_export_dialog import CodeExportDialog
from tapeviz.ui.window.preferences import PreferencesDialog

_WINDOWS: list[Any] = []  # windows rebuilt by a language switch (nothing else holds them)


class DialogsMixin:
    """Language menu, Preferences, code export, full screen and About for the main window."""

    def _build_language_menu(self, view: Any) -> None:
        menu = view.addMenu(self.tr("&Language"))
        menu.setObjectName("languageMenu")
        current = str(self._settings().value("prefs/language", "system"))
        group = QActionGroup(self)
        for code, label in [("system", self.tr("System language")), *LANGUAGES.items()]:
            action = menu.addAction(label)
            action.setCheckable(True)
            action.setChecked(code == current)
            action.setObjectName(f"language:{code}")
            action.triggered.connect(lambda _=False, c=code: self.set_language(c))
            group.addAction(action)

    def set_language(self, code: str) -> Any:
        """Switch the interface language now (system, en or zh_CN); returns the window showing it.

        Qt widgets keep the texts they were built with, so the window is rebuilt in the new
        language with the same work, file, view, layout and settings, and this one closes.
        """
        self._settings().setValue("prefs/language", code)
        if i18n.language_for(code) == i18n.installed():
            return self
        return self.reopen()

    def reopen(self) -> Any:
        """Rebuild the window in the installed language, keeping everything the user has."""
        i18n.install(i18n.language_for(str(self._settings().value("prefs/language", "system"))))
        session = self.current_session()
        step = self.studio.k if self.studio.race is not None else 0
        self.stop()  # stop this window's work first: a running job would slow the new window
        self.studio.shutdown()
        workers.wait_all(3000)
        new = type(self)()
        new.path = self.path
        new.restoreGeometry(self.saveGeometry())
        new.restoreState(self.saveState())
        new._split = dict(self._split)
        new.set_graph_settings(**self.graph_settings())
        new.apply_session(session, run_now=False)  # runs once this window's work has stopped
        new._apply_split()
        if self.clean_action.isChecked():
            new.presenter.set_clean(True)
        if self.path is None and session.name in PRESETS:
            title = QCoreApplication.translate("presets", PRESETS[session.name].title)
            new.setWindowTitle(f"tapeviz — {title}")
        else:
            new.setWindowTitle(self.windowTitle())
        new.setWindowState(self.windowState())
        new.show()
        _WINDOWS.append(new)
        self.close()  # cancels and waits for this window's runs; removes its autosave lock
        if self in _WINDOWS:
            _WINDOWS.remove(self)
        new.autosave.start()  # the lock is the new window's now
        if session.source.strip():
            new.studio.resume_at(step)  # the race is recomputed; the cursor goes back to step
            new.run_code()
        new.statusBar().showMessage(self.tr("Language changed."))
        return new

    def preferences(self) -> PreferencesDialog:
        """Edit theme, text size, language and the sandbox limits."""
        dialog = PreferencesDialog(self._settings(), self)
        dialog.accepted.connect(self._on_preferences_accepted)
        dialog.setModal(True)
        dialog.show()
        return dialog

    def _on_preferences_accepted(self) -> None:
        self.presenter.restore_preferences()
        self.statusBar().showMessage(self.tr("Preferences saved."))
        if i18n.language_for(str(self._settings().value("prefs/language", "system"))) != (
            i18n.installed()
        ):
            self.reopen()

    def export_code(self) -> CodeExportDialog:
        """Show the current function as TensorFlow, PyTorch and JAX scripts."""
        dialog = CodeExportDialog(self.current_session(), self)
        dialog.setModal(True)
        dialog.show()
        return dialog

    def about(self) -> None:
        """Versions of tapeviz and what it runs on."""
        import platform

        import numpy
        import pyqtgraph
        import PySide6

        from tapeviz import __version__

        QMessageBox.about(self, self.tr("About tapeviz"), (
            f"<b>tapeviz {__version__}</b><br>"
            + self.tr("Automatic differentiation and optimization, made visible.")
            + f"<br><br>Python {platform.python_version()} · PySide6 {PySide6.__version__} · "
            f"pyqtgraph {pyqtgraph.__version__} · numpy {numpy.__version__}"
        ))  # fmt: skip
