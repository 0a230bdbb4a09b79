"""The window stays on its screen: no growth forced by a layout, never past the screen's edge.

Turning clean mode off at presenter scale 1.5 showed the docks while the stepper still had its
one-row clean layout's minimum width: Qt grew the window to that stale minimum (1,583 px on a
1,366 px screen) and never gave the width back. :class:`ScreenGuard` undoes such growth once the
layouts have settled; :func:`fit_to_screen` brings a window inside its screen's available
geometry (at start, and after a rebuild).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, QSize, QTimer
from PySide6.QtGui import QGuiApplication, QResizeEvent
from PySide6.QtWidgets import QApplication, QWidget


def available(window: QWidget) -> QRect:
    """The available geometry (without panels and docks) of the screen ``window`` is on."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry()


def _free(window: QWidget) -> bool:
    return not (window.isMaximized() or window.isFullScreen() or window.isMinimized())


def fit_to_screen(window: QWidget) -> None:
    """Shrink and move ``window`` (frame included) inside its screen's available geometry."""
    if not _free(window):
        return
    room, frame, inner = available(window), window.frameGeometry(), window.geometry()
    dw, dh = frame.width() - inner.width(), frame.height() - inner.height()
    width = min(inner.width(), room.width() - dw)
    height = min(inner.height(), room.height() - dh)
    if (width, height) != (inner.width(), inner.height()):
        window.resize(max(width, 1), max(height, 1))
        frame = window.frameGeometry()
    x = min(max(frame.x(), room.x()), room.x() + room.width() - frame.width())
    y = min(max(frame.y(), room.y()), room.y() + room.height() - frame.height())
    if (x, y) != (frame.x(), frame.y()):
        window.move(max(x, room.x()), max(y, room.y()))


class ScreenGuard(QObject):
    """Undoes a growth of ``window`` that a layout forced (its size became its minimum size).

    A resize asked for (by the user, the app or a test) is left alone; one that only follows a
    stale minimum size (docks shown while a panel still had its clean-mode row) is undone on
    the next turn, once the minimum is right again, and the window is kept on its screen.
    """

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.window = window
        self.before: QSize | None = None  # the size before the forced growth
        self._later = QTimer(self)
        self._later.setSingleShot(True)
        self._later.setInterval(0)
        self._later.timeout.connect(self.settle)
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """A resize of the window to its minimum size, larger than before: undone next turn."""
        if watched is self.window and event.type() == QEvent.Type.Resize:
            assert isinstance(event, QResizeEvent)
            old, new, least = event.oldSize(), event.size(), self.window.minimumSize()
            grew_w = new.width() > old.width() > 0 and new.width() == least.width()
            grew_h = new.height() > old.height() > 0 and new.height() == least.height()
            if (grew_w or grew_h) and _free(self.window):
                if self.before is None:
                    self.before = old
                self._later.start()
        return False

    def settle(self) -> None:
        """Back to the size before the forced growth (as far as the minimum allows)."""
        before, self.before = self.before, None
        window = self.window
        if before is None or not _free(window):
            return
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)  # the minimums, updated
        size = window.size()
        target = QSize(min(size.width(), before.width()), min(size.height(), before.height()))
        if target != size:
            window.resize(target)
