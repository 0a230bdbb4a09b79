"""The panel's message line: one line, elided to the width, the whole text as its tooltip.

It holds a refused setting, a divergence explained or a demo's note; it takes no room when
there is nothing to say (the window's status bar repeats only a warning).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from tapeviz.ui.elided_label import ElidedLabel


class MessageLine(ElidedLabel):
    """One line of text, elided with … when too long (``full`` keeps the whole)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("networkMessage")
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hide()

    @property
    def full(self) -> str:
        """The whole message."""
        return self.full_text

    def set_message(self, message: str, colour: str = "") -> None:
        """Show ``message`` (in ``colour`` if given); '' hides the line."""
        self.setStyleSheet(f"color: {colour};" if colour else "")
        self.setToolTip(message)
        self.setVisible(bool(message))
        self.set_full_text(message)

    def text_shown(self) -> str:
        """The text on screen (elided)."""
        return self.text()
