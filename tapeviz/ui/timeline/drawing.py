"""A big loop's plots drawn a part per event-loop turn, so the window answers between them.

Drawing the three plots of a 100,000-step loop and repainting them took the UI thread 30-50 ms
in one pass of the event loop (each plot's series ~3-5 ms, its repaint ~5 ms). A streamed run
draws them at every snapshot. :class:`Drawing` runs the parts (:meth:`~tapeviz.ui.timeline.
plots.TimelinePlots.draw_parts`) one per turn (:func:`~tapeviz.ui.turns.later`): each plot is
drawn and repainted on a pass of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject

from tapeviz.ui.turns import later


class Drawing:
    """Runs a drawing's parts one per turn; a newer drawing (or :meth:`stop`) drops the rest.

    ``after`` runs after each part (the cursor drawn on the plot just drawn).
    """

    def __init__(self, owner: QObject, after: Callable[[], None]) -> None:
        self.owner, self.after = owner, after
        self._generation = 0
        self._left: list[Callable[[], None]] = []  # the parts still waiting, the next one last

    @property
    def pending(self) -> bool:
        """Whether parts wait for their turn."""
        return bool(self._left)

    def start(self, parts: Sequence[Callable[[], None]]) -> None:
        """Run ``parts`` in order, each on a turn of its own (the first on the next turn)."""
        self.stop()
        generation, left = self._generation, list(reversed(parts))
        self._left = left

        def step() -> None:
            if generation != self._generation or not left:
                return  # replaced, stopped or finished meanwhile
            left.pop()()
            self.after()
            if left:
                later(step, self.owner)

        if left:
            later(step, self.owner)

    def finish(self) -> None:
        """Run the parts still waiting, now (an export takes the plots next)."""
        left = self._left
        self.stop()
        if left:
            while left:
                left.pop()()
            self.after()

    def stop(self) -> None:
        """Drop the parts still waiting."""
        self._generation += 1
        self._left = []
