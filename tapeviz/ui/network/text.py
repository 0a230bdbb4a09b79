"""The Network view's sentences: a refused setting, a diverged run, the training speed.

A divergence is explained as the studio explains one (its advice sentence and translation):
the step whose loss or weights were not finite, and with λmax at the first weights, lr
against 2/λmax.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QCoreApplication

from tapeviz.models.descent.divergence import ADVICE
from tapeviz.models.descent.optimizer_config import short_number
from tapeviz.sandbox import RunResult, TapeInfo
from tapeviz.ui.network.frames import Frame, RunFrame, StepTape

translate = QCoreApplication.translate  # lupdate reads translate("NetworkPanel", "…")


def refused(message: str) -> str:
    """The sentence for a refused setting: not applied, the last good settings stay."""
    return translate("NetworkPanel", "Not applied: %1. The last good settings stay.").replace(
        "%1", message.rstrip(".")
    )


def divergence(run: RunFrame, start_curvature: float | None) -> str:
    """Why run ``run`` stopped (its loss was not finite at step N), or '' if it did not."""
    if run.diverged_at is None:
        return ""
    parts = [translate("NetworkPanel", "Diverged at step %1: the loss or the new weights were "
                       "not finite numbers.").replace("%1", f"{run.diverged_at:,}")]  # fmt: skip
    lam = start_curvature
    if lam is not None and math.isfinite(lam) and lam > 0:
        parts.append(translate("OptimizationStudio", ADVICE["local"]).format(
            lam=short_number(lam), lr=short_number(run.learning_rate),
            limit=short_number(2 / lam)))  # fmt: skip
    text = " ".join(parts)
    return f"{run.label}: {text}"


def all_diverged() -> str:
    """Play refused: nothing left to train."""
    return translate("NetworkPanel", "Every run has diverged: reset, or lower the learning rate")


def speed(frame: Frame, run: RunFrame) -> str:
    """``step 1,234 · 850 steps/s``: the tooltip of the epoch counter."""
    out = translate("NetworkPanel", "step %1").replace("%1", f"{run.step:,}")
    if frame.steps_per_s > 0:
        out += " · " + translate("NetworkPanel", "%1 steps/s").replace(
            "%1", f"{frame.steps_per_s:,.0f}"
        )
    return out


def run_result(step: StepTape) -> RunResult:
    """A step's tape as a run result the window's graph and stepper read (named by its step)."""
    name = f"step_{step.step}"
    info = TapeInfo(step.tape, (name,), 0)
    return RunResult(output="", tapes=(info,), namespace=dict(step.names), value=None,
                     elapsed=0.0, error=None)  # fmt: skip


def cramped() -> str:
    """Said when the docks leave the network too little room to read its neurons."""
    return translate(
        "NetworkPanel",
        "Tip: the network is drawn small here. Clean mode (Ctrl+Shift+H) gives it the whole "
        "window.",
    )


def forked() -> str:
    """Said when a Playground setting is changed while the script's fit is shown."""
    return translate(
        "NetworkPanel",
        "Playground now trains your script's network and points with its own settings (square "
        "loss, the optimizer above). Run the script again to see its fit.",
    )


def recorded_weights() -> str:
    """Said when a weight of the script's fit is clicked for editing."""
    return translate(
        "NetworkPanel",
        "These are the weights your script's fit recorded: change a setting to let Playground "
        "train this network, then edit its weights.",
    )
