"""The main window's central area: the graph above, the backward pass and the studio in tabs.

The graph is linked to whichever tab is in front: under "Backward pass" it shows the tapes of
the editor's last run; under "Optimization" it shows the tape of the studio's current step
(``OptimizationStudio.stepTape``), so scrubbing or playing the descent moves the graph too.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QProgressBar, QSplitter, QTabWidget

from tapeviz.models.descent.demos import from_session
from tapeviz.models.descent.problem import Problem
from tapeviz.models.descent.studio_config import StudioConfig
from tapeviz.models.session.file import Session
from tapeviz.sandbox import RunResult
from tapeviz.ui.graph.expression_panel import names_of
from tapeviz.ui.graph.pane import GraphPane
from tapeviz.ui.stepper.panel import StepperPanel
from tapeviz.ui.studio.studio import OptimizationStudio

STEPPER_TAB, STUDIO_TAB = 0, 1
SPLIT = {STEPPER_TAB: (0.6, 0.4), STUDIO_TAB: (0.36, 0.64)}  # graph : tabs, per tab


def same_problem(a: Problem | None, b: Problem | None) -> bool:
    """Whether two problems are equal (array values compare element-wise)."""
    if a is None or b is None:
        return a is b
    try:
        return bool(a == b)
    except ValueError:  # numpy arrays in the table: ambiguous truth value
        return False


class ViewsMixin:
    """Graph, stepper and studio for :class:`MainWindow` (which provides the rest)."""

    def _build_central(self) -> None:
        self.graph_pane = GraphPane(self.model, self.show_status, self)
        self.graph = self.graph_pane.view
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.setObjectName("centralSplitter")
        splitter.setChildrenCollapsible(False)
        self.setCentralWidget(splitter)
        self.splitter = splitter
        splitter.addWidget(self.graph)
        self.lower_tabs = QTabWidget(splitter)
        self.lower_tabs.setObjectName("lowerTabs")
        self.lower_tabs.setDocumentMode(True)
        self.stepper = StepperPanel(self.model, self.graph, self.lower_tabs)
        self.studio = OptimizationStudio(self.lower_tabs)
        self.lower_tabs.addTab(self.stepper, self.tr("Backward pass"))
        self.lower_tabs.addTab(self.studio, self.tr("Optimization"))
        splitter.addWidget(self.lower_tabs)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([460, 300])
        self._split = {i: top for i, (top, _) in SPLIT.items()}  # graph's share, per tab
        splitter.splitterMoved.connect(self._on_splitter_moved)
        self.graph.layoutFinished.connect(self.graph_pane.fit_if_asked)  # after the stepper's
        self.lower_tabs.currentChanged.connect(self._on_lower_tabs_current_changed)
        self.studio.stepTape.connect(self._on_studio_step_tape)
        self.studio.statusMessage.connect(self._on_studio_status_message)
        self.studio.busyChanged.connect(self._on_studio_busy_changed)
        self.studio.problemChanged.connect(self._on_studio_problem_changed)
        self.studio.progressChanged.connect(self._on_studio_progress_changed)
        self.progress_bar = QProgressBar(self)
        self.progress_bar.setObjectName("statusProgress")
        self.progress_bar.setMaximumWidth(160)
        self.progress_bar.setTextVisible(False)
        self.progress_bar.hide()
        self.statusBar().addPermanentWidget(self.progress_bar)
        studio_keys = {
            Qt.Key.Key_Space: self.studio.panel.play.toggle,
            Qt.Key.Key_Right: self.studio.step,
            Qt.Key.Key_Left: lambda: self._studio_step_back(),
            Qt.Key.Key_Home: self.studio.reset,
        }
        self.studio_shortcuts = []
        for key, slot in studio_keys.items():
            sc = QShortcut(QKeySequence(key), self)
            sc.activated.connect(slot)
            sc.setEnabled(False)
            self.studio_shortcuts.append(sc)

    # -- which view is in front ------------------------------------------------------------
    @property
    def studio_view(self) -> bool:
        """Whether the optimization studio is the tab in front."""
        return self.lower_tabs.currentIndex() == STUDIO_TAB

    def show_view(self, view: str) -> None:
        """Bring the studio ("studio") or the backward pass ("graph", "stepper") to the front."""
        self.lower_tabs.setCurrentIndex(STUDIO_TAB if view == "studio" else STEPPER_TAB)

    def _editor_view(self) -> str:
        view = self.session_meta.view
        return view if view != "studio" else "stepper"

    def _on_lower_tabs_current_changed(self, index: int) -> None:
        studio = index == STUDIO_TAB
        for sc in self.stepper.shortcuts:  # the same keys drive whichever tab is in front
            sc.setEnabled(not studio)
        for sc in self.studio_shortcuts:
            sc.setEnabled(studio)
        self._apply_split()
        if self._applying:  # apply_session runs the new work next: nothing old to show
            if not studio:
                self.studio.pause()
            return
        if not studio:
            self.studio.pause()
            if self.last_result is not None and self.last_result.tapes:
                self._show_tapes(self.last_result)
        elif (self.studio.race is not None and not self._studio_stale
              and same_problem(self.studio.problem, self._problem())):  # fmt: skip
            self._emit_studio_tape()
        else:
            self.run_code()  # checks the text in the sandbox, then starts the studio

    def _apply_split(self) -> None:
        total = max(sum(self.splitter.sizes()), 400)
        top = self._split[self.lower_tabs.currentIndex()]
        self.splitter.setSizes([round(total * top), total - round(total * top)])

    def _on_splitter_moved(self, pos: int, index: int) -> None:
        sizes = self.splitter.sizes()
        if sum(sizes) > 0:  # the lecturer's split for this tab, remembered with the layout
            self._split[self.lower_tabs.currentIndex()] = sizes[0] / sum(sizes)

    def _split_state(self) -> list[float]:
        return [self._split[i] for i in sorted(self._split)]

    def _restore_split(self, saved: Any) -> None:
        try:
            values = [min(max(float(v), 0.1), 0.9) for v in saved]
        except (TypeError, ValueError):
            return
        if len(values) == len(self._split):
            self._split = dict(enumerate(values))
            self._apply_split()

    def transport(self, command: str) -> None:
        """Play/pause, step forward or back, or go to the start in the tab in front."""
        if self.studio_view:
            studio = self.studio
            {"play": studio.panel.play.toggle, "forward": studio.step, "start": studio.reset,
             "back": self._studio_step_back}[command]()  # fmt: skip
        else:
            stepper = self.stepper
            {"play": stepper.play_button.toggle, "forward": stepper.step_forward,
             "back": stepper.step_back, "start": lambda: stepper.jump(0)}[command]()  # fmt: skip

    # -- the studio ------------------------------------------------------------------------
    def _problem(self) -> Problem | None:
        try:
            variables = tuple(self.variables.specs())
        except ValueError:
            return None
        return Problem(self.editor.toPlainText(), variables, self.mode.currentData())

    def _start_studio(self, problem: Problem | None = None) -> None:
        """Give a loss (by default the editor's) to the studio unless it already shows it."""
        problem = problem or self._problem()
        if problem is None:
            return
        self._studio_used = True
        idle = self.studio.race is None and not self.studio.busy
        if idle or self._studio_stale or not same_problem(problem, self.studio.problem):
            self._studio_stale = False
            self.studio.set_problem(problem)
        else:
            self._emit_studio_tape()

    def _emit_studio_tape(self) -> None:
        self.studio.set_step(self.studio.k)  # re-sends the tape of the current step

    def _studio_step_back(self) -> None:
        self.studio.pause()
        self.studio.set_step(self.studio.k - 1)

    def _load_studio(self, session: Session) -> None:
        """A session's optimizer settings (or the defaults) go to the panel for the next race."""
        try:
            config = from_session(session).config if session.optimizer else StudioConfig()
        except ValueError as exc:
            config = StudioConfig()
            self.statusBar().showMessage("⚠ " + str(exc))
        self.studio.pause()
        if self.studio.busy:  # a race for the previous work: its result would be stale
            self.studio.cancel()
        self.studio.set_config(config, recompute=False)
        self._studio_stale = True  # the next race uses these settings even for the same loss
        self._studio_used = False

    def _on_studio_step_tape(self, result: RunResult) -> None:
        if self.studio_view:
            self._show_tapes(result)

    def _on_studio_status_message(self, text: str) -> None:
        if self.studio_view:
            self.statusBar().showMessage(text)

    def _on_studio_busy_changed(self, busy: bool) -> None:
        self._set_running(self._cancel is not None)  # shows the sandbox's own progress if running

    def _on_studio_progress_changed(self, fraction: float) -> None:
        if self.studio.busy:
            self.progress_bar.setRange(0, 100)
            self.progress_bar.setValue(round(100 * fraction))
            self.progress_bar.show()

    def _on_studio_problem_changed(self, problem: Problem) -> None:
        """A start picked on the surface: the variables table follows, without a re-run."""
        self.variables.blockSignals(True)
        self.variables.set_specs(problem.variables)
        self.variables.blockSignals(False)
        self._seen = (self.editor.toPlainText(), self.mode.currentData(),
                      self.variables.snapshot())  # fmt: skip

    # -- tapes -----------------------------------------------------------------------------
    def _show_tapes(self, result: RunResult) -> None:
        """List a run's tapes and show the last one in the graph and the stepper."""
        self.tape_list.blockSignals(True)
        self.tape_list.clear()
        for info in result.tapes:
            ops = len(info.tape.records)
            self.tape_list.addItem(self.tr("%1 — %2 ops").replace("%1", info.name)
                                   .replace("%2", str(ops)))  # fmt: skip
        self.tape_list.setCurrentRow(len(result.tapes) - 1)
        self.tape_list.blockSignals(False)
        if result.tapes:
            self.model.set_tapes([t.tape for t in result.tapes], names_of(result))

    def _on_tape_list_row_changed(self, row: int) -> None:
        if 0 <= row < len(self.model.entries):
            self.model.select(row)

    def _busy_changed(self, running: bool) -> None:
        """Indeterminate progress while the sandbox runs the editor's code (the studio's own)."""
        if running:
            self.progress_bar.setRange(0, 0)
            self.progress_bar.show()
        elif not self.studio.busy:
            self.progress_bar.hide()
        elif self.progress_bar.maximum() == 0:  # the studio still computes: its fraction next
            self.progress_bar.setRange(0, 100)

    def _views_close(self) -> Any:
        self.studio.shutdown()
