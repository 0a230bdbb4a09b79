"""The optimization studio: races computed in a worker, then played back with a 16 ms timer.

``OptimizationStudio`` owns no maths: its :class:`~tapeviz.ui.studio.jobs.JobRunner` runs
``compute_race`` and ``make_backdrop`` (:mod:`tapeviz.models.descent`) in the thread pool
(progress and Cancel in the panel), and playback only moves a cursor over the recorded
histories; :mod:`tapeviz.ui.studio.export` renders them to files. Signals for the main
window: ``statusMessage``, ``stepChanged``, ``stepTape`` (the sandbox RunResult of the
selected run's step, for the graph view) and ``busyChanged``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import SIGNAL, QCoreApplication, Qt, QTimer, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QScrollArea, QVBoxLayout, QWidget

from tapeviz.models.descent.backdrop import Backdrop
from tapeviz.models.descent.problem import Problem
from tapeviz.models.descent.runs import Race
from tapeviz.models.descent.studio_config import StudioConfig
from tapeviz.ui.studio import text as studio_text
from tapeviz.ui.studio.jobs import JobRunner, slice_point
from tapeviz.ui.studio.optimizer_panel import PANEL_WIDTH, OptimizerPanel
from tapeviz.ui.studio.stages import Stages
from tapeviz.ui.studio.studio_plots import StudioPlots, ensure_pixmap_cache
from tapeviz.ui.studio.tapes import StepTapes
from tapeviz.ui.theme import Theme
from tapeviz.ui.turns import later

if TYPE_CHECKING:  # pyqtgraph is imported when the plots are made, not at start
    from tapeviz.ui.plots.step_plots import StepPlots
    from tapeviz.ui.plots.surface_plot import CurvePlot, SurfacePlot

FRAME_MS = 16
PANEL_SHARE = 0.34  # of the studio's width, at most, for the panel (its text may need more)
MARGINS = (6, 4, 6, 4)  # px around the panel and the plots (Qt's 9 cost the graph 10 px at 150 %)
DEBOUNCE_MS = 150  # a burst of hyper-parameter edits starts one computation
QUICK_DEBOUNCE_MS = 15  # … or this, when the last race took less than QUICK_RACE s
QUICK_RACE = 0.1
SLICE_MS = 250  # a paused, scrubbed slice is recomputed this long after the last move
TAPE_EVERY = 0.25  # s between stepTape signals while playing
SMOOTH_BELOW = 30.0  # steps/s: slower than this, every frame moves the dots between steps
__all__ = ["OptimizationStudio", "StudioConfig"]


translate = QCoreApplication.translate  # lupdate reads translate("OptimizationStudio", "…")


class OptimizationStudio(QWidget):
    """Loss, parameter and gradient plots, the loss surface, and the optimizer controls."""

    statusMessage = Signal(str)
    stepChanged = Signal(int)
    stepTape = Signal(object)  # sandbox RunResult of the selected run at the current step
    busyChanged = Signal(bool)
    progressChanged = Signal(float)  # fraction done of the race being computed
    problemChanged = Signal(object)  # a start picked on the surface: the new Problem

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("optimizationStudio")
        self.problem: Problem | None = None
        self.race: Race | None = None
        self.backdrop: Backdrop | None = None
        self.k = 0
        self._config = StudioConfig()
        self._pos = 0.0
        self._last_tick = 0.0
        self._last_tape = 0.0
        self.tapes = StepTapes(self.show_status, self)
        self.tapes.ready.connect(self.stepTape)
        self._announced: set[int] = set()
        self._resume: int | None = None  # a step to show when the next race is ready
        self.panel = OptimizerPanel(self)
        self.plots = StudioPlots(self._on_surface_start_picked, self._on_plots_restyled)
        self.left, self.plot_area = self.plots.left, self.plots.area
        # The panel scrolls when presenter-size text makes it taller than the studio.
        self.panel_scroll = QScrollArea(self)
        self.panel_scroll.setObjectName("optimizerPanelScroll")
        self.panel_scroll.setWidget(self.panel)
        self.panel_scroll.setWidgetResizable(True)
        self.panel_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.panel_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.panel_scroll.verticalScrollBar().rangeChanged.connect(lambda *_: self._fit_panel())
        settings_bar = self.panel.settings_scroll.verticalScrollBar()  # (its width: the panel's)
        settings_bar.rangeChanged.connect(lambda *_: later(self._fit_panel, self))
        box = QHBoxLayout(self)
        box.setContentsMargins(*MARGINS)
        box.addWidget(self.panel_scroll)
        column = QVBoxLayout()  # the status under the plots: their width, the panel's height
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.plot_area, 1)
        column.addWidget(self.panel.status)
        box.addLayout(column, 1)
        self.timer = QTimer(self)
        self.timer.setInterval(FRAME_MS)
        self.timer.timeout.connect(self._on_timer_timeout)
        self.debounce = QTimer(self)
        self.debounce.setSingleShot(True)
        self.debounce.setInterval(DEBOUNCE_MS)
        self.debounce.timeout.connect(self.recompute)
        self.slice_timer = QTimer(self)
        self.slice_timer.setSingleShot(True)
        self.slice_timer.setInterval(SLICE_MS)
        self.slice_timer.timeout.connect(self._refresh_slice)
        self.jobs = JobRunner(self.panel, self.show_status, self)
        self.stages = Stages(self, self)  # a new race's step plots: one per frame
        self.stages.finished.connect(self._on_stages_finished)
        self._busy_held = False  # the jobs' "not busy" waits until the plots are drawn
        self._connect()
        self.plots.restyle()
        self.panel.set_playable(False)

    @property
    def theme(self) -> Theme:
        """The plots' colours (light or dark)."""
        return self.plots.theme

    @property
    def scale(self) -> float:
        """The presenter scale of the plots' fonts, lines and markers."""
        return self.plots.scale

    def _connect(self) -> None:
        p = self.panel
        p.configChanged.connect(self._on_panel_config_changed)
        p.sliceChanged.connect(self._on_panel_slice_changed)
        p.play.toggled.connect(lambda on: self.play() if on else self.pause())
        p.step.clicked.connect(self.step)
        p.reset.clicked.connect(self.reset)
        p.scrubber.valueChanged.connect(self.set_step)
        p.cancel.clicked.connect(self.cancel)
        p.exportRequested.connect(self.export)
        self.jobs.busyChanged.connect(self._on_jobs_busy_changed)
        self.jobs.progressChanged.connect(self.progressChanged)
        self.jobs.raceReady.connect(self._show_race)
        self.jobs.sliceReady.connect(self._on_slice_done)

    # -- public API ------------------------------------------------------------------------
    def set_problem(self, problem: Problem) -> None:
        """Optimise ``problem`` (computed in the background; playback starts at step 0)."""
        self.pause()
        self.stages.cancel()  # the last race's plots are not drawn any further
        self.problem = problem
        self.race, self.k = None, 0
        self.panel.set_playable(False)
        self.recompute()

    def config(self) -> StudioConfig:
        """The current settings (JSON-safe with ``to_dict``)."""
        return self._config

    def resume_at(self, k: int) -> None:
        """Show step ``k`` (clamped) once the next race is computed, instead of step 0."""
        self._resume = max(0, int(k))

    def set_config(self, config: StudioConfig, recompute: bool = True) -> None:
        """Apply settings (from a session or preset) and recompute (unless told not to)."""
        self._config = config
        self.panel.set_config(config)
        if recompute:
            self.recompute()

    @property
    def busy(self) -> bool:
        """Whether a race is being computed, or its plots are still being drawn."""
        return self.jobs.busy or self.stages.pending

    def recompute(self) -> None:
        """Compute the race for the current problem and settings in the thread pool."""
        self.debounce.stop()
        if self.problem is not None:
            self.jobs.start(self.problem, self._config, self._slice_at())

    def cancel(self) -> None:
        """Stop the computation in progress (the last finished race stays)."""
        self.jobs.cancel()

    def shutdown(self) -> None:
        """Stop the timers, cancel the computation and wait briefly for it (call on close)."""
        self.timer.stop()
        self.debounce.stop()
        self.slice_timer.stop()
        self.stages.cancel()
        self.tapes.forget()
        self.jobs.shutdown()

    # -- the plots, made when first shown or used (a window starts without the studio) -----
    def _shown_plot(self) -> Any:
        """The surface or the curve, whichever is in front."""
        return self.plots.shown()

    @property
    def surface(self) -> SurfacePlot:
        """The loss surface (2-D problems) with the runs' paths."""
        return self.plots.plots()[0]

    @property
    def curve(self) -> CurvePlot:
        """The loss curve (1-D problems) with the runs' points."""
        return self.plots.plots()[1]

    @property
    def steps(self) -> StepPlots:
        """Loss, parameters and gradient norm per step."""
        return self.plots.plots()[2]

    def set_theme(self, theme: Theme) -> None:
        """Light or dark colours for every plot."""
        self.plots.restyle(theme=theme)

    def set_font_scale(self, scale: float) -> None:
        """Presenter mode: fonts, line widths and markers scale together."""
        self.plots.scale = float(scale)
        self._fit_panel()
        self.plots.restyle(scale=scale)

    def needed_height(self) -> int:
        """The studio's height with every control of the panel in view, none scrolled."""
        margins = self.layout().contentsMargins()
        return self.panel.sizeHint().height() + margins.top() + margins.bottom()

    def _fit_panel(self) -> None:
        """Cap the panel's width so the plots keep room at presenter text sizes.

        It gets what its larger text wants, but at most PANEL_SHARE of the studio, and never
        less than its controls need.
        """
        wanted = round(PANEL_WIDTH * max(1.0, self.scale))
        share = round(PANEL_SHARE * self.width()) if self.width() > 0 else wanted
        width = max(self.panel.minimumSizeHint().width(), min(wanted, share))
        self.panel.setMaximumWidth(width)
        bar = self.panel_scroll.verticalScrollBar()  # scrolling: the bar is beside the panel
        self.panel_scroll.setFixedWidth(width + (bar.sizeHint().width() if bar.maximum() else 0))

    def resizeEvent(self, event: Any) -> None:
        """Qt override: fit the panel; keep Qt's pixmap cache large enough for the plots."""
        super().resizeEvent(event)
        self._fit_panel()
        ensure_pixmap_cache(self.width() * self.height())

    def showEvent(self, event: Any) -> None:
        """Qt override: on first show, the plots are made and split (the surface the wider)."""
        super().showEvent(event)
        self.plots.size_once()

    def closeEvent(self, event: Any) -> None:
        """Qt override: stop the worker and the timers with the window."""
        self.shutdown()
        super().closeEvent(event)

    def play(self) -> None:
        """Play from the cursor (from the start if at the end)."""
        if self.race is None:
            self.panel.play.setChecked(False)
            return
        if self.k >= self.race.length:
            self.set_step(0)
        self._pos, self._last_tick = float(self.k), time.perf_counter()
        self.panel.play.setChecked(True)
        self.panel.play.setText(translate("OptimizationStudio", "Pause"))
        self.timer.start()

    def pause(self) -> None:
        """Stop the playback where it is."""
        was_playing = self.timer.isActive()
        self.timer.stop()
        self.panel.play.blockSignals(True)
        self.panel.play.setChecked(False)
        self.panel.play.blockSignals(False)
        self.panel.play.setText(translate("OptimizationStudio", "Play"))
        if was_playing:
            self._emit_tape()

    @property
    def playing(self) -> bool:
        """Whether the playback timer runs."""
        return self.timer.isActive()

    def step(self) -> None:
        """One step forward (pauses)."""
        self.pause()
        self.set_step(self.k + 1)

    def reset(self) -> None:
        """Back to step 0 (pauses)."""
        self.pause()
        self.set_step(0)

    def set_step(self, k: int) -> None:
        """Move the cursor to step k (the scrubber, exports and tests call this)."""
        if self.race is None:
            return
        k = max(0, min(int(k), self.race.length))
        self.show_step(k)
        if not self.playing:
            self._emit_tape()
            if self.backdrop is not None and self.backdrop.sliced:
                self.slice_timer.start()  # the slice follows the selected run when paused

    def show_step(self, k: int, t: float = 0.0) -> None:
        """Draw step k everywhere, the dots ``t`` of the way to k + 1 (no tape signal)."""
        moved = k != self.k or not t
        self.k = k
        self._shown_plot().set_cursor(k, t)
        self.steps.set_cursor(k, t)
        if not moved:  # the same step, the dots further along: nothing else to say
            return
        if self.race is not None:
            self.panel.set_position(k, self.race.length)
            self._announce_divergence(k)
        self.stepChanged.emit(k)

    def export(self, kind: str, path: str | Path | None = None, **options: Any) -> Any:
        """Export the animation (gif/mp4), the plots (png/svg) or the histories (csv).

        Without ``path`` a file dialog asks. Animations run from a timer and return their
        exporter (``finished``/``failed`` signals); the others return the path written. A file
        that cannot be written is reported in the status line and gives None.
        """
        from tapeviz.ui.studio import export as studio_export

        try:
            return studio_export.export(self, kind, path, **options)
        except (OSError, ValueError) as exc:
            self.show_status(
                translate("OptimizationStudio", "Export failed: {error}").format(error=exc)
            )
            return None

    def _show_race(self, race: Race, backdrop: Backdrop) -> None:
        """The surface (or curve) and the panel now; each step plot on a frame of its own."""
        keep = min(self.k, race.length) if self.race is not None else 0
        if self._resume is not None:
            keep, self._resume = min(self._resume, race.length), None
        self.race, self.backdrop = race, backdrop
        self._announced = set()
        plot = self.curve if backdrop.kind == "curve" else self.surface
        self.left.setCurrentWidget(plot)
        plot.set_race(race, backdrop)
        self.panel.set_parameters(race.runs[0].names, self._config.slice)
        self.panel.set_length(race.length)
        self.panel.set_playable(True)
        self.show_step(keep)  # the step plots keep their last race's curves until redrawn
        self.stages.start(self._step_plot_parts(race))

    def _step_plot_parts(self, race: Race) -> Iterator[None]:
        """Each step plot's new curves and cursor, one part each; then the status and tape."""
        log_scale = self._config.log_scale
        for shown in self.steps.parts(race, log_scale):
            shown.set_cursor(self.k)
            if shown is self.steps.loss:
                log = shown.log
                self.show_status(studio_text.summary(race, log_scale and not log))
            yield
        self._emit_tape()

    def _on_jobs_busy_changed(self, busy: bool) -> None:
        self._busy_held = not busy and self.stages.pending
        if not self._busy_held:
            self.busyChanged.emit(busy)

    def _on_stages_finished(self) -> None:
        if self._busy_held:
            self._busy_held = False
            self.busyChanged.emit(False)

    def explanation(self, run: int) -> str:
        """The translated divergence explanation of a run ('' if it did not diverge)."""
        return studio_text.explanation(self.race, run) if self.race is not None else ""

    def _announce_divergence(self, k: int) -> None:
        assert self.race is not None
        for i, h in enumerate(self.race.runs):
            d = h.divergence
            if d is not None and k >= d.step and i not in self._announced:
                self._announced.add(i)
                self.show_status(self.explanation(i))

    # -- slots -----------------------------------------------------------------------------
    def _on_timer_timeout(self) -> None:
        if self.race is None:
            self.pause()
            return
        now = time.perf_counter()
        self._pos += self._config.speed * (now - self._last_tick)
        self._last_tick = now
        k = min(int(self._pos), self.race.length)
        t = self._pos - k if k < self.race.length else 0.0
        changed = k != self.k
        if changed or self._config.speed <= SMOOTH_BELOW:
            self.show_step(k, t)  # slow playback: the dots glide between the steps
        if changed and now - self._last_tape >= TAPE_EVERY:
            self._emit_tape()
        if k >= self.race.length:
            self.pause()

    def _emit_tape(self) -> None:
        if self.race is None or self.receivers(SIGNAL("stepTape(PyObject)")) == 0:
            return
        self._last_tape = time.perf_counter()
        run = min(self._config.selected, len(self.race.runs) - 1)
        self.tapes.want(self.race, run, self.k)  # recorded in a worker; stepTape when it arrives

    def _on_panel_config_changed(self, config: StudioConfig) -> None:
        old, self._config = self._config, config
        if (old.runs, old.steps) != (config.runs, config.steps):
            quick = self.jobs.last_seconds < QUICK_RACE  # a quick race: follow the edit at once
            self.debounce.setInterval(QUICK_DEBOUNCE_MS if quick else DEBOUNCE_MS)
            self.debounce.start()  # hyper-parameters: re-run in the background
            if self.race is not None:  # the legend says the new values now, not after the race
                self._shown_plot().set_titles([run.title for run in config.runs])
        elif old.log_scale != config.log_scale and self.race is not None:
            self.stages.flush()  # a new race's plots first, then the new scale
            self.steps.set_race(self.race, config.log_scale)
            self.show_step(self.k)
        elif old.selected != config.selected:
            self._emit_tape()

    def _on_panel_slice_changed(self, pair: tuple[str, str]) -> None:
        self._config = replace(self._config, slice=pair)
        self.recompute()

    def _on_surface_start_picked(self, x: float, y: float) -> None:
        if self.problem is None or self.backdrop is None or self.race is None:
            return
        names = self.race.runs[0].names
        if len(names) != 2 or self.race.runs[0].shapes != ((), ()):
            self.show_status(
                translate(
                    "OptimizationStudio", "Click-to-start needs exactly two scalar parameters."
                )
            )
            return
        self.problem = self.problem.with_start({names[0]: x, names[1]: y})
        self.problemChanged.emit(self.problem)
        self.show_status(
            translate("OptimizationStudio", "New start ({x}, {y}): computing…").format(
                x=f"{x:.3g}", y=f"{y:.3g}"
            )
        )
        self.pause()
        self.k = 0
        self.recompute()

    def show_status(self, text: str) -> None:
        self.panel.status.setText(text)
        self.statusMessage.emit(text)

    def _on_plots_restyled(self) -> None:
        if self.race is not None:
            self.show_step(self.k)

    # -- the 2-D slice ---------------------------------------------------------------------
    def _refresh_slice(self) -> None:
        """Resample the 2-D slice through the selected run's current step (in the pool)."""
        if self.race is not None and self.backdrop is not None and self.backdrop.sliced:
            self.jobs.resample(self.race, self.backdrop, self._config, self._slice_at())

    def _on_slice_done(self, race: Race, backdrop: Backdrop) -> None:
        if race is self.race and not self.jobs.busy:
            self.backdrop = backdrop
            self.surface.set_race(race, backdrop)
            self.show_step(self.k)

    def _slice_at(self) -> Any:
        return slice_point(self.race, self._config, self.k)
