"""What the window does once it is on screen: the work its first paint does not need.

The window paints without pyqtgraph (no plot is in view at start: the studio, timeline, plots
and gradient-check tabs make theirs when first shown) and without a worker process. Right
after the first paint, :func:`after_first_paint` runs :func:`preload`: a worker warms up (a
process of its own) and pyqtgraph is imported (~0.3 s here), so the first plot or the first
run does not pay for either.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget

from tapeviz.models import kernel

LATER = ("pyqtgraph", "numpy.ma")  # imported after the first paint, in this order
# (numpy.ma: numpy imports it on the first np.unique, ~17 ms of the first big run's arrival)


class _FirstPaint(QObject):
    """Calls ``then`` on the event-loop turn after ``widget``'s first paint, once."""

    def __init__(self, widget: QWidget, then: Callable[[], None]) -> None:
        super().__init__(widget)
        self.then = then
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Qt override: the first Paint posts ``then`` and removes this filter."""
        if event.type() == QEvent.Type.Paint and self.then is not None:
            then, self.then = self.then, None
            watched.removeEventFilter(self)
            QTimer.singleShot(0, then)
        return False


def after_first_paint(widget: QWidget, then: Callable[[], None]) -> QObject:
    """Run ``then`` once, on the event-loop turn after ``widget`` is first painted."""
    return _FirstPaint(widget, then)


def preload() -> None:
    """Warm the application's worker and import what the plots need."""
    kernel.POOL.warm()
    for name in LATER:
        importlib.import_module(name)
