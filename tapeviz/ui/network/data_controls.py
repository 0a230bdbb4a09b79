"""Playground's DATA column: the data sets as thumbnails, training ratio, noise, batch size.

Widgets only: the panel hears their signals and tells them what to show. Each thumbnail is the
data set itself (200 points, no noise) drawn small in the label colours, made when the column
is first shown and again for a new theme or presenter scale.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QPointF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QIcon, QImage, QPainter, QPixmap
from PySide6.QtWidgets import (
    QButtonGroup,
    QGridLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSlider,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from tapeviz.models.network.config import CLASSIFY, REGRESS, DataConfig
from tapeviz.ui.network.heat import colour_table, indices
from tapeviz.ui.theme import LIGHT, Theme

translate = QCoreApplication.translate  # lupdate reads translate("NetworkPanel", "…")
_TITLES = {
    "circle": QT_TRANSLATE_NOOP("NetworkPanel", "Circle"),
    "xor": QT_TRANSLATE_NOOP("NetworkPanel", "Exclusive or"),
    "gauss": QT_TRANSLATE_NOOP("NetworkPanel", "Two gaussians"),
    "spiral": QT_TRANSLATE_NOOP("NetworkPanel", "Spiral"),
    "moons": QT_TRANSLATE_NOOP("NetworkPanel", "Two moons"),
    "plane": QT_TRANSLATE_NOOP("NetworkPanel", "Plane (regression)"),
    "multigauss": QT_TRANSLATE_NOOP("NetworkPanel", "Multi gaussian (regression)"),
}
DATASETS = CLASSIFY + REGRESS
THUMB = 34  # px of a thumbnail at presenter scale 1


def dataset_title(name: str) -> str:
    """A data set's name in the interface language."""
    return translate("NetworkPanel", _TITLES.get(name, name))


def thumbnail(name: str, side: int, theme: Theme) -> QPixmap:
    """Data set ``name`` drawn in a ``side`` × ``side`` square."""
    from tapeviz.models.network.datasets import make_dataset

    data = make_dataset(DataConfig(dataset=name, points=200, train_ratio=0.9))
    table = colour_table(theme)
    image = QImage(side, side, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor.fromRgba(int(table[len(table) // 2])))
    p = QPainter(image)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setPen(Qt.PenStyle.NoPen)
    (x0, x1), (y0, y1) = data.x_range, data.y_range
    r = max(1.2, side / 28)
    for xy, labels in ((data.train_x, data.train_y), (data.test_x, data.test_y)):
        rows = indices(labels)
        for (x, y), row in zip(xy.tolist(), rows.tolist(), strict=True):
            p.setBrush(QColor.fromRgba(int(table[row])))
            px = (x - x0) / (x1 - x0) * side
            py = (y1 - y) / (y1 - y0) * side
            p.drawEllipse(QPointF(px, py), r, r)
    p.end()
    return QPixmap.fromImage(image)


class DataControls(QWidget):
    """Which data, how much of it trains, how noisy, how many points per step; regenerate."""

    datasetChosen = Signal(str)
    ratioChanged = Signal(float)
    noiseChanged = Signal(float)
    batchChanged = Signal(int)
    regenerate = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("networkDataControls")
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Preferred)
        self.theme, self.scale = LIGHT, 1.0
        self._thumbs_for: tuple[str, float] | None = None
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(4)
        self.title = QLabel(translate("NetworkPanel", "Data"), self)
        self.title.setObjectName("networkDataTitle")
        box.addWidget(self.title)
        grid = QGridLayout()
        grid.setSpacing(4)
        self.group = QButtonGroup(self)
        self.group.setExclusive(True)
        self.buttons: dict[str, QToolButton] = {}
        for k, name in enumerate(DATASETS):
            b = QToolButton(self)
            b.setObjectName(f"networkData:{name}")
            b.setCheckable(True)
            b.setToolTip(dataset_title(name))
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
            b.clicked.connect(lambda _=False, n=name: self.datasetChosen.emit(n))
            self.group.addButton(b)
            self.buttons[name] = b
            grid.addWidget(b, k // 4, k % 4)
        box.addLayout(grid)
        self.ratio_label = QLabel(self)
        self.ratio = self._slider("networkRatioSlider", 10, 90, 5)
        self.noise_label = QLabel(self)
        self.noise = self._slider("networkNoiseSlider", 0, 50, 5)
        self.batch_label = QLabel(self)
        self.batch = self._slider("networkBatchSlider", 1, 30, 1)
        for label, slider in ((self.ratio_label, self.ratio), (self.noise_label, self.noise),
                              (self.batch_label, self.batch)):  # fmt: skip
            box.addWidget(label)
            box.addWidget(slider)
        self.ratio.valueChanged.connect(self._on_ratio_changed)
        self.noise.valueChanged.connect(self._on_noise_changed)
        self.batch.valueChanged.connect(self._on_batch_changed)
        self.regen = QPushButton(translate("NetworkPanel", "Regenerate"), self)
        self.regen.setObjectName("networkRegenerate")
        self.regen.setToolTip(translate("NetworkPanel", "New points from a new seed"))
        self.regen.clicked.connect(self.regenerate)
        box.addWidget(self.regen)
        box.addStretch(1)
        self.script: tuple[int, int] | None = None  # a script's (training %, batch size)
        self._texts()

    def _slider(self, name: str, low: int, high: int, page: int) -> QSlider:
        s = QSlider(Qt.Orientation.Horizontal, self)
        s.setObjectName(name)
        s.setRange(low, high)
        s.setPageStep(page)
        return s

    def _texts(self) -> None:
        ratio, noise, batch = (str(s.value()) for s in (self.ratio, self.noise, self.batch))
        if self.script is not None:  # a script's own split and batch, past the sliders' ranges
            ratio, noise, batch = (str(self.script[0]), "—", str(self.script[1]))
        self.ratio_label.setText(translate("NetworkPanel", "Training data: %1 %").replace(
            "%1", ratio))  # fmt: skip
        self.noise_label.setText(translate("NetworkPanel", "Noise: %1").replace("%1", noise))
        self.batch_label.setText(translate("NetworkPanel", "Batch size: %1").replace("%1", batch))

    def _on_ratio_changed(self, value: int) -> None:
        self.script = None  # (the panel hands a script's network to Playground)
        self._texts()
        self.ratioChanged.emit(value / 100)

    def _on_noise_changed(self, value: int) -> None:
        self._texts()
        self.noiseChanged.emit(value / 100)

    def _on_batch_changed(self, value: int) -> None:
        self.script = None
        self._texts()
        self.batchChanged.emit(value)

    def show_script(self, data: DataConfig, batch: int, train: int, test: int) -> None:
        """A script's own points: its split and batch as they are (the sliders near them).

        Noise and new points belong to Playground's data sets, so those two are off.
        """
        self.show_config(data, batch)
        self.script = (round(100 * train / max(1, train + test)), batch)
        own = translate("NetworkPanel", "Your script's own points: noise and new points belong "
                        "to Playground's data sets")  # fmt: skip
        for w in (self.noise, self.regen):
            w.setEnabled(False)
            w.setToolTip(own)
        self._texts()

    def show_config(self, data: DataConfig, batch: int) -> None:
        """Show ``data``'s settings and the batch size (no signals)."""
        self.script = None
        self.noise.setEnabled(True)
        self.noise.setToolTip("")
        self.regen.setEnabled(True)
        self.regen.setToolTip(translate("NetworkPanel", "New points from a new seed"))
        self.group.setExclusive(False)  # (data of one's own: no generator's button is down)
        for name, b in self.buttons.items():
            b.setChecked(name == data.dataset)
        self.group.setExclusive(True)
        for slider, value in ((self.ratio, round(data.train_ratio * 100)),
                              (self.noise, round(data.noise * 100)),
                              (self.batch, batch)):  # fmt: skip
            slider.blockSignals(True)
            slider.setValue(value)
            slider.blockSignals(False)
        self._texts()

    def restyle(self, theme: Theme, scale: float) -> None:
        """Thumbnails for the theme and scale (made once each)."""
        self.theme, self.scale = theme, float(scale)
        f = self.title.font()
        f.setBold(True)
        self.title.setFont(f)
        if self.isVisible():
            self.make_thumbnails()

    def make_thumbnails(self) -> None:
        """Draw the data sets' thumbnails (when first shown, for a new theme or scale)."""
        key = (self.theme.name, self.scale)
        if self._thumbs_for == key:
            return
        self._thumbs_for = key
        side = round(THUMB * max(1.0, self.scale))
        for name, b in self.buttons.items():
            b.setIcon(QIcon(thumbnail(name, side, self.theme)))
            b.setIconSize(QSize(side, side))
        self.updateGeometry()

    def showEvent(self, event: object) -> None:
        """Qt override: the thumbnails are drawn when the column is first seen."""
        super().showEvent(event)  # type: ignore[arg-type]
        self.make_thumbnails()
