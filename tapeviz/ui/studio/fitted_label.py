"""A wrapped label that keeps to the height it is given: the last line that fits ends in "…".

The studio's status (a race's summary, a divergence explained) grew the panel past the studio's
height at presenter sizes, and the panel scrolled: the explanation, the one thing to read
aloud, was below the fold. This label asks for two lines and takes the height its layout
stretch gives it; what does not fit ends in "…", and the whole text shows on hover (and in the
window's status line).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QResizeEvent, QTextLayout
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

LEAST_LINES = 2  # lines the label keeps whatever the height


class FittedLabel(QLabel):
    """Word-wrapped plain text in the label's height; ``text()`` is the whole text."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = ""
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.setTextFormat(Qt.TextFormat.PlainText)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
        self.setSizePolicy(policy)

    def text(self) -> str:
        """The whole text (as set), not the shortened one shown."""
        return self._text

    def shown_text(self) -> str:
        """The text as drawn: whole, or its first lines with "…" at the end."""
        return super().text()

    def setText(self, text: str) -> None:
        """Show ``text`` (plain), shortened to the lines that fit."""
        self._text = text
        self.updateGeometry()
        self._fit()

    def lines(self, width: int) -> list[str]:
        """The text broken into lines of ``width`` px (at word boundaries)."""
        out: list[str] = []
        for paragraph in self._text.split("\n"):
            layout = QTextLayout(paragraph, self.font())
            layout.beginLayout()
            while (line := layout.createLine()).isValid():
                line.setLineWidth(max(width, 1))
                out.append(paragraph[line.textStart() : line.textStart() + line.textLength()])
            layout.endLayout()
        return out

    def _fit(self) -> None:
        width = self.contentsRect().width()
        lines = self.lines(width) if self._text else []
        room = max(1, self.contentsRect().height() // self.fontMetrics().lineSpacing())
        cut = len(lines) > room
        if not cut:
            shown = "\n".join(line.rstrip() for line in lines)
        else:
            last = "".join(lines[room - 1 :]).strip()
            tail = self.fontMetrics().elidedText(last, Qt.TextElideMode.ElideRight, width)
            shown = "\n".join([*(line.rstrip() for line in lines[: room - 1]), tail])
        super().setText(shown)
        self.setToolTip(self._text if cut else "")

    def sizeHint(self) -> QSize:
        """Qt override: LEAST_LINES lines; a layout stretch gives it the height left."""
        return self.minimumSizeHint()

    def needed_height(self) -> int:
        """The height every line needs at the current width."""
        margins = self.contentsMargins()
        count = max(len(self.lines(self.contentsRect().width())), 1)
        return count * self.fontMetrics().lineSpacing() + margins.top() + margins.bottom()

    def minimumSizeHint(self) -> QSize:
        """Qt override: LEAST_LINES lines, any width."""
        margins = self.contentsMargins()
        extra = margins.top() + margins.bottom()
        return QSize(40, LEAST_LINES * self.fontMetrics().lineSpacing() + extra)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Qt override: the lines that fit the new size."""
        super().resizeEvent(event)
        self._fit()

    def changeEvent(self, event: QEvent) -> None:
        """Qt override: a new font (presenter size) fits the text again."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._fit()
