"""The studio's side of the window's work: which loss it optimizes, and whose settings it has."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject

from tapeviz.models.descent.demos import from_session
from tapeviz.models.descent.problem import Problem
from tapeviz.models.descent.studio_config import StudioConfig
from tapeviz.models.session.file import Session
from tapeviz.ui.studio.studio import OptimizationStudio


def same_problem(a: Problem | None, b: Problem | None) -> bool:
    """Whether two problems are equal (array values compare element-wise)."""
    if a is None or b is None:
        return a is b
    try:
        return bool(a == b)
    except ValueError:  # numpy arrays in the table: ambiguous truth value
        return False


class StudioLink(QObject):
    """Gives the editor's checked work to ``studio`` and knows whether its settings are the work's.

    ``used``: the studio optimized this session's function, so its settings go in the session.
    ``stale``: a session or preset put new settings in the panel since the last race, so the
    next start recomputes even for the same loss. Messages go to ``status``.
    """

    def __init__(
        self,
        studio: OptimizationStudio,
        status: Callable[[str], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.studio, self.status = studio, status
        self.used = False
        self.stale = False

    def start(self, problem: Problem | None) -> None:
        """Give ``problem`` to the studio unless it already shows it (then re-send its tape)."""
        if problem is None:
            return
        self.used = True
        studio = self.studio
        idle = studio.race is None and not studio.busy
        if idle or self.stale or not same_problem(problem, studio.problem):
            self.stale = False
            studio.set_problem(problem)
        else:
            self.resend_tape()

    def shows(self, problem: Problem | None) -> bool:
        """Whether the studio's race is of ``problem`` with the current settings."""
        studio = self.studio
        return studio.race is not None and not self.stale and same_problem(studio.problem, problem)

    def resend_tape(self) -> None:
        """Send the tape of the studio's current step again (``stepTape``)."""
        self.studio.set_step(self.studio.k)

    def load(self, session: Session) -> None:
        """A session's optimizer settings (or the defaults) go to the panel for the next race."""
        try:
            config = from_session(session).config if session.optimizer else StudioConfig()
        except ValueError as exc:
            config = StudioConfig()
            self.status("⚠ " + str(exc))
        studio = self.studio
        studio.pause()
        if studio.busy:  # a race for the previous work: its result would be stale
            studio.cancel()
        studio.set_config(config, recompute=False)
        self.stale = True  # the next race uses these settings even for the same loss
        self.used = False

    def settings(self, saved: dict | None) -> dict | None:
        """The optimizer settings of the work: the studio's if it ran it, else ``saved``."""
        if self.used:
            return self.studio.config().to_dict()
        return saved
