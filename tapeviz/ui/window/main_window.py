"""The main window: tapeviz's parts, built and wired in one place.

The parts each own their state and get their collaborators in their constructor:

- :class:`~tapeviz.ui.graph.pane.GraphPane`: the graph view, the Graph menu, its settings;
- :class:`~tapeviz.ui.window.lower_tabs.LowerTabs`: the stepper, the studio, the timeline and
  the plots in tabs, their keys, the graph's share of the window per tab; :class:`~tapeviz.ui.
  window.studio_link.StudioLink`: what the studio optimizes; :class:`~tapeviz.ui.window.
  timeline_link.TimelineLink`: the loops of the last run on the timeline, their steps in the graph;
- :class:`~tapeviz.ui.window.code_pane.CodePane`, the variables table, the console and the
  :class:`~tapeviz.ui.window.tape_list.TapeList` in docks;
- :class:`~tapeviz.ui.window.runs.RunController`: sandbox runs and live re-runs;
- :class:`~tapeviz.ui.window.sessions.SessionController`: files, recent files, autosave;
- :class:`~tapeviz.ui.window.presenter.PresenterController`: text scale, theme, clean mode;
- :class:`~tapeviz.ui.window.dialogs.DialogsController`: language, Preferences, export, About.

Parts never look each other up: a part uses what its constructor was given (widgets, views,
callables), and what one part's event means for another is written here, in ``_wire`` and the
``_on_…`` slots. The window's public names (``graph``, ``editor``, ``studio``, ``load_preset``,
``set_font_scale``, …) are what the app, the headless export, the screenshots and the tests use.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow, QSplitter, QWidget

from tapeviz.models import kernel
from tapeviz.models.descent.problem import Problem
from tapeviz.models.graph.model import GraphModel
from tapeviz.models.session.file import Session
from tapeviz.models.session.presets import PRESETS
from tapeviz.sandbox import RunResult
from tapeviz.ui import workers
from tapeviz.ui.graph.pane import GraphPane
from tapeviz.ui.i18n import preset_note
from tapeviz.ui.stepper.panel import prepared_steppers
from tapeviz.ui.turns import later
from tapeviz.ui.window.carried_view import CarriedView
from tapeviz.ui.window.code_pane import CodePane
from tapeviz.ui.window.dialogs import DialogsController
from tapeviz.ui.window.forwarding import forward, forward_value
from tapeviz.ui.window.help import HelpController
from tapeviz.ui.window.lower_tabs import NETWORK_TAB, STEPPER_TAB, STUDIO_TAB, LowerTabs
from tapeviz.ui.window.network_link import NetworkLink
from tapeviz.ui.window.output_pane import OutputPane
from tapeviz.ui.window.preferences import limits_from, settings
from tapeviz.ui.window.presenter import DOCK_WIDTH, PresenterController
from tapeviz.ui.window.runs import RunController
from tapeviz.ui.window.screen_fit import ScreenGuard
from tapeviz.ui.window.sessions import SessionController, as_edited
from tapeviz.ui.window.startup import after_first_paint, preload
from tapeviz.ui.window.status_line import StatusLine
from tapeviz.ui.window.status_progress import StatusProgress
from tapeviz.ui.window.studio_link import StudioLink
from tapeviz.ui.window.tape_list import TapeList
from tapeviz.ui.window.timeline_link import TimelineLink
from tapeviz.ui.window.value_warning import ValueWarning
from tapeviz.ui.window.variables_table import VariablesTable

if TYPE_CHECKING:
    from tapeviz.ui.window.code_export_dialog import CodeExportDialog


class MainWindow(QMainWindow):
    """tapeviz's window; ``load_preset(name)`` fills the editor and variables and runs."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        kernel.start(warm=False)  # its worker warms up once the window is on screen
        self.setObjectName("mainWindow")
        self.setWindowTitle("tapeviz")
        self.session_meta = Session()
        self.model = GraphModel()
        self._applying = False  # apply_session is filling the window: no runs from signals
        self._tab = 0  # the lower tab in front (the graph's content follows it)
        self.sessions = SessionController(
            self, self.session_to_save, self.apply_session, self.show_status, settings
        )
        self.autosave = self.sessions.autosave
        self._build_central()
        self._build_docks()
        self.runner = RunController(
            self.code, self.variables, self.console,
            limits=lambda: limits_from(settings()), status=self.show_status,
            error=self.status_line.show_error,
            studio_in_front=lambda: self.studio_view, show_tapes=self._show_run,
            dim_graph=self.graph.set_dimmed, start_studio=self.studio_link.start,
            running_changed=self._set_running, show_figures=self._on_run_figures,
            prepare=self._prepare_graph, prepared=self._on_graph_prepared,
            prepare_snapshot=TimelineLink.prepare, show_snapshot=self._show_snapshot,
            show_value=self.output_pane.show_value, parent=self,
        )  # fmt: skip
        self.runner.output.link = self.timeline_link.output_link  # (earlier lines keep it)
        self.timeline_link.output_link.window = self.runner.output  # (a step's lines, shown)
        self.live_timer = self.runner.live_timer
        docks = [self.code_dock, self.variables_dock, self.console_dock, self.tapes_dock]
        self.presenter = PresenterController(
            self, self.graph, self.studio, self.editor, self.code_dock, docks, self.show_status,
            others=[self.timeline, self.plots, self.stepper.gradcheck, self.network],
        )  # fmt: skip
        self.dark_action = self.presenter.dark_action
        self.clean_action = self.presenter.clean_action
        self.dialogs = DialogsController(self, self.presenter.restore_preferences, settings)
        self.help = HelpController(self)
        self._build_menus()
        self._wire()
        self.resize(1360, 760)
        self.screen_guard = ScreenGuard(self)  # no growth a stale layout forces
        self._restore_layout()
        self.presenter.restore_preferences()
        self.sessions.start_autosave()
        self._set_running(False)
        self._update_actions()
        self.statusBar().showMessage(self.tr("Ready"))
        self._startup = after_first_paint(self.graph.viewport(), self._preload)

    def _preload(self) -> None:
        """After the first paint: the worker, pyqtgraph, the timeline's plots, a settled heap.

        The plots (~35 ms) are built on a turn of their own, not in a big run's arrival; then
        what the window keeps for its lifetime is frozen out of full collections.
        """
        preload()
        later(lambda: self.timeline.plot_area, self.timeline)
        later(workers.settle, self)  # what lives as long as the window: out of full collections

    # -- construction ----------------------------------------------------------------------
    def _build_central(self) -> None:
        self.graph_pane = GraphPane(self.model, self.show_status, self)
        self.graph = self.graph_pane.view
        self.fit_action = self.graph_pane.fit_action
        self.graph_export_actions = self.graph_pane.graph_export_actions
        self.layout_actions = self.graph_pane.layout_actions
        self.option_actions = self.graph_pane.option_actions
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setObjectName("centralSplitter")
        self.splitter.setChildrenCollapsible(False)
        self.setCentralWidget(self.splitter)
        self.splitter.addWidget(self.graph)
        self.lower_tabs = LowerTabs(self.model, self.graph, self.splitter)
        self.stepper, self.studio = self.lower_tabs.stepper, self.lower_tabs.studio
        self.timeline = self.lower_tabs.timeline
        self.plots = self.lower_tabs.plots
        self.network = self.lower_tabs.network
        self.splitter.addWidget(self.lower_tabs)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([460, 300])
        self.studio_link = StudioLink(self.studio, self.show_status, self)
        self.carried = CarriedView(self.model, self.graph, self.stepper)
        self.status_line = StatusLine(self)  # one text: the error, the nan warning, the news
        self.setStatusBar(self.status_line)
        self.progress_bar = StatusProgress(self)
        self.value_warning = ValueWarning(self.model, self)
        self.value_warning.changed.connect(self.status_line.set_warning)
        self.status_line.warningClicked.connect(self.value_warning.click)
        self.status_line.addPermanentWidget(self.progress_bar)

    def _dock(self, name: str, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _build_docks(self) -> None:
        code = self.code = CodePane(self)
        self.mode, self.run_button, self.stop_button = code.mode, code.run_button, code.stop_button
        self.editor, self.error_label, self.notes_label = (
            code.editor,
            code.error_label,
            code.notes_label,
        )
        self.variables = VariablesTable(self)
        self.output_pane = OutputPane(self)
        self.console = self.output_pane.console
        self.tape_list = TapeList(self.model, self)
        left = Qt.DockWidgetArea.LeftDockWidgetArea
        self.code_dock = self._dock("codeDock", self.tr("Code"), code, left)
        self.variables_dock = self._dock(
            "variablesDock", self.tr("Variables"), self.variables, left
        )
        self.console_dock = self._dock("consoleDock", self.tr("Output"), self.output_pane, left)
        self.tapes_dock = self._dock("tapesDock", self.tr("Tapes"), self.tape_list, left)
        self.timeline_link = TimelineLink(
            self.timeline, self.model, self.tape_list, self.console,
            studio_in_front=lambda: self.studio_view,
            available=self.lower_tabs.set_timeline_available,
            bring_forward=lambda: self.show_view("timeline"), status=self.show_status,
            source=self._submitted_source, steppers=self._on_step_steppers, parent=self,
        )  # fmt: skip
        self.network_link = NetworkLink(self.network, self.timeline, self)
        self.splitDockWidget(self.code_dock, self.variables_dock, Qt.Orientation.Vertical)
        self.splitDockWidget(self.variables_dock, self.console_dock, Qt.Orientation.Vertical)
        self.tabifyDockWidget(self.console_dock, self.tapes_dock)
        self.console_dock.raise_()
        self.resizeDocks([self.code_dock], [DOCK_WIDTH], Qt.Orientation.Horizontal)
        docks = [self.code_dock, self.variables_dock, self.console_dock]
        self.resizeDocks(docks, [5, 2, 2], Qt.Orientation.Vertical)  # the code comes first

    def _action(self, menu: Any, text: str, slot: Any, shortcut: str | None = None) -> QAction:
        action = QAction(text, self)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _build_menus(self) -> None:
        bar, sessions, add = self.menuBar(), self.sessions, self._action
        file = bar.addMenu(self.tr("&File"))
        add(file, self.tr("&Open session…"), sessions.open_dialog, "Ctrl+O")
        add(file, self.tr("&Save session"), sessions.save, "Ctrl+S")
        add(file, self.tr("Save session &as…"), sessions.save_as_dialog, "Ctrl+Shift+S")
        self.export_action = add(file, self.tr("&Export code (TensorFlow, PyTorch, JAX)…"),
                                 self.export_code, "Ctrl+E")  # fmt: skip
        self.recent_menu = file.addMenu(self.tr("Open &recent"))
        self.recent_menu.setObjectName("recentMenu")
        self.recent_menu.aboutToShow.connect(lambda: sessions.fill_recent_menu(self.recent_menu))
        file.addSeparator()
        add(file, self.tr("&Preferences…"), self.dialogs.preferences, "Ctrl+,")
        file.addSeparator()
        add(file, self.tr("&Quit"), self.close, "Ctrl+Q")
        run_menu = bar.addMenu(self.tr("&Run"))
        self.run_action = add(run_menu, self.tr("&Run"), self._on_run_asked, "Ctrl+Return")
        self.stop_action = add(run_menu, self.tr("&Stop"), self.stop, "Ctrl+.")
        run_menu.addSeparator()  # the keys are window shortcuts of the tab in front; shown here
        for text, key, name in ((self.tr("&Play / pause"), "Space", "play"),
                                (self.tr("Step &forward"), "Right", "forward"),
                                (self.tr("Step &back"), "Left", "back"),
                                (self.tr("Back to the s&tart"), "Home", "start")):  # fmt: skip
            hint = QKeySequence(key).toString(QKeySequence.SequenceFormat.NativeText)
            add(run_menu, f"{text}\t{hint}", lambda _=False, n=name: self.transport(n))
        view = bar.addMenu(self.tr("&View"))
        self.presenter.add_actions(view)
        self.dialogs.add_language_menu(view)
        view.addSeparator()
        add(view, self.tr("&Backward pass"), lambda: self.show_view("stepper"), "Ctrl+1")
        add(view, self.tr("&Optimization"), lambda: self.show_view("studio"), "Ctrl+2")
        add(view, self.tr("&Timeline"), lambda: self.show_view("timeline"), "Ctrl+3")
        add(view, self.tr("P&lots"), lambda: self.show_view("plots"), "Ctrl+4")
        add(view, self.tr("&Network"), lambda: self.show_view("network"), "Ctrl+5")
        view.addSeparator()
        for dock in (self.code_dock, self.variables_dock, self.console_dock, self.tapes_dock):
            view.addAction(dock.toggleViewAction())
        self.graph_pane.add_menu(bar)
        self.preset_menu = bar.addMenu(self.tr("&Presets"))
        self.preset_menu.setObjectName("presetMenu")
        for group, names in PRESETS.groups().items():
            sub = self.preset_menu.addMenu(QCoreApplication.translate("presets", group))
            for name in names:
                title = QCoreApplication.translate("presets", PRESETS[name].title) or name
                action = add(sub, title, lambda _=False, n=name: self.load_preset(n))
                action.setObjectName(f"preset:{name}")
        help_menu = bar.addMenu(self.tr("&Help"))
        self.help.add_actions(help_menu)
        help_menu.addSeparator()
        add(help_menu, self.tr("&About tapeviz"), self.dialogs.about)

    def _wire(self) -> None:
        """What one part's events mean for the others (besides the runner's callables)."""
        self.lower_tabs.currentChanged.connect(self._on_lower_tabs_current_changed)
        self.value_warning.nodeClicked.connect(self.graph.select)
        self.clean_action.toggled.connect(self.lower_tabs.set_clean)
        studio = self.studio
        studio.stepTape.connect(self._on_studio_step_tape)
        studio.statusMessage.connect(self._on_studio_status_message)
        studio.busyChanged.connect(self._on_studio_busy_changed)
        studio.problemChanged.connect(self._on_studio_problem_changed)
        studio.progressChanged.connect(self._on_studio_progress_changed)
        self.timeline.statusMessage.connect(self._on_timeline_status_message)
        self.timeline.busyChanged.connect(self._on_studio_busy_changed)  # an animation export
        self.network.stepTape.connect(self._on_network_step_tape)
        self.network.statusMessage.connect(self._on_network_status_message)
        self.network.exportRequested.connect(self.export_code)
        self.run_button.clicked.connect(self._on_run_asked)
        self.stop_button.clicked.connect(self.stop)
        self.editor.textChanged.connect(self._update_actions)
        self.model.changed.connect(self._update_actions)

    # -- how the parts' events reach each other --------------------------------------------
    def _on_lower_tabs_current_changed(self, index: int) -> None:
        studio = index == STUDIO_TAB  # (the tabs switched their own keys and split first)
        came_from, self._tab = self._tab, index
        if self._applying:  # apply_session runs the new work next: nothing old to show
            if not studio:
                self.studio.pause()
            return
        if index == NETWORK_TAB:  # the graph shows the network's step (when it arrives)
            self.studio.pause()
            self.network.resend_tape()
            return
        if index == STEPPER_TAB and came_from == NETWORK_TAB:
            return  # the backward pass steps the network's step shown in the graph
        if not studio:
            self.studio.pause()
            self.timeline_link.show_again(self.runner.last_result)
            if self.runner.last_result is not None and self.runner.last_result.tapes:
                self.carried.apply(editor_run=True)
        elif self.studio_link.shows(self.runner.problem()):
            self.studio_link.resend_tape()
        else:
            self.run_code()  # checks the text in the sandbox, then starts the studio

    def _on_run_figures(self, result: RunResult, live: bool = False) -> None:
        """A script run's figures go to the Plots tab, which comes to the front at its end.

        Not over the studio; over the timeline too: the script asked to see them, as a
        notebook shows a cell's plots. ``live``: a running script's figures so far (the tab
        counts them; the view the user has in front stays).
        """
        if live:
            self.plots.offer(result.figures)
            return
        self.plots.set_figures(result.figures)
        if result.figures and not self.studio_view:
            self.show_view("plots")

    def _on_run_asked(self) -> None:
        """Run (the button or Ctrl+Enter): its graph is fitted, as a loaded preset's is."""
        self.graph_pane.fit_after_next_layout()
        self.runner.run_code()

    def _on_studio_step_tape(self, result: RunResult) -> None:
        if self.studio_view:
            self._show_tapes(result)

    def _on_network_step_tape(self, result: RunResult) -> None:
        if self.lower_tabs.network_view:
            self._show_tapes(result)

    def _on_network_status_message(self, text: str) -> None:
        if self.lower_tabs.network_view:
            self.show_status(text)

    def _submitted_source(self) -> str:
        """The code of the run being shown (it names its functions' locals in the graph)."""
        submitted = self.runner.submitted
        return submitted.source if submitted is not None else ""

    def _prepare_graph(self, result: RunResult, source: str) -> tuple[Any, Any]:
        """In the thread pool: the run's loops, and a big run's graph and steppers."""
        loops = TimelineLink.prepare(result)
        model = TapeList.prepare(result, source, self.model.options)
        if model is None:
            return None, loops
        return (model, prepared_steppers(model)), loops

    def _on_graph_prepared(self, result: RunResult, built: tuple[Any, Any]) -> None:
        graph, loops = built
        self.timeline_link.prepared = (result, *loops)
        if graph is None:
            return
        model, steppers = graph
        if model.options == self.model.options:  # (not changed while it was built)
            self.tape_list.prepared = (result, model)
            if steppers is not None:
                self.stepper.prepared = (model.entry, steppers)

    def _on_step_steppers(self, entry: Any, steppers: Any) -> None:
        """A loop step's steppers, built in the pool with its graph (shown next)."""
        self.stepper.prepared = (entry, steppers)

    def _show_run(self, result: RunResult) -> None:
        """An editor run: its loop on the timeline, or its tapes in the graph.

        A run that streamed stays at the step the user moved to while it ran; one that was
        stopped shows its last snapshot.
        """
        streamed = self.runner.snapshot is not None
        self.timeline_link.show_run(result, bring_forward=not streamed, keep_step=streamed)
        self.network_link.offer(self.timeline.timelines)  # a fit on 2-D data: the Network view
        if result.tapes:
            self.carried.apply(editor_run=not self.studio_view)

    def _show_snapshot(self, result: RunResult, loops: Any, first: bool) -> None:
        """A streamed run so far: its timeline, scrubbable while the run goes on."""
        self.timeline_link.prepared = (result, *loops)
        self.timeline_link.show_run(result, bring_forward=first, keep_step=not first,
                                    by_turns=True)  # fmt: skip
        if first and result.tapes:
            if self.carried.pending is not None:  # (a language switch's view: on the graph)
                self.timeline_link.show_waiting()
            self.carried.apply(editor_run=not self.studio_view)

    def _show_tapes(self, result: RunResult) -> None:
        """List a run's tapes and show one (the studio's step tapes)."""
        self.tape_list.show_result(result, self._submitted_source())
        if result.tapes:
            self.carried.apply(editor_run=not self.studio_view)

    def _on_timeline_status_message(self, text: str) -> None:
        if self.timeline_view:
            self.show_status(text)

    def _on_studio_status_message(self, text: str) -> None:
        if self.studio_view:
            self.show_status(text)

    def _on_studio_busy_changed(self, busy: bool) -> None:
        self._set_running(self.runner.running)  # shows the sandbox's own progress if running

    def _on_studio_progress_changed(self, fraction: float) -> None:
        if self.studio.busy:
            self.progress_bar.show_fraction(fraction)

    def _on_studio_problem_changed(self, problem: Problem) -> None:
        """A start picked on the surface: the variables table follows, without a re-run."""
        self.variables.blockSignals(True)
        self.variables.set_specs(problem.variables)
        self.variables.blockSignals(False)
        self.runner.mark_seen()

    def _set_running(self, running: bool) -> None:
        """Stop is enabled while the sandbox or the studio computes; the progress bar shows it."""
        if running:  # a new run: the last one's error is no longer the work's
            self.status_line.clear_error()
        busy = running or self.studio.busy
        self.stop_button.setEnabled(busy)
        self.stop_action.setEnabled(busy)
        self.progress_bar.show_running(running, self.studio.busy)

    def _update_actions(self) -> None:
        """Actions without a target are disabled (nothing to export, no graph to fit)."""
        has_text = bool(self.editor.toPlainText().strip())
        self.export_action.setEnabled(has_text)
        self.run_button.setEnabled(has_text)
        self.run_action.setEnabled(has_text)
        self.graph_pane.update_actions()

    # -- the work ----------------------------------------------------------------------------
    def current_session(self) -> Session:
        """The work in the window as a session (variables that do not parse are kept as text)."""
        try:
            variables = tuple(self.variables.specs())
        except ValueError:
            variables = self.session_meta.variables
        meta = self.session_meta  # its name, title, group and notes stay
        view = meta.view if meta.view != "studio" else "stepper"  # the editor's own view
        return replace(
            meta,
            source=self.editor.toPlainText(),
            mode=self.mode.currentData(),
            variables=variables,
            view="studio" if self.studio_view else view,
            optimizer=self.studio_link.settings(meta.optimizer),
            network=self.network.session_state(meta.network),
            settings={**meta.settings, "graph": self.graph_settings()},
        )

    def session_to_save(self) -> Session:
        """The work as a file keeps it: a preset's title and notes only for the preset's text."""
        return as_edited(self.current_session(), self.session_meta)

    def apply_session(self, session: Session, run_now: bool = True) -> None:
        """Put a session's text, mode and variables in the window (and run it)."""
        self.session_meta = session
        self.code.set_work(session.source, session.mode)
        self.variables.blockSignals(True)
        self.variables.set_specs(session.variables)
        self.variables.blockSignals(False)
        self.runner.mark_seen(session.source, session.mode)  # nothing to re-run
        self.code.clear_error()
        self.code.set_notes(preset_note(session.notes), session.source)
        graph = session.settings.get("graph")
        if isinstance(graph, dict):
            self.set_graph_settings(**graph)
        self._update_actions()
        self.graph_pane.fit_after_next_layout()
        self._applying = True
        self.studio_link.load(session)
        if session.network is not None:
            try:
                self.network.restore(session.network)
            except ValueError as exc:  # the panel shows it too and keeps its last good state
                self.statusBar().showMessage("⚠ " + str(exc))
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

    def stop(self) -> None:
        """Cancel the running code at its next statement, and the studio's computation."""
        self.runner.stop()
        if self.studio.busy:
            self.studio.cancel()

    def show_status(self, text: str) -> None:
        """Show ``text`` in the status line (news; an error if it begins with ⚠)."""
        self.status_line.showMessage(text)

    # -- the parts' names, as the app, the exports, the screenshots and the tests use them --
    last_result = forward_value("runner", "last_result", "The sandbox result of the last run.")
    _cancel = forward_value("runner", "cancel_token", "The running run's cancel token, or None.")
    _pending = forward_value("runner", "pending", "Whether a run waits for the running one.")
    run_code = forward(RunController.run_code, "runner")
    path = forward_value("sessions", "path", "The work's session file (None: not saved).", True)
    open_session = forward(SessionController.open_session, "sessions")
    save_session = forward(SessionController.save_session, "sessions")
    recent_files = forward(SessionController.recent_files, "sessions")
    autosave_now = forward(SessionController.autosave_now, "sessions")
    offer_restore = forward(SessionController.offer_restore, "sessions")
    studio_view = forward_value("lower_tabs", "studio_view", "Whether the studio is in front.")
    timeline_view = forward_value(
        "lower_tabs", "timeline_view", "Whether the timeline is in front."
    )
    show_view = forward(LowerTabs.show_view, "lower_tabs")
    view_state = forward(CarriedView.view_state, "carried")
    carry_view = forward(CarriedView.carry_view, "carried")
    transport = forward(LowerTabs.transport, "lower_tabs")
    graph_settings = forward(GraphPane.graph_settings, "graph_pane")
    set_graph_settings = forward(GraphPane.set_graph_settings, "graph_pane")
    export_graph = forward(GraphPane.export_graph, "graph_pane")
    font_scale = forward_value("presenter", "font_scale", "The presenter scale (1 = normal).")
    theme = forward_value("presenter", "theme", "The light or dark theme.")
    set_font_scale = forward(PresenterController.set_font_scale, "presenter")
    set_theme = forward(PresenterController.set_theme, "presenter")
    set_language = forward(DialogsController.set_language, "dialogs")
    preferences = forward(DialogsController.preferences, "dialogs")

    def export_code(self) -> CodeExportDialog:
        """The current function as TensorFlow, PyTorch and JAX; under Network, the network."""
        if self.lower_tabs.network_view:
            return self.dialogs.export_code(self.network.export_scripts())
        return self.dialogs.export_code(self.current_session())

    # -- window ----------------------------------------------------------------------------
    def _restore_layout(self) -> None:
        store = settings()
        geometry, state = store.value("window/geometry"), store.value("window/state")
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None:
            self.restoreState(state)
        self.lower_tabs.restore_split(store.value("window/split"))

    def closeEvent(self, event: QCloseEvent) -> None:
        self.stop()
        self.live_timer.stop()
        self.studio.shutdown()
        self.network.shutdown()
        workers.wait_all(3000)
        self.sessions.stop_autosave()
        store = settings()
        store.setValue("window/geometry", self.saveGeometry())
        store.setValue("window/state", self.saveState())
        store.setValue("window/split", self.lower_tabs.split_state())
        super().closeEvent(event)
