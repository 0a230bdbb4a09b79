"""The main window's dialogs and window actions: language, preferences, code export, About."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QActionGroup
from PySide6.QtWidgets import QMessageBox

from tapeviz.ui.code_export_dialog import CodeExportDialog
from tapeviz.ui.i18n import LANGUAGES
from tapeviz.ui.preferences import PreferencesDialog


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

    def set_language(self, code: str) -> None:
        """Remember the interface language (system, en or zh_CN) for the next start."""
        self._settings().setValue("prefs/language", code)
        self.statusBar().showMessage(self.tr("The language changes when tapeviz starts next time."))

    def preferences(self) -> PreferencesDialog:
        """Edit theme, text size, language and the sandbox limits."""
        dialog = PreferencesDialog(self._settings(), self)
        dialog.accepted.connect(self._on_preferences_accepted)
        dialog.setModal(True)
        dialog.show()
        return dialog

    def _on_preferences_accepted(self) -> None:
        self._restore_preferences()
        self.statusBar().showMessage(self.tr("Preferences saved."))

    def export_code(self) -> CodeExportDialog:
        """Show the current function as TensorFlow, PyTorch and JAX scripts."""
        dialog = CodeExportDialog(self.current_session(), self)
        dialog.setModal(True)
        dialog.show()
        return dialog

    def toggle_full_screen(self) -> None:
        """F11: full screen for the projector, and back."""
        self.setWindowState(self.windowState() ^ Qt.WindowState.WindowFullScreen)

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
