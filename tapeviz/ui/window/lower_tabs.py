"""The tabs under the graph: the backward pass and the optimization studio, and their keys.

The graph is linked to whichever tab is in front: under "Backward pass" it shows the tapes of
the editor's last run; under "Optimization" it shows the tape of the studio's current step
(``OptimizationStudio.stepTape``), so scrubbing or playing the descent moves the graph too. The
window makes that link (it hears ``currentChanged``); the tabs own the panels, the keys that
drive the one in front, and the share of the window each tab gives the graph.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QSizePolicy, QSplitter, QTabWidget

from tapeviz.models.graph.model import GraphModel
from tapeviz.ui.graph.view import GraphView
from tapeviz.ui.stepper.panel import StepperPanel
from tapeviz.ui.studio.studio import OptimizationStudio

STEPPER_TAB, STUDIO_TAB = 0, 1
SPLIT = {STEPPER_TAB: (0.6, 0.4), STUDIO_TAB: (0.36, 0.64)}  # graph : tabs, per tab
CLEAN_SHARE = 0.78  # the graph's share above the stepper in clean mode (at least)


class LowerTabs(QTabWidget):
    """The stepper and the studio in tabs, below the graph in ``splitter``.

    It owns both panels, the window shortcuts → ← Space Home of the studio (the stepper has the
    same keys; only the tab in front's are enabled), and the graph's share of ``splitter`` per
    tab (``shares``, saved with the window's layout).
    """

    def __init__(self, model: GraphModel, graph: GraphView, splitter: QSplitter) -> None:
        super().__init__(splitter)
        self.setObjectName("lowerTabs")
        self.setDocumentMode(True)
        self.splitter = splitter
        self.stepper = StepperPanel(model, graph, self)
        self.studio = OptimizationStudio(self)
        self.addTab(self.stepper, self.tr("Backward pass"))
        self.addTab(self.studio, self.tr("Optimization"))
        self.shares = {i: top for i, (top, _) in SPLIT.items()}  # graph's share, per tab
        self._size_by_front_tab()
        self.clean = False  # clean mode: the stepper shows only its controls and current step
        splitter.splitterMoved.connect(self._on_splitter_moved)
        self.currentChanged.connect(self._on_current_changed)
        studio = self.studio
        studio_keys = {
            Qt.Key.Key_Space: studio.panel.play.toggle,
            Qt.Key.Key_Right: studio.step,
            Qt.Key.Key_Left: self.studio_step_back,
            Qt.Key.Key_Home: studio.reset,
        }
        self.studio_shortcuts: list[QShortcut] = []
        for key, slot in studio_keys.items():
            sc = QShortcut(QKeySequence(key), self.window())  # window keys, like the stepper's
            sc.activated.connect(slot)
            sc.setEnabled(False)
            self.studio_shortcuts.append(sc)

    # -- which tab is in front -------------------------------------------------------------
    @property
    def studio_view(self) -> bool:
        """Whether the optimization studio is the tab in front."""
        return self.currentIndex() == STUDIO_TAB

    def show_view(self, view: str) -> None:
        """Bring the studio ("studio") or the backward pass ("graph", "stepper") to the front."""
        self.setCurrentIndex(STUDIO_TAB if view == "studio" else STEPPER_TAB)

    def _size_by_front_tab(self) -> None:
        """Only the tab in front sets how small the tabs may get (not the hidden studio)."""
        for i in range(self.count()):
            page = self.widget(i)
            policy = page.sizePolicy()
            front = i == self.currentIndex()
            policy.setVerticalPolicy(
                QSizePolicy.Policy.Preferred if front else QSizePolicy.Policy.Ignored
            )
            page.setSizePolicy(policy)

    def _on_current_changed(self, index: int) -> None:
        self._size_by_front_tab()
        studio = index == STUDIO_TAB
        for sc in self.stepper.shortcuts:  # the same keys drive whichever tab is in front
            sc.setEnabled(not studio)
        for sc in self.studio_shortcuts:
            sc.setEnabled(studio)
        self.apply_split()

    def transport(self, command: str) -> None:
        """Play/pause, step forward or back, or go to the start in the tab in front."""
        if self.studio_view:
            studio = self.studio
            {"play": studio.panel.play.toggle, "forward": studio.step, "start": studio.reset,
             "back": self.studio_step_back}[command]()  # fmt: skip
        else:
            stepper = self.stepper
            {"play": stepper.play_button.toggle, "forward": stepper.step_forward,
             "back": stepper.step_back, "start": lambda: stepper.jump(0)}[command]()  # fmt: skip

    def studio_step_back(self) -> None:
        """One step back in the studio (pauses)."""
        self.studio.pause()
        self.studio.set_step(self.studio.k - 1)

    # -- the split between the graph and the tabs ------------------------------------------
    def set_clean(self, clean: bool) -> None:
        """Clean mode: the stepper compact, and the graph above it most of the height."""
        self.clean = clean
        self.stepper.set_compact(clean)
        self.apply_split()

    def apply_split(self) -> None:
        """Give the graph the share of the splitter remembered for the tab in front."""
        total = max(sum(self.splitter.sizes()), 400)
        top = self.shares[self.currentIndex()]
        if self.clean and self.currentIndex() == STEPPER_TAB:
            top = max(top, CLEAN_SHARE)
        self.splitter.setSizes([round(total * top), total - round(total * top)])

    def _on_splitter_moved(self, pos: int, index: int) -> None:
        sizes = self.splitter.sizes()
        clean_stepper = self.clean and self.currentIndex() == STEPPER_TAB
        if sum(sizes) > 0 and not clean_stepper:  # the lecturer's split, kept with the layout
            self.shares[self.currentIndex()] = sizes[0] / sum(sizes)

    def split_state(self) -> list[float]:
        """The graph's share per tab, for the window's saved layout."""
        return [self.shares[i] for i in sorted(self.shares)]

    def restore_split(self, saved: Any) -> None:
        """Take the shares saved by :meth:`split_state` (anything else is ignored)."""
        try:
            values = [min(max(float(v), 0.1), 0.9) for v in saved]
        except (TypeError, ValueError):
            return
        if len(values) == len(self.shares):
            self.shares = dict(enumerate(values))
            self.apply_split()
