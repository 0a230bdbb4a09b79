"""Running the editor's text: one sandbox run at a time, and a live re-run while typing.

Each run goes to a worker process (:func:`tapeviz.sandbox.process.isolated.run_isolated`); the
thread pool only waits for it and decodes the result, so the window itself never runs user code.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from tapeviz.models.descent.problem import Problem
from tapeviz.sandbox import CancelToken, Limits, RunResult
from tapeviz.sandbox.out_value import out_text
from tapeviz.sandbox.process.isolated import run_isolated
from tapeviz.ui import workers
from tapeviz.ui.messages import translated
from tapeviz.ui.window.code_pane import CodePane
from tapeviz.ui.window.earlier_lines import OUTPUT_LINES, EarlierLines
from tapeviz.ui.window.error_text import describe, unknown_name
from tapeviz.ui.window.long_output import last_lines
from tapeviz.ui.window.variables_table import VariablesTable

LIVE_MS = 300  # the longest pause before expression mode re-runs (after a slow run)
LIVE_MIN_MS = 0  # after a quick run: the next turn, before the keystroke is painted
QUICK_RUN_S = 0.1  # a run this quick ends before a typist's next key: no longer pause


def live_delay(last_run_s: float | None) -> int:
    """The pause (ms) after a keystroke before a live re-run, from how long the last run took.

    A run quicker than :data:`QUICK_RUN_S` is over before the next key of even a fast typist
    (~0.15 s apart): it re-runs after :data:`LIVE_MIN_MS`. A slower one waits a quarter of its
    time (at most :data:`LIVE_MS`) for a pause in the typing, so a run started mid-word rarely
    delays the one the last key asks for. Unknown (no run yet): the longest.
    """
    if last_run_s is None:
        return LIVE_MS
    if last_run_s < QUICK_RUN_S:
        return LIVE_MIN_MS
    return int(min(LIVE_MS, max(LIVE_MIN_MS, 250 * last_run_s)))


DECODED_TAPES = 8  # a run with at most this many tapes has them decoded in the thread pool
ADDED_VALUE = 1.0  # a name added from the error frame starts here (products stay non-zero)


def _recorded(result: RunResult) -> bool:
    """Whether any of ``result``'s tapes recorded an op (a received run asks its columns)."""
    recorded = getattr(result.tapes, "recorded", None)
    return bool(recorded()) if recorded is not None else any(result.tape_ops())


def _run_job(
    source: str,
    mode: str,
    variables: list,
    limits: Limits,
    cancel: CancelToken,
    prepare: Callable[[RunResult, str], Any] | None,
    on_snapshot: Callable[[RunResult], None] | None = None,
    keep: int = 0,
) -> tuple[RunResult, Any, str]:
    if mode == "expression":  # live evaluation while typing: short, whatever the preferences
        limits = replace(limits, wall_time=2.0)
    # In a worker process: nothing the code does can crash, freeze or bloat the window.
    result = run_isolated(source, mode=mode, variables=variables, limits=limits, cancel=cancel,
                          on_snapshot=on_snapshot)  # fmt: skip
    if len(result.tapes) <= DECODED_TAPES:  # the graph's tapes decoded here, not in the window
        for info in result.tapes:
            _ = info.tape.records
    prepared = prepare(result, source) if prepare is not None else None
    return result, prepared, last_lines(result.output, keep)  # (the Output pane's, made here)


class RunController(QObject):
    """Runs the work of ``code`` and ``variables`` in the sandbox, in the thread pool.

    One run at a time: a run asked for meanwhile starts when this one ends. In expression mode
    an edit re-runs after a pause that follows the last run's time (:func:`live_delay`). What
    the run printed goes to ``console``, its error to ``code`` and ``error`` (else ``status``);
    a new run clears the last one's error, an edit its mark in the text; ``limits()`` are
    the preferences' sandbox limits. The rest of the window takes part through callables:
    ``studio_in_front()`` (then the checked text goes to ``start_studio(problem)`` and the
    graph keeps the studio's tape), ``show_tapes(result)``, ``dim_graph(dimmed)``,
    ``running_changed(running)`` and ``show_figures(result, live)`` (after every script run:
    the figures it drew, none included; a run that failed before drawing leaves the last
    figures, as it leaves the last good graph; ``live``: a streamed run's figures so far).
    ``prepare(result, source)`` runs in the thread pool after the run (the graph of a big run
    built there) and ``prepared(result, what)`` takes what it made, before ``show_tapes``.

    A script streams: while it runs, the run so far arrives now and then (at 0.08 s, 0.24 s,
    0.72 s, ... of its time); ``prepare_snapshot(result)`` runs on the thread that decoded it
    and ``show_snapshot(result, what, first)`` shows both (the timeline scrubbable, the output,
    the tapes) while the run goes on; ``snapshot`` is the last one shown until the run ends.
    A run stopped, killed or ended by a limit keeps the last snapshot, with its error.
    """

    # (the run's cancel token, the run so far, what was prepared, its output's last lines)
    snapshotted = Signal(object)

    def __init__(
        self,
        code: CodePane,
        variables: VariablesTable,
        console: QPlainTextEdit,
        *,
        limits: Callable[[], Limits],
        status: Callable[[str], None],
        error: Callable[[str], None] | None = None,
        studio_in_front: Callable[[], bool],
        show_tapes: Callable[[RunResult], None],
        dim_graph: Callable[[bool], None],
        start_studio: Callable[[Problem], None],
        running_changed: Callable[[bool], None],
        show_figures: Callable[[RunResult, bool], None] | None = None,
        prepare: Callable[[RunResult, str], Any] | None = None,
        prepared: Callable[[RunResult, Any], None] | None = None,
        prepare_snapshot: Callable[[RunResult], Any] | None = None,
        show_snapshot: Callable[[RunResult, Any, bool], None] | None = None,
        show_value: Callable[[str | None], None] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.code, self.variables, self.console = code, variables, console
        self.output = EarlierLines(console)  # (its last lines; the earlier ones on scroll)
        self.limits, self.status = limits, status
        self.error = error if error is not None else lambda text: status("⚠ " + text)
        self.studio_in_front, self.show_tapes = studio_in_front, show_tapes
        self.dim_graph, self.start_studio = dim_graph, start_studio
        self.running_changed = running_changed
        self.show_figures = show_figures
        self.prepare, self.prepared = prepare, prepared
        self.prepare_snapshot, self.show_snapshot = prepare_snapshot, show_snapshot
        self.show_value = show_value if show_value is not None else lambda text: None
        self.snapshot: RunResult | None = None  # the running run's last snapshot shown (if any)
        self.printed: RunResult | None = None  # or its last one of printed lines only (no loop)
        self.snapshotted.connect(self._on_snapshot)
        self.cancel_token: CancelToken | None = None  # the running run's; None when idle
        self.pending = False  # a run was asked for while one was running
        self.seen: tuple = ()  # (text, mode, variables) last seen by the live re-run
        self.last_result: RunResult | None = None
        self.last_run_s: float | None = None  # Run to graph, the last time (the live pause)
        self._started = 0.0
        self._keep = 0  # the lines the Output pane keeps (0: all), read by the pool's threads
        self.submitted: Problem | None = None  # the text and table of the running sandbox run
        self.live_timer = QTimer(self)
        self.live_timer.setSingleShot(True)
        self.live_timer.setInterval(LIVE_MS)
        self.live_timer.timeout.connect(self._run_live)
        self._live_window: QWidget | None = None  # watched while a live re-run waits its turn
        code.editor.textChanged.connect(self.on_edited)
        variables.changed.connect(self.on_edited)
        code.mode.currentIndexChanged.connect(lambda _: self.on_edited())
        code.addVariableRequested.connect(self.add_variable)

    @property
    def running(self) -> bool:
        """Whether a sandbox run is under way."""
        return self.cancel_token is not None

    def problem(self) -> Problem | None:
        """The work as the studio would optimize it (None while the table does not parse)."""
        try:
            variables = tuple(self.variables.specs())
        except ValueError:
            return None
        return Problem(self.code.source(), variables, self.code.current_mode())

    # -- live re-runs ----------------------------------------------------------------------
    def on_edited(self) -> None:
        """The text, mode or table changed: in expression mode, re-run after a pause."""
        key = (self.code.source(), self.code.current_mode(), self.variables.snapshot())
        if key == self.seen:  # e.g. re-highlighting after a theme change: nothing to re-run
            return
        if not self.seen or key[0] != self.seen[0]:  # the marked line may be another one now
            self.code.editor.clear_error()
            self.code.error_frame.go_button.hide()
        self.seen = key
        if self.code.current_mode() == "expression":
            self._live_later(live_delay(self.last_run_s))

    def _live_later(self, ms: int) -> None:
        # No pause (the last run was quick): the run starts on the next turn, or before the
        # window repaints the keystroke if that comes first, so the worker computes while the
        # window paints. Keys that arrive together (a paste, a test's clicks) make one run.
        if ms > 0:
            self.live_timer.start(ms)
            return
        self.live_timer.stop()
        if self._live_window is None:
            self._live_window = self.code.window()
            self._live_window.installEventFilter(self)
            QTimer.singleShot(0, self, self._live_now)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The window is about to repaint: a queued live re-run starts first."""
        if event.type() == QEvent.Type.UpdateRequest:
            self._live_now()
        return False

    def _live_now(self) -> None:
        if self._live_window is not None:  # (else it ran already: run_code ends the watch)
            self._run_live()

    def _run_live(self) -> None:
        self.run_code(live=True)

    @property
    def live_pending(self) -> bool:
        """Whether a live re-run waits for its pause (or its turn)."""
        return self.live_timer.isActive() or self._live_window is not None

    def mark_seen(self, source: str | None = None, mode: str | None = None) -> None:
        """The work as it is now (or with ``source`` and ``mode``) needs no live re-run."""
        source = self.code.source() if source is None else source
        mode = self.code.current_mode() if mode is None else mode
        self.seen = (source, mode, self.variables.snapshot())

    # -- running ---------------------------------------------------------------------------
    def run_code(self, live: bool = False) -> None:
        """Run the editor's text in the sandbox, then the studio if it is in front.

        The last run's error goes: its mark in the text, and (unless ``live``: a re-run while
        typing, whose result follows at once) the error under the editor.
        """
        self.live_timer.stop()
        if self._live_window is not None:  # a run asked for now is the queued live run too
            self._live_window.removeEventFilter(self)
            self._live_window = None
        if self.cancel_token is not None:  # one run at a time: re-run when this one ends
            self.pending = True
            return
        try:
            variables = self.variables.specs()
        except ValueError as exc:
            self.show_error(str(exc), None, None)
            return
        source, mode = self.code.source(), self.code.current_mode()
        if not source.strip():
            self.status(self.tr("Type a function or paste a script to run."))
            return
        self.code.editor.clear_error()
        if not live:
            self.code.clear_error()
        cancel = CancelToken()
        self.cancel_token = cancel
        self.submitted = Problem(source, tuple(variables), mode)  # what the studio may take
        self.running_changed(True)
        self.status(self.tr("Running…"))
        self._started = time.perf_counter()
        stream = None
        if mode == "script" and self.show_snapshot is not None:
            stream = partial(self._snapshot_arrived, cancel)
        self._keep = OUTPUT_LINES  # (the lines the Output pane is handed)
        workers.submit(_run_job, source, mode, variables, self.limits(), cancel, self.prepare,
                       stream, self._keep, on_done=self._on_run_done,
                       on_error=self._on_run_failed)  # fmt: skip

    def _snapshot_arrived(self, cancel: CancelToken, result: RunResult) -> None:
        """On the thread that decoded it: prepare a snapshot, then hand it to the UI thread."""
        if cancel.cancelled:
            return
        looped = len(result.tapes) >= 2  # (else only its printed lines are shown: see below)
        prepare = self.prepare_snapshot if looped else None
        what = prepare(result) if prepare is not None else None
        tail = last_lines(result.output, self._keep)
        with contextlib.suppress(RuntimeError):  # the window closed meanwhile
            self.snapshotted.emit((cancel, result, what, tail))

    def _on_snapshot(self, payload: tuple[CancelToken, RunResult, Any, str]) -> None:
        cancel, result, what, tail = payload
        if cancel is not self.cancel_token or cancel.cancelled or self.studio_in_front():
            return  # a run that ended or was stopped meanwhile; the studio shows its own
        assert self.show_snapshot is not None
        grows = self.snapshot is not None or self.printed is not None  # (this run's, further)
        if not grows:  # the Output pane shows this run's lines now: not the last one's value
            self.show_value(None)
        if result.figures and self.show_figures is not None:  # what it drew so far
            self.show_figures(result, True)
        if len(result.tapes) < 2:  # printed lines, no loop yet (a numpy loop prints only)
            self.printed = result
            self.output.show(result.output, tail, grows, live=True)
            if result.output or not result.figures:
                self.status(self.tr("Running… %1 lines printed so far")
                            .replace("%1", f"{result.output.count(chr(10)):,}"))  # fmt: skip
            else:
                self.status(self.tr("Running… %1 figures drawn so far")
                            .replace("%1", str(len(result.figures))))  # fmt: skip
            return
        first, self.snapshot = self.snapshot is None, result
        self.output.show(result.output, tail, grows, live=True)
        self.show_snapshot(result, what, first)
        if first:  # this run's graph now, not the last one's left up dimmed
            self.dim_graph(False)
        self.status(self.tr("Running… %1 tapes so far (the timeline grows as the run goes on)")
                    .replace("%1", f"{len(result.tapes) + result.dropped_tapes:,}"))  # fmt: skip

    def stop(self) -> None:
        """Cancel the running code at its next statement (and forget a queued run)."""
        self.pending = False
        if self.cancel_token is not None:
            self.cancel_token.cancel()
            self.status(self.tr("Stopping…"))

    def _finish_run(self) -> None:
        self.cancel_token, self.snapshot, self.printed = None, None, None
        self.running_changed(False)
        if self.pending:
            self.pending = False
            self.run_code()

    def _on_run_failed(self, text: str) -> None:
        self.show_error(self.tr("Internal error: %1").replace("%1", text), None, None)
        self._finish_run()

    def _on_run_done(self, done: tuple[RunResult, Any, str]) -> None:
        result, prepared, tail = done
        kept = self.snapshot or self.printed  # (None again when the run has ended: _finish_run)
        if kept is not None and result.error is not None and not result.tapes:
            # Stopped, killed or over a limit: what arrived stays, with the run's error.
            result = replace(kept, error=result.error, elapsed=result.elapsed,
                             output=result.output or kept.output,
                             figures=result.figures or kept.figures)  # fmt: skip
            prepared, tail = None, last_lines(result.output, self._keep)
        if prepared is not None and self.prepared is not None:
            self.prepared(result, prepared)  # what the thread pool built for the graph
        self.last_result = result
        self.output.show(result.output, tail, grows=kept is not None)  # (its snapshots' end)
        studio = self.studio_in_front() and result.error is None
        recorded = _recorded(result)
        # Under the studio the graph shows the tape of the studio's step; after an error that
        # came before any op was recorded, the last good graph stays (dimmed), never a blank.
        if not studio and (result.error is None or recorded):
            self.show_tapes(result)
        script = self.submitted is not None and self.submitted.mode == "script"
        self.show_value(out_text(result) if script else None)
        drew = result.error is None or bool(result.figures)  # a failed run keeps the last plots
        if script and drew and self.show_figures is not None:  # (expressions draw no figures)
            self.show_figures(result, False)
        kept_tapes = result.error is not None and result.error.kind == "cancelled" and recorded
        # A run that recorded no tape leaves the last run's graph up, dimmed: not this code's.
        stale = not studio and result.error is None and not result.tapes
        self.dim_graph(stale or (result.error is not None and not kept_tapes))  # (a Stop's stay)
        if result.error is not None:
            err = result.error
            if err.kind == "cancelled":  # the user's own Stop: news, not a failure
                self.code.show_error(describe(err), err.line, err.col)
                kept = self.tr("the %1 tape(s) recorded until then are kept.")
                kept = kept.replace("%1", f"{len(result.tapes):,}") if kept_tapes else ""
                self.status("; ".join(t for t in (describe(err).splitlines()[0], kept) if t))
            else:
                self.show_error(describe(err), err.line, err.col, unknown_name(err))
        else:
            self.code.clear_error()
            ran = (
                self.tr("Ran in %1 ms; %2 tape(s) recorded.")
                .replace("%1", f"{result.elapsed * 1e3:,.0f}")
                .replace("%2", f"{len(result.tapes):,}")  # (100,000: as the timeline counts)
            )
            notes = [translated(n) for n in result.notes[:3]]  # what tapeviz read differently
            self.status("  ".join([ran, *notes]))
        if studio and not self.pending:  # edited meanwhile: the queued run starts the studio
            self.start_studio(self.submitted)
        self.last_run_s = time.perf_counter() - self._started
        self._finish_run()

    def show_error(
        self, message: str, line: int | None, col: int | None, unknown: str | None = None
    ) -> None:
        """Mark an error in the code pane and the status line (``unknown``: a name to add)."""
        self.code.show_error(message, line, col, unknown)
        self.error(message.splitlines()[0])

    def add_variable(self, name: str) -> None:
        """The error frame's "Add as a variable": a new trainable row ``name``, and run."""
        if name not in [s[0] for s in self.variables.snapshot()]:
            self.variables.add_row(name, ADDED_VALUE)
        self.run_code()
