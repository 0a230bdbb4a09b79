"""The timeline's sentences, translated: a loop's summary and its divergence explained."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from tapeviz.models.timeline.divergence import LoopDivergence
from tapeviz.models.timeline.timeline import Timeline

translate = QCoreApplication.translate  # lupdate reads translate("Timeline", "…")


def explanation(d: LoopDivergence) -> str:
    """The divergence's sentences, each translated in its context, then filled in."""
    return " ".join(translate(context, template).format(**fields)
                    for context, template, fields in d.sentences)  # fmt: skip


def title(tl: Timeline) -> str:
    """``Loop 2: 1,000 steps (tapes 201–1,200)``."""
    first, last = tl.loop.start + 1, tl.loop.stop
    return translate("Timeline", "Loop {n}: {steps} steps (tapes {first}–{last})").format(
        n=tl.number, steps=f"{tl.steps:,}", first=f"{first:,}", last=f"{last:,}"
    )


def summary(tl: Timeline) -> str:
    """What the loop recorded and whether it diverged, for the status line."""
    text = translate("Timeline", "{title}; each step records {period} tape(s).").format(
        title=title(tl), period=tl.loop.period
    )
    if tl.divergence is not None:
        text += " " + explanation(tl.divergence)
    return text
