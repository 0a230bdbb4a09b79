"""The Code dock's contents: the mode, Run and Stop, the editor, the error frame and the notes."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from tapeviz.ui.theme import font
from tapeviz.ui.window.editor import CodeEditor
from tapeviz.ui.window.error_frame import ErrorFrame

MODES = ("expression", "script")


class CodePane(QWidget):
    """What the lecturer types and how it runs: widgets only; the window wires them.

    ``mode`` (expression or script), ``run_button``, ``stop_button``, ``editor``,
    ``error_frame`` (the last error; its text is ``error_label``) and ``notes_label`` (a
    preset's notes, shown while the text is the preset's). ``addVariableRequested(name)``: the
    user asked to add an unknown name of the error as a variable.
    """

    addVariableRequested = Signal(str)

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
        self.error_frame = ErrorFrame(self)
        self.error_label = self.error_frame.label
        self.error_frame.goToLineClicked.connect(self.go_to_error)
        self.error_frame.addVariableClicked.connect(self.addVariableRequested)
        self.notes_source: str | None = None  # the text the notes are about
        self.notes_text = ""
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
        box.addWidget(self.error_frame)
        box.addWidget(self.notes_label)
        self.editor.textChanged.connect(self._show_notes)

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

    def show_error(
        self, message: str, line: int | None, col: int | None, unknown_name: str | None = None
    ) -> None:
        """Mark the error at its line (if any) and write it under the editor.

        The caret stays where the user left it; "Go to line" moves it there.
        """
        self.editor.mark_error(line, col, message)
        self.error_frame.show_error(message, line, unknown_name)

    def clear_error(self) -> None:
        """No error: the marks and the error frame go."""
        self.editor.clear_error()
        self.error_frame.clear()

    def go_to_error(self) -> bool:
        """Put the caret at the marked error (the user asked for it)."""
        return self.editor.go_to_error()

    def set_notes(self, text: str, source: str) -> None:
        """A preset's notes, about ``source``: shown while the editor holds that text."""
        self.notes_text, self.notes_source = text, source
        self._show_notes()

    def _show_notes(self) -> None:
        same = self.notes_source is not None and self.source() == self.notes_source
        self.notes_label.setText(self.notes_text if same else "")
        self.notes_label.setVisible(same and bool(self.notes_text))
