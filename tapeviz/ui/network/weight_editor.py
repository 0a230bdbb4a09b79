"""The inline editor a click on a link opens, and the Keras names of the weights it edits."""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLineEdit, QWidget


def layer_name(layer: int) -> str:
    """Keras' name of Dense layer ``layer`` (``dense``, ``dense_1``, …)."""
    return "dense" if layer == 0 else f"dense_{layer}"


class WeightEditor(QLineEdit):
    """A one-line editor for a weight: Enter applies (``accepted``), Esc closes."""

    accepted = Signal(float)
    refused = Signal(str)

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("networkWeightEditor")
        self.returnPressed.connect(self._on_return_pressed)
        self.hide()

    def _on_return_pressed(self) -> None:
        text = self.text().strip().replace("−", "-").replace(",", ".")
        try:
            value = float(text)
        except ValueError:
            self.refused.emit(text)
            return
        if not math.isfinite(value):
            self.refused.emit(text)
            return
        self.hide()
        self.accepted.emit(value)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Qt override: Esc closes without applying."""
        if event.key() == Qt.Key.Key_Escape:
            self.hide()
            event.accept()
            return
        super().keyPressEvent(event)

    def focusOutEvent(self, event: Any) -> None:
        """Qt override: clicking elsewhere closes the editor."""
        super().focusOutEvent(event)
        self.hide()
