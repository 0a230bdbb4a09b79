"""The notes tapeviz writes beside a run's output, as message templates (see :mod:`messages`).

A note is advice, not an error: legal code that probably does not do what was meant, or what
tapeviz did differently (a notebook's IPython line skipped, a figure kept instead of saved).
They cross the process wall as codes and fields, so the window says them in its language.
Registered when :mod:`tapeviz.sandbox` is imported.
"""

from __future__ import annotations

from tapeviz.sandbox.messages import QT_TRANSLATE_NOOP, register

TEMPLATES: dict[str, str] = {
    "note_ipython": QT_TRANSLATE_NOOP(
        "UserCode", "line {line}: {command} is an IPython command; tapeviz skipped it"
    ),
    "note_caret": QT_TRANSLATE_NOOP(
        "UserCode", "^ was read as ** (power); in Python code write x**2"
    ),
    "note_read_as": QT_TRANSLATE_NOOP("UserCode", "{old} was read as {new}"),
    "note_shape": QT_TRANSLATE_NOOP(
        "UserCode", "the expression has shape {shape}: gradients are of its sum"
    ),
    "note_xor": QT_TRANSLATE_NOOP(
        "UserCode",
        "line {line}: ^ is bitwise xor in Python ({a} ^ {b} = {value}); for a power write {a}**{b}",
    ),
    "note_outside": QT_TRANSLATE_NOOP(
        "UserCode",
        "line {line}: tape.gradient gave None: {target} was computed outside the `with tape:` "
        "block, so the tape never recorded it",
    ),
    "note_unwatched": QT_TRANSLATE_NOOP(
        "UserCode", "line {line}: tape.gradient gave None: {source} was not watched ({why})"
    ),
    "note_independent": QT_TRANSLATE_NOOP(
        "UserCode", "line {line}: tape.gradient gave None: {target} does not depend on {source}"
    ),
    "note_legend": QT_TRANSLATE_NOOP(
        "UserCode", "legend(): no series has a label (plot(..., label='loss'))"
    ),
    "note_style": QT_TRANSLATE_NOOP(
        "UserCode",
        "plt.style.use({style}): the Plots tab follows tapeviz's theme (View → Dark theme)",
    ),
    "note_savefig": QT_TRANSLATE_NOOP(
        "UserCode",
        "savefig({name}) wrote no file: the figure is in the Plots tab, export it from there as "
        "PNG or SVG",
    ),
    "note_no_gradient": QT_TRANSLATE_NOOP(
        "UserCode", "{name} gets no gradient: the loss does not depend on it"
    ),
    "note_retraced": QT_TRANSLATE_NOOP("UserCode", "re-traced every step ({why})"),
}

# Words a note's field may hold (translated with it).
PHRASES = (
    QT_TRANSLATE_NOOP("UserCode", "the target"),
    QT_TRANSLATE_NOOP("UserCode", "the source"),
    QT_TRANSLATE_NOOP("UserCode", "a source"),
    QT_TRANSLATE_NOOP("UserCode", "the tape was created with watch_accessed_variables=False"),
    QT_TRANSLATE_NOOP("UserCode", "it is not trainable"),
    QT_TRANSLATE_NOOP("UserCode", "constants are not watched unless you call tape.watch(x)"),
)

register(TEMPLATES, PHRASES)
