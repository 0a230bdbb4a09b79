"""The stepper's controls in one row, or two when the panel is narrow (presenter scale)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QWidget

SLIDER_MIN = 80  # px the position slider keeps before the row wraps
CALLS_STEP = 24  # px: the call box widens and narrows in steps of this (see ``wrap``)


class ControlRows:
    """Mode, the gradient() call box, the buttons and the slider; the extras at the end.

    When the first row is too narrow the extras (speed, predict, reveal) move to the second
    row, then the call box too, where it takes the room it needs; they come back when it fits.
    """

    def __init__(
        self, fixed: Sequence[QWidget], slider: QWidget, calls: QComboBox, extras: QWidget
    ) -> None:
        self.fixed, self.calls, self.extras = list(fixed), calls, extras
        calls.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.first = QHBoxLayout()
        self.first.addWidget(self.fixed[0])
        self.first.addWidget(calls)
        for w in self.fixed[1:]:
            self.first.addWidget(w)
        self.first.addWidget(slider, 1)
        self.first.addWidget(extras)
        self.second = QHBoxLayout()
        self.second.addStretch(1)

    def wrap(self, room: int) -> None:
        """Lay the controls out for ``room`` px of width.

        The call box is as wide as its longest call, in steps of :data:`CALLS_STEP` (sized to
        its contents by Qt, each keystroke's new value in "tape.gradient(f, x) → 7.237" moved
        the controls a pixel or two, and relaid out and repainted the whole panel, ~8 ms); on
        the second row it is never wider than the room left there.
        """
        gaps = (len(self.fixed) + 3) * max(self.first.spacing(), 0)
        needed = sum(w.sizeHint().width() for w in self.fixed) + SLIDER_MIN + gaps
        box, metrics = self.calls, self.calls.fontMetrics()
        texts = [box.itemText(i) for i in range(box.count())]
        text = max((metrics.horizontalAdvance(t) for t in texts), default=0)
        frame = box.sizeHint().width()  # (the frame and arrow: the policy counts no text)
        width = frame + CALLS_STEP * math.ceil(text / CALLS_STEP)
        shown = not box.isHidden()
        extras = self.extras.sizeHint().width()
        wrap = needed + (width if shown else 0) + extras > room
        wrap_calls = shown and needed + width > room
        if wrap_calls:  # on the second row (beside the extras when they wrap too): elided in
            # the middle rather than wider than the panel, which widened the window past the
            # screen for a call naming a network's every parameter
            beside = extras + 2 * max(self.second.spacing(), 0) if wrap else 0
            width = min(width, max(room - beside, frame))
        if box.minimumWidth() != width:
            box.setMinimumWidth(width)
        self._place(self.extras, wrap, self.first.count())
        self._place(self.calls, wrap_calls, 1)
        for i in range(self.second.count()):  # the call box, when here, takes the room
            if self.second.itemAt(i).spacerItem() is not None:
                self.second.setStretch(i, 0 if wrap_calls else 1)

    def _place(self, widget: QWidget, second: bool, index: int) -> None:
        """Put ``widget`` in the second row, or back in the first at ``index``."""
        in_second = self.second.indexOf(widget) >= 0
        if second == in_second:
            return
        (self.second if in_second else self.first).removeWidget(widget)
        if second:
            calls = widget is self.calls
            self.second.insertWidget(0 if calls else -1, widget, 1 if calls else 0)
        else:
            self.first.insertWidget(min(index, self.first.count()), widget)
