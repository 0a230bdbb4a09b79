"""The network as Playground draws it: every neuron a heat map, links coloured by their weight.

Column 0 shows every input feature (click one to switch it on or off); then the hidden layers,
each headed by − n + for its neurons (− 2 hidden layers + below them changes the number of
layers); then the output. A link's colour is its weight's sign (orange negative, blue positive), its
width grows with |w|; hovering shows the weight's name and value (``dense_1/kernel[2, 0]``) and
a click opens a small editor under the pointer (Enter applies, Esc closes). The small square
at a neuron's lower left is its bias, shown and edited the same way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QImage,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QResizeEvent,
)
from PySide6.QtWidgets import QLabel, QSizePolicy, QToolButton, QToolTip, QWidget

from tapeviz.models.network.config import FEATURE_LABELS, FEATURES, MAX_LAYERS, MAX_NEURONS
from tapeviz.ui.network.atlas import NeuronAtlas
from tapeviz.ui.network.diagram_paint import (
    DIMMED,
    MAX_WIDTH,
    LinkLayer,
    paint_diagram,
    weight_of,
)
from tapeviz.ui.network.geometry import GAP, Geometry, layout
from tapeviz.ui.network.heat import colour_table, scaled_for_display
from tapeviz.ui.network.weight_editor import WeightEditor, layer_name
from tapeviz.ui.theme import LIGHT, Theme

LARGEST = 64.0  # px of a neuron at presenter scale 1 (it grows with the scale)


class NetworkDiagram(QWidget):
    """The features, hidden layers and output of the network with their heat maps and links."""

    featureToggled = Signal(str)
    layersChanged = Signal(int)  # +1 / −1 hidden layer
    neuronsChanged = Signal(int, int)  # hidden layer index, +1 / −1 neuron
    weightEdited = Signal(int, int, int, float)  # layer, i (−1: the bias), j, value
    editRefused = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("networkDiagram")
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.theme, self.scale = LIGHT, 1.0
        self.table = colour_table(LIGHT)
        self.features: tuple[str, ...] = ("x1", "x2")
        self.hidden: tuple[int, ...] = (4, 2)
        self.weights: tuple[tuple[np.ndarray, np.ndarray], ...] = ()
        self._feature_grids: dict[str, np.ndarray] = {}
        self.layer_grids: tuple[np.ndarray, ...] = ()
        self.inputs_version = self.layers_version = 0  # bumped by new grids (new heat maps)
        self.atlas_ = NeuronAtlas(DIMMED)
        self.geometry_ = Geometry()
        self._frame_rect = QRect()  # (set with each layout: see frame_rect)
        self.links = LinkLayer()  # the links drawn once per new weights (or layout)
        self.training = False  # while training, the thread draws the links
        self.hover: tuple[str, int] | None = None  # ("link" | "bias", index)
        self._editing: tuple[int, int, int] | None = None
        self.editor = WeightEditor(self)
        self.editor.accepted.connect(self._on_editor_accepted)
        self.editor.refused.connect(self._on_editor_refused)
        self.add_layer = self._button("+", "networkAddLayer", self.tr("Add a hidden layer"))
        self.remove_layer = self._button("−", "networkRemoveLayer",
                                         self.tr("Remove the last hidden layer"))  # fmt: skip
        self.add_layer.clicked.connect(lambda: self.layersChanged.emit(+1))
        self.remove_layer.clicked.connect(lambda: self.layersChanged.emit(-1))
        self.layers_label = QLabel(self)
        self.layers_label.setObjectName("networkLayersLabel")
        self.features_label = QLabel(self.tr("Features"), self)
        self.output_label = QLabel(self.tr("Output"), self)
        self.column_buttons: list[tuple[QWidget, ...]] = []
        self._rebuild_column_buttons()

    def _button(self, text: str, name: str, tip: str) -> QToolButton:
        b = QToolButton(self)
        b.setText(text)
        b.setObjectName(name)
        b.setToolTip(tip)
        b.setAutoRaise(False)
        return b

    # -- what to show ----------------------------------------------------------------------------
    def set_shape(self, features: Sequence[str], hidden: Sequence[int]) -> None:
        """The network's inputs and hidden layer sizes (the heat maps follow with a frame)."""
        self.features, self.hidden = tuple(features), tuple(hidden)
        self.weights, self.layer_grids = (), ()
        self.editor.hide()
        self._rebuild_column_buttons()
        self._relayout()
        self._make_images(inputs=True)

    def set_feature_grids(self, grids: dict[str, np.ndarray]) -> None:
        """Every input feature over the input plane (they change with the data set only)."""
        self._feature_grids = {k: scaled_for_display(v) for k, v in grids.items()}
        self._make_images(inputs=True)

    def set_frame(
        self,
        layers: Sequence[np.ndarray],
        weights: Any,
        links: Any = None,
        spec: Any = None,
        atlas: Any = None,
        atlas_spec: Any = None,
    ) -> None:
        """The neurons' grids (inputs first), the weights, what the thread drew for them.

        ``links`` and ``atlas``: the links' image and the layers' strips the training thread
        made for the diagram's ``spec`` and ``atlas_spec`` (None: made here when painted).
        """
        self.layer_grids = tuple(layers)
        self.weights = weights
        self.links.offer(spec, links, weights)
        self._make_images()
        self.atlas_.offer(atlas_spec, atlas, self.layers_version)

    def _make_images(self, inputs: bool = False) -> None:
        """New grids to show (``inputs``: the inputs' too): the strips are made again."""
        self.layers_version += 1
        self.inputs_version += inputs
        if inputs:  # (a new shape, theme or data set: everything)
            self.update()
        else:  # a new frame: the neurons and links only
            self.update(self.frame_rect())

    def input_column(self) -> tuple[list[QRectF], np.ndarray | None, list[bool]] | None:
        """The inputs' squares, their grids (k, res, res) and which are on; None: no layout."""
        cols = self.geometry_.columns
        if not cols:
            return None
        feats = self._feature_grids
        inputs = np.stack([feats[f] for f in FEATURES]) if len(feats) == len(FEATURES) else None
        return cols[0], inputs, [f in self.features for f in FEATURES]

    def frame_rect(self) -> QRect:
        """What a new frame changes: the layers' neurons and biases, and the links.

        The inputs' squares, the header's and the footer's buttons and labels lie outside it
        (a frame need not repaint them: ~0.4 ms). Measured once per layout (~0.5 ms).
        """
        return self._frame_rect

    def atlas(self) -> list[tuple[QRectF, QImage]]:
        """Every neuron's heat map: one opaque strip per column (made when needed)."""
        return self.atlas_.get(self)

    def background(self) -> str:
        """The colour behind the diagram (the window's)."""
        return self.palette().color(QPalette.ColorRole.Window).name()

    # -- appearance -------------------------------------------------------------------------------
    def restyle(self, theme: Theme, scale: float) -> None:
        """Theme colours and the presenter scale (neurons, lines and buttons grow)."""
        self.theme, self.scale = theme, float(scale)
        self.table = colour_table(theme)
        self._make_images(inputs=True)
        self._relayout()

    def _rebuild_column_buttons(self) -> None:
        for trio in self.column_buttons:
            for w in trio:
                w.hide()
                w.setParent(None)
                w.deleteLater()
        self.column_buttons = []
        for k, n in enumerate(self.hidden):
            remove = self._button("−", f"networkRemoveNeuron{k}",
                                  self.tr("Remove a neuron from this layer"))  # fmt: skip
            count = QLabel(str(n), self)
            count.setObjectName(f"networkNeuronCount{k}")
            count.setAlignment(Qt.AlignmentFlag.AlignCenter)
            count.setToolTip(self.tr("1 neuron") if n == 1
                             else self.tr("%1 neurons").replace("%1", str(n)))  # fmt: skip
            add = self._button("+", f"networkAddNeuron{k}", self.tr("Add a neuron to this layer"))
            add.clicked.connect(lambda _=False, k=k: self.neuronsChanged.emit(k, +1))
            remove.clicked.connect(lambda _=False, k=k: self.neuronsChanged.emit(k, -1))
            add.setEnabled(n < MAX_NEURONS)
            remove.setEnabled(n > 1)
            for w in (remove, count, add):
                w.show()
            self.column_buttons.append((remove, count, add))
        n_layers = len(self.hidden)
        self.layers_label.setText(
            self.tr("1 hidden layer") if n_layers == 1
            else self.tr("%1 hidden layers").replace("%1", str(n_layers))
        )  # fmt: skip
        self.updateGeometry()
        self.add_layer.setEnabled(n_layers < MAX_LAYERS)
        self.remove_layer.setEnabled(n_layers > 0)

    def _button_size(self) -> int:
        return round(self.fontMetrics().height() * 1.3)

    def _relayout(self) -> None:
        """Place the header (titles, each layer's − n +), the footer and the neurons."""
        m = self.fontMetrics()
        bs = self._button_size()
        label_w = max(m.horizontalAdvance(FEATURE_LABELS[f]) for f in FEATURES) + 8
        pad = 3
        top = bs + 2 * pad
        bottom = bs + 2 * pad
        area = QRectF(label_w, top, max(self.width() - label_w - pad, 10),
                      max(self.height() - top - bottom, 10))  # fmt: skip
        active = [FEATURES.index(f) for f in self.features if f in FEATURES]
        self.geometry_ = layout(area, len(FEATURES), active, self.hidden, LARGEST * self.scale)
        box = self.geometry_.frame_box(2.0 * self.scale + 1, MAX_WIDTH * self.scale / 2 + 1)
        self._frame_rect = box.toAlignedRect().intersected(self.rect()) if box else self.rect()
        cols = self.geometry_.columns
        for label in (self.features_label, self.output_label, self.layers_label):
            label.adjustSize()
        mid_y = pad + bs / 2
        self.features_label.move(2, round(mid_y - self.features_label.height() / 2))
        out = cols[-1][0]
        x = min(out.center().x() - self.output_label.width() / 2,
                self.width() - self.output_label.width() - 2)  # fmt: skip
        self.output_label.move(round(x), round(mid_y - self.output_label.height() / 2))
        count_w = m.horizontalAdvance("8") + 8
        spacing = cols[1][0].left() - cols[0][0].left() if len(cols) > 1 else self.width()
        small = min(bs, round((spacing - 6 - count_w) / 2))  # squeezed columns: smaller buttons
        roomy = small >= round(bs * 0.6)  # else only the counts show (widen the tab to edit)
        right = 0
        for k, (remove, count, add) in enumerate(self.column_buttons):
            cx = cols[k + 1][0].center().x()
            remove.setVisible(roomy)
            add.setVisible(roomy)
            for b in (remove, add):
                b.setFixedSize(max(small, 1), bs)
            count.setFixedSize(count_w, bs)
            left = round(cx - count_w / 2)
            remove.move(left - small, pad)
            count.move(left, pad)
            add.move(left + count_w, pad)
            right = left + count_w + (small if roomy else 0)
        self.output_label.setVisible(self.output_label.x() > right + 2)
        for b in (self.add_layer, self.remove_layer):
            b.setFixedSize(bs, bs)
        if self.hidden:
            mid = (cols[1][0].center().x() + cols[-2][0].center().x()) / 2
        else:
            mid = (cols[0][0].center().x() + cols[-1][0].center().x()) / 2
        row_w = 2 * bs + self.layers_label.width() + 12
        x0 = round(min(max(mid - row_w / 2, 0), self.width() - row_w))
        y = self.height() - bs - pad
        self.remove_layer.move(x0, y)
        self.layers_label.move(x0 + bs + 6, round(y + (bs - self.layers_label.height()) / 2))
        self.add_layer.move(x0 + bs + 12 + self.layers_label.width(), y)
        self.update()

    def minimumSizeHint(self) -> QSize:
        """Room for the inputs' labels and the layers' row (columns squeeze closer)."""
        m = self.fontMetrics()
        bs = self._button_size()
        label_w = max(m.horizontalAdvance(FEATURE_LABELS[f]) for f in FEATURES) + 8
        footer = 2 * bs + m.horizontalAdvance(self.layers_label.text()) + 16
        return QSize(label_w + max(footer, bs * 4), 7 * 12 + 2 * bs)

    def sizeHint(self) -> QSize:
        """As wide as it can get (the output column takes what its maps need)."""
        return self.minimumSizeHint()

    def wanted_width(self, height: int) -> int:
        """The width at which ``height`` (not the width) limits the neurons' size."""
        m = self.fontMetrics()
        bs = self._button_size()
        label_w = max(m.horizontalAdvance(FEATURE_LABELS[f]) for f in FEATURES) + 8
        tallest = max(len(FEATURES), *self.hidden, 1)
        area_h = max(height - 2 * (bs + 6), 10)
        s = min(LARGEST * self.scale, area_h / (tallest + (tallest - 1) * GAP))
        columns = len(self.hidden) + 2
        return round(label_w + columns * max(2.2 * s, 2 * bs + m.horizontalAdvance("8") + 14))

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Qt override: lay the neurons out for the new size."""
        super().resizeEvent(event)
        self._relayout()

    def changeEvent(self, event: Any) -> None:
        """Qt override: a new font (the presenter scale) lays things out again."""
        super().changeEvent(event)
        if event.type() == event.Type.FontChange:
            self._relayout()

    # -- painting ----------------------------------------------------------------------------------
    def weight(self, layer: int, i: int, j: int) -> float:
        """The weight drawn for link (layer, i, j) (``i == -1``: the bias); nan if unknown."""
        return weight_of(self.weights, layer, i, j)

    def link_name(self, layer: int, i: int, j: int) -> str:
        """``dense_1/kernel[2, 0]`` or ``dense/bias[1]``."""
        name = layer_name(layer)
        return f"{name}/bias[{j}]" if i < 0 else f"{name}/kernel[{i}, {j}]"

    def paintEvent(self, event: QPaintEvent) -> None:
        """Qt override: links, then neurons, then the labels."""
        p = QPainter(self)
        paint_diagram(self, p)
        p.end()

    # -- pointer --------------------------------------------------------------------------------
    def _hit(self, pos: QPointF) -> tuple[str, int] | None:
        geo = self.geometry_
        k = geo.bias_at(pos.x(), pos.y())
        if k is not None:
            return ("bias", k)
        if geo.neuron_at(pos.x(), pos.y()) is not None:
            return None
        k = geo.link_at(pos.x(), pos.y(), max(4.0, 5.0 * self.scale))
        return ("link", k) if k is not None else None

    def target_of(self, hit: tuple[str, int]) -> tuple[int, int, int]:
        """(layer, i, j) of a hit link or bias (i == −1 for a bias)."""
        kind, k = hit
        if kind == "bias":
            layer, j, _ = self.geometry_.biases[k]
            return layer, -1, j
        link = self.geometry_.links[k]
        return link.layer, link.i, link.j

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        """Qt override: highlight the link or bias under the pointer; its value as a tooltip."""
        pos = event.position()
        hit = self._hit(pos)
        if hit != self.hover:
            self.hover = hit
            self.update()
        tip = self.tooltip_at(pos)
        if tip:
            QToolTip.showText(event.globalPosition().toPoint(), tip, self)
        else:
            QToolTip.hideText()

    def tooltip_at(self, pos: QPointF) -> str:
        """What hovering at ``pos`` says: a weight's name and value, or a neuron's role."""
        hit = self._hit(pos)
        if hit is not None:
            layer, i, j = self.target_of(hit)
            value = self.weight(layer, i, j)
            return self.tr("%1 = %2 (click to edit)").replace(
                "%1", self.link_name(layer, i, j)).replace("%2", f"{value:.4g}")  # fmt: skip
        cell = self.geometry_.neuron_at(pos.x(), pos.y())
        if cell is None:
            return ""
        c, r = cell
        if c == 0:
            label = FEATURE_LABELS[FEATURES[r]]
            if FEATURES[r] in self.features:
                return self.tr("Input %1 (click to switch it off)").replace("%1", label)
            return self.tr("Input %1 is off (click to switch it on)").replace("%1", label)
        if c == len(self.geometry_.columns) - 1:
            return self.tr("The output over the input plane")
        return self.tr("Neuron %1 of %2: its output over the input plane").replace(
            "%1", str(r)).replace("%2", layer_name(c - 1))  # fmt: skip

    def leaveEvent(self, event: Any) -> None:
        """Qt override: no highlight once the pointer leaves."""
        super().leaveEvent(event)
        if self.hover is not None:
            self.hover = None
            self.update()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """Qt override: an input switches on or off; a link or bias opens the editor."""
        if event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        pos = event.position()
        cell = self.geometry_.neuron_at(pos.x(), pos.y())
        hit = self._hit(pos)
        if hit is not None:
            self.edit(*self.target_of(hit), pos)
        elif cell is not None and cell[0] == 0:
            self.featureToggled.emit(FEATURES[cell[1]])
        event.accept()

    def edit(self, layer: int, i: int, j: int, pos: QPointF | None = None) -> WeightEditor:
        """Open the editor for weight (layer, i, j) (``i == −1``: the bias) near ``pos``."""
        self._editing = (layer, i, j)
        ed = self.editor
        value = self.weight(layer, i, j)
        ed.setText(f"{value:.6g}" if math.isfinite(value) else "")
        ed.setToolTip(self.tr("%1: type a value, Enter applies, Esc closes").replace(
            "%1", self.link_name(layer, i, j)))  # fmt: skip
        width = ed.fontMetrics().horizontalAdvance("−0.000000") + 16
        ed.setFixedWidth(width)
        ed.adjustSize()
        if pos is None:
            pos = QPointF(self.width() / 2, self.height() / 2)
        x = min(max(0, round(pos.x() - width / 2)), max(0, self.width() - width))
        y = min(max(0, round(pos.y() + 6)), max(0, self.height() - ed.height()))
        ed.move(x, y)
        ed.show()
        ed.raise_()
        ed.setFocus()
        ed.selectAll()
        return ed

    def _on_editor_accepted(self, value: float) -> None:
        if self._editing is not None:
            self.weightEdited.emit(*self._editing, value)
        self._editing = None

    def _on_editor_refused(self, text: str) -> None:
        self.editRefused.emit(self.tr("Not a number: %1").replace("%1", text[:30]))
