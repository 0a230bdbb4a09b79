"""Session files for the main window: open, save, recent files, autosave and crash restore.

The menus, the recent files, the command line and the crash restore read files in the thread
pool (``SessionController.open_in_background`` and ``restore_in_background``): a file on a slow
or hung network folder never freezes the window, and the session is applied when it arrives
(or the status bar says why not). ``open_session`` and ``offer_restore`` read in the calling
thread, for tests and scripts; ``sessions.load`` never waits on a pipe or a device, so even
they return at once on a special file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from PySide6.QtCore import QObject, QSettings, QTimer
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox, QWidget

from tapeviz.models.session import file as sessions
from tapeviz.models.session.autosave import Autosave
from tapeviz.models.session.file import Session, SessionError
from tapeviz.ui import workers
from tapeviz.ui.window.preferences import settings

SESSION_FILTER = "tapeviz sessions (*.tapeviz);;JSON (*.json)"
AUTOSAVE_MS = 5000
MAX_RECENT = 8
TITLE_CHARS = 60  # an edited work's title, from its text, at most


def title_of(source: str, mode: str) -> str:
    """A title read from the text: its first comment, else an expression itself ('' if none)."""
    lines = [line.strip() for line in source.splitlines() if line.strip()]
    comments = [line.lstrip("#").strip() for line in lines if line.startswith("#")]
    first = next((c for c in comments if c), "") or (lines[0] if mode == "expression" and lines
                                                       else "")  # fmt: skip
    return first if len(first) <= TITLE_CHARS else first[: TITLE_CHARS - 1].rstrip() + "…"


def as_edited(work: Session, loaded: Session) -> Session:
    """``work`` as saved: the name, title, group and notes of ``loaded`` only for its text.

    Once the text is edited they describe something else, so a saved session takes its title
    from its own text (:func:`title_of`).
    """
    if work.source == loaded.source and work.mode == loaded.mode:
        return work
    title = title_of(work.source, work.mode)
    return replace(work, name="", title=title, group="", notes="")


@dataclass(frozen=True)
class Read:
    """A session file read in the pool: the session, or why it cannot be used."""

    path: Path
    session: Session | None = None
    error: str = ""
    resolved: str = ""  # the absolute path without links, for the recent files


def read_session(path: Path) -> Read:
    """Read and validate ``path`` (in a pool thread); errors come back as data, not exceptions."""
    try:
        session = sessions.load(path)
    except SessionError as exc:
        return Read(path, error=str(exc))
    try:
        resolved = str(path.resolve())
    except (OSError, RuntimeError):  # a loop of links: keep the name as given
        resolved = str(path.absolute())
    return Read(path, session, resolved=resolved)


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
        self.reading: workers.Worker | None = None  # the file being read in the pool, if any

    def open_session(self, path: str | Path) -> bool:
        """Open a session file now; a bad file is refused with a message and the work is kept.

        The file is read in this thread (tests, scripts); the window's menus use
        :meth:`open_in_background`.
        """
        return self._opened(read_session(Path(path)))

    def open_in_background(self, path: str | Path) -> workers.Worker:
        """Read a session file in the thread pool and open it when it arrives.

        The window stays responsive meanwhile; a newer open replaces a read still under way.
        A bad file is refused with a message in the status bar and the work is kept.
        """
        if self.reading is not None:
            self.reading.cancelled = True  # its result is dropped
        path = Path(path)
        job: list[workers.Worker] = []  # (results arrive in this thread, after it is filled)

        def arrived(read: Read) -> None:
            if job[0].cancelled:  # (its result was on its way when a newer open came)
                return
            if self.reading is job[0]:
                self.reading = None
            self._opened(read)

        job.append(
            workers.submit(
                read_session,
                path,
                on_done=arrived,
                on_error=lambda text: arrived(Read(path, error=_last_line(text))),
            )
        )
        self.reading = job[0]
        return job[0]

    def _opened(self, read: Read) -> bool:
        """Apply a session read from ``read.path``, or say why it cannot be opened."""
        if read.session is None:
            message = self.tr("Cannot open %1: %2").replace("%1", read.path.name)
            self.status("⚠ " + message.replace("%2", read.error))
            return False
        self.path = read.path
        self._add_recent(self.path, read.resolved)
        self.apply(read.session, True)
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
            self.open_in_background(path)

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

    def _add_recent(self, path: Path, resolved: str = "") -> None:
        text = resolved or str(path.resolve())
        files = [text, *(f for f in self.recent_files() if f != text)][:MAX_RECENT]
        self.store().setValue("recent/files", files)

    def fill_recent_menu(self, menu: QMenu) -> None:
        """List the recent sessions in ``menu`` (called as it is about to show)."""
        menu.clear()
        files = self.recent_files()
        for path in files:
            action = menu.addAction(Path(path).name)
            action.setToolTip(path)
            action.triggered.connect(lambda _=False, p=path: self.open_in_background(p))
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
        """After a crash, offer the autosaved work; True when it was restored.

        The autosave is read in this thread (tests); the app uses :meth:`restore_in_background`.
        """
        return self._offer(self.autosave.recover(), ask)

    def restore_in_background(
        self, ask: bool = True, otherwise: Callable[[], None] | None = None
    ) -> workers.Worker | None:
        """After a crash, read the autosave in the pool and offer it; else call ``otherwise``.

        ``otherwise`` (what to show first without a restore) also runs when there is nothing to
        restore, when the autosave cannot be read, or when the user declines.
        """
        if not self.autosave.crashed:
            if otherwise is not None:
                otherwise()
            return None

        def arrived(session: Session | None) -> None:
            if not self._offer(session, ask) and otherwise is not None:
                otherwise()

        return workers.submit(
            self.autosave.recover, on_done=arrived, on_error=lambda _text: arrived(None)
        )

    def _offer(self, session: Session | None, ask: bool) -> bool:
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


def _last_line(text: str) -> str:
    """The exception line of a traceback (the status bar shows one line, never a traceback)."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else "unknown error"
