"""Help → "TensorFlow in tapeviz": every name a script can use, by namespace, with a filter.

The lists are generated from what runs (``tapeviz.tf.supported_names()`` and the sandbox's
numpy, math and matplotlib namespaces), so they never drift from the code. The messages for a
name tapeviz lacks point here.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from tapeviz.engine.namespace import Namespace
from tapeviz.sandbox.runtime import modules
from tapeviz.ui.theme import font


def _names(ns: Namespace, title: str, out: dict[str, list[str]]) -> None:
    names = [n for n in ns if not n.startswith("_")]
    plain = [n for n in names if type(getattr(ns, n)) is not Namespace]
    if plain:
        out[title] = sorted(plain, key=str.lower)
    for n in names:
        value = getattr(ns, n)
        if type(value) is Namespace:
            _names(value, f"{title}.{n}", out)


def catalog() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(what scripts can use, what TensorFlow has that tapeviz keeps out), by namespace."""
    import tapeviz.tf as tf

    names: dict[str, list[str]] = dict(tf.supported_names())
    _names(modules.NUMPY, "np", names)
    _names(modules.MATH, "math", names)
    _names(modules.MATPLOTLIB, "matplotlib", names)
    return names, dict(tf.unavailable_names())


class TfHelpDialog(QDialog):
    """The names, filtered as you type (``reduce`` shows every ``reduce_*``)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tfHelpDialog")
        self.setWindowTitle(self.tr("TensorFlow in tapeviz"))
        self.names, self.unavailable = catalog()
        intro = QLabel(self.tr(
            "Scripts start with tf and np already imported. Import matplotlib.pyplot as plt "
            "for plots (the Plots tab). These are the names a script can use; names in "
            "“not available” exist so code reads on, and say why when called."
        ), self)  # fmt: skip
        intro.setWordWrap(True)
        self.filter = QLineEdit(self)
        self.filter.setObjectName("helpFilter")
        self.filter.setPlaceholderText(self.tr("Filter, e.g. reduce or Dense"))
        self.text = QPlainTextEdit(self)
        self.text.setObjectName("helpNames")
        self.text.setReadOnly(True)
        self.text.setFont(font(10, mono=True))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addWidget(intro)
        box.addWidget(self.filter)
        box.addWidget(self.text, 1)
        box.addWidget(buttons)
        self.filter.textChanged.connect(self._on_filter_text_changed)
        self.resize(760, 620)
        self._show("")

    def _on_filter_text_changed(self, text: str) -> None:
        self._show(text)

    def _show(self, text: str) -> None:
        needle = text.strip().lower()
        lines: list[str] = []
        for title, table in ((None, self.names), (self.tr("not available"), self.unavailable)):
            block = []
            for ns, names in table.items():
                shown = [n for n in names if needle in f"{ns}.{n}".lower()]
                if shown:
                    block.append(f"{ns}: {', '.join(shown)}")
            if block and title is not None:
                lines.append(f"\n— {title} —")
            lines += block
        self.text.setPlainText("\n".join(lines) if lines else self.tr("No name matches."))
