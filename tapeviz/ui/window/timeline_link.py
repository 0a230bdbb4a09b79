"""What the timeline shows: the loops of the editor's last run, linked to the graph and the docks.

``TimelineLink`` takes each finished run (the run controller's ``show_tapes``): when the run
recorded a loop, the timeline gets its loops and printed lines, the Timeline tab is enabled and
brought to the front, and the graph shows the loop's current step (``stepTapes``: the same
GraphModel and backward pass as any tape, updated in place while the structure repeats); the
Tapes dock lists every tape and marks the step's. Otherwise the run's tapes are shown as
always. A tape picked in the dock goes to its loop's step; a printed line clicked in the Output
dock goes to the step that printed it (:class:`~tapeviz.ui.timeline.output_link.OutputLink`).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QPlainTextEdit

from tapeviz.models.graph.model import GraphModel
from tapeviz.models.timeline.output import OutputLines
from tapeviz.models.timeline.timeline import Timeline, timelines_of
from tapeviz.sandbox import RunResult
from tapeviz.ui.graph.expression_panel import names_of
from tapeviz.ui.timeline.output_link import OutputLink
from tapeviz.ui.timeline.panel import StepTapes, TimelinePanel
from tapeviz.ui.turns import later, release
from tapeviz.ui.window.step_graphs import Built, StepGraphs, chosen, heavy
from tapeviz.ui.window.tape_list import TapeList

LATER_ROWS = 5_000  # a run of more tapes lists them on the next turn (~10 ms for 100,000)
# A snapshot's step goes to the graph on a turn of its own while the graph shown has at most
# this many nodes (a bigger one goes at once: see show_run)
SNAPSHOT_LATER_NODES = 300
SNAPSHOT_TAPES = 100  # a snapshot without a loop of at most this many tapes: heavy ones in the pool


class TimelineLink(QObject):
    """The last run's loops on ``panel``, their steps in ``model``, the docks linked to them.

    ``studio_in_front()`` says whether the graph belongs to the studio (then steps are not
    shown); ``available(bool)`` enables the Timeline tab; ``bring_forward()`` shows it;
    ``status`` reports what went wrong.
    """

    def __init__(
        self,
        panel: TimelinePanel,
        model: GraphModel,
        tape_list: TapeList,
        console: QPlainTextEdit,
        *,
        studio_in_front: Callable[[], bool],
        available: Callable[[bool], None],
        bring_forward: Callable[[], None],
        status: Callable[[str], None] = lambda text: None,
        source: Callable[[], str] = lambda: "",
        steppers: Callable[[Any, Any], None] = lambda entry, built: None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.panel, self.model, self.tape_list = panel, model, tape_list
        self.output_link = OutputLink(console, panel)
        self.studio_in_front, self.available = studio_in_front, available
        self.bring_forward, self.status = bring_forward, status
        self.source = source  # the code that ran: it names its functions' locals
        self.steppers = steppers  # (a step's tape entry, its steppers built in the pool)
        self.step_graphs = StepGraphs(model, self._show_step)
        self.run: RunResult | None = None  # the run whose loops the panel shows
        self.names: dict[int, str] = {}
        self._shown: tuple[object, ...] = ()  # the tapes the graph shows now
        self._past: list[weakref.ref[RunResult]] = []  # runs shown here (a newer one may be)
        self._forwarding = False  # show_run brings the Timeline tab forward
        self._snapshot = False  # show_run shows a streamed run's snapshot (its plots by turns)
        # a snapshot's step waiting for its turn, and the graph's generation then (any newer
        # step asked for, another run, or other tapes shown meanwhile supersede it)
        self._waiting: tuple[StepTapes, int] | None = None
        panel.stepTapes.connect(self._on_panel_step_tapes)
        tape_list.picked.connect(self._on_tape_list_picked)

    @property
    def has_loop(self) -> bool:
        """Whether the shown run recorded a loop."""
        return self.panel.timeline is not None

    # (the run, its loops or why not, its tapes' rows, its printed lines)
    prepared: tuple[RunResult, list[Timeline] | Exception, list[str], OutputLines] | None = None

    @staticmethod
    def prepare(result: RunResult) -> tuple[list[Timeline] | Exception, list[str], OutputLines]:
        """In the thread pool: a run's loops, its tapes' rows (100,000 tapes: ~1 s), its lines."""
        labels = TapeList.labels(result)
        lines = OutputLines(result.output, result.output_marks)  # (300,000 lines: ~15 ms)
        try:
            return timelines_of(result), labels, lines
        except Exception as exc:  # shown by show_run, where the user looks
            return exc, labels, lines

    def show_run(
        self,
        result: RunResult,
        bring_forward: bool = True,
        keep_step: bool = False,
        by_turns: bool = False,
    ) -> None:
        """A finished run: its loop's first step on the timeline, or its tapes as they are.

        ``keep_step``: the run shown is this one further on (a streamed run's next snapshot or
        its end): the timeline stays at the loop and step the user is on. ``by_turns``: its
        plots a part per turn, then the step's graph (a snapshot, while the run goes on).
        """
        self._waiting = None  # (a snapshot's step still waiting: this run, further on, or not)
        prepared, self.prepared = self.prepared, None
        if prepared is not None and prepared[0].tapes is result.tapes:  # made off the UI thread
            found, labels, lines = prepared[1:]  # (a stopped run: its last snapshot's)
            if lines.text != result.output:  # (its output: the run's, maybe longer)
                lines = OutputLines(result.output, result.output_marks)
        else:
            found, labels, lines = self.prepare(result)
        self.prepared = (result, found, labels, lines)  # (a stopped streamed run shows these again)
        if isinstance(found, Exception):  # a bug here must not keep the run from being shown
            why = f"{type(found).__name__}: {found}"
            self.status("⚠ " + self.tr("Internal error: %1").replace("%1", why))
            found = []
        timelines = found
        self.run, self.names, self._shown = result, names_of(result), ()
        self._past = [r for r in self._past if r() is not None and r() is not result]
        self._past.append(weakref.ref(result))
        self.available(bool(timelines))
        forward = bring_forward and bool(timelines) and not self.studio_in_front()
        # It announces the step's tapes. A snapshot's go to the graph on a turn after its plots'
        # first part (the graph of a Keras fit's step: 20-30 ms, in the snapshot's 15-35 ms
        # turn before), unless the graph shown is big: it must be gone before the Timeline tab
        # comes forward (the tab's resize fitted an old 20,000-op graph again: 280 ms).
        self._snapshot = by_turns
        try:
            self.panel.set_run(timelines, lines, keep_step, by_turns, result.dropped_tapes)
        finally:
            self._snapshot = False
        self.output_link.set_lines(lines)
        shown = self.panel.timeline
        if not timelines or shown is None:
            self.step_graphs.forget()
            if by_turns and 0 < len(result.tapes) <= SNAPSHOT_TAPES and not self.studio_in_front():
                every = StepTapes(tuple(result.tapes), -1, -1)  # (a snapshot without a loop)
                if heavy(every):  # a conv net's first tapes: their graph in the pool
                    self.tape_list.list_result(result, labels)
                    self.step_graphs.want(every, self.names, self.source())
                    return
            self.tape_list.show_result(result, self.source(), labels)
            return
        if len(result.tapes) > LATER_ROWS:  # the rows, then the current one, on turns of their own
            later(lambda: self._list_tapes(result, labels, None), self.tape_list)
            later(lambda: self._list_tapes(result, None, None), self.tape_list)
        else:
            self._list_tapes(result, labels, shown.main_tape(self.panel.k))
        if forward:
            self._bring_forward()

    def _bring_forward(self) -> None:
        """The Timeline tab to the front (its graph shows the step already: no show_again)."""
        if not self.has_loop or self.studio_in_front():
            return
        self.panel.hold_plots()  # (its plots show as they are drawn, not all in one paint)
        self._forwarding = True
        try:
            self.bring_forward()
        finally:
            self._forwarding = False

    def _list_tapes(self, result: RunResult, labels: list[str] | None, row: int | None) -> None:
        """The Tapes dock lists ``labels`` (None: marks the step's tape, ``row`` if given)."""
        tl = self.panel.timeline
        if self.run is not result or tl is None:
            return  # a newer run (or snapshot) is shown
        if labels is not None:
            self.tape_list.list_result(result, labels, current=row)
        else:
            self.tape_list.mark(tl.main_tape(self.panel.k))

    def show_again(self, last: RunResult | None) -> None:
        """The graph is back from the studio: the last run (or its loop's step) again.

        ``last`` is the editor's last finished run; one shown here before is older than the
        run shown now (a streamed run's snapshot): the shown one stays.
        """
        if self._forwarding:
            return  # (show_run brings the tab forward: what it shows is shown)
        if last is not None and last is not self.run and not self._was_shown(last):
            self.show_run(last, bring_forward=False)  # it ran while the studio was in front
        elif self.has_loop:
            self.panel.set_step(self.panel.k)
        elif self.run is not None and self.run.tapes:
            self.tape_list.show_result(self.run, self.source())

    def _was_shown(self, result: RunResult) -> bool:
        return any(r() is result for r in self._past)

    def _on_panel_step_tapes(self, step: StepTapes) -> None:
        self._waiting = None  # (a newer step asked for)
        if self.studio_in_front():  # the graph shows the studio's step
            self.step_graphs.forget()
        elif heavy(step):  # its backward pass: in the pool (the step before shows meanwhile)
            self.step_graphs.want(step, self.names, self.source())
        else:
            self.step_graphs.forget()
            if self._snapshot and len(self.model.nodes) <= SNAPSHOT_LATER_NODES:
                self._waiting = (step, self.model.generation)
                later(self.show_waiting, self)
            else:
                self._show_step(step, None)

    def show_waiting(self) -> None:
        """Show the snapshot's step that waits for its turn, now (on its turn, or when asked).

        Not if a newer step was asked for, or the graph showed other tapes, meanwhile.
        """
        waiting, self._waiting = self._waiting, None
        if waiting is not None and waiting[1] == self.model.generation:
            self._show_step(waiting[0], None)

    def _show_step(self, step: StepTapes, built: Built | None) -> None:
        """Show a step's tapes in the graph (``built``: its model and steppers, from the pool)."""
        if self.studio_in_front():
            if built is not None:
                release(built)
            return
        tapes = tuple(t.tape for t in step.tapes)
        if built is not None and built[0].options == self.model.options:
            model, steppers = built
            if steppers is not None:
                self.steppers(model.entry, steppers)
            self.model.adopt(model)  # (which now holds the last step's graph)
            release(model)
        else:
            self.model.set_tapes(list(step.tapes), self.names, current=chosen(step),
                                 source=self.source())  # fmt: skip
        for tape in self._shown:  # a received tape rebuilt for the last step: let it go
            if tape not in tapes and hasattr(tape, "release"):
                tape.release()
        self._shown = tapes
        tl = self.panel.timeline
        if step.step < 0:  # a run's tapes without a loop (so far): the list drives the graph
            self.tape_list.follow_graph()
        elif tl is not None:
            self.tape_list.mark(tl.main_tape(step.step))

    def _on_tape_list_picked(self, row: int) -> None:
        """A tape picked in the Tapes dock: its loop's step, or the tape among all of them."""
        result = self.run
        if self.tape_list.drives_graph or result is None or not 0 <= row < len(result.tapes):
            return
        for index, tl in enumerate(self.panel.timelines):
            k = tl.step_of_tape(row)
            if k is not None:
                if self.panel.timeline is not tl:
                    self.panel.select(index)
                self.panel.pause()
                self.panel.set_step(k)
                return
        self.tape_list.show_result(result)  # outside the loops: every tape, this one shown
        self.tape_list.setCurrentRow(row)
