"""A one-line label that shows its whole text cut with "…" to the width it has.

The window's status line and the Network view's message line both need it: a long message
never widens its row (which pushed controls off a 1366-px screen) and a new width or a new
font (the presenter scale) cuts it again. ``full_text`` keeps the whole text.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


class ElidedLabel(QLabel):
    """Plain text on one line, elided on the right to the label's width."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.full_text = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(0)
        self.setTextFormat(Qt.TextFormat.PlainText)

    def set_full_text(self, text: str) -> None:
        """Show ``text`` on one line (its line breaks as spaces), elided to the width."""
        self.full_text = " ".join(text.split("\n"))
        self._elide()

    def _elide(self) -> None:
        width = max(self.contentsRect().width(), 0)
        metrics = self.fontMetrics()
        self.setText(metrics.elidedText(self.full_text, Qt.TextElideMode.ElideRight, width))

    def minimumSizeHint(self) -> QSize:
        """Qt override: any width (the text is elided), one line high."""
        hint = super().minimumSizeHint()
        return QSize(10, hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Qt override: a new width elides again."""
        super().resizeEvent(event)
        self._elide()

    def changeEvent(self, event: QEvent) -> None:
        """Qt override: a new font (presenter scale) elides again."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._elide()


class ElidedPaintLabel(QLabel):
    """A one-line label whose ``text()`` stays whole and is painted cut with "…" to its width.

    For a line that changes at every step (the timeline's values): nothing is re-elided on a
    new text, and what reads the label (a test, a screen reader) gets all of it.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(0)
        self.setTextFormat(Qt.TextFormat.PlainText)

    def minimumSizeHint(self) -> QSize:
        """Qt override: any width (the text is cut), one line high."""
        return QSize(10, super().minimumSizeHint().height())

    def paintEvent(self, event: QPaintEvent) -> None:
        """Qt override: the text cut on the right to the width, in the label's colour."""
        rect = self.contentsRect()
        cut = Qt.TextElideMode.ElideRight
        shown = self.fontMetrics().elidedText(self.text(), cut, rect.width())
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(rect, int(self.alignment()), shown)
        painter.end()
