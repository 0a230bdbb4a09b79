"""The panel's message line: one line, elided to the width, the whole text as its tooltip.

It holds a refused setting, a divergence explained or a demo's note; it takes no room when
there is nothing to say (the window's status bar shows the same text).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget


class MessageLine(QLabel):
    """One line of text, elided with … when too long (``full`` keeps the whole)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("networkMessage")
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.full = ""
        self.hide()

    def set_message(self, message: str, colour: str = "") -> None:
        """Show ``message`` (in ``colour`` if given); '' hides the line."""
        self.full = message
        self.setStyleSheet(f"color: {colour};" if colour else "")
        self.setToolTip(message)
        self.setVisible(bool(message))
        self._elide()

    def text_shown(self) -> str:
        """The text on screen (elided)."""
        return self.text()

    def _elide(self) -> None:
        width = max(self.width(), 50)
        self.setText(self.fontMetrics().elidedText(self.full, Qt.TextElideMode.ElideRight, width))

    def resizeEvent(self, event: Any) -> None:
        """Qt override: elide again for the new width."""
        super().resizeEvent(event)
        self._elide()

    def minimumSizeHint(self) -> Any:
        """Qt override: any width (the text is elided)."""
        hint = super().minimumSizeHint()
        hint.setWidth(10)
        return hint

    def sizeHint(self) -> Any:
        """Qt override: one line, any width."""
        hint = super().sizeHint()
        hint.setWidth(10)
        return hint
