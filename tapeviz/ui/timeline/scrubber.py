"""The timeline's scrubber: a slider over the steps with marks where something happened.

Marks are drawn under the groove: the divergence step as a tall warning-coloured bar, the steps
where the loss or a parameter first became inf or nan as shorter ones, the steps that printed
a line as small muted ticks (clicking one of those lines jumps there). A Keras fit's epoch
boundaries are ticks above the groove.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QSlider, QStyle, QStyleOptionSlider, QWidget

from tapeviz.ui.theme import LIGHT, Theme

MAX_TICKS = 400  # printed-line ticks drawn (evenly thinned beyond)


class Scrubber(QSlider):
    """A horizontal slider over steps 0 … n − 1 with marks (see the module docstring)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.setObjectName("timelineScrubber")
        self.theme: Theme = LIGHT
        self.divergence: int | None = None
        self.blowups: list[int] = []
        self.printed = np.zeros(0, np.int64)
        self.epochs = np.zeros(0, np.int64)  # a Keras fit's epochs: each one's first step
        self.setMinimumHeight(30)

    def set_marks(
        self, divergence: int | None, blowups: Sequence[int], printed: np.ndarray
    ) -> None:
        """The steps to mark: divergence, first inf/nan, printed lines."""
        self.divergence = divergence
        self.blowups = sorted(set(blowups))
        printed = np.asarray(printed, np.int64)
        if len(printed) > MAX_TICKS:
            printed = printed[np.linspace(0, len(printed) - 1, MAX_TICKS).astype(int)]
        self.printed = printed
        self.update()

    def set_epochs(self, starts: np.ndarray | None) -> None:
        """A fit's epoch boundaries: the first step of each epoch after the first (None: none)."""
        starts = np.zeros(0, np.int64) if starts is None else np.asarray(starts, np.int64)[1:]
        if len(starts) > MAX_TICKS:
            starts = starts[np.linspace(0, len(starts) - 1, MAX_TICKS).astype(int)]
        self.epochs = starts
        self.update()

    def x_of(self, step: int) -> int:
        """The x pixel of step ``step`` along the groove."""
        opt = QStyleOptionSlider()
        self.initStyleOption(opt)
        style = self.style()
        groove = style.subControlRect(
            QStyle.ComplexControl.CC_Slider, opt, QStyle.SubControl.SC_SliderGroove, self
        )
        handle = style.subControlRect(
            QStyle.ComplexControl.CC_Slider, opt, QStyle.SubControl.SC_SliderHandle, self
        )
        span = max(1, groove.width() - handle.width())
        pos = QStyle.sliderPositionFromValue(self.minimum(), self.maximum(), int(step), span)
        return groove.x() + handle.width() // 2 + pos

    def paintEvent(self, event: Any) -> None:
        """Qt override: the slider, then the marks along its bottom edge."""
        super().paintEvent(event)
        if self.maximum() <= self.minimum():
            return
        painter = QPainter(self)
        h = self.height()
        muted, warning = QColor(self.theme.muted), QColor(self.theme.warning)
        painter.setPen(QPen(muted, 1))
        for step in self.printed.tolist():
            x = self.x_of(step)
            painter.drawLine(x, h - 4, x, h - 1)
        painter.setPen(QPen(QColor(self.theme.text), 1))
        for step in self.epochs.tolist():  # epoch boundaries: full-height ticks above the groove
            x = (self.x_of(step - 1) + self.x_of(step)) // 2  # between an epoch and the next
            painter.drawLine(x, 0, x, h // 2 - 4)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(warning)
        for step in self.blowups:
            painter.drawRect(QRect(self.x_of(step) - 1, h - 8, 2, 8))
        if self.divergence is not None:
            painter.drawRect(QRect(self.x_of(self.divergence) - 2, 0, 4, h))
        painter.end()
