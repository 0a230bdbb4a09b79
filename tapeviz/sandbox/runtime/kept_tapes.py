"""The run's tapes as the runner keeps them: all up to a cap, then only the newest one.

A training loop records a tape per step, and each keeps its ops' values. Real torch frees a
step's graph after ``backward()``; tapeviz keeps them for the timeline, so a long loop over
medium tensors (the PyTorch tutorial's 30,000-step polynomial fit over 2,000 points: ~100 KB a
step) would grow past the memory limit and fail. :class:`KeptTapes` is the list the engine adds
each new tape to: past ``cap`` a finished tape in the last slot is replaced by the next one, so
the run goes on in constant memory and the result says how many tapes were not kept. ``cap``
starts at the ``max_tapes`` limit; the budget lowers it when the kept tapes' values reach half
the memory limit (:func:`held_bytes`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tapeviz.engine import core

__all__ = ["KeptTapes", "held_bytes"]


class KeptTapes(list):  # type: ignore[type-arg]
    """Tapes in creation order: ``cap`` of them kept, plus the newest; ``total`` counts all."""

    def __init__(self, cap: int) -> None:
        super().__init__()
        self.cap = cap
        self.total = 0

    def append(self, tape: Any) -> None:
        """Add a new tape; past the cap, the finished tapes after the kept ones are let go.

        Only tapes still recording stay there (an outer tape around each step's inner one).
        """
        self.total += 1
        if len(self) > self.cap:
            recording = [t for t in self[self.cap :] if not _finished(t)]
            del self[self.cap :]
            self.extend(recording)
        super().append(tape)

    def kept(self, finished_only: bool = False) -> tuple[list[Any], int]:
        """The tapes kept in the result and how many counted ones are not.

        ``finished_only`` leaves the newest out (it may still be recording).
        """
        tapes = self[:-1] if finished_only else self
        count = self.total - 1 if finished_only and self else self.total
        keep = tapes[: self.cap]
        return keep, max(count - len(keep), 0)


def _finished(tape: Any) -> bool:
    state = core.STATE
    return not any(t is tape for t in state.active) and not any(t is tape for t in state.entered)


def held_bytes(tapes: Iterable[Any]) -> int:
    """The bytes of the values the tapes' records hold (each array counted once)."""
    seen: dict[int, None] = {}
    total = 0
    for tape in tapes:
        rows = getattr(tape, "rows", None)  # (read as kept: no record made for the tape to keep)
        for rec in rows() if rows is not None else getattr(tape, "records", ()):
            for t in (*rec.inputs, *rec.outputs):
                v = getattr(t, "_value", None)
                if id(v) not in seen:
                    seen[id(v)] = None
                    total += int(getattr(v, "nbytes", 0))
    return total
