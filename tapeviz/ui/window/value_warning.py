"""The status line's warning while the graph holds a nan or ±inf: which node made it, and why."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from tapeviz.models.graph.model import GraphModel
from tapeviz.ui.graph.nonfinite_text import describe, first_origin


class ValueWarning(QObject):
    """``⚠ big is inf: the result is larger than 3.403e+38, the largest float32 number``.

    It follows ``model``: ``full_text`` is the warning ('' while every value is finite),
    ``changed(text)`` says when it changes (the status line shows it), and :meth:`click`
    emits ``nodeClicked(id)`` so the window can select the node in the graph.
    """

    nodeClicked = Signal(str)
    changed = Signal(str)

    def __init__(self, model: GraphModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("valueWarning")
        self.model = model
        self.node_id = ""
        self.full_text = ""
        model.changed.connect(self._on_model_changed)

    def isVisible(self) -> bool:
        """Whether there is a warning to show."""
        return bool(self.full_text)

    def _on_model_changed(self) -> None:
        node = first_origin(self.model.nodes, self.model.noted)
        self.node_id = node.id if node is not None else ""
        text = "⚠ " + describe(node) if node is not None else ""
        if text != self.full_text:
            self.full_text = text
            self.changed.emit(text)

    def click(self) -> None:
        """The user clicked the warning: the node that made it is asked for."""
        if self.node_id:
            self.nodeClicked.emit(self.node_id)
