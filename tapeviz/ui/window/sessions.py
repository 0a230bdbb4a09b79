"""Session files for the main window: open, save, recent files, autosave and crash restore."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QSettings, QTimer
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox, QWidget

from tapeviz.models.session import file as sessions
from tapeviz.models.session.autosave import Autosave
from tapeviz.models.session.file import Session, SessionError
from tapeviz.ui.window.preferences import settings

SESSION_FILTER = "tapeviz sessions (*.tapeviz);;JSON (*.json)"
AUTOSAVE_MS = 5000
MAX_RECENT = 8


class SessionController(QObject):
    """The work's file: open, save, the recent files, autosave and the restore after a crash.

    The work comes from ``current()`` and goes back into the window with
    ``apply(session, run_now)``; ``window`` shows the file's name in its title and parents the
    dialogs; messages go to ``status``; ``store()`` gives the settings (recent files).
    """

    def __init__(
        self,
        window: QWidget,
        current: Callable[[], Session],
        apply: Callable[[Session, bool], None],
        status: Callable[[str], None],
        store: Callable[[], QSettings] = settings,
    ) -> None:
        super().__init__(window)
        self.window, self.current, self.apply = window, current, apply
        self.status, self.store = status, store
        self.path: Path | None = None  # the file the work was opened from or saved to
        self.autosave = Autosave()
        self.autosave_timer = QTimer(self)
        self.autosave_timer.setInterval(AUTOSAVE_MS)
        self.autosave_timer.timeout.connect(self.autosave_now)

    def open_session(self, path: str | Path) -> bool:
        """Open a session file; a bad file is refused with a message and the work is kept."""
        try:
            session = sessions.load(path)
        except SessionError as exc:
            message = self.tr("Cannot open %1: %2").replace("%1", Path(path).name)
            self.status("⚠ " + message.replace("%2", str(exc)))
            return False
        self.path = Path(path)
        self._add_recent(self.path)
        self.apply(session, True)
        self.window.setWindowTitle(f"tapeviz — {self.path.name}")
        return True

    def save_session(self, path: str | Path) -> None:
        """Write the current work to ``path``."""
        try:
            self.current().save(path)
        except OSError as exc:
            message = self.tr("Cannot save %1: %2").replace("%1", str(path))
            self.status("⚠ " + message.replace("%2", exc.strerror or str(exc)))
            return
        self.path = Path(path)
        self._add_recent(self.path)
        self.window.setWindowTitle(f"tapeviz — {self.path.name}")
        self.status(self.tr("Saved %1").replace("%1", str(path)))

    def open_dialog(self) -> None:
        """Ask for a session file and open it."""
        path, _ = QFileDialog.getOpenFileName(
            self.window, self.tr("Open session"), "", SESSION_FILTER
        )
        if path:
            self.open_session(path)

    def save(self) -> None:
        """Save to the current file, or ask for one."""
        if self.path is None:
            self.save_as_dialog()
        else:
            self.save_session(self.path)

    def save_as_dialog(self) -> None:
        """Ask for a file name and save."""
        path, _ = QFileDialog.getSaveFileName(
            self.window, self.tr("Save session"), "", SESSION_FILTER
        )
        if path:
            if not Path(path).suffix:
                path += ".tapeviz"
            self.save_session(path)

    # -- recent files ----------------------------------------------------------------------
    def recent_files(self) -> list[str]:
        """Recently opened or saved sessions, newest first."""
        value = self.store().value("recent/files", [])
        items = [value] if isinstance(value, str) else list(value or [])
        return [str(v) for v in items][:MAX_RECENT]

    def _add_recent(self, path: Path) -> None:
        text = str(path.resolve())
        files = [text, *(f for f in self.recent_files() if f != text)][:MAX_RECENT]
        self.store().setValue("recent/files", files)

    def fill_recent_menu(self, menu: QMenu) -> None:
        """List the recent sessions in ``menu`` (called as it is about to show)."""
        menu.clear()
        files = self.recent_files()
        for path in files:
            action = menu.addAction(Path(path).name)
            action.setToolTip(path)
            action.triggered.connect(lambda _=False, p=path: self.open_session(p))
        if not files:
            none = menu.addAction(self.tr("No recent sessions"))
            none.setEnabled(False)

    # -- autosave --------------------------------------------------------------------------
    def start_autosave(self) -> None:
        """Take the autosave lock (this window runs) and save the work every few seconds."""
        self.autosave.start()
        self.autosave_timer.start()

    def autosave_now(self) -> bool:
        """Write the current work to the autosave file if it changed."""
        try:
            return self.autosave.save(self.current())
        except OSError as exc:
            self.status(self.tr("Autosave failed: %1").replace("%1", str(exc)))
            return False

    def stop_autosave(self) -> None:
        """Stop saving and release the lock with the autosaved file (a clean close)."""
        self.autosave_timer.stop()
        self.autosave.stop()

    def offer_restore(self, ask: bool = True) -> bool:
        """After a crash, offer the autosaved work; True when it was restored."""
        session = self.autosave.recover()
        if session is None:
            return False
        if ask:
            answer = QMessageBox.question(
                self.window,
                self.tr("Restore your work?"),
                self.tr("tapeviz did not close properly last time. "
                        "Restore the work it saved automatically?"),
            )  # fmt: skip
            if answer != QMessageBox.StandardButton.Yes:
                self.autosave.discard()
                return False
        self.apply(session, True)  # and run it (in a worker process): the graph is back too
        self.status(self.tr("Restored the autosaved work."))
        return True
