"""What a rebuilt window (a language switch) takes back from the one it replaces, as data.

The graph's zoom (fitted, or the lecturer's zoom and place), the tape and ``gradient()`` call
shown, and the chain-rule panel (mode, position, predict mode, the front tab, the speed). The
new window gets it before its first run and applies it once that run's tapes are shown.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject

from tapeviz.models.graph.model import GraphModel
from tapeviz.ui.graph.view import GraphView
from tapeviz.ui.stepper.panel import StepperPanel


class CarriedView(QObject):
    """The view state of ``model``, ``graph`` and ``stepper``: read it, carry it, apply it."""

    def __init__(self, model: GraphModel, graph: GraphView, stepper: StepperPanel) -> None:
        super().__init__(graph)
        self.model, self.graph, self.stepper = model, graph, stepper
        self.pending: dict[str, Any] | None = None  # carried, not applied yet

    def view_state(self) -> dict[str, Any]:
        """The graph's fit, the tape and gradient() call shown, the stepper's state."""
        entry = self.model.entry
        return {"graph": self.graph.view_state(), "stepper": self.stepper.view_state(),
                "tape": self.model.current, "call": entry.call if entry else -1}  # fmt: skip

    def carry_view(self, state: dict[str, Any]) -> None:
        """Show the next run's graph as ``state`` (a :meth:`view_state`) says."""
        self.pending = dict(state)

    def apply(self, editor_run: bool) -> None:
        """A run's tapes are shown: apply the carried state (kept while the graph has none).

        The tape and the stepper's part go only to the editor's run, not a studio step's tape.
        """
        if not self.model.entries:  # (still built in the pool: applied when the run ends)
            return
        carried, self.pending = self.pending, None
        if carried is None:
            return
        tape, call = int(carried.get("tape", -1)), int(carried.get("call", -1))
        if editor_run and 0 <= tape < len(self.model.entries):
            calls = len(self.model.entries[tape].passes)
            self.model.select(tape, call if 0 <= call < calls else None)
            self.stepper.restore_view_state(carried.get("stepper", {}))
        self.graph.restore_view_state(carried.get("graph", {}))
