"""The timeline's controls: which loop, transport, speed, log scale, tensors, export, scrubber.

Widgets only: the panel connects their signals and tells them what to show.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from tapeviz.models.timeline.timeline import Timeline
from tapeviz.ui.elided_label import ElidedPaintLabel
from tapeviz.ui.theme import Theme, font
from tapeviz.ui.timeline import text
from tapeviz.ui.timeline.scrubber import Scrubber

MIN_SPEED, MAX_SPEED = 0.5, 100_000.0  # steps per second
translate = QCoreApplication.translate  # lupdate reads translate("Timeline", "…")


def default_speed(steps: int) -> float:
    """Steps per second that play a loop in about ten seconds."""
    return min(MAX_SPEED, max(MIN_SPEED, round(steps / 10, 1)))


class TimelineControls(QWidget):
    """Everything above the plots (see the module docstring)."""

    exportRequested = Signal(str)  # gif, mp4, png, svg, csv

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("timelineControls")
        self.loop_combo = self._named(QComboBox(self), "timelineLoopCombo")
        self.reset = self._button(translate("OptimizationStudio", "Reset"), "timelineResetButton")
        self.back = self._button(translate("Timeline", "Back"), "timelineBackButton")
        self.play = self._button(translate("OptimizationStudio", "Play"), "timelinePlayButton")
        self.play.setCheckable(True)
        self.step = self._button(translate("OptimizationStudio", "Step"), "timelineStepButton")
        self.reset.setToolTip(translate("Timeline", "Back to the first step (Home)"))
        self.back.setToolTip(translate("Timeline", "One step back (←)"))
        self.play.setToolTip(translate("Timeline", "Play or pause (Space)"))
        self.step.setToolTip(translate("Timeline", "One step forward (→)"))
        self.speed = self._named(QDoubleSpinBox(self), "timelineSpeedSpin")
        self.speed.setRange(MIN_SPEED, MAX_SPEED)
        self.speed.setDecimals(1)
        self.speed.setSuffix(translate("OptimizationStudio", " steps/s"))
        self.log_scale = self._named(
            QCheckBox(translate("Timeline", "Log scale"), self), "timelineLogScale"
        )
        self.log_scale.setToolTip(translate("Timeline", "Loss and gradient norm on a log axis"))
        self.tensor_mode = self._named(QComboBox(self), "timelineTensorCombo")
        self.tensor_mode.addItem(translate("Timeline", "Tensors: norm"), None)
        self.tensor_mode.addItem(translate("Timeline", "Tensors: element"), 0)
        self.tensor_mode.addItem(translate("Timeline", "Tensors: heat strip"), "heat")
        self.element = self._named(QSpinBox(self), "timelineElementSpin")
        self.element.setPrefix("[")
        self.element.setSuffix("]")
        self.element.setToolTip(translate("Timeline", "Which element of each tensor (flattened)"))
        self.export = self._named(QToolButton(self), "timelineExportButton")
        self.export.setText(translate("OptimizationStudio", "Export"))
        self.export.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.export.setMenu(self._export_menu())
        self.scrubber = Scrubber(self)
        self.step_label = self._named(ElidedPaintLabel(self), "timelineStepLabel")
        self.divergence = self._named(QLabel(self), "timelineDivergence")
        self.divergence.setWordWrap(True)
        self.divergence.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.divergence.hide()
        # Two rows, so the tab fits a small window (800 px): the transport above the scrubber,
        # the step's values and the plots' options below it.
        row = QHBoxLayout()
        for w in (self.loop_combo, self.reset, self.back, self.play, self.step, self.speed):
            row.addWidget(w)
        row.addStretch(1)
        options = QHBoxLayout()
        options.addWidget(self.step_label, 1)  # a long line ends in "…", never widens the window
        for w in (self.log_scale, self.tensor_mode, self.element, self.export):
            options.addWidget(w)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(row)
        box.addWidget(self.scrubber)
        box.addLayout(options)
        box.addWidget(self.divergence)
        self.tensor_mode.currentIndexChanged.connect(lambda _: self._show_element())
        self.set_enabled(False)

    def _named(self, widget: Any, name: str) -> Any:
        widget.setObjectName(name)
        return widget

    def _button(self, label: str, name: str) -> QPushButton:
        return self._named(QPushButton(label, self), name)

    def _export_menu(self) -> QMenu:
        menu = QMenu(self.export)
        labels = {
            "gif": translate("OptimizationStudio", "Animation as GIF…"),
            "mp4": translate("OptimizationStudio", "Animation as MP4…"),
            "png": translate("OptimizationStudio", "Plots as PNG…"),
            "svg": translate("OptimizationStudio", "Plots as SVG…"),
            "csv": translate("Timeline", "Series as CSV…"),
        }
        for kind, label in labels.items():
            action = menu.addAction(label)
            action.setObjectName(f"timelineExport_{kind}")
            action.triggered.connect(lambda _=False, k=kind: self.exportRequested.emit(k))
        return menu

    def _show_element(self) -> None:
        self.element.setVisible(self.tensor_mode.isVisible() and self.element_index() is not None)

    def set_enabled(self, on: bool) -> None:
        """Enable the controls only when there is a loop to show."""
        for w in (self.loop_combo, self.reset, self.back, self.play, self.step, self.speed,
                  self.log_scale, self.tensor_mode, self.element, self.export,
                  self.scrubber):  # fmt: skip
            w.setEnabled(on)

    def set_loops(self, timelines: Sequence[Timeline]) -> None:
        """The loops to choose from (the combo shows for two or more)."""
        self.loop_combo.blockSignals(True)
        self.loop_combo.clear()
        for tl in timelines:
            self.loop_combo.addItem(text.title(tl))
        self.loop_combo.setVisible(len(timelines) > 1)
        self.loop_combo.blockSignals(False)
        self.set_enabled(bool(timelines))

    def show_timeline(self, index: int, tl: Timeline, printed: np.ndarray) -> None:
        """Loop ``index``: its steps on the scrubber, its marks, its divergence."""
        self.loop_combo.blockSignals(True)
        self.loop_combo.setCurrentIndex(index)
        self.loop_combo.blockSignals(False)
        sizes = [p.size for p in tl.parameters if p.size > 1]
        self.tensor_mode.setVisible(bool(sizes))
        self.element.setRange(0, max(sizes, default=1) - 1)
        self._show_element()
        self.speed.setValue(default_speed(tl.steps))
        self.scrubber.blockSignals(True)
        self.scrubber.setRange(0, max(0, tl.steps - 1))
        self.scrubber.blockSignals(False)
        d = tl.divergence
        self.scrubber.set_marks(d.step if d else None,
                                [m[0] for m in d.milestones] if d else [], printed)  # fmt: skip
        self.scrubber.set_epochs(tl.epochs.starts if tl.epochs is not None else None)
        self.divergence.setText("⚠ " + text.explanation(d) if d else "")
        self.divergence.setVisible(d is not None)

    def clear(self) -> None:
        """No loop: an empty scrubber and labels."""
        self.scrubber.set_marks(None, [], np.zeros(0, np.int64))
        self.scrubber.set_epochs(None)
        self.step_label.clear()
        self.divergence.clear()
        self.divergence.hide()

    def element_index(self) -> int | None:
        """The tensor element to plot (None: each tensor's norm, or the heat strip)."""
        chosen = self.tensor_mode.currentData()
        return self.element.value() if isinstance(chosen, int) else None

    def heat_strip(self) -> bool:
        """Whether tensors show as a heat strip of all their elements (when there are tensors)."""
        return self.tensor_mode.currentData() == "heat" and not self.tensor_mode.isHidden()

    def set_position(self, k: int, label: str) -> None:
        """Move the scrubber to k (no signal) and show ``label``."""
        self.scrubber.blockSignals(True)
        self.scrubber.setValue(k)
        self.scrubber.blockSignals(False)
        self.step_label.setText(label)
        self.step_label.setToolTip(label)  # all of it, where the line is cut

    def set_playing(self, playing: bool) -> None:
        """The play button's state and text (no signal)."""
        self.play.blockSignals(True)
        self.play.setChecked(playing)
        self.play.blockSignals(False)
        pause, play = (
            translate("OptimizationStudio", "Pause"),
            translate("OptimizationStudio", "Play"),
        )
        self.play.setText(pause if playing else play)

    def restyle(self, theme: Theme, scale: float) -> None:
        """Theme colours and presenter-mode scale."""
        self.scrubber.theme = theme
        self.scrubber.update()
        self.divergence.setStyleSheet(f"color: {theme.warning}")
        self.divergence.setFont(font(10 * scale))
