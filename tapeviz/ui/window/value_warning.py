"""The status bar's warning while the graph holds a nan or ±inf: which node made it, and why."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QLabel, QWidget

from tapeviz.models.graph.model import GraphModel
from tapeviz.ui.graph.nonfinite_text import describe, first_origin

SHARE = 0.45  # of the window's width, at most


class ValueWarning(QLabel):
    """``⚠ big is inf: the result is larger than 3.403e+38, the largest float32 number``.

    It follows ``model`` (hidden while every value is finite); a click emits the node's id so
    the window can select it in the graph.
    """

    nodeClicked = Signal(str)

    def __init__(self, model: GraphModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("valueWarning")
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.model = model
        self.node_id = ""
        self.full_text = ""
        model.changed.connect(self._on_model_changed)
        self.hide()

    def _on_model_changed(self) -> None:
        node = first_origin(self.model.nodes, self.model.noted)
        self.node_id = node.id if node is not None else ""
        self.full_text = "⚠ " + describe(node) if node is not None else ""
        self.setToolTip(self.full_text)
        self._elide()
        self.setVisible(node is not None)

    def _elide(self) -> None:
        window = self.window()
        room = int(window.width() * SHARE) if window is not self else 600
        self.setText(self.fontMetrics().elidedText(self.full_text, Qt.TextElideMode.ElideRight,
                                                   room))  # fmt: skip

    def changeEvent(self, event: object) -> None:
        super().changeEvent(event)  # type: ignore[arg-type]
        if self.full_text:
            self._elide()  # a new font (presenter scale) elides differently

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """Qt override: a click selects the node in the graph."""
        if self.node_id:
            self.nodeClicked.emit(self.node_id)
        super().mousePressEvent(event)
