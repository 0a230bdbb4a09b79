"""The Network view's exports: an animation (GIF, MP4) of its epochs, a picture, the losses.

The animation films the view's network and output (the data column included, as Playground
shows them) with the shared exporter (:class:`~tapeviz.ui.plots.export.AnimationExport`): its
cursor is :class:`NetworkFilm`, which draws epoch ``k`` of every run from the trainers' exact
weights at that epoch (kept by their snapshots; the training thread is paused meanwhile), or
step ``k`` of a script's fit. Nothing is trained for a frame; the view is drawn as it was after.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtWidgets import QFileDialog

from tapeviz.models.network.datasets import every_other
from tapeviz.ui.network.frames import Frame, RunFrame, copy_weights
from tapeviz.ui.network.script_mode import frame_at
from tapeviz.ui.network.trainer_thread import OUTPUT_GRID
from tapeviz.ui.plots import export as plots

translate = QCoreApplication.translate
KINDS = ("gif", "mp4", "png", "csv")


def playground_frame(thread: Any, epoch: int, generation: int) -> Frame:
    """Every run at the end of ``epoch`` (or where it stopped), drawn from exact weights."""
    runs, layers = [], ()
    for k, t in enumerate(thread.trainers):
        step = max(min(epoch * t.steps_per_epoch, t.step), t.first_step)
        flat = t.flat_at(step)
        maps = t.grid_outputs(OUTPUT_GRID, flat)
        if k == 0:
            layers = every_other(maps)
        history = [h for h in t.history if h.epoch <= epoch]
        opt = thread.config.train.optimizers[k]
        diverged = t.diverged_at if t.diverged_at is not None and t.diverged_at <= step else None
        runs.append(RunFrame(
            k, opt.label(), opt.kind, min(epoch, t.epoch), step,
            np.array([h.epoch for h in history], np.float64),
            np.array([h.train_loss for h in history], np.float64),
            np.array([h.test_loss for h in history], np.float64),
            copy_weights(t.spec.layout.weights(flat)), maps[-1][0],
            diverged, opt.learning_rate,
        ))  # fmt: skip
    return Frame(generation, tuple(runs), layers, False)


class NetworkFilm(QObject):
    """The exporter's player: epoch ``k`` of the network (or step ``k`` of a script's fit)."""

    busyChanged = Signal(bool)

    def __init__(self, panel: Any) -> None:
        super().__init__(panel)
        self.panel = panel
        self.shown = panel.frame  # drawn again when the export ends
        runs = self.shown.runs if self.shown is not None else ()
        net, trainers = panel.script, panel.thread.trainers
        # (a session resumed at epoch n knows no weights before it: the film starts there)
        self.first = min((t.first_step // t.steps_per_epoch for t in trainers), default=0)
        if net is not None:
            self.first, self.length, self.k = 0, net.steps, panel.script_k
        else:
            self.length = max((t.epoch for t in trainers), default=0) - self.first
            self.k = (runs[0].epoch if runs else 0) - self.first
        self.busyChanged.connect(self._on_busy_changed)

    def pause(self) -> None:
        """Training (or the replay) stops while the frames render."""
        self.panel.pause()

    def show_step(self, k: int) -> None:
        """Draw epoch (or script step) ``k``."""
        self.k = int(k)
        p = self.panel
        if p.script is not None:
            frame = frame_at(p.script, self.k, p._script_generation, False)
        else:
            frame = playground_frame(p.thread, self.first + self.k, p.built.generation)
        p._draw(frame)

    def set_step(self, k: int) -> None:
        """As :meth:`show_step` (nothing follows this cursor)."""
        self.show_step(k)

    def show_status(self, text: str) -> None:
        """The panel's message line."""
        self.panel.show_message(text)

    def _on_busy_changed(self, busy: bool) -> None:
        if not busy and self.shown is not None:  # the view as it was before the export
            self.panel._draw(self.shown)


def write_csv(panel: Any, path: Path) -> Path:
    """Per epoch, every run's training and test loss (a script's fit: its History)."""
    net, frame = panel.script, panel.frame
    with path.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        if net is not None:
            keys = list(net.history)
            out.writerow(["epoch", *keys])
            for e in range(len(net.starts)):
                out.writerow([e + 1, *(repr(float(net.history[k][e])) for k in keys)])
            return path
        runs = frame.runs if frame is not None else ()
        out.writerow(["epoch", *(f"{r.label} {w}" for r in runs for w in ("train", "test"))])
        longest = max((len(r.epochs) for r in runs), default=0)
        for i in range(longest):
            row: list[Any] = [i]
            for r in runs:
                row += [repr(float(r.train_loss[i])), repr(float(r.test_loss[i]))] if i < len(
                    r.epochs) else ["", ""]  # fmt: skip
            out.writerow(row)
    return path


def export(panel: Any, kind: str, path: str | Path | None = None, **options: Any) -> Any:
    """Ask for a file name if none is given, then write ``kind`` (an animation: its exporter)."""
    if kind not in KINDS:
        raise ValueError(f"unknown export {kind!r}: choose one of {', '.join(KINDS)}")
    if panel.built is None or panel.frame is None:
        return None
    if path is None:
        chosen, _ = QFileDialog.getSaveFileName(
            panel, translate("OptimizationStudio", "Export"), f"network.{kind}", plots.FILTERS[kind]
        )
        if not chosen:
            return None
        path = chosen
    path = Path(path)
    try:
        if kind == "csv":
            out: Any = write_csv(panel, path)
        elif kind == "png":
            out = plots.write_still("png", panel.stage, path, panel.theme.background,
                                    "tapeviz network")  # fmt: skip
        else:
            film = NetworkFilm(panel)
            out = plots.AnimationExport(film, panel.stage, film.length, path, kind, **options)
            out.start()
            return out
    except (OSError, ValueError) as exc:
        panel.show_message(
            "⚠ " + translate("OptimizationStudio", "Export failed: {error}").format(error=exc)
        )
        return None
    panel.show_message(translate("OptimizationStudio", "Exported {name}.").format(name=out.name))
    return out
