"""The status bar's progress: the sandbox's run (indeterminate), the studio's race (a fraction)."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QProgressBar, QWidget

SHOW_AFTER_MS = 200  # a run shows the bar only once it has taken this long


class StatusProgress(QProgressBar):
    """Hidden while nothing computes; it says nothing about what computes, the status line does.

    A run of the editor's code shows it after SHOW_AFTER_MS: the live re-runs while typing take
    a few milliseconds each, and showing and hiding the bar for each relaid the status bar out
    and repainted it (~5 ms of every keystroke) for a flicker nobody could read.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statusProgress")
        self.setMaximumWidth(160)
        self.setTextVisible(False)
        self.hide()
        self._later = QTimer(self)
        self._later.setSingleShot(True)
        self._later.setInterval(SHOW_AFTER_MS)
        self._later.timeout.connect(self.show)
        self._hiding = QTimer(self)  # a run ending hides it on the next turn: a queued run
        self._hiding.setSingleShot(True)  # starting in the same turn keeps it up
        self._hiding.setInterval(0)
        self._hiding.timeout.connect(self.hide)

    def show_running(self, running: bool, studio_busy: bool) -> None:
        """Indeterminate while the sandbox runs the editor's code; the studio's fraction after."""
        if running:
            self._hiding.stop()
            self.setRange(0, 0)
            if self.isHidden() and not self._later.isActive():
                self._later.start()
            return
        self._later.stop()
        if not studio_busy:
            self._hiding.start()
        elif self.maximum() == 0:  # the studio still computes: its fraction next
            self.setRange(0, 100)

    def show_fraction(self, fraction: float) -> None:
        """The studio's race is this far (0 to 1)."""
        self._later.stop()
        self._hiding.stop()
        self.setRange(0, 100)
        self.setValue(round(100 * fraction))
        self.show()
