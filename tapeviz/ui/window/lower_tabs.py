"""The tabs under the graph: the backward pass, the optimization studio, the loop, the plots.

The graph is linked to whichever tab is in front: under "Backward pass" it shows the tapes of
the editor's last run; under "Optimization" it shows the tape of the studio's current step
(``OptimizationStudio.stepTape``), so scrubbing or playing the descent moves the graph too;
under "Timeline" (enabled when the last run recorded a loop) the tapes of the loop's current
step (``TimelinePanel.stepTapes``); under "Network" the tape of the network's current step
(``NetworkPanel.stepTape``, when paused). The window makes those links (it hears
``currentChanged``); the tabs own the panels, the keys that drive the one in front, and the
share of the window each tab gives the graph (a view that needs more height to show everything
unscrolled gets it, and the graph under the studio or the gradient check is shown whole: see
:mod:`~tapeviz.ui.window.split_sizes`). "Plots" holds the figures of the last script run that
drew any (``plt.plot``, ...); the graph keeps the editor's last run under it.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QSizePolicy, QSplitter, QTabWidget

from tapeviz.models.graph.model import GraphModel
from tapeviz.ui.figures.panel import PlotsPanel
from tapeviz.ui.graph.view import GraphView
from tapeviz.ui.network.panel import NetworkPanel
from tapeviz.ui.stepper.panel import StepperPanel
from tapeviz.ui.studio.studio import OptimizationStudio
from tapeviz.ui.timeline.panel import TimelinePanel
from tapeviz.ui.window.split_sizes import (
    GRADCHECK_VIEW,
    WHOLE_VIEWS,
    FitByView,
    graph_height,
    view_need,
)

STEPPER_TAB, STUDIO_TAB, TIMELINE_TAB, PLOTS_TAB, NETWORK_TAB = 0, 1, 2, 3, 4
SPLIT = {STEPPER_TAB: (0.6, 0.4), STUDIO_TAB: (0.36, 0.64), TIMELINE_TAB: (0.5, 0.5),
         PLOTS_TAB: (0.4, 0.6), NETWORK_TAB: (0.25, 0.75)}  # fmt: skip
CLEAN_SHARE = 0.78  # the graph's share above the stepper in clean mode (at least)


class LowerTabs(QTabWidget):
    """The stepper, the studio, the timeline, the plots and the network in tabs, below the graph.

    It owns the panels, the window shortcuts → ← Space Home of the studio, the timeline and the
    network (the stepper has the same keys; only the tab in front's are enabled), the graph's share
    of ``splitter`` per tab (``shares``, saved with the window's layout; ``own``: the tabs whose
    share the lecturer set, kept as it is) and the graph's fit per view (``fits``).
    """

    def __init__(self, model: GraphModel, graph: GraphView, splitter: QSplitter) -> None:
        super().__init__(splitter)
        self.setObjectName("lowerTabs")
        self.setDocumentMode(True)
        self.splitter = splitter
        self.stepper = StepperPanel(model, graph, self)
        self.studio = OptimizationStudio(self)
        self.timeline = TimelinePanel(self)
        self.addTab(self.stepper, self.tr("Backward pass"))
        self.addTab(self.studio, self.tr("Optimization"))
        self.plots = PlotsPanel(self)
        self.addTab(self.timeline, self.tr("Timeline"))
        self.addTab(self.plots, self.tr("Plots"))
        self.network = NetworkPanel(self)
        self.addTab(self.network, self.tr("Network"))
        self.set_timeline_available(False)
        self.plots.figuresChanged.connect(self._on_plots_figures_changed)
        self.shares = {i: top for i, (top, _) in SPLIT.items()}  # graph's share, per tab
        self.own: set[Any] = set()  # views whose share the lecturer dragged (or saved so)
        self.gradcheck_share: float | None = None  # dragged with the gradient check in front
        self.fits = FitByView(graph, WHOLE_VIEWS | {STUDIO_TAB})
        self._size_by_front_tab()
        self.clean = False  # clean mode: the stepper shows only its controls and current step
        self._view = self.view_key()
        self._settle = QTimer(self)  # the split again once a resize or a new scale settled
        self._settle.setSingleShot(True)
        self._settle.setInterval(0)
        self._settle.timeout.connect(self.apply_split)
        splitter.installEventFilter(self)
        splitter.splitterMoved.connect(self._on_splitter_moved)
        self.currentChanged.connect(self._on_current_changed)
        self.stepper.tabs.currentChanged.connect(lambda _: self._on_view_changed())
        studio = self.studio
        studio_keys = {
            Qt.Key.Key_Space: studio.panel.play.toggle,
            Qt.Key.Key_Right: studio.step,
            Qt.Key.Key_Left: self.studio_step_back,
            Qt.Key.Key_Home: studio.reset,
        }
        self.studio_shortcuts = self._shortcuts(studio_keys)
        timeline = self.timeline
        self.timeline_shortcuts = self._shortcuts({
            Qt.Key.Key_Space: timeline.toggle,
            Qt.Key.Key_Right: timeline.step_forward,
            Qt.Key.Key_Left: timeline.step_back,
            Qt.Key.Key_Home: timeline.reset,
        })  # fmt: skip
        network = self.network
        self.network_shortcuts = self._shortcuts({
            Qt.Key.Key_Space: network.toggle,
            Qt.Key.Key_Right: network.step,
            Qt.Key.Key_Home: network.reset,
        })  # fmt: skip

    def _shortcuts(self, keys: dict[Any, Any]) -> list[QShortcut]:
        """Window keys (like the stepper's), off until their tab comes to the front."""
        out = []
        for key, slot in keys.items():
            sc = QShortcut(QKeySequence(key), self.window())
            sc.activated.connect(slot)
            sc.setEnabled(False)
            out.append(sc)
        return out

    # -- which tab is in front -------------------------------------------------------------
    @property
    def studio_view(self) -> bool:
        """Whether the optimization studio is the tab in front."""
        return self.currentIndex() == STUDIO_TAB

    @property
    def timeline_view(self) -> bool:
        """Whether the timeline of the script's loop is the tab in front."""
        return self.currentIndex() == TIMELINE_TAB

    @property
    def network_view(self) -> bool:
        """Whether the Network view is the tab in front."""
        return self.currentIndex() == NETWORK_TAB

    def show_view(self, view: str) -> None:
        """Bring "studio", "timeline" (if enabled), "plots", "network" or the backward pass."""
        tabs = {"studio": STUDIO_TAB, "timeline": TIMELINE_TAB, "plots": PLOTS_TAB,
                "network": NETWORK_TAB}  # fmt: skip
        index = tabs.get(view, STEPPER_TAB)
        self.setCurrentIndex(index if self.isTabEnabled(index) else STEPPER_TAB)

    def set_timeline_available(self, available: bool) -> None:
        """Enable the Timeline tab when the last run recorded a loop (leave it when not)."""
        self.setTabEnabled(TIMELINE_TAB, available)
        self.setTabToolTip(TIMELINE_TAB, "" if available else self.tr(
            "The last run recorded no loop: run a script whose loop records a tape per step"
        ))  # fmt: skip
        if not available and self.timeline_view:
            self.setCurrentIndex(STEPPER_TAB)

    def _size_by_front_tab(self) -> None:
        """Only the tab in front sets how small the tabs may get (not a hidden one)."""
        for i in range(self.count()):
            page = self.widget(i)
            policy = page.sizePolicy()
            front = i == self.currentIndex()
            kind = QSizePolicy.Policy.Preferred if front else QSizePolicy.Policy.Ignored
            policy.setVerticalPolicy(kind)
            policy.setHorizontalPolicy(kind)  # the timeline's wide transport row, hidden
            page.setSizePolicy(policy)

    def _on_current_changed(self, index: int) -> None:
        self._size_by_front_tab()
        for sc in self.stepper.shortcuts:  # the same keys drive whichever tab is in front
            sc.setEnabled(index == STEPPER_TAB)
        for sc in self.studio_shortcuts:
            sc.setEnabled(index == STUDIO_TAB)
        for sc in self.timeline_shortcuts:
            sc.setEnabled(index == TIMELINE_TAB)
        for sc in self.network_shortcuts:
            sc.setEnabled(index == NETWORK_TAB)
        if index != TIMELINE_TAB:
            self.timeline.pause()
        if index != NETWORK_TAB:
            self.network.pause()
        self._on_view_changed()

    def _on_plots_figures_changed(self, count: int) -> None:
        title = self.tr("Plots") if not count else self.tr("Plots (%1)").replace("%1", str(count))
        self.setTabText(PLOTS_TAB, title)

    def transport(self, command: str) -> None:
        """Play/pause, step forward or back, or go to the start in the tab in front."""
        if self.network_view:
            net = self.network
            {"play": net.toggle, "forward": net.step, "start": net.reset,
             "back": lambda: None}[command]()  # fmt: skip
        elif self.timeline_view:
            tl = self.timeline
            {"play": tl.toggle, "forward": tl.step_forward, "start": tl.reset,
             "back": tl.step_back}[command]()  # fmt: skip
        elif self.studio_view:
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
        self._on_view_changed()

    def view_key(self) -> Any:
        """The view in front: the tab's index, or GRADCHECK_VIEW (the stepper's gradient check)."""
        index, stepper = self.currentIndex(), self.stepper
        checking = stepper.tabs.currentWidget() is stepper.gradcheck
        if index == STEPPER_TAB and not self.clean and not stepper.tabs.isHidden() and checking:
            return GRADCHECK_VIEW
        return index

    def _on_view_changed(self) -> None:
        """Another tab (or the gradient check) in front: its split, then its graph's fit."""
        old, self._view = self._view, self.view_key()
        self.apply_split()
        self.fits.switch(old, self._view)
        self._settle.start()  # (a page just brought to the front is laid out on the next turn)

    def _share(self, key: Any) -> float:
        if key == GRADCHECK_VIEW:
            share = self.gradcheck_share
            return self.shares[STEPPER_TAB] if share is None else share
        return self.shares[key]

    def _need(self, key: Any) -> int | None:
        """The lower tabs' height at which the view in front shows everything unscrolled."""
        if key == STUDIO_TAB:
            return view_need(self, self.studio, self.studio.needed_height())
        if key == GRADCHECK_VIEW:
            gradcheck = self.stepper.gradcheck
            return view_need(self, gradcheck, gradcheck.needed_height())
        return None

    def apply_split(self) -> None:
        """Give the graph the share of the splitter remembered for the view in front.

        A view that needs more height gets it, and the graph some more when the view can
        spare it, unless the lecturer set that share (see ``split_sizes.graph_height``).
        """
        total = max(sum(self.splitter.sizes()), 400)
        key = self.view_key()
        share = self._share(key)
        if self.clean and key == STEPPER_TAB:
            share = max(share, CLEAN_SHARE)
        need = None if key in self.own else self._need(key)
        top = graph_height(total, share, need, self.studio.scale)
        if self.splitter.sizes() != [top, total - top]:
            self.splitter.setSizes([top, total - top])

    def _on_splitter_moved(self, pos: int, index: int) -> None:
        sizes = self.splitter.sizes()
        key = self.view_key()
        clean_stepper = self.clean and key == STEPPER_TAB
        if sum(sizes) > 0 and not clean_stepper:  # the lecturer's split, kept with the layout
            share = sizes[0] / sum(sizes)
            if key == GRADCHECK_VIEW:
                self.gradcheck_share = share
            else:
                self.shares[key] = share
            self.own.add(key)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Qt override: the splitter resized (the window, the docks): the split again, settled."""
        if watched is self.splitter and event.type() == QEvent.Type.Resize:
            self._settle.start()
        return super().eventFilter(watched, event)

    def changeEvent(self, event: QEvent) -> None:
        """Qt override: a new presenter scale (the fonts) changes what the views need."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._settle.start()

    def split_state(self) -> list[float]:
        """The graph's share per tab, for the window's saved layout."""
        return [self.shares[i] for i in sorted(self.shares)]

    def restore_split(self, saved: Any) -> None:
        """Take the shares saved by :meth:`split_state` (anything else is ignored).

        A share other than its tab's default is the lecturer's: kept as it is.
        """
        try:
            values = [min(max(float(v), 0.1), 0.9) for v in saved]
        except (TypeError, ValueError):
            return
        # all the tabs' shares, or the first ones (saved before the Timeline or Plots tab existed)
        if 2 <= len(values) <= len(self.shares):
            self.shares.update(enumerate(values))
            defaults = {i for i, v in enumerate(values) if abs(v - SPLIT[i][0]) <= 0.005}
            self.own = (self.own - defaults) | (set(range(len(values))) - defaults)
            self.apply_split()
