"""The main window: editor, variables, run/stop, console, tapes, the graph and the stepper."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QMainWindow,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from tapeviz.models.descent.problem import Problem
from tapeviz.models.graph.model import GraphModel
from tapeviz.models.session.autosave import Autosave
from tapeviz.models.session.file import Session
from tapeviz.models.session.presets import PRESETS
from tapeviz.sandbox import CancelToken, Limits, RunResult, run
from tapeviz.ui import workers
from tapeviz.ui.i18n import preset_note
from tapeviz.ui.theme import Theme, font
from tapeviz.ui.window.dialogs import DialogsMixin
from tapeviz.ui.window.editor import CodeEditor
from tapeviz.ui.window.error_text import describe
from tapeviz.ui.window.lower_tabs import ViewsMixin
from tapeviz.ui.window.preferences import limits_from
from tapeviz.ui.window.preferences import settings as app_settings
from tapeviz.ui.window.presenter import DOCK_WIDTH, PresenterController
from tapeviz.ui.window.sessions import SessionController
from tapeviz.ui.window.variables_table import VariablesTable

MODES = ("expression", "script")
LIVE_MS = 300  # expression mode re-runs this long after the last keystroke


def _run_job(
    source: str, mode: str, variables: list, limits: Limits, cancel: CancelToken
) -> RunResult:
    if mode == "expression":  # live evaluation while typing: short, whatever the preferences
        limits = Limits(wall_time=2.0)
    return run(source, mode=mode, variables=variables, limits=limits, cancel=cancel)


class MainWindow(ViewsMixin, DialogsMixin, QMainWindow):
    """tapeviz's window; ``load_preset(name)`` fills the editor and variables and runs."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.setWindowTitle("tapeviz")
        self.session_meta = Session()
        self._cancel: CancelToken | None = None
        self._pending = False  # a run was asked for while one was running
        self._seen: tuple = ()  # (text, mode, variables) last seen by the live re-run
        self.last_result: RunResult | None = None
        self.model = GraphModel()
        self._applying = False  # apply_session is filling the window: no runs from signals
        self._studio_used = False  # the studio optimized this session's function
        self._studio_stale = False  # the studio's settings changed since its last race
        self._submitted: Problem | None = None  # the text and table of the running sandbox run
        self.sessions = SessionController(
            self, self.current_session, self.apply_session, self.show_status, app_settings
        )
        self._build_central()
        self._build_docks()
        docks = [self.code_dock, self.variables_dock, self.console_dock, self.tapes_dock]
        self.presenter = PresenterController(
            self, self.graph, self.studio, self.editor, self.code_dock, docks, self.show_status
        )
        self.dark_action = self.presenter.dark_action
        self.clean_action = self.presenter.clean_action
        self._build_menus()
        self.live_timer = QTimer(self)
        self.live_timer.setSingleShot(True)
        self.live_timer.setInterval(LIVE_MS)
        self.live_timer.timeout.connect(self.run_code)
        self.editor.textChanged.connect(self._on_editor_text_changed)
        self.editor.textChanged.connect(self._update_actions)
        self.model.changed.connect(self._update_actions)
        self.variables.changed.connect(self._on_editor_text_changed)
        self.mode.currentIndexChanged.connect(lambda _: self._on_editor_text_changed())
        self.tape_list.currentRowChanged.connect(self._on_tape_list_row_changed)
        self.resize(1360, 760)
        self._restore_layout()
        self.presenter.restore_preferences()
        self.sessions.start_autosave()
        self._set_running(False)
        self._update_actions()
        self.statusBar().showMessage(self.tr("Ready"))

    # -- construction ----------------------------------------------------------------------
    def _dock(self, name: str, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _build_docks(self) -> None:
        code = QWidget(self)
        self.mode = QComboBox(code)
        self.mode.setObjectName("modeCombo")
        self.mode.addItem(self.tr("Expression"), "expression")
        self.mode.addItem(self.tr("Script"), "script")
        self.run_button = QPushButton(self.tr("Run"), code)
        self.run_button.setObjectName("runButton")
        self.run_button.setToolTip(self.tr("Run (Ctrl+Enter)"))
        self.stop_button = QPushButton(self.tr("Stop"), code)
        self.stop_button.setObjectName("stopButton")
        self.editor = CodeEditor(code)
        self.error_label = QLabel(code)
        self.error_label.setObjectName("errorLabel")
        self.error_label.setWordWrap(True)
        self.error_label.setFont(font(11, mono=True))  # a caret hint lines up under the code
        self.error_label.setStyleSheet("color: #D55E00")
        self.notes_label = QLabel(code)
        self.notes_label.setObjectName("notesLabel")
        self.notes_label.setWordWrap(True)
        self.notes_label.setFont(font(10))
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Mode:"), code))
        row.addWidget(self.mode)
        row.addStretch(1)
        row.addWidget(self.run_button)
        row.addWidget(self.stop_button)
        box = QVBoxLayout(code)
        box.addLayout(row)
        box.addWidget(self.editor, 1)
        box.addWidget(self.error_label)
        box.addWidget(self.notes_label)
        self.variables = VariablesTable(self)
        self.console = QPlainTextEdit(self)
        self.console.setObjectName("consoleOutput")
        self.console.setReadOnly(True)
        self.console.setFont(font(11, mono=True))
        self.console.setMaximumBlockCount(5000)
        self.tape_list = QListWidget(self)
        self.tape_list.setObjectName("tapeList")
        left = Qt.DockWidgetArea.LeftDockWidgetArea
        self.code_dock = self._dock("codeDock", self.tr("Code"), code, left)
        self.variables_dock = self._dock(
            "variablesDock", self.tr("Variables"), self.variables, left
        )
        self.console_dock = self._dock("consoleDock", self.tr("Output"), self.console, left)
        self.tapes_dock = self._dock("tapesDock", self.tr("Tapes"), self.tape_list, left)
        self.splitDockWidget(self.code_dock, self.variables_dock, Qt.Orientation.Vertical)
        self.splitDockWidget(self.variables_dock, self.console_dock, Qt.Orientation.Vertical)
        self.tabifyDockWidget(self.console_dock, self.tapes_dock)
        self.console_dock.raise_()
        self.resizeDocks([self.code_dock], [DOCK_WIDTH], Qt.Orientation.Horizontal)
        docks = [self.code_dock, self.variables_dock, self.console_dock]
        self.resizeDocks(docks, [5, 2, 2], Qt.Orientation.Vertical)  # the code comes first
        self.run_button.clicked.connect(self.run_code)
        self.stop_button.clicked.connect(self.stop)

    def _action(self, menu: Any, text: str, slot: Any, shortcut: str | None = None) -> QAction:
        action = QAction(text, self)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file = bar.addMenu(self.tr("&File"))
        sessions = self.sessions
        self._action(file, self.tr("&Open session…"), sessions.open_dialog, "Ctrl+O")
        self._action(file, self.tr("&Save session"), sessions.save, "Ctrl+S")
        self._action(file, self.tr("Save session &as…"), sessions.save_as_dialog, "Ctrl+Shift+S")
        self.export_action = self._action(file, self.tr("&Export code (TensorFlow, PyTorch, JAX)…"),
                                          self.export_code, "Ctrl+E")  # fmt: skip
        self.recent_menu = file.addMenu(self.tr("Open &recent"))
        self.recent_menu.setObjectName("recentMenu")
        self.recent_menu.aboutToShow.connect(lambda: sessions.fill_recent_menu(self.recent_menu))
        file.addSeparator()
        self._action(file, self.tr("&Preferences…"), self.preferences, "Ctrl+,")
        file.addSeparator()
        self._action(file, self.tr("&Quit"), self.close, "Ctrl+Q")
        run_menu = bar.addMenu(self.tr("&Run"))
        self.run_action = self._action(run_menu, self.tr("&Run"), self.run_code, "Ctrl+Return")
        self.stop_action = self._action(run_menu, self.tr("&Stop"), self.stop, "Ctrl+.")
        run_menu.addSeparator()  # the keys are window shortcuts of the tab in front; shown here
        for text, key, name in ((self.tr("&Play / pause"), "Space", "play"),
                                (self.tr("Step &forward"), "Right", "forward"),
                                (self.tr("Step &back"), "Left", "back"),
                                (self.tr("Back to the s&tart"), "Home", "start")):  # fmt: skip
            hint = QKeySequence(key).toString(QKeySequence.SequenceFormat.NativeText)
            self._action(run_menu, f"{text}\t{hint}", lambda _=False, n=name: self.transport(n))
        view = bar.addMenu(self.tr("&View"))
        self.presenter.add_actions(view)
        self._build_language_menu(view)
        view.addSeparator()
        self._action(view, self.tr("&Backward pass"), lambda: self.show_view("stepper"), "Ctrl+1")
        self._action(view, self.tr("&Optimization"), lambda: self.show_view("studio"), "Ctrl+2")
        view.addSeparator()
        for dock in (self.code_dock, self.variables_dock, self.console_dock, self.tapes_dock):
            view.addAction(dock.toggleViewAction())
        self.graph_pane.add_menu(bar)
        self.fit_action = self.graph_pane.fit_action
        self.preset_menu = bar.addMenu(self.tr("&Presets"))
        self.preset_menu.setObjectName("presetMenu")
        for group, names in PRESETS.groups().items():
            sub = self.preset_menu.addMenu(QCoreApplication.translate("presets", group))
            for name in names:
                title = QCoreApplication.translate("presets", PRESETS[name].title) or name
                action = self._action(sub, title, lambda _=False, n=name: self.load_preset(n))
                action.setObjectName(f"preset:{name}")
        help_menu = bar.addMenu(self.tr("&Help"))
        self._action(help_menu, self.tr("&About tapeviz"), self.about)

    # -- running ---------------------------------------------------------------------------
    def _on_editor_text_changed(self) -> None:
        text = self.editor.toPlainText()
        key = (text, self.mode.currentData(), self.variables.snapshot())
        if key == self._seen:  # e.g. re-highlighting after a theme change: nothing to re-run
            return
        self._seen = key
        if self.mode.currentData() == "expression":
            self.live_timer.start()

    def current_session(self) -> Session:
        """The work in the window as a session (variables that do not parse are kept as text)."""
        try:
            variables = tuple(self.variables.specs())
        except ValueError:
            variables = self.session_meta.variables
        return Session(
            source=self.editor.toPlainText(),
            mode=self.mode.currentData(),
            variables=variables,
            view="studio" if self.studio_view else self._editor_view(),
            optimizer=self._studio_settings(),
            settings={**self.session_meta.settings, "graph": self.graph_settings()},
            name=self.session_meta.name,
            title=self.session_meta.title,
            group=self.session_meta.group,
            notes=self.session_meta.notes,
        )

    def _studio_settings(self) -> dict | None:
        if self._studio_used:  # the studio ran this session's function: its settings are the work
            return self.studio.config().to_dict()
        return self.session_meta.optimizer

    def run_code(self) -> None:
        """Run the editor's text in the sandbox, then the studio if it is in front."""
        self.live_timer.stop()
        if self._cancel is not None:  # one run at a time: re-run when this one ends
            self._pending = True
            return
        try:
            variables = self.variables.specs()
        except ValueError as exc:
            self._show_error(str(exc), None, None)
            return
        source, mode = self.editor.toPlainText(), self.mode.currentData()
        if not source.strip():
            self.statusBar().showMessage(self.tr("Type a function or paste a script to run."))
            return
        cancel = CancelToken()
        self._cancel = cancel
        self._submitted = Problem(source, tuple(variables), mode)  # what the studio may take
        self._set_running(True)
        self.statusBar().showMessage(self.tr("Running…"))
        limits = limits_from(self._settings())
        workers.submit(_run_job, source, mode, variables, limits, cancel,
                       on_done=self._on_run_done, on_error=self._on_run_failed)  # fmt: skip

    def stop(self) -> None:
        """Cancel the running code at its next statement, and the studio's computation."""
        self._pending = False
        if self._cancel is not None:
            self._cancel.cancel()
            self.statusBar().showMessage(self.tr("Stopping…"))
        if self.studio.busy:
            self.studio.cancel()

    def _update_actions(self) -> None:
        """Actions without a target are disabled (nothing to export, no graph to fit)."""
        has_text = bool(self.editor.toPlainText().strip())
        self.export_action.setEnabled(has_text)
        self.run_button.setEnabled(has_text)
        self.run_action.setEnabled(has_text)
        self.graph_pane.update_actions()

    def _set_running(self, running: bool) -> None:
        busy = running or self.studio.busy
        self.stop_button.setEnabled(busy)
        self.stop_action.setEnabled(busy)
        self._busy_changed(running)

    def _finish_run(self) -> None:
        self._cancel = None
        self._set_running(False)
        if self._pending:
            self._pending = False
            self.run_code()

    def _on_run_failed(self, text: str) -> None:
        self._show_error(self.tr("Internal error: %1").replace("%1", text), None, None)
        self._finish_run()

    def _on_run_done(self, result: RunResult) -> None:
        self.last_result = result
        self.console.setPlainText(result.output)
        studio = self.studio_view and result.error is None
        if not studio:  # under the studio, the graph shows the tape of the studio's step
            self._show_tapes(result)
        self.graph.set_dimmed(result.error is not None)
        if result.error is not None:
            err = result.error
            self._show_error(describe(err), err.line, err.col)
        else:
            self.editor.clear_error()
            self.error_label.clear()
            self.statusBar().showMessage(
                self.tr("Ran in %1 ms; %2 tape(s) recorded.")
                .replace("%1", f"{result.elapsed * 1e3:.0f}")
                .replace("%2", str(len(result.tapes)))
            )
        if studio and not self._pending:  # edited meanwhile: the queued run starts the studio
            self._start_studio(self._submitted)
        self._finish_run()

    def _show_error(self, message: str, line: int | None, col: int | None) -> None:
        self.editor.mark_error(line, col, message)
        self.error_label.setText("⚠ " + message)
        self.statusBar().showMessage("⚠ " + message.splitlines()[0])

    def show_status(self, text: str) -> None:
        """Show ``text`` in the status line."""
        self.statusBar().showMessage(text)

    def _settings(self) -> QSettings:
        return app_settings()

    # -- the presenter controller's scale and theme ----------------------------------------
    @property
    def font_scale(self) -> float:
        """The presenter scale of every font and line width (1 = normal)."""
        return self.presenter.font_scale

    @property
    def theme(self) -> Theme:
        """The light or dark theme of the window."""
        return self.presenter.theme

    def set_font_scale(self, scale: float) -> None:
        """Scale every font and line width in the window (text, graph, stepper, console)."""
        self.presenter.set_font_scale(scale)

    def zoom_text(self, direction: int) -> None:
        """One step larger (+1) or smaller (-1) on the presenter scale ladder."""
        self.presenter.zoom_text(direction)

    def set_theme(self, theme: Theme) -> None:
        """Light or dark, for the whole window."""
        self.presenter.set_theme(theme)

    def toggle_full_screen(self) -> None:
        """F11: full screen for the projector, and back."""
        self.presenter.toggle_full_screen()

    # -- the session controller's file and autosave ----------------------------------------
    @property
    def path(self) -> Path | None:
        """The session file the work was opened from or saved to (None: not saved yet)."""
        return self.sessions.path

    @path.setter
    def path(self, value: Path | None) -> None:
        self.sessions.path = value

    @property
    def autosave(self) -> Autosave:
        """The autosave file and the running-window lock."""
        return self.sessions.autosave

    def open_session(self, path: str | Path) -> bool:
        """Open a session file; a bad file is refused with a message and the work is kept."""
        return self.sessions.open_session(path)

    def save_session(self, path: str | Path) -> None:
        """Write the current work to ``path``."""
        self.sessions.save_session(path)

    def recent_files(self) -> list[str]:
        """Recently opened or saved sessions, newest first."""
        return self.sessions.recent_files()

    def autosave_now(self) -> bool:
        """Write the current work to the autosave file if it changed."""
        return self.sessions.autosave_now()

    def offer_restore(self, ask: bool = True) -> bool:
        """After a crash, offer the autosaved work; True when it was restored."""
        return self.sessions.offer_restore(ask)

    # -- the graph pane's settings and exports ---------------------------------------------
    @property
    def graph_export_actions(self) -> list[QAction]:
        """The Graph menu's export actions (PNG, SVG, DOT)."""
        return self.graph_pane.graph_export_actions

    @property
    def layout_actions(self) -> dict[str, QAction]:
        """The Graph menu's layout engines."""
        return self.graph_pane.layout_actions

    @property
    def option_actions(self) -> dict[str, QAction]:
        """The Graph menu's display options."""
        return self.graph_pane.option_actions

    def graph_settings(self) -> dict[str, Any]:
        """The graph's view settings, JSON-safe (saved in sessions)."""
        return self.graph_pane.graph_settings()

    def set_graph_settings(self, **changes: Any) -> None:
        """Change some graph settings (unknown keys and wrong types are ignored)."""
        self.graph_pane.set_graph_settings(**changes)

    def export_graph(self, kind: str, path: str | Path | None = None) -> Path | None:
        """Write the graph as PNG, SVG or DOT (asks for a file name when none is given)."""
        return self.graph_pane.export_graph(kind, path)

    # -- sessions and presets --------------------------------------------------------------
    def apply_session(self, session: Session, run_now: bool = True) -> None:
        """Put a session's text, mode and variables in the window (and run it)."""
        self.session_meta = session
        self.mode.blockSignals(True)
        self.mode.setCurrentIndex(MODES.index(session.mode))
        self.mode.blockSignals(False)
        self.editor.blockSignals(True)
        self.editor.setPlainText(session.source)
        self.editor.blockSignals(False)
        self.variables.blockSignals(True)
        self.variables.set_specs(session.variables)
        self.variables.blockSignals(False)
        self._seen = (session.source, session.mode, self.variables.snapshot())  # nothing to re-run
        self.editor.clear_error()
        self.error_label.clear()
        self.notes_label.setText(preset_note(session.notes))
        graph = session.settings.get("graph")
        if isinstance(graph, dict):
            self.set_graph_settings(**graph)
        self._update_actions()
        self.graph_pane.fit_after_next_layout()
        self._applying = True
        self._load_studio(session)
        self.show_view(session.view)
        self._applying = False
        if run_now:
            self.run_code()

    def load_preset(self, name: str) -> None:
        """Load preset ``name`` (see ``PRESETS``) and run it."""
        preset = PRESETS[name]
        self.path = None
        self.apply_session(preset)
        title = QCoreApplication.translate("presets", preset.title) if preset.title else name
        self.setWindowTitle(f"tapeviz — {title}")

    # -- window ----------------------------------------------------------------------------
    def _restore_layout(self) -> None:
        settings = self._settings()
        geometry, state = settings.value("window/geometry"), settings.value("window/state")
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None:
            self.restoreState(state)
        self._restore_split(settings.value("window/split"))

    def closeEvent(self, event: QCloseEvent) -> None:
        self.stop()
        self.live_timer.stop()
        self._views_close()
        workers.wait_all(3000)
        self.sessions.stop_autosave()
        settings = self._settings()
        settings.setValue("window/geometry", self.saveGeometry())
        settings.setValue("window/state", self.saveState())
        settings.setValue("window/split", self._split_state())
        super().closeEvent(event)
