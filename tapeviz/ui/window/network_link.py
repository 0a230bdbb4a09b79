"""The Network view and the Timeline tab on one script's fit: the same step in both.

After an editor run the Network view is offered the run's timelines
(:meth:`~tapeviz.ui.network.script_mode.ScriptMode.offer_script`); while it shows a script's fit,
the Timeline's cursor moves the view's, and where the view's replay rests the Timeline goes
(which shows that step's tape in the graph and the backward pass).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QObject

from tapeviz.ui.network.panel import NetworkPanel
from tapeviz.ui.timeline.panel import TimelinePanel


class NetworkLink(QObject):
    """Keeps ``network``'s script step and ``timeline``'s cursor together."""

    def __init__(self, network: NetworkPanel, timeline: TimelinePanel, parent: QObject) -> None:
        super().__init__(parent)
        self.network, self.timeline = network, timeline
        self._moving = False  # one of the two is following the other
        network.scriptStep.connect(self._on_network_script_step)
        timeline.stepChanged.connect(self._on_timeline_step_changed)

    def offer(self, timelines: Sequence[Any]) -> None:
        """A finished editor run's timelines (its fit, if any, goes to the Network view)."""
        self.network.offer_script(timelines)

    def _script_index(self) -> int | None:
        net = self.network.script
        if net is None:
            return None
        for i, tl in enumerate(self.timeline.timelines):
            if tl.number == net.timeline:
                return i
        return None

    def _on_timeline_step_changed(self, k: int) -> None:
        net, shown = self.network.script, self.timeline.timeline
        if self._moving or net is None or shown is None or shown.number != net.timeline:
            return
        if self.network.playing:
            return  # the replay leads; it tells the Timeline where it rests
        self._moving = True
        try:
            self.network.show_script_step(k)
        finally:
            self._moving = False

    def _on_network_script_step(self, k: int) -> None:
        index = self._script_index()
        if self._moving or index is None:
            return
        self._moving = True
        try:
            shown = self.timeline.timeline
            if shown is None or shown.number != self.network.script.timeline:  # type: ignore[union-attr]
                self.timeline.select(index, k)
            else:
                self.timeline.set_step(k)
        finally:
            self._moving = False
