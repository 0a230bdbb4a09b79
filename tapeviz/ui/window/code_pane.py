"""The Code dock's contents: the mode, Run and Stop, the editor, the error line and the notes."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from tapeviz.ui.theme import font
from tapeviz.ui.window.editor import CodeEditor

MODES = ("expression", "script")


class CodePane(QWidget):
    """What the lecturer types and how it runs: widgets only; the window wires them.

    ``mode`` (expression or script), ``run_button``, ``stop_button``, ``editor``,
    ``error_label`` (the last error, with a caret hint) and ``notes_label`` (a preset's notes).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("codePane")
        self.mode = QComboBox(self)
        self.mode.setObjectName("modeCombo")
        self.mode.addItem(self.tr("Expression"), "expression")
        self.mode.addItem(self.tr("Script"), "script")
        self.run_button = QPushButton(self.tr("Run"), self)
        self.run_button.setObjectName("runButton")
        self.run_button.setToolTip(self.tr("Run (Ctrl+Enter)"))
        self.stop_button = QPushButton(self.tr("Stop"), self)
        self.stop_button.setObjectName("stopButton")
        self.editor = CodeEditor(self)
        self.error_label = QLabel(self)
        self.error_label.setObjectName("errorLabel")
        self.error_label.setWordWrap(True)
        self.error_label.setFont(font(11, mono=True))  # a caret hint lines up under the code
        self.error_label.setStyleSheet("color: #D55E00")
        self.notes_label = QLabel(self)
        self.notes_label.setObjectName("notesLabel")
        self.notes_label.setWordWrap(True)
        self.notes_label.setFont(font(10))
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Mode:"), self))
        row.addWidget(self.mode)
        row.addStretch(1)
        row.addWidget(self.run_button)
        row.addWidget(self.stop_button)
        box = QVBoxLayout(self)
        box.addLayout(row)
        box.addWidget(self.editor, 1)
        box.addWidget(self.error_label)
        box.addWidget(self.notes_label)

    def source(self) -> str:
        """The editor's text."""
        return self.editor.toPlainText()

    def current_mode(self) -> str:
        """``"expression"`` or ``"script"``."""
        return str(self.mode.currentData())

    def set_work(self, source: str, mode: str) -> None:
        """Show ``source`` in ``mode`` without a signal (nothing re-runs)."""
        self.mode.blockSignals(True)
        self.mode.setCurrentIndex(MODES.index(mode))
        self.mode.blockSignals(False)
        self.editor.blockSignals(True)
        self.editor.setPlainText(source)
        self.editor.blockSignals(False)

    def show_error(self, message: str, line: int | None, col: int | None) -> None:
        """Mark the error at its line (if any) and write it under the editor."""
        self.editor.mark_error(line, col, message)
        self.error_label.setText("⚠ " + message)

    def clear_error(self) -> None:
        """No error: the marks and the error line go."""
        self.editor.clear_error()
        self.error_label.clear()
