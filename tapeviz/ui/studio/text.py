"""The studio's status sentences: a race's summary and each divergence, translated."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from tapeviz.models.descent.divergence import ADVICE, REASONS
from tapeviz.models.descent.runs import Race
from tapeviz.ui.messages import translated

translate = QCoreApplication.translate  # lupdate reads translate("OptimizationStudio", "…")
METHODS = {
    "batched": QT_TRANSLATE_NOOP("OptimizationStudio", "batched replay"),
    "replay": QT_TRANSLATE_NOOP("OptimizationStudio", "replay"),
    "eager": QT_TRANSLATE_NOOP("OptimizationStudio", "a fresh tape every step"),
}


def summary(race: Race, linear_instead_of_log: bool) -> str:
    """``4 run(s) of 2,000 steps computed in 0.14 s (batched replay).`` and what went wrong."""
    n = len(race.runs)
    # fmt: off
    # one line: pyside6-lupdate misses a numerus translate() split over lines
    template = translate("OptimizationStudio", "%n run(s) of {steps} steps computed in {seconds} s ({method}).", None, n)  # noqa: E501
    # fmt: on
    text = template.format(
        steps=f"{race.steps:,}",
        seconds=f"{race.elapsed:.2g}",  # 0.18, 0.0031: never "0.00 s"
        method=translate("OptimizationStudio", METHODS.get(race.method, race.method)),
    )
    if linear_instead_of_log:
        text += " " + translate(
            "OptimizationStudio", "The loss axis is linear: log scale needs positive losses."
        )
    if race.notes:  # (a variable that gets no gradient, a loss re-traced every step)
        said = "; ".join(translated(n) for n in race.notes)
        text += " " + translate("OptimizationStudio", "Note: {notes}.").format(notes=said)
    diverged = [i for i, h in enumerate(race.runs) if h.divergence is not None]
    if diverged:
        text += " " + explanation(race, diverged[0])
    return text


def explanation(race: Race, run: int) -> str:
    """A run's divergence explained (its sentences translated), or '' if it did not diverge."""
    h = race.runs[run]
    d = h.divergence
    if d is None:
        return ""
    parts = [REASONS[d.reason]] + ([ADVICE[d.advice]] if d.advice else [])
    text = " ".join(translate("OptimizationStudio", p).format(**d.fields) for p in parts)
    return translate("OptimizationStudio", "Run {index} ({title}): {explanation}").format(
        index=run + 1, title=h.run.title, explanation=text
    )
