"""The status bar's one line: the run's error, else the graph's nan warning, else the news.

Qt's status bar draws a temporary message under its widgets, so a long message and a
permanent widget overlapped ("…24.2. Tl⚠ x is nan because…"). Here one label shows one text,
chosen by a fixed precedence, cut with "…" to the width it has; its tooltip holds every
current text in full.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QMouseEvent, QPalette
from PySide6.QtWidgets import QStatusBar, QWidget

from tapeviz.ui.elided_label import ElidedLabel
from tapeviz.ui.window.error_frame import TEXT as ERROR_TEXT

MARK = "⚠"


class StatusText(ElidedLabel):
    """A one-line label showing ``full_text`` cut with "…" to its width."""

    clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statusText")

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """Qt override: a click is reported (the window selects the warning's node)."""
        self.clicked.emit()
        super().mousePressEvent(event)


class StatusLine(QStatusBar):
    """One status area with a clear precedence: error, then warning, then news.

    - an *error* of the work (:meth:`show_error`: the last run failed) stays until
      :meth:`clear_error` (a new run starts) or another error;
    - a message beginning with ⚠ (:meth:`showMessage`: an action failed, a file did not
      open) is an error too, until the next message of any kind;
    - the *warning* (:meth:`set_warning`: a nan or inf in the graph) stands while it is true;
    - *news* (:meth:`showMessage`: what just happened, "Ran in 3 ms") shows when neither does.

    The shown text is cut with "…" to the line's width; the tooltip has each current text in
    full. A click while the warning shows emits ``warningClicked``. ``messageChanged`` carries
    the shown text, ``currentMessage()`` returns it whole.
    """

    warningClicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statusLine")
        self.label = StatusText(self)
        self.label.clicked.connect(self._on_label_clicked)
        self.addWidget(self.label, 1)
        self.error = ""
        self.sticky = False  # the error is the work's (a run's): news does not replace it
        self.warning = ""
        self.news = ""
        self._shown = ""

    # -- what is said --------------------------------------------------------------------
    def showMessage(self, text: str, timeout: int = 0) -> None:
        """Qt override: news, or an action's error when ``text`` begins with ⚠."""
        if text.startswith(MARK):
            self.error, self.sticky = text, False
        else:
            self.news = text
            if not self.sticky:
                self.error = ""
        self._refresh()

    def clearMessage(self) -> None:
        """Qt override: the news goes (an error or warning stays)."""
        self.news = ""
        self._refresh()

    def currentMessage(self) -> str:
        """Qt override: the text shown now, in full."""
        return self._shown

    def show_error(self, text: str) -> None:
        """The work's error: shown before anything else until :meth:`clear_error`."""
        self.error = text if text.startswith(MARK) else f"{MARK} {text}"
        self.sticky = True
        self._refresh()

    def clear_error(self) -> None:
        """No error any more (a new run started)."""
        self.error, self.sticky = "", False
        self._refresh()

    def set_warning(self, text: str) -> None:
        """The standing warning ('' for none): after an error, before the news."""
        self.warning = text
        self._refresh()

    def level(self) -> str:
        """What is shown: ``"error"``, ``"warning"``, ``"news"`` or ``""``."""
        for name in ("error", "warning", "news"):
            if getattr(self, name):
                return name
        return ""

    # -- how it looks --------------------------------------------------------------------
    def _refresh(self) -> None:
        level = self.level()
        shown = getattr(self, level) if level else ""
        self.label.set_full_text(shown)
        texts = [t for t in (self.error, self.warning, self.news) if t]
        self.label.setToolTip("\n".join(texts))
        warned = level == "warning"
        self.label.setCursor(
            Qt.CursorShape.PointingHandCursor if warned else Qt.CursorShape.ArrowCursor
        )
        self._colour()
        if shown != self._shown:
            self._shown = shown
            self.messageChanged.emit(shown)

    def _colour(self) -> None:
        dark = self.palette().color(QPalette.ColorRole.Window).lightness() < 128
        alarming = self.level() in ("error", "warning")
        colour = ERROR_TEXT["dark" if dark else "light"] if alarming else ""
        self.label.setStyleSheet(f"color: {colour}" if colour else "")

    def changeEvent(self, event: QEvent) -> None:
        """Qt override: a new palette (the theme) recolours an error."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._colour()

    def _on_label_clicked(self) -> None:
        if self.level() == "warning":
            self.warningClicked.emit()
