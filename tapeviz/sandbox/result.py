"""What a run hands back: :class:`RunResult` and its :class:`TapeInfo`s (plain data).

A module of its own, light to import: the window reads results (from the worker process)
without loading the interpreter that makes them.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tapeviz.sandbox.errors import UserCodeError

if TYPE_CHECKING:
    from tapeviz.engine.tape import GradientTape
    from tapeviz.sandbox.figures import Figure


@dataclass(frozen=True, slots=True)
class TapeInfo:
    """A GradientTape the code created, with the names it was bound to (in creation order)."""

    tape: GradientTape
    names: tuple[str, ...]
    index: int

    @property
    def name(self) -> str:
        """The first name the tape was bound to, or ``tape #k``."""
        return self.names[0] if self.names else f"tape #{self.index + 1}"


@dataclass(frozen=True)
class RunResult:
    """Everything a run produced; ``error`` is None when the code ran to the end."""

    output: str
    tapes: tuple[TapeInfo, ...]
    namespace: dict[str, Any]
    value: Any
    elapsed: float
    error: UserCodeError | None
    notes: tuple[str, ...] = ()
    gradients: dict[str, Any] = field(default_factory=dict)
    dropped_tapes: int = 0
    # (offset, tapes): the output from ``offset`` on was written once ``tapes`` tapes had been
    # created (``print`` and ``tf.print`` alike); offsets and counts never decrease.
    output_marks: tuple[tuple[int, int], ...] = ()
    figures: tuple[Figure, ...] = ()  # what the code drew with matplotlib.pyplot, as data

    def tape_names(self) -> list[str]:
        """Each tape's first name (``tape #k`` if none); a received run reads its columns."""
        names = getattr(self.tapes, "first_names", None)
        return names() if names is not None else [info.name for info in self.tapes]

    def tape_ops(self) -> list[int]:
        """How many ops each tape recorded; a received run reads its columns (no tape made)."""
        counts = getattr(self.tapes, "op_counts", None)
        if counts is not None:
            return counts()  # type: ignore[no-any-return]
        return [len(t) if hasattr(t, "__len__") else len(t.records)
                for t in (info.tape for info in self.tapes)]  # fmt: skip

    def tapes_at(self, offset: int) -> int:
        """How many tapes had been created when the output's character ``offset`` was written."""
        k = bisect.bisect_right(self.output_marks, (offset, math.inf)) - 1
        return self.output_marks[k][1] if k >= 0 else 0

    @property
    def ok(self) -> bool:
        """Whether the code ran without an error."""
        return self.error is None
