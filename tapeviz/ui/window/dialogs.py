"""The main window's dialogs: the language menu and switch, Preferences, code export, About."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QCoreApplication, QObject, QSettings, Qt
from PySide6.QtGui import QActionGroup
from PySide6.QtWidgets import QMainWindow, QMenu, QMessageBox

from tapeviz.models.session.file import Session
from tapeviz.models.session.presets import PRESETS
from tapeviz.ui import i18n, workers
from tapeviz.ui.i18n import LANGUAGES
from tapeviz.ui.window.preferences import PreferencesDialog, settings

if TYPE_CHECKING:
    from tapeviz.ui.window.code_export_dialog import CodeExportDialog

_WINDOWS: list[Any] = []  # windows rebuilt by a language switch (nothing else holds them)


class Rebuildable(Protocol):
    """What a language switch carries from one window to the one that replaces it.

    Besides these, a QMainWindow's own geometry, dock state, title and window state.
    :class:`~tapeviz.ui.window.main_window.MainWindow` is one; this module never imports it.
    """

    path: Any  # the session file (a Path or None)
    studio: Any  # the OptimizationStudio: its step is kept
    lower_tabs: Any  # the LowerTabs: the graph's share per tab is kept
    presenter: Any  # the PresenterController: clean mode is kept
    sessions: Any  # the SessionController: the new window takes the autosave lock

    def current_session(self) -> Session:
        """The work in the window."""

    def apply_session(self, session: Session, run_now: bool = True) -> None:
        """Put a session in the window."""

    def graph_settings(self) -> dict[str, Any]:
        """The graph's view settings."""

    def set_graph_settings(self, **changes: Any) -> None:
        """Change some graph settings."""

    def stop(self) -> None:
        """Cancel the window's runs."""

    def view_state(self) -> dict[str, Any]:
        """The graph's fit, the tape and gradient() call shown, the stepper's state."""

    def carry_view(self, state: dict[str, Any]) -> None:
        """Show the next run's graph as ``state`` says."""

    def run_code(self) -> None:
        """Run the editor's text."""

    def show_status(self, text: str) -> None:
        """Show ``text`` in the status line."""


class DialogsController(QObject):
    """The Language menu and switch, Preferences, code export, About.

    ``window`` parents the dialogs; a language switch replaces it by a new window of its type
    with the same work (see :class:`Rebuildable`). After Preferences, ``restore_preferences``
    applies the theme and text size; ``store()`` gives the settings.
    """

    def __init__(
        self,
        window: QMainWindow,
        restore_preferences: Callable[[], None],
        store: Callable[[], QSettings] = settings,
    ) -> None:
        super().__init__(window)
        self.window, self.restore_preferences, self.store = window, restore_preferences, store

    def add_language_menu(self, view: QMenu) -> QMenu:
        """The Language submenu of ``view``: the system's language, English, 简体中文."""
        menu = view.addMenu(self.tr("&Language"))
        menu.setObjectName("languageMenu")
        current = str(self.store().value("prefs/language", "system"))
        self.language_group = QActionGroup(self)
        for code, label in [("system", self.tr("System language")), *LANGUAGES.items()]:
            action = menu.addAction(label)
            action.setCheckable(True)
            action.setChecked(code == current)
            action.setObjectName(f"language:{code}")
            action.triggered.connect(lambda _=False, c=code: self.set_language(c))
            self.language_group.addAction(action)
        return menu

    def set_language(self, code: str) -> Any:
        """Switch the interface language now (system, en or zh_CN); returns the window showing it.

        Qt widgets keep the texts they were built with, so the window is rebuilt in the new
        language with the same work, file, view, layout and settings, and this one closes.
        """
        self.store().setValue("prefs/language", code)
        if i18n.language_for(code) == i18n.installed():
            return self.window
        return self.reopen()

    def reopen(self) -> Any:
        """Rebuild the window in the installed language, keeping everything the user has."""
        old: Any = self.window  # a QMainWindow that is also Rebuildable
        i18n.install(i18n.language_for(str(self.store().value("prefs/language", "system"))))
        session = old.current_session()
        view = old.view_state()  # the graph's fit and the chain-rule panel, as they are now
        geometry, maximized = old.geometry(), old.isMaximized() or old.isFullScreen()
        step = old.studio.k if old.studio.race is not None else 0
        old.stop()  # stop this window's work first: a running job would slow the new window
        old.studio.shutdown()
        workers.wait_all(3000)
        new = type(old)()
        new.path = old.path
        new.restoreGeometry(old.saveGeometry())
        if not maximized:
            new.setGeometry(geometry)  # saved geometry alone moved it down by the title bar
        new.restoreState(old.saveState())
        new.lower_tabs.shares = dict(old.lower_tabs.shares)
        new.set_graph_settings(**old.graph_settings())
        new.apply_session(session, run_now=False)  # runs once this window's work has stopped
        new.carry_view(view)
        new.lower_tabs.apply_split()
        if old.presenter.clean_action.isChecked():
            new.presenter.set_clean(True)
        new.lower_tabs.splitter.setSizes(old.lower_tabs.splitter.sizes())  # to the pixel
        if old.path is None and session.name in PRESETS:
            title = QCoreApplication.translate("presets", PRESETS[session.name].title)
            new.setWindowTitle(f"tapeviz — {title}")
        else:
            new.setWindowTitle(old.windowTitle())
        new.setWindowState(old.windowState())
        new.show()
        if not maximized:
            new.setGeometry(geometry)  # to the pixel: each switch had moved it 25 px lower
        _WINDOWS.append(new)
        old.close()  # cancels and waits for this window's runs; removes its autosave lock
        if old in _WINDOWS:
            _WINDOWS.remove(old)
        new.sessions.autosave.start()  # the lock is the new window's now
        if session.source.strip():
            new.studio.resume_at(step)  # the race is recomputed; the cursor goes back to step
            new.run_code()
        new.show_status(self.tr("Language changed."))
        return new

    def preferences(self) -> PreferencesDialog:
        """Edit theme, text size, language and the sandbox limits."""
        dialog = PreferencesDialog(self.store(), self.window)
        dialog.accepted.connect(self._on_preferences_accepted)
        dialog.setModal(True)
        dialog.show()
        return dialog

    def _on_preferences_accepted(self) -> None:
        self.restore_preferences()
        self.window.statusBar().showMessage(self.tr("Preferences saved."))
        if i18n.language_for(str(self.store().value("prefs/language", "system"))) != (
            i18n.installed()
        ):
            self.reopen()

    def export_code(self, session: Session | dict[str, Any]) -> CodeExportDialog:
        """Show ``session``'s function as TensorFlow, PyTorch and JAX scripts (or given ones)."""
        from tapeviz.ui.window.code_export_dialog import CodeExportDialog  # its imports: when asked

        dialog = CodeExportDialog(session, self.window)
        dialog.setModal(True)
        dialog.show()
        return dialog

    def about(self) -> QMessageBox:
        """Versions of tapeviz and what it runs on (in the window's theme and text size)."""
        import platform

        import numpy
        import pyqtgraph
        import PySide6

        from tapeviz import __version__

        box = QMessageBox(self.window)
        box.setObjectName("aboutDialog")
        box.setAttribute(Qt.WidgetAttribute.WA_WindowPropagation)  # the window's font and palette
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.setWindowTitle(self.tr("About tapeviz"))
        box.setIconPixmap(self.window.windowIcon().pixmap(64))
        box.setText(
            f"<b>tapeviz {__version__}</b><br>"
            + self.tr("Automatic differentiation and optimization, made visible.")
            + f"<br><br>Python {platform.python_version()} · PySide6 {PySide6.__version__} · "
            f"pyqtgraph {pyqtgraph.__version__} · numpy {numpy.__version__}"
        )
        box.open()  # window-modal, and the event loop goes on
        return box
