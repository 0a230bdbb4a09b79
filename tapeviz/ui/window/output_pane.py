"""The Output dock: what a run printed, and the value of a script's last expression.

A notebook shows ``6.0`` under a cell ending in ``dy_dx.numpy()``; so does this pane, on a line
of its own under the printed text (``Out: 6.0``). The printed text stays exactly what the run
printed (the timeline's line links compare it with the run's output).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QSizePolicy, QVBoxLayout, QWidget

from tapeviz.ui.theme import font

SHOWN_LINES = 6  # lines of a long value shown (all of it in the tooltip)
TIP_CHARS = 40  # a value with a longer line has a tooltip too (the dock wraps the line)


class OutputPane(QWidget):
    """The printed text (``console``) and the last expression's value (``value_label``)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.console = QPlainTextEdit(self)
        self.console.setObjectName("consoleOutput")
        self.console.setReadOnly(True)
        self.console.setFont(font(11, mono=True))
        self.value_label = QLabel(self)
        self.value_label.setObjectName("outValue")
        self.value_label.setFont(font(11, mono=True))
        self.value_label.setTextFormat(Qt.TextFormat.PlainText)  # (<tf.Tensor …> is no tag)
        self.value_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.value_label.setContentsMargins(4, 2, 4, 2)
        # A long line wraps at the dock's edge (a tensor's numpy=… stays in view) and never
        # widens the window; the whole value is in the tooltip.
        self.value_label.setWordWrap(True)
        policy = QSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Minimum)
        policy.setHeightForWidth(True)  # (its wrapped lines' height, at the dock's width)
        self.value_label.setSizePolicy(policy)
        self.value_label.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.console, 1)
        layout.addWidget(self.value_label)

    def show_value(self, text: str | None) -> None:
        """Show ``Out: text`` under the printed text (None: the run had no value to show)."""
        if not text:
            self.value_label.hide()
            self.value_label.clear()
            self.value_label.setToolTip("")
            return
        lines = text.splitlines() or [text]
        shown = "\n".join(lines[:SHOWN_LINES]) + ("\n…" if len(lines) > SHOWN_LINES else "")
        self.value_label.setText(self.tr("Out: %1").replace("%1", shown))
        long = shown != text or max(map(len, lines)) > TIP_CHARS
        self.value_label.setToolTip(text if long else "")
        self.value_label.show()
