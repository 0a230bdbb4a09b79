"""The code export dialog: scripts in tabs with Copy/Save (a function per framework, a network)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from tapeviz.models.export.code import FRAMEWORKS, TITLES, ExportUnavailable, export
from tapeviz.models.session.file import Session
from tapeviz.ui.theme import font
from tapeviz.ui.window.editor import PythonHighlighter

Script = tuple[str, str | None, str]  # tab title, the script (None: unavailable), why not


def session_scripts(session: Session) -> dict[str, Script]:
    """The session's function as TensorFlow, PyTorch and JAX (or why a framework cannot)."""
    out: dict[str, Script] = {}
    for framework in FRAMEWORKS:
        try:
            out[framework] = (TITLES[framework], export(session, framework), "")
        except ExportUnavailable as exc:
            out[framework] = (TITLES[framework], None, str(exc))
    return out


class CodeExportDialog(QDialog):
    """One tab per script (a session's function per framework, or the Network view's network)."""

    def __init__(self, scripts: Session | dict[str, Script], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("codeExportDialog")
        self.setWindowTitle(self.tr("Export code"))
        self.resize(820, 560)
        self.tabs = QTabWidget(self)
        self.texts: dict[str, str] = {}
        self._highlighters = []
        if isinstance(scripts, Session):
            scripts = session_scripts(scripts)
        self.keys = list(scripts)
        for key, (title, text, reason) in scripts.items():
            if text is None:
                label = QLabel(reason, self)
                label.setWordWrap(True)
                self.tabs.addTab(label, title)
                continue
            self.texts[key] = text
            view = QPlainTextEdit(text, self)
            view.setObjectName(f"export:{key}")
            view.setReadOnly(True)
            view.setFont(font(11, mono=True))
            self._highlighters.append(PythonHighlighter(view.document()))
            self.tabs.addTab(view, title)
        self.copy_button = QPushButton(self.tr("Copy"), self)
        self.copy_button.setObjectName("copyCodeButton")
        self.save_button = QPushButton(self.tr("Save…"), self)
        self.save_button.setObjectName("saveCodeButton")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.save_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        self.copy_button.clicked.connect(self.copy)
        self.save_button.clicked.connect(self.save_dialog)
        self.tabs.currentChanged.connect(lambda _: self._update_buttons())
        box = QVBoxLayout(self)
        box.addWidget(self.tabs, 1)
        box.addWidget(buttons)
        self._update_buttons()

    def current_framework(self) -> str:
        """The key of the tab shown (``"pytorch"``, ``"keras"``, ...)."""
        return self.keys[self.tabs.currentIndex()]

    def _update_buttons(self) -> None:
        available = self.current_framework() in self.texts
        self.copy_button.setEnabled(available)
        self.save_button.setEnabled(available)

    def copy(self) -> None:
        """Put the shown script on the clipboard."""
        QApplication.clipboard().setText(self.texts[self.current_framework()])

    def save_to(self, path: str | Path) -> None:
        """Write the shown script to ``path``."""
        Path(path).write_text(self.texts[self.current_framework()], "utf-8")

    def save_dialog(self) -> None:
        """Ask for a file name and save the shown script."""
        name = f"tapeviz_{self.current_framework()}.py"
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save script"), name,
                                              self.tr("Python (*.py)"))  # fmt: skip
        if path:
            self.save_to(path)
