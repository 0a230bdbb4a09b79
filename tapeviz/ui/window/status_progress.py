"""The status bar's progress: the sandbox's run (indeterminate), the studio's race (a fraction)."""

from __future__ import annotations

from PySide6.QtWidgets import QProgressBar, QWidget


class StatusProgress(QProgressBar):
    """Hidden while nothing computes; it says nothing about what computes, the status line does."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statusProgress")
        self.setMaximumWidth(160)
        self.setTextVisible(False)
        self.hide()

    def show_running(self, running: bool, studio_busy: bool) -> None:
        """Indeterminate while the sandbox runs the editor's code; the studio's fraction after."""
        if running:
            self.setRange(0, 0)
            self.show()
        elif not studio_busy:
            self.hide()
        elif self.maximum() == 0:  # the studio still computes: its fraction next
            self.setRange(0, 100)

    def show_fraction(self, fraction: float) -> None:
        """The studio's race is this far (0 to 1)."""
        self.setRange(0, 100)
        self.setValue(round(100 * fraction))
        self.show()
