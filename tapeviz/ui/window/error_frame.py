"""The error under the editor: a few lines at most (longer text scrolls), and what to do next.

The text is the error as :func:`~tapeviz.ui.window.error_text.describe` words it; under it,
"Go to line N" puts the caret at the error (only when asked: a live re-run never moves it),
and for an unknown name in an expression, "Add 'w' as a variable" adds the row and re-runs.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from tapeviz.ui.theme import font

MAX_LINES = 4  # the error's text shows this many lines; more scrolls (the editor keeps its room)
# The error's colour on each theme's window background, >= 4.5:1 (Okabe-Ito's vermillion is
# only 3.4:1 on the light grey of a window).
TEXT = {"light": "#A84300", "dark": "#FF8A5B"}


class ErrorFrame(QFrame):
    """The last error's text (``label``), with "Go to line" and "Add as a variable" buttons.

    ``goToLineClicked`` and ``addVariableClicked(name)`` say what the user asked for.
    """

    goToLineClicked = Signal()
    addVariableClicked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("errorFrame")
        self.unknown_name: str | None = None
        self.label = QLabel(self)
        self.label.setObjectName("errorLabel")
        self.label.setWordWrap(True)
        self.label.setFont(font(11, mono=True))  # a caret hint lines up under the code
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.scroll = QScrollArea(self)
        self.scroll.setObjectName("errorScroll")
        self.scroll.setWidget(self.label)
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.go_button = QPushButton(self)
        self.go_button.setObjectName("errorGoToLineButton")
        self.go_button.clicked.connect(self.goToLineClicked)
        self.add_button = QPushButton(self)
        self.add_button.setObjectName("errorAddVariableButton")
        self.add_button.clicked.connect(self._on_add_button_clicked)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.go_button)
        row.addWidget(self.add_button)
        row.addStretch(1)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(2)
        box.addWidget(self.scroll)
        box.addLayout(row)
        self.set_theme("light")
        self.clear()

    def text(self) -> str:
        """The error's text as shown ('' without an error)."""
        return self.label.text()

    def show_error(self, message: str, line: int | None, unknown_name: str | None = None) -> None:
        """Show ``message``; offer to go to ``line`` and to add ``unknown_name`` as a variable."""
        self.label.setText("⚠ " + message)
        self.label.setToolTip(message)
        self.go_button.setText(self.tr("Go to line %1").replace("%1", str(line)))
        self.go_button.setVisible(line is not None)
        self.unknown_name = unknown_name
        if unknown_name:
            self.add_button.setText(self.tr("Add '%1' as a variable").replace("%1", unknown_name))
        self.add_button.setVisible(bool(unknown_name))
        self.scroll.verticalScrollBar().setValue(0)
        self._fit()
        self.setVisible(True)

    def clear(self) -> None:
        """No error: the frame hides."""
        self.label.clear()
        self.label.setToolTip("")
        self.unknown_name = None
        self.setVisible(False)

    def set_theme(self, name: str) -> None:
        """The error's colour for the ``light`` or ``dark`` window (>= 4.5:1 either way)."""
        if name != getattr(self, "theme_name", None):
            self.theme_name = name
            self.label.setStyleSheet(f"color: {TEXT.get(name, TEXT['light'])}")

    def _on_add_button_clicked(self) -> None:
        if self.unknown_name:
            self.addVariableClicked.emit(self.unknown_name)

    def _fit(self) -> None:
        """Tall enough for the text up to MAX_LINES lines; beyond that the text scrolls."""
        metrics = self.label.fontMetrics()
        width = max(self.scroll.viewport().width(), 50)
        needed = self.label.heightForWidth(width) if self.label.text() else 0
        cap = MAX_LINES * metrics.lineSpacing() + 4
        self.scroll.setFixedHeight(max(min(needed, cap), metrics.lineSpacing() + 4))

    def changeEvent(self, event: QEvent) -> None:
        """Qt override: a new font (presenter scale) or palette (theme)."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._fit()
        elif event.type() == QEvent.Type.PaletteChange:  # the theme changed
            dark = self.palette().color(QPalette.ColorRole.Window).lightness() < 128
            self.set_theme("dark" if dark else "light")

    def resizeEvent(self, event: QEvent) -> None:
        """Qt override: a narrower frame wraps the text into more lines."""
        super().resizeEvent(event)
        self._fit()
