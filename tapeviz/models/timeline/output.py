"""Printed lines linked to steps: each line knows how many tapes existed when it was written.

The sandbox notes, for every piece of output, how many tapes the run had created by then
(``RunResult.output_marks``; ``print`` and ``tf.print`` alike). A line written once tape t was
the newest belongs to the step that recorded tape t: ``tf.print`` inside the loop body after
the tape, and a final print after the loop (the last step). Lines are split at newlines only,
as the output pane shows them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tapeviz.models.timeline.timeline import Timeline


def line_starts(text: str) -> np.ndarray:
    """Where each line of ``text`` starts, and after its final newline if it ends with one."""
    codes = np.frombuffer(text.encode("utf-32-le"), np.uint32)  # (one code per character)
    return np.concatenate([[0], np.flatnonzero(codes == 10) + 1]).astype(np.int64)


class OutputLines:
    """The lines of a run's output, each with the number of tapes created when it began."""

    def __init__(self, output: str, marks: Sequence[tuple[int, int]]) -> None:
        starts = line_starts(output)
        if not output or output.endswith("\n"):
            starts = starts[:-1]  # no line begins after the final newline
        self.starts = starts
        self.text = output
        offsets = np.array([m[0] for m in marks], np.int64)
        counts = np.array([m[1] for m in marks], np.int64)
        k = np.searchsorted(offsets, starts, side="right") - 1
        self.tapes = np.where(k >= 0, counts[np.maximum(k, 0)], 0) if len(counts) else 0 * starts

    @property
    def count(self) -> int:
        """How many lines."""
        return len(self.starts)

    def line(self, i: int) -> str:
        """Line ``i``'s text (without its newline)."""
        end = int(self.starts[i + 1]) - 1 if i + 1 < len(self.starts) else len(self.text)
        return self.text[int(self.starts[i]) : end].rstrip("\n")

    def steps(self, timeline: Timeline) -> np.ndarray:
        """Every line's step of ``timeline`` (-1: written outside the loop)."""
        newest = self.tapes - 1
        loop = timeline.loop
        inside = (newest >= loop.start) & (newest < loop.stop)
        return np.where(inside, (newest - loop.start) // loop.period, -1)


class LineSteps:
    """One timeline's line ↔ step links (what the output pane's clicks and highlight use)."""

    def __init__(self, lines: OutputLines, timeline: Timeline) -> None:
        self.lines = lines
        self.by_line = lines.steps(timeline)

    def step_of(self, line: int) -> int | None:
        """The step that wrote line ``line`` (None: not this loop's, or no such line)."""
        if not 0 <= line < len(self.by_line):
            return None
        k = int(self.by_line[line])
        return k if k >= 0 else None

    def lines_of(self, step: int) -> np.ndarray:
        """The lines step ``step`` wrote, in order."""
        return np.flatnonzero(self.by_line == step)

    def marked_steps(self) -> np.ndarray:
        """The steps that wrote a line (ascending, each once)."""
        return np.unique(self.by_line[self.by_line >= 0])
