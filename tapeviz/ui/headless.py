"""``tapeviz export``: render a preset or session to files without a window (Qt offscreen).

Studio sessions (view ``studio``) compute their race exactly as the window does and export the
animation (GIF, MP4), the plots (PNG, SVG) and the histories (CSV). Script sessions whose loop
records a tape per step export the same kinds from the loop's timeline (``--loop`` picks one of
several; the CSV holds its per-step series). The code runs in the worker process, as in the
window. Every session can export its computational graph (``--graph-png``, ``--graph-svg``,
``--dot``): for a studio session the tape of the selected run at ``--step``, for a loop the
tapes of its step ``--step``, otherwise the last tape the code recorded.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO


def QApplicationInstance() -> Any:
    """The running QApplication, if any (importing Qt does not create one)."""
    from PySide6.QtWidgets import QApplication

    return QApplication.instance()


STUDIO_KINDS = ("gif", "mp4", "png", "svg", "csv")
GRAPH_KINDS = ("graph_png", "graph_svg", "dot")
TIMEOUT_MS = 600_000
TICK_S = 0.5  # an animation renders this long between event loop turns: no window to repaint


class ExportError(RuntimeError):
    """Why an export cannot be made, for stderr."""


@dataclass
class ExportRequest:
    """What to export: the session and one path per kind (``gif``, ``graph_svg``, …)."""

    session: Any  # tapeviz.models.session.file.Session
    outputs: dict[str, Path] = field(default_factory=dict)
    step: int | None = None  # None: the last step
    frames: int | None = None
    width: int | None = None
    loop: int = 1  # which loop of a script session (from 1)


def _quiet_qt(kind: Any, context: Any, message: str) -> None:
    """Qt's messages during an export: warnings about the offscreen platform are noise."""
    from PySide6.QtCore import QtMsgType

    if kind in (QtMsgType.QtCriticalMsg, QtMsgType.QtFatalMsg):
        print(f"Qt: {message}", file=sys.stderr)


def _check_writable(path: Path) -> None:
    """ExportError now, before any work, if ``path`` cannot be written."""
    folder = path.parent
    if path.is_dir():
        raise ExportError(f"cannot write {path}: it is a folder")
    if not folder.is_dir():
        raise ExportError(f"cannot write {path}: no folder {folder}")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ExportError(f"cannot write {path}: permission denied")


def _app() -> Any:
    if QApplicationInstance() is None:  # no window, whatever platform the desktop asks for
        from PySide6.QtCore import qInstallMessageHandler

        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        qInstallMessageHandler(_quiet_qt)
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication(["tapeviz-export"])


def _wait(until: Callable[[], bool], what: str) -> None:
    """Process Qt events until ``until()`` holds (ExportError after TIMEOUT_MS).

    It sleeps until the next event (a tick at least every 50 ms) instead of spinning: the
    worker process and the video encoder need the cores.
    """
    from PySide6.QtCore import QDeadlineTimer, QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    flags = QEventLoop.ProcessEventsFlag.AllEvents | QEventLoop.ProcessEventsFlag.WaitForMoreEvents
    tick = QTimer()
    tick.start(50)
    deadline = QDeadlineTimer(TIMEOUT_MS)
    try:
        while not until():
            if deadline.hasExpired():
                raise ExportError(f"timed out waiting for {what}")
            QApplication.processEvents(flags)
    finally:
        tick.stop()


def run_export(request: ExportRequest, log: TextIO | None = None) -> list[Path]:
    """Make every requested file; returns the paths written (ExportError if one cannot be)."""
    log = log or sys.stdout
    for path in request.outputs.values():
        _check_writable(path)
    app = _app()
    studio_kinds = [k for k in request.outputs if k in STUDIO_KINDS]
    session = request.session
    written: list[Path] = []
    result, step_tapes = None, None
    if session.view == "studio" and session.optimizer is not None:
        studio = _studio(session, request)
        try:
            for kind in studio_kinds:
                written.append(_studio_export(studio, kind, request))
                print(f"wrote {written[-1]}", file=log)
            if any(k in GRAPH_KINDS for k in request.outputs):
                run = min(studio.config().selected, len(studio.race.runs) - 1)
                result = studio.race.tape_at(run, studio.k)
        finally:
            studio.shutdown()
            studio.deleteLater()
    else:
        from tapeviz.sandbox.process.isolated import run_isolated

        result = run_isolated(session.source, mode=session.mode, variables=list(session.variables))
        if result.error is not None:
            raise ExportError(f"the code stops with an error: {result.error}")
        if studio_kinds or request.step is not None:
            step_tapes = _loop_exports(result, studio_kinds, request, written, log)
    if result is not None:
        for kind in GRAPH_KINDS:
            if kind in request.outputs:
                path = request.outputs[kind]
                written.append(_graph_export(result, kind, path, step_tapes, session.source))
                print(f"wrote {written[-1]}", file=log)
    del app
    return written


def _loop_exports(
    result: Any, kinds: list[str], request: ExportRequest, written: list[Path], log: TextIO
) -> Any:
    """A script's loop exported from its timeline; the StepTapes of ``--step`` (or None)."""
    from tapeviz.models.timeline.output import OutputLines
    from tapeviz.models.timeline.timeline import timelines_of
    from tapeviz.ui.timeline import export as timeline_export
    from tapeviz.ui.timeline.panel import StepTapes, TimelinePanel

    timelines = timelines_of(result)
    if not timelines:
        if not kinds:
            return None  # --step of a script without a loop: the last tape, as before
        raise ExportError(
            f"--{kinds[0]} needs an optimization session (a preset of the group 'Optimizer "
            "surfaces' or 'Seed: …' with an optimizer) or a script whose loop records a tape "
            "per step; this one has neither. Use --graph-png, --graph-svg or --dot for its graph."
        )
    if not 1 <= request.loop <= len(timelines):
        raise ExportError(f"--loop {request.loop}: the script has {len(timelines)} loop(s)")
    panel = TimelinePanel()
    try:
        panel.resize(1400, 520)
        panel.show()
        panel.set_run(timelines, OutputLines(result.output, result.output_marks))
        panel.select(request.loop - 1)
        panel.set_step(panel.length if request.step is None else request.step)
        for kind in kinds:
            options = {k: v for k, v in (("frames", request.frames), ("width", request.width)) if v}
            out = timeline_export.write(panel, kind, request.outputs[kind], **options)
            if kind in ("gif", "mp4"):
                _wait_animation(out, kind)
            written.append(request.outputs[kind])
            print(f"wrote {written[-1]}", file=log)
        tl = panel.timeline
        assert tl is not None
        return StepTapes(tl.step_tapes(panel.k), tl.main, panel.k)
    finally:
        panel.close()
        panel.deleteLater()


def _wait_animation(exporter: Any, kind: str) -> None:
    exporter.tick_s = TICK_S
    outcome: list[str] = []
    exporter.finished.connect(lambda p: outcome.append("ok"))
    exporter.failed.connect(lambda e: outcome.append(e))
    _wait(lambda: bool(outcome), f"the {kind.upper()} animation")
    if outcome[0] != "ok":
        raise ExportError(f"{kind.upper()} export failed: {outcome[0]}")


def _studio(session: Any, request: ExportRequest) -> Any:
    from tapeviz.models.descent.demos import from_session
    from tapeviz.ui.studio.studio import OptimizationStudio

    preset = from_session(session)
    studio = OptimizationStudio()
    try:
        studio.resize(1400, 760)
        studio.show()
        messages: list[str] = []
        studio.statusMessage.connect(messages.append)
        studio.set_config(preset.config, recompute=False)
        studio.set_problem(preset.problem)
        _wait(lambda: not studio.busy, "the optimizer runs")
        if studio.race is None:
            raise ExportError(messages[-1] if messages else "the runs could not be computed")
    except BaseException:
        studio.shutdown()
        studio.deleteLater()
        raise
    last = studio.race.length
    studio.set_step(last if request.step is None else max(0, min(request.step, last)))
    return studio


def _studio_export(studio: Any, kind: str, request: ExportRequest) -> Path:
    from tapeviz.ui.studio import export as studio_export

    path = request.outputs[kind]
    options = {k: v for k, v in (("frames", request.frames), ("width", request.width)) if v}
    if kind in ("gif", "mp4"):
        studio.hide()  # laid out; no one watches: frames are rendered, not also painted
    out = studio_export.export(studio, kind, path, **options)  # raises if it cannot write
    if kind not in ("gif", "mp4"):
        return Path(out)
    _wait_animation(out, kind)
    return path


def _graph_export(result: Any, kind: str, path: Path, step: Any = None, source: str = "") -> Path:
    from tapeviz.models.graph.dot import to_dot
    from tapeviz.models.graph.model import FOLDED_OPS, GraphModel, GraphOptions
    from tapeviz.ui.graph.expression_panel import names_of
    from tapeviz.ui.graph.view import GraphView

    if not result.tapes:
        raise ExportError("the code recorded no tape, so there is no graph to export")
    if step is not None:  # a loop's step: its tapes, the one with the loss selected
        model = GraphModel()
        model.set_tapes(list(step.tapes), names_of(result), current=step.current, source=source)
    else:
        model = GraphModel(list(result.tapes), names_of(result), source=source)  # as the window
    if model.too_large:  # as the window offers: the first and last ops and a summary node
        model.set_options(GraphOptions(max_ops=FOLDED_OPS))
    if kind == "dot":
        path.write_text(to_dot(model), encoding="utf-8")
        return path
    view = GraphView(model)
    view.animation_ms = 0
    view.resize(1200, 800)
    done: list[bool] = []
    view.layoutFinished.connect(lambda: done.append(True))
    try:
        view.rebuild()
        _wait(lambda: bool(done), "the graph layout")
        return view.export_png(path) if kind == "graph_png" else view.export_svg(path)
    finally:
        view.deleteLater()
