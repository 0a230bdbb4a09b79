"""The timeline's sentences, translated: a loop's summary and its divergence explained."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from tapeviz.models.timeline.divergence import LoopDivergence
from tapeviz.models.timeline.fits import Epochs
from tapeviz.models.timeline.timeline import Timeline
from tapeviz.sandbox.runtime.limits import Limits

translate = QCoreApplication.translate  # lupdate reads translate("Timeline", "…")


def explanation(d: LoopDivergence) -> str:
    """The divergence's sentences, each translated in its context, then filled in."""
    return " ".join(translate(context, template).format(**fields)
                    for context, template, fields in d.sentences)  # fmt: skip


def title(tl: Timeline) -> str:
    """``Loop 2: 1,000 steps (tapes 201–1,200)``; a Keras fit says its epochs."""
    first, last = tl.loop.start + 1, tl.loop.stop
    fields = {"n": tl.number, "steps": f"{tl.steps:,}", "first": f"{first:,}", "last": f"{last:,}"}
    if tl.epochs is not None:
        return translate(
            "Timeline", "Loop {n}: Keras fit, {epochs} epochs, {steps} steps (tapes {first}–{last})"
        ).format(epochs=f"{tl.epochs.count:,}", **fields)
    return translate("Timeline", "Loop {n}: {steps} steps (tapes {first}–{last})").format(**fields)


def epoch_of_step(epochs: Epochs, k: int) -> str:
    """``epoch 3 of 10, batch 2 of 4`` (Keras counts both from 1)."""
    e = epochs.of_step(k)
    return translate("Timeline", "epoch {e} of {n}, batch {b} of {m}").format(
        e=int(epochs.numbers[e]) + 1, n=int(epochs.numbers[-1]) + 1,
        b=int(epochs.batches[k]) + 1, m=epochs.steps_in(e),
    )  # fmt: skip


def summary(tl: Timeline) -> str:
    """What the loop recorded and whether it diverged, for the status line."""
    text = translate("Timeline", "{title}; each step records {period} tape(s).").format(
        title=title(tl), period=tl.loop.period
    )
    if tl.divergence is not None:
        text += " " + explanation(tl.divergence)
    return text


def not_kept(kept: int, dropped: int) -> str:
    """`` The run kept 4,487 tapes and recorded 5,513 more after them: …`` ("" for none).

    Said by the last loop's status line too: the status bar's note is gone once another
    message takes its place.
    """
    if not dropped:
        return ""
    return " " + translate(
        "Timeline",
        "The run kept {kept} tapes and recorded {n} more after them: a run keeps {most} tapes "
        "at most, fewer once their values fill half its memory limit (set in Preferences).",
    ).format(kept=f"{kept:,}", n=f"{dropped:,}", most=f"{Limits.max_tapes:,}")
