"""The timeline panel: a script's loop as steps to scrub or play, with per-step plots.

``TimelinePanel`` owns no maths: the series come from :mod:`tapeviz.models.timeline`, and
playback only moves a cursor (a 16 ms timer, like the studio's). At every step it announces
the step's tapes (``stepTapes``) for the window's graph; while playing, that announcement is
skipped on frames that would spend more than a fifth of the time on the graph.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from tapeviz.models.timeline.output import LineSteps, OutputLines
from tapeviz.models.timeline.timeline import Timeline
from tapeviz.models.values import short
from tapeviz.ui.theme import LIGHT, Theme
from tapeviz.ui.timeline import text
from tapeviz.ui.timeline.controls import TimelineControls
from tapeviz.ui.timeline.drawing import Drawing

if TYPE_CHECKING:  # pyqtgraph is imported when the plots are made, not at start
    from tapeviz.ui.timeline.plots import TimelinePlots

FRAME_MS = 16
SLICED_STEPS = 500  # a loop this long is drawn a plot per turn (each 1-8 ms, ~5 to repaint)
GRAPH_SHARE = 0.2  # while playing, at most this share of the time goes to the step's graph
translate = QCoreApplication.translate  # lupdate reads translate("Timeline", "…")


class StepTapes(NamedTuple):
    """What the graph should show for a step: its tapes (TapeInfos) and the one selected."""

    tapes: tuple[Any, ...]
    current: int
    step: int


class TimelinePanel(QWidget):
    """Controls, scrubber and the loss / parameter / ‖∇‖ plots of a run's loops."""

    stepChanged = Signal(int)
    stepTapes = Signal(object)  # StepTapes of the current step
    statusMessage = Signal(str)
    busyChanged = Signal(bool)  # an animation export renders

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("timelinePanel")
        self.timelines: list[Timeline] = []
        self.timeline: Timeline | None = None
        self.lines: OutputLines | None = None
        self.links: LineSteps | None = None
        self.k = 0
        self.dropped = 0  # tapes the run recorded after the ones it kept (its limits)
        self.theme, self.scale = LIGHT, 1.0
        self._pos, self._last_tick = 0.0, 0.0
        self._graph_cost, self._last_graph = 0.0, 0.0
        self._announced = False
        self._drawing = Drawing(self, self._after_part)  # a big loop's plots, by turns
        self.controls = TimelineControls(self)
        self._plots: TimelinePlots | None = None  # built when first needed (see plot_area)
        self._plots_slot = QWidget(self)
        self.status = QLabel(self)
        self.status.setObjectName("timelineStatus")
        self.status.setWordWrap(True)
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        box.addWidget(self.controls)
        box.addWidget(self._plots_slot, 1)
        box.addWidget(self.status)
        self.timer = QTimer(self)
        self.timer.setInterval(FRAME_MS)
        self.timer.timeout.connect(self._on_timer_timeout)
        c = self.controls
        c.loop_combo.currentIndexChanged.connect(self._on_loop_combo_changed)
        c.reset.clicked.connect(self.reset)
        c.back.clicked.connect(self.step_back)
        c.step.clicked.connect(self.step_forward)
        c.play.toggled.connect(lambda on: self.start() if on else self.pause())
        c.scrubber.valueChanged.connect(self.set_step)
        c.log_scale.toggled.connect(lambda _: self.redraw())
        c.tensor_mode.currentIndexChanged.connect(lambda _: self.redraw())
        c.element.valueChanged.connect(lambda _: self.redraw())
        c.exportRequested.connect(self.export)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.restyle(LIGHT, 1.0)

    @property
    def plot_area(self) -> TimelinePlots:
        """The step plots, built when first needed (a hidden tab costs the start nothing)."""
        if self._plots is None:
            from tapeviz.ui.timeline.plots import TimelinePlots

            plots = TimelinePlots(self)
            plots.restyle(self.theme, self.scale)
            plots.stepClicked.connect(self._on_plots_step_clicked)
            self.layout().replaceWidget(self._plots_slot, plots)
            self._plots_slot.hide()
            plots.show()  # a child made after its parent was shown stays hidden otherwise
            self._plots = plots
        return self._plots

    # -- the run ---------------------------------------------------------------------------
    def set_run(
        self,
        timelines: Sequence[Timeline],
        lines: OutputLines | None = None,
        keep_step: bool = False,
        by_turns: bool = False,
        dropped: int = 0,
    ) -> None:
        """Show a run's loops (the first selected) and its printed lines; [] clears.

        ``dropped``: tapes the run recorded after the kept ones; the last loop's status says so.

        ``keep_step``: the same run, further on (a streamed run's next snapshot, its end): the
        loop shown stays selected at the step the user is on, and a playback goes on.
        ``by_turns``: a plot per turn (a streamed run's snapshot: the first one made every
        plot, a Keras fit's history plot and the graph in one 80-90 ms turn while it ran).
        """
        old, k, playing = self.timeline, self.k, self.playing
        self.pause()
        self.timelines, self.lines, self.dropped = list(timelines), lines, dropped
        self.controls.set_loops(self.timelines)
        if self.timelines:
            index, step = 0, 0
            if keep_step and old is not None:
                same = (old.loop.start, old.loop.period)
                for i, tl in enumerate(self.timelines):
                    if (tl.loop.start, tl.loop.period) == same:
                        index, step = i, min(k, max(tl.steps - 1, 0))
                        break
            self.select(index, step, by_turns)
            if keep_step and playing:
                self.start()
        else:
            self.timeline, self.links, self.k = None, None, 0
            self._drawing.stop()
            if self._plots is not None:
                self._plots.draw(None, False, None)
                self._plots.unhold()
            self.controls.clear()

    def select(self, index: int, step: int = 0, by_turns: bool = False) -> None:
        """Show loop ``index`` at ``step`` (its first, unless told); ``by_turns``: see set_run."""
        self.pause()
        tl = self.timeline = self.timelines[index]
        self.links = LineSteps(self.lines, tl) if self.lines is not None else None
        printed = self.links.marked_steps() if self.links is not None else np.zeros(0, np.int64)
        self.controls.show_timeline(index, tl, printed)
        self._announced = False
        self.redraw(keep=False, by_turns=by_turns)
        self.show_status(text.summary(tl) + self._not_kept())
        self.set_step(step)  # (its tapes now: a big graph shown before is replaced at once)

    def _on_loop_combo_changed(self, index: int) -> None:
        if 0 <= index < len(self.timelines):
            self.select(index)

    def redraw(self, keep: bool = True, by_turns: bool = False) -> None:
        """Draw the selected loop's series again (log scale, tensor element); keep the cursor.

        A loop of :data:`SLICED_STEPS` steps or more (or ``by_turns``): a plot per turn (and
        repaint), each then showing the cursor; ``by_turns``: the first one too.
        """
        if self.timeline is None and self._plots is None:
            return  # nothing to draw, and no plots to clear yet
        c = self.controls
        tl = self.timeline
        parts = self.plot_area.draw_parts(tl, c.log_scale.isChecked(), c.element_index(),
                                          c.heat_strip(), by_turns)  # fmt: skip
        if by_turns and tl is not None:
            self._drawing.start(parts)
            if keep:
                self.show_step(self.k)
            return
        if tl is None or tl.steps < SLICED_STEPS:
            self._drawing.stop()  # (the parts of an older drawing still waiting)
            for part in parts:
                part()
            self.plot_area.unhold()
            if keep and tl is not None:
                self.show_step(self.k)
            return
        parts[0]()  # (the frame: the extra plots and the divergence's marks, at once)
        self._drawing.start(parts[1:])
        if keep:
            self.show_step(self.k)  # (the step's values, as the controls now say)

    @property
    def drawing(self) -> bool:
        """Whether a big loop's plots are still being drawn (a part per turn)."""
        return self._drawing.pending

    def finish_drawing(self) -> None:
        """Draw the rest of a big loop's plots now (before an export takes them)."""
        self._drawing.finish()
        if self._plots is not None:
            self._plots.unhold()

    def hold_plots(self) -> None:
        """While drawn by turns, each plot shows once drawn (not all stale in the tab's paint)."""
        if self.drawing and self._plots is not None and not self.isVisible():
            self._plots.hold()

    def _after_part(self) -> None:
        self.plot_area.set_cursor(self.k)  # (the plot just drawn shows the cursor too)
        if not self._drawing.pending:
            self.plot_area.unhold()

    # -- the cursor ------------------------------------------------------------------------
    @property
    def length(self) -> int:
        """The last step (0 without a loop)."""
        return max(0, self.timeline.steps - 1) if self.timeline is not None else 0

    @property
    def playing(self) -> bool:
        """Whether the playback timer runs."""
        return self.timer.isActive()

    def set_step(self, k: int) -> None:
        """Move the cursor to step k and announce its tapes (the scrubber, keys, clicks)."""
        if self.timeline is None:
            return
        self.show_step(max(0, min(int(k), self.length)))
        self._emit_tapes()

    def show_step(self, k: int) -> None:
        """Draw step k (plots, scrubber, label) without announcing its tapes."""
        tl = self.timeline
        if tl is None:
            return
        self.k = k
        self.plot_area.set_cursor(k)
        self.controls.set_position(k, self.step_text(k))
        self.stepChanged.emit(k)
        d = tl.divergence
        if d is not None and k >= d.step and not self._announced:
            self._announced = True
            self.show_status(text.explanation(d) + self._not_kept())

    def _not_kept(self) -> str:
        """The tapes the run did not keep, said by the last loop's status ("" for others)."""
        tl = self.timeline
        if tl is None or not self.timelines or tl is not self.timelines[-1]:
            return ""
        return text.not_kept(len(tl.tapes), self.dropped)

    def step_text(self, k: int) -> str:
        """``step 3 of 199 · loss = 1.2 · x = 0.4 · ‖∇‖ = 2``: the values at step k."""
        tl = self.timeline
        assert tl is not None
        parts = [
            translate("OptimizationStudio", "step {k} of {n}").format(
                k=f"{k:,}", n=f"{tl.steps - 1:,}"
            ),
            f"{tl.loss_name} = {short(tl.loss[k])}",
        ]
        if tl.epochs is not None:
            parts.insert(1, text.epoch_of_step(tl.epochs, k))
        element = self.controls.element_index()
        for j, p in enumerate(tl.parameters):
            if p.size == 1 or element is None:
                parts.append(f"{p.label} = {short(tl.values(j)[k])}")
            else:
                parts.append(f"{p.name}[{element}] = {short(tl.values(j, element)[k])}")
        parts.append(f"‖∇‖ = {short(tl.grad_norm[k])}")
        return "  ·  ".join(parts)

    def _emit_tapes(self) -> None:
        tl = self.timeline
        if tl is None:
            return
        started = time.perf_counter()
        self._last_graph = started
        self.stepTapes.emit(StepTapes(tl.step_tapes(self.k), tl.main, self.k))
        self._graph_cost = time.perf_counter() - started

    def step_forward(self) -> None:
        """One step forward (pauses)."""
        self.pause()
        self.set_step(self.k + 1)

    def step_back(self) -> None:
        """One step back (pauses)."""
        self.pause()
        self.set_step(self.k - 1)

    def reset(self) -> None:
        """Back to step 0 (pauses)."""
        self.pause()
        self.set_step(0)

    def toggle(self) -> None:
        """Play or pause (Space)."""
        if self.playing:
            self.pause()
        else:
            self.start()

    def start(self) -> None:
        """Play from the cursor (from the start if at the end)."""
        if self.timeline is None:
            self.controls.set_playing(False)
            return
        if self.k >= self.length:
            self.set_step(0)
        self._pos, self._last_tick = float(self.k), time.perf_counter()
        self.controls.set_playing(True)
        self.timer.start()

    def pause(self) -> None:
        """Stop the playback where it is (the graph catches up with the cursor)."""
        was_playing = self.timer.isActive()
        self.timer.stop()
        self.controls.set_playing(False)
        if was_playing:
            self._emit_tapes()

    def _on_timer_timeout(self) -> None:
        if self.timeline is None:
            self.pause()
            return
        now = time.perf_counter()
        self._pos += self.controls.speed.value() * (now - self._last_tick)
        self._last_tick = now
        k = min(int(self._pos), self.length)
        if k != self.k:
            self.show_step(k)
            if now - self._last_graph >= self._graph_cost / GRAPH_SHARE:
                self._emit_tapes()
        if k >= self.length:
            self.pause()

    def _on_plots_step_clicked(self, k: int) -> None:
        self.pause()
        self.set_step(k)

    # -- output lines ----------------------------------------------------------------------
    def lines_of_step(self, k: int) -> list[int]:
        """The output lines step ``k`` of the selected loop printed."""
        return self.links.lines_of(k).tolist() if self.links is not None else []

    def step_of_line(self, line: int) -> tuple[int, int] | None:
        """(loop, step) that printed output line ``line``, of any loop; None if none."""
        if self.lines is None:
            return None
        for i, tl in enumerate(self.timelines):
            links = self.links if tl is self.timeline else LineSteps(self.lines, tl)
            k = links.step_of(line) if links is not None else None
            if k is not None:
                return i, k
        return None

    def go_to_line(self, line: int) -> bool:
        """Jump to the step that printed output line ``line``; whether there was one."""
        found = self.step_of_line(line)
        if found is None:
            return False
        index, k = found
        if self.timelines[index] is not self.timeline:
            self.select(index)
        self.pause()
        self.set_step(k)
        return True

    # -- appearance, status, export --------------------------------------------------------
    def restyle(self, theme: Theme, scale: float) -> None:
        """Theme colours and presenter-mode scale."""
        self.theme, self.scale = theme, float(scale)
        if self._plots is not None:
            self._plots.restyle(theme, scale)
        self.controls.restyle(theme, scale)
        self.redraw()

    def set_theme(self, theme: Theme) -> None:
        """Light or dark colours (the window's presenter calls it)."""
        self.restyle(theme, self.scale)

    def set_font_scale(self, scale: float) -> None:
        """Presenter mode: fonts, line widths and markers × ``scale``."""
        self.restyle(self.theme, scale)

    def show_status(self, message: str) -> None:
        """Show ``message`` under the plots and in the window's status bar."""
        self.status.setText(message)
        self.statusMessage.emit(message)

    def export(self, kind: str, path: str | Path | None = None, **options: Any) -> Any:
        """Export the animation (gif/mp4), the plots (png/svg) or the series (csv).

        Without ``path`` a file dialog asks. Animations run from a timer and return their
        exporter (``finished``/``failed`` signals); the others return the path written. A file
        that cannot be written is reported in the status line and gives None.
        """
        from tapeviz.ui.timeline import export as timeline_export

        return timeline_export.export(self, kind, path, **options)

    def keyPressEvent(self, event: Any) -> None:
        """Qt override: → ← Space Home step, play and reset, as in the studio."""
        actions = {
            Qt.Key.Key_Right: self.step_forward,
            Qt.Key.Key_Left: self.step_back,
            Qt.Key.Key_Space: self.toggle,
            Qt.Key.Key_Home: self.reset,
        }
        action = actions.get(event.key())
        if action is None:
            super().keyPressEvent(event)
            return
        action()
        event.accept()

    def closeEvent(self, event: Any) -> None:
        """Qt override: stop the playback timer with the window."""
        self.timer.stop()
        super().closeEvent(event)
