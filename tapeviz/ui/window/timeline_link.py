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

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QPlainTextEdit

from tapeviz.models.graph.model import GraphModel
from tapeviz.models.timeline.output import OutputLines
from tapeviz.models.timeline.timeline import Timeline, timelines_of
from tapeviz.sandbox import RunResult
from tapeviz.ui.graph.expression_panel import names_of
from tapeviz.ui.timeline.output_link import OutputLink
from tapeviz.ui.timeline.panel import StepTapes, TimelinePanel
from tapeviz.ui.turns import later
from tapeviz.ui.window.tape_list import TapeList

LATER_ROWS = 5_000  # a run of more tapes lists them on the next turn (~10 ms for 100,000)


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
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.panel, self.model, self.tape_list = panel, model, tape_list
        self.output_link = OutputLink(console, panel)
        self.studio_in_front, self.available = studio_in_front, available
        self.bring_forward, self.status = bring_forward, status
        self.source = source  # the code that ran: it names its functions' locals
        self.run: RunResult | None = None  # the run whose loops the panel shows
        self.names: dict[int, str] = {}
        self._shown: tuple[object, ...] = ()  # the tapes the graph shows now
        panel.stepTapes.connect(self._on_panel_step_tapes)
        tape_list.picked.connect(self._on_tape_list_picked)

    @property
    def has_loop(self) -> bool:
        """Whether the shown run recorded a loop."""
        return self.panel.timeline is not None

    prepared: tuple[RunResult, list[Timeline] | Exception, list[str]] | None = None

    @staticmethod
    def prepare(result: RunResult) -> tuple[list[Timeline] | Exception, list[str]]:
        """In the thread pool: a run's loops and its tapes' rows (100,000 tapes: ~1 s)."""
        labels = TapeList.labels(result)
        try:
            return timelines_of(result), labels
        except Exception as exc:  # shown by show_run, where the user looks
            return exc, labels

    def show_run(
        self, result: RunResult, bring_forward: bool = True, keep_step: bool = False
    ) -> None:
        """A finished run: its loop's first step on the timeline, or its tapes as they are.

        ``keep_step``: the run shown is this one further on (a streamed run's next snapshot or
        its end): the timeline stays at the loop and step the user is on.
        """
        prepared, self.prepared = self.prepared, None
        if prepared is not None and prepared[0].tapes is result.tapes:  # made off the UI thread
            found, labels = prepared[1], prepared[2]  # (a stopped run: its last snapshot's)
        else:
            found, labels = self.prepare(result)
        self.prepared = (result, found, labels)  # (a stopped streamed run shows these tapes again)
        if isinstance(found, Exception):  # a bug here must not keep the run from being shown
            why = f"{type(found).__name__}: {found}"
            self.status("⚠ " + self.tr("Internal error: %1").replace("%1", why))
            found = []
        timelines = found
        lines = OutputLines(result.output, result.output_marks)
        self.run, self.names, self._shown = result, names_of(result), ()
        self.available(bool(timelines))
        self.panel.set_run(timelines, lines, keep_step)  # announces the step for the graph
        self.output_link.set_lines(lines)
        shown = self.panel.timeline
        if not timelines or shown is None:
            self.tape_list.show_result(result, self.source(), labels)
            return
        current = shown.main_tape(self.panel.k)

        def list_tapes() -> None:
            if self.run is result:
                self.tape_list.list_result(result, labels, current=current)

        if len(result.tapes) > LATER_ROWS:  # on a turn of its own: the rows wait 1 ms
            later(list_tapes, self.tape_list)
        else:
            list_tapes()
        if bring_forward and not self.studio_in_front():
            self.bring_forward()

    def show_again(self, last: RunResult | None) -> None:
        """The graph is back from the studio: the last run (or its loop's step) again."""
        if last is not None and last is not self.run:
            self.show_run(last, bring_forward=False)  # it ran while the studio was in front
        elif self.has_loop:
            self.panel.set_step(self.panel.k)
        elif last is not None and last.tapes:
            self.tape_list.show_result(last, self.source())

    def _on_panel_step_tapes(self, step: StepTapes) -> None:
        if self.studio_in_front():  # the graph shows the studio's step
            return
        tapes = tuple(t.tape for t in step.tapes)
        self.model.set_tapes(list(step.tapes), self.names, current=step.current,
                             source=self.source())  # fmt: skip
        for tape in self._shown:  # a received tape rebuilt for the last step: let it go
            if tape not in tapes and hasattr(tape, "release"):
                tape.release()
        self._shown = tapes
        tl = self.panel.timeline
        if tl is not None:
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
