"""The Network panel's appearance: theme and presenter scale, the columns' widths, the tip.

A mixin of :class:`~tapeviz.ui.network.panel.NetworkPanel` (it reads the panel's parts).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QTimer

from tapeviz.ui.network import text
from tapeviz.ui.theme import Theme

SMALL_NEURON = 20.0  # px × the presenter scale: a neuron's heat map smaller is hard to read


class PanelAppearance:
    """``restyle``, ``set_theme``, ``set_font_scale`` and the width shared by the columns."""

    theme: Theme
    scale: float
    top: Any
    data_controls: Any
    diagram: Any
    output: Any
    message: Any
    show_message: Callable[[str], None]  # the panel's
    width: Callable[[], int]
    window: Callable[[], Any]
    isVisible: Callable[[], bool]

    def restyle(self, theme: Theme, scale: float) -> None:
        """Theme colours and the presenter scale."""
        self.theme, self.scale = theme, float(scale)
        self.top.restyle(theme, scale)
        self.data_controls.restyle(theme, scale)
        self.diagram.restyle(theme, scale)
        self.output.restyle(theme, scale)
        QTimer.singleShot(0, self, self._say_if_cramped)  # type: ignore[call-overload]

    def set_theme(self, theme: Theme) -> None:
        """Light or dark colours (the window's presenter calls it)."""
        self.restyle(theme, self.scale)

    def set_font_scale(self, scale: float) -> None:
        """Presenter mode: neurons, points, lines and plots × ``scale`` (fonts: the window)."""
        self.restyle(self.theme, scale)

    def _share_width(self) -> None:
        """The output column gets what the diagram leaves (at least 45 % of the two)."""
        body = self.width() - self.data_controls.width() - 40
        height = self.diagram.height()
        left = body - self.diagram.wanted_width(height)
        wanted = max(round(body * 0.45), left)
        if wanted != self.output.max_width:
            self.output.max_width = wanted
            self.output.updateGeometry()

    def _say_if_cramped(self) -> None:
        """Neurons too small to read (the docks take the width): the message line says why."""
        size = self.diagram.geometry_.size
        beside = self.width() < 0.9 * self.window().width()  # the editor's docks take room
        small = 0 < size < SMALL_NEURON * max(1.0, self.scale) and beside and self.isVisible()
        tip = text.cramped()
        if small and not self.message.full:
            self.show_message(tip)
        elif not small and self.message.full == tip:
            self.show_message("")

    def repaint_frame(self) -> None:
        """Paint the neurons and the output maps now (training waits meanwhile).

        The labels and the loss curves repaint on the next turn, only when they changed (the
        curves' axes cost ~5 ms a paint; they change at most 10 times a second in training).
        """
        self.diagram.repaint(self.diagram.frame_rect())  # (and every pending update with it)
        for m in self.output.maps:
            if m.isVisible() and m.stale:  # not painted with the diagram
                m.repaint()
