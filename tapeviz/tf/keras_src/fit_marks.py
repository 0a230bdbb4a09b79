"""Which tapes a Keras ``fit`` recorded, kept on the tapes as plain data for the timeline.

Every tape a ``train_step`` records inside ``fit`` gets a :class:`FitMark` (``tape.fit_mark``):
which ``fit`` call of the run (numbered by its first tape), the epoch, the batch within the
epoch and the tape's place among that step's tapes. The last tape of each epoch also gets the
epoch's logs as ``History`` saw them (``tape.fit_logs``: ``{"loss": 0.3, "val_loss": 0.4}``).
The sandbox sends both across the process wall like torch's ``op_labels``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from tapeviz.engine.state import STATE

__all__ = ["FIT_LOGS", "FIT_MARK", "FitMark", "FitTagger", "numeric_logs"]

FIT_MARK = "fit_mark"  # the tape attribute holding a FitMark
FIT_LOGS = "fit_logs"  # the tape attribute holding an epoch's logs (its last tape only)
MAX_LOGS = 100  # log entries kept per epoch


class FitMark(NamedTuple):
    """Where a tape sits in a ``fit``: call, epoch (from 0), batch (from 0), tape of the step."""

    fit: int
    epoch: int
    step: int
    part: int


def numeric_logs(logs: Mapping[str, Any]) -> dict[str, float]:
    """The logs' numbers as floats (names cut to 100 characters; other values left out)."""
    out: dict[str, float] = {}
    for k, v in list(logs.items())[:MAX_LOGS]:
        try:
            value = float(v)
        except (TypeError, ValueError):
            continue
        if isinstance(k, str):
            out[k[:100]] = value
    return out


class FitTagger:
    """Marks the tapes one ``fit`` call records (only where the sandbox collects tapes)."""

    def __init__(self, describe: Callable[[], Any] | None = None) -> None:
        created = STATE.created  # (no counter of our own: a run must leave no state behind)
        self.fit = len(created) + 1 if created is not None else 0  # its first tape, from 1
        self.last: Any = None  # the last tape of the current epoch
        self.describe = describe  # the Network view's description, put on the first tape

    def step(self, epoch: int, step: int, run: Callable[[], Any]) -> Any:
        """Run one train step and mark the tapes it created; returns what ``run`` returned."""
        created = STATE.created
        before = len(created) if created is not None else 0
        out = run()
        if created is not None:
            for part, tape in enumerate(created[before:]):
                try:
                    setattr(tape, FIT_MARK, FitMark(self.fit, epoch, step, part))
                except AttributeError:  # a recorder that takes no attributes
                    continue
                self.last = tape
                self._describe(tape)
        return out

    def _describe(self, tape: Any) -> None:
        """Put the Network view's description on the fit's first tape (once the model is built)."""
        describe, self.describe = self.describe, None
        if describe is None:
            return
        from tapeviz.tf.keras_src.fit_net import FIT_NET

        try:
            doc = describe()
        except Exception as exc:  # the view cannot draw it: say why, never break the fit
            doc = {"reason": f"{type(exc).__name__}: {exc}"[:300]}
        with contextlib.suppress(AttributeError):
            setattr(tape, FIT_NET, doc)

    def epoch_end(self, logs: Mapping[str, Any]) -> None:
        """The epoch's logs (as History records them) on the epoch's last tape."""
        if self.last is not None:
            with contextlib.suppress(AttributeError):
                setattr(self.last, FIT_LOGS, numeric_logs(logs))
        self.last = None
