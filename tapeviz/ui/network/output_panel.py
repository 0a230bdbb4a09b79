"""Playground's OUTPUT column: test and training loss, their curves, the decision boundary.

One run shows one large map; a race shows every run's map side by side (small multiples,
each titled by its optimizer in its colour, a diverged one saying so) and overlays the loss
curves. The curves (pyqtgraph) are made when the panel is first shown.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QCoreApplication, QSize, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from tapeviz.models.descent.optimizer_config import PALETTE
from tapeviz.ui.network.frames import RunFrame
from tapeviz.ui.network.output_map import OutputMap
from tapeviz.ui.theme import LIGHT, Theme

if TYPE_CHECKING:
    from tapeviz.ui.network.loss_plot import LossPlot

translate = QCoreApplication.translate  # lupdate reads translate("NetworkPanel", "…")
MAX_SHARE = 0.55  # of the tab's width, at most, for the output column


def grid_shape(n: int) -> tuple[int, int]:
    """(columns, rows) of the maps: one, 2 × 1, 2 × 2, 3 × 2."""
    columns = 1 if n == 1 else (2 if n <= 4 else 3)
    return columns, -(-n // columns)


def loss_text(value: float | None) -> str:
    """A loss as Playground prints it (three decimals; ``nan`` and ``inf`` as they are; None: —)."""
    if value is None:  # no epoch yet (a script's fit before its first epoch ends)
        return "—"
    return f"{value:.3f}" if math.isfinite(value) else f"{value}"


class OutputPanel(QWidget):
    """The loss numbers and curves beside the output map(s), and the two view options."""

    optionsChanged = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("networkOutputPanel")
        self.theme, self.scale = LIGHT, 1.0
        self.data: Any = None
        self.maps: list[OutputMap] = []
        self._height = 0  # the height the width was last fitted to
        self.max_width = 10_000  # what the tab leaves the column (NetworkPanel sets it)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
        outer = QHBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(6)
        self.map_area = QWidget(self)
        self.grid = QGridLayout(self.map_area)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setSpacing(4)
        outer.addWidget(self.map_area, 1)
        side = QWidget(self)
        col = QVBoxLayout(side)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(2)
        self.title = QLabel(translate("NetworkPanel", "Output"), side)
        self.title.setObjectName("networkOutputTitle")
        self.test_loss = QLabel(side)
        self.test_loss.setObjectName("networkTestLoss")
        self.train_loss = QLabel(side)
        self.train_loss.setObjectName("networkTrainLoss")
        self.plot_slot = QWidget(side)
        self.plot_slot.setMinimumHeight(60)
        self._plot: LossPlot | None = None
        self.show_test = QCheckBox(translate("NetworkPanel", "Show test data"), side)
        self.show_test.setObjectName("networkShowTest")
        self.discretize = QCheckBox(translate("NetworkPanel", "Discretize output"), side)
        self.discretize.setObjectName("networkDiscretize")
        for w in (self.title, self.test_loss, self.train_loss):
            col.addWidget(w)
        col.addWidget(self.plot_slot, 1)
        col.addWidget(self.show_test)
        col.addWidget(self.discretize)
        outer.addWidget(side, 0)
        self.side = side
        self.show_test.toggled.connect(self._on_options_toggled)
        self.discretize.toggled.connect(self._on_options_toggled)
        self.set_run_count(1)
        self.show_losses(float("nan"), float("nan"))

    @property
    def plot(self) -> LossPlot:
        """The loss curves, made when first needed (pyqtgraph loads then)."""
        if self._plot is None:
            from tapeviz.ui.network.loss_plot import LossPlot

            plot = LossPlot(self.side)
            plot.restyle(self.theme, self.scale)
            self.side.layout().replaceWidget(self.plot_slot, plot)
            self.plot_slot.hide()
            plot.show()
            self._plot = plot
        return self._plot

    def set_run_count(self, n: int) -> None:
        """One map per run: one large, or up to six in a grid (3 columns)."""
        n = max(1, n)
        if n == len(self.maps):
            return
        for m in self.maps:
            self.grid.removeWidget(m)
            m.deleteLater()
        self.maps = []
        columns, _ = grid_shape(n)
        for k in range(n):
            m = OutputMap(self.map_area, minimum=60 if n > 1 else 120)
            m.setObjectName(f"networkOutputMap{k}")
            m.restyle(self.theme, self.scale)
            m.set_data(self.data)
            m.set_options(self.show_test.isChecked(), self.discretize.isChecked())
            self.grid.addWidget(m, k // columns, k % columns)
            self.maps.append(m)
        self.updateGeometry()

    def sizeHint(self) -> QSize:
        """As wide as the maps are tall (squares), plus the loss column; at most MAX_SHARE."""
        h = self.height() if self.height() > 50 else 300
        columns, rows = grid_shape(len(self.maps))
        title = self.fontMetrics().height() + 4 if len(self.maps) > 1 else 0
        side = max(40.0, (h - (rows - 1) * 4) / rows - title)
        width = round(columns * side + (columns - 1) * 4) + 6 + self.side.sizeHint().width()
        parent = self.parentWidget()
        if parent is not None:
            width = min(width, round(parent.width() * MAX_SHARE))
        return QSize(max(min(width, self.max_width), self.minimumSizeHint().width()), h)

    def resizeEvent(self, event: Any) -> None:
        """Qt override: a new height asks for a new width (the maps stay square)."""
        super().resizeEvent(event)
        if abs(self.height() - self._height) > 2:
            self._height = self.height()
            self.updateGeometry()

    def set_data(self, data: Any) -> None:
        """The data set every map shows."""
        self.data = data
        for m in self.maps:
            m.set_data(data)

    def show_losses(self, test: float | None, train: float | None) -> None:
        """Playground's two numbers."""
        self.test_loss.setText(translate("NetworkPanel", "Test loss %1").replace(
            "%1", loss_text(test)))  # fmt: skip
        self.train_loss.setText(translate("NetworkPanel", "Training loss %1").replace(
            "%1", loss_text(train)))  # fmt: skip

    def show_runs(
        self, runs: Sequence[RunFrame], notes: Sequence[str] = (), playing: bool = False
    ) -> None:
        """Every run's map and the loss curves (``playing``: at most 10 a second)."""
        self.set_run_count(len(runs))
        race = len(runs) > 1
        for k, (m, run) in enumerate(zip(self.maps, runs, strict=False)):
            m.set_output(run.output)
            note = notes[k] if k < len(notes) else ""
            if race:
                m.set_title(run.kind, PALETTE[k % len(PALETTE)], note)
                m.setToolTip(run.label)
            else:
                m.set_title("", "", note)
                m.setToolTip("")
        if runs:
            first = runs[0]
            known = first.train_loss.size > 0
            tested = known and not np.isnan(first.test_loss).all()  # (a script without test data)
            self.show_losses(first.last_test if tested else None,
                             first.last_train if known else None)  # fmt: skip
            output = translate("NetworkPanel", "Output")
            self.title.setText(f"{output} · {runs[0].kind}" if race else output)
        self.plot.show_runs(runs, playing)

    def _on_options_toggled(self, _on: bool) -> None:
        for m in self.maps:
            m.set_options(self.show_test.isChecked(), self.discretize.isChecked())
        self.optionsChanged.emit()

    def restyle(self, theme: Theme, scale: float) -> None:
        """Theme colours and the presenter scale."""
        self.theme, self.scale = theme, float(scale)
        for m in self.maps:
            m.restyle(theme, scale)
        if self._plot is not None:
            self._plot.restyle(theme, scale)
        f = self.title.font()
        f.setBold(True)
        self.title.setFont(f)
        big = self.font()
        big.setPointSizeF(self.font().pointSizeF() * 1.15)
        for label, colour in ((self.test_loss, theme.text), (self.train_loss, theme.muted)):
            label.setFont(big)
            label.setStyleSheet(f"color: {colour};")
