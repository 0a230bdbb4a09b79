"""Gradient check: the tape's gradients beside central finite differences, and error vs h.

The table and the plot sit side by side and share the panel's height. At 1,366×768 and 150 % they
got ~20 px each; the panel now says what it needs (:meth:`GradCheckPanel.needed_height`: ROOM
px for both, more at a presenter scale past 150 %) and the window's split gives it that while
it is in front.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tapeviz.models.backward import gradient_check
from tapeviz.models.graph.model import GraphModel
from tapeviz.models.values import short
from tapeviz.ui import workers
from tapeviz.ui.theme import LIGHT, Theme

BLUE = "#0072B2"  # the error curve (Okabe-Ito blue: clear on both themes)
ROOM = 150  # px for the table and the plot up to 150 %, × the scale past it: a header, 4 rows
MARGIN = 4  # px around the panel (it sits in a tab page, which has its own frame)

if TYPE_CHECKING:
    import pyqtgraph as pg


class GradCheckPanel(QWidget):
    """A table (source, tape, finite differences, relative error) and a log-log error plot."""

    def __init__(self, model: GraphModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("gradCheckPanel")
        self.model = model
        self.rows: list[gradient_check.CheckRow] = []
        self.button = QPushButton(self.tr("Check gradients"), self)
        self.button.setObjectName("gradCheckButton")
        self.status = QLabel(self)
        self.status.setWordWrap(True)  # a long verdict wraps: it never widens the window
        self.table = QTableWidget(0, 4, self)
        self.table.setObjectName("gradCheckTable")
        self.table.setHorizontalHeaderLabels(
            [
                self.tr("source"),
                self.tr("tape"),
                self.tr("finite differences"),
                self.tr("rel. error"),
            ]
        )
        header = self.table.horizontalHeader()  # every header whole ("finite differences")
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.verticalHeader().hide()  # (the source names the row)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self._plot: pg.PlotWidget | None = None  # made when the tab is first shown (see plot)
        self.theme, self.scale = LIGHT, 1.0
        self.curve: list[tuple[float, float]] | None = None  # (h, error) of the selected row
        self._plot_slot = QWidget(self)
        top = QHBoxLayout()
        top.addWidget(self.button)
        top.addWidget(self.status, 1)
        box = QVBoxLayout(self)
        box.setContentsMargins(MARGIN, MARGIN, MARGIN, MARGIN)
        box.addLayout(top)
        self._row = row = QHBoxLayout()
        row.addWidget(self.table, 3)
        row.addWidget(self._plot_slot, 2)
        box.addLayout(row)
        self.button.clicked.connect(self.run_check)
        self.table.itemSelectionChanged.connect(self._on_table_selection_changed)
        self.model.changed.connect(self._on_model_changed)

    @property
    def plot(self) -> pg.PlotWidget:
        """The log-log error plot, made when first shown or used (pyqtgraph is not a start cost)."""
        if self._plot is None:
            import pyqtgraph as pg

            plot = pg.PlotWidget(self)
            plot.setObjectName("gradCheckPlot")
            plot.setLogMode(x=True, y=True)
            plot.setLabel("bottom", self.tr("step h"))
            plot.setLabel("left", self.tr("rel. error"))  # (whole on a short plot)
            plot.showGrid(x=True, y=True, alpha=0.3)
            self._style(plot)  # the window's colours, no SI prefixes
            self._row.replaceWidget(self._plot_slot, plot)
            self._plot_slot.hide()
            plot.setVisible(self.isVisible())  # a child made after its parent was shown
            self._plot = plot
        return self._plot

    def needed_height(self) -> int:
        """The panel's height with ROOM px (more past 150 %) for the table and the plot."""
        box = self.layout()
        margins = box.contentsMargins()
        status = (
            self.status.heightForWidth(max(self.status.width(), 1)) if self.status.text() else 0
        )
        top = max(self.button.sizeHint().height(), status)
        room = round(ROOM * max(self.scale, 1.5) / 1.5)
        return margins.top() + top + box.spacing() + room + margins.bottom()

    def showEvent(self, event: Any) -> None:
        """Qt override: the plot is made on first show."""
        super().showEvent(event)
        self.plot.show()

    def _inputs(self) -> tuple[list[Any], int, dict[int, Any], dict[int, str]] | None:
        entry = self.model.entry
        if entry is None or not entry.targets or not self.model.gradients:
            return None
        grads = {}
        for nid, value in self.model.gradients.items():
            node = self.model.nodes[nid]
            if node.kind in ("variable", "watched"):
                grads[node.tensor_id] = value
        names = {n.tensor_id: n.label for n in self.model.nodes.values()}
        return list(entry.tape.records), entry.targets[0], grads, names

    def run_check(self) -> None:
        """Compute the finite differences in a worker; fill the table when done."""
        inputs = self._inputs()
        if inputs is None:
            self.status.setText(self.tr("Nothing to check: this tape has no gradient yet."))
            return
        self.button.setEnabled(False)
        self.status.setText(self.tr("Checking…"))
        workers.submit(
            gradient_check.check,
            *inputs,
            on_done=self._on_check_done,
            on_error=self._on_check_failed,
        )

    def _on_check_done(self, rows: list[gradient_check.CheckRow]) -> None:
        self.button.setEnabled(True)
        self.rows = rows
        self.table.setRowCount(len(rows))
        for i, r in enumerate(rows):
            cells = [r.name, short(r.tape), short(r.estimate), f"{r.error:.2e}"]
            for j, text in enumerate(cells):
                self.table.setItem(i, j, QTableWidgetItem(text))
        worst = max((r.error for r in rows), default=0.0)
        verdict = self.tr("agree") if worst < 1e-3 else self.tr("DISAGREE")
        text = self.tr("Tape and finite differences {v} (worst {e:.1e}).").format(
            v=verdict, e=worst
        )
        custom = self._custom_gradients() if worst >= 1e-3 else []
        if custom:  # as meant: the tape follows the script's own gradient function
            text += " " + self.tr(
                "The tape uses the custom gradient of {name}, not the function's derivative."
            ).format(name=custom[0])
        self.status.setText(text)
        if rows:
            self.table.selectRow(0)

    def _custom_gradients(self) -> list[str]:
        """The names of the tape's ``tf.custom_gradient`` functions."""
        inputs = self._inputs()
        records = inputs[0] if inputs is not None else []
        return [str(r.params.get("name", "")) for r in records if r.name == "custom_gradient"]

    def _on_check_failed(self, text: str) -> None:
        self.button.setEnabled(True)
        last = text.splitlines()[-1] if text else ""
        last = re.sub(r"^(?:\w+\.)+(\w+: )", r"\1", last)  # the error's name, not its module
        self.status.setText(self.tr("The check failed: ") + last)

    def _on_table_selection_changed(self) -> None:
        selected = self.table.selectionModel().selectedRows()
        inputs = self._inputs()
        if not selected or inputs is None or not self.rows:
            return
        row = self.rows[selected[0].row()]
        records, target, _, _ = inputs
        workers.submit(
            gradient_check.error_curve,
            records,
            target,
            row.source_id,
            row.tape,
            on_done=self._on_curve_done,
        )

    def set_theme(self, theme: Theme) -> None:
        """Light or dark colours for the error plot."""
        self.theme = theme
        if self._plot is not None:
            self._style(self._plot)

    def set_font_scale(self, scale: float) -> None:
        """Presenter mode: the error plot's fonts and lines scale too."""
        self.scale = float(scale)
        if self._plot is not None:
            self._style(self._plot)

    def _style(self, plot: pg.PlotWidget) -> None:
        from tapeviz.ui.plots.step_plots import style_plot  # (pyqtgraph: loaded with the plot)

        style_plot(plot, self.theme, self.scale)
        if self.curve is not None:
            self._on_curve_done(self.curve)  # the curve's pen follows the scale

    def _on_curve_done(self, curve: list[tuple[float, float]]) -> None:
        import pyqtgraph as pg

        self.plot.clear()
        hs = np.array([h for h, _ in curve])
        errors = np.maximum(np.array([e for _, e in curve]), 1e-17)
        width = 2 * self.scale
        self.plot.plot(
            hs, errors, pen=pg.mkPen(BLUE, width=width), symbol="o", symbolBrush=BLUE,
            symbolSize=7 * self.scale,
        )  # fmt: skip
        self.curve = curve

    def _on_model_changed(self) -> None:
        self.rows, self.curve = [], None
        self.table.setRowCount(0)
        if self._plot is not None:
            self._plot.clear()
        self.status.clear()
