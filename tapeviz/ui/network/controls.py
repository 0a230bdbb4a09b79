"""Playground's top bar: the demo, reset / play / step / new weights, the epoch, the settings.

Widgets only (the panel connects them). The learning rate is the studio's aimable log control
with ``2/λmax`` marked on its scale (:class:`CurvatureLrControl`); the optimizers to race are
checkboxes in the Race button's menu. The bar wraps onto more rows when the width runs out.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QPointF, Signal
from PySide6.QtGui import QAction, QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
    QWidgetAction,
)

from tapeviz.models.descent.optimizer_config import KINDS
from tapeviz.models.network.config import ACTIVATIONS, REGULARIZATIONS, NetworkConfig
from tapeviz.ui.network.flow import FlowLayout
from tapeviz.ui.studio.lr_control import LearningRateControl
from tapeviz.ui.theme import LIGHT, Theme

translate = QCoreApplication.translate  # lupdate reads translate("NetworkPanel", "…")
ACTIVATION_TITLES = {
    "relu": QT_TRANSLATE_NOOP("NetworkPanel", "ReLU"),
    "tanh": QT_TRANSLATE_NOOP("NetworkPanel", "Tanh"),
    "sigmoid": QT_TRANSLATE_NOOP("NetworkPanel", "Sigmoid"),
    "linear": QT_TRANSLATE_NOOP("NetworkPanel", "Linear"),
}
REGULARIZATION_TITLES = {
    "none": QT_TRANSLATE_NOOP("NetworkPanel", "None"),
    "L1": QT_TRANSLATE_NOOP("NetworkPanel", "L1"),
    "L2": QT_TRANSLATE_NOOP("NetworkPanel", "L2"),
}
RATES = (0.0, 0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)  # Playground's choices
OPTIMIZERS = ("SGD", "Momentum", "Nesterov", "RMSprop", "Adam", "Adagrad")


class CurvatureLrControl(LearningRateControl):
    """The studio's learning-rate control with ``2/λmax`` marked on its scale."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("networkLrControl")
        self.limit: float | None = None
        self.warning = "#D55E00"

    def set_limit(self, limit: float | None) -> None:
        """Mark ``limit`` (2/λmax) on the scale; None: no mark."""
        limit = limit if limit is not None and math.isfinite(limit) and limit > 0 else None
        if limit != self.limit:  # (every frame says it: repainted only when it moves)
            self.limit = limit
            self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        """Qt override: the scale, then a mark at 2/λmax (over the limit is shaded)."""
        super().paintEvent(event)
        if self.limit is None:
            return
        x = self.x_of(math.log10(self.limit))
        if not -2 <= x <= self.width() + 2:
            return
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        colour = QColor(self.warning)
        shade = QColor(colour)
        shade.setAlpha(40)
        p.fillRect(round(x), 0, max(0, self.width() - round(x)), self.height(), shade)
        p.setPen(QPen(colour, 2 * max(1.0, self.scale)))
        p.drawLine(QPointF(x, 0), QPointF(x, self.height()))
        p.end()


def _pair(parent: QWidget, label: str, widget: QWidget) -> QWidget:
    """A label before its control, kept together when the bar wraps."""
    box = QWidget(parent)
    lay = QHBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 0)
    lay.setSpacing(4)
    title = QLabel(label, box)
    title.setObjectName(widget.objectName() + "Label")
    title.setBuddy(widget)
    lay.addWidget(title)
    lay.addWidget(widget)
    box.title = title  # type: ignore[attr-defined]
    return box


class TopBar(QWidget):
    """The transport, the epoch counter and every training setting (see the module)."""

    raceChanged = Signal(tuple)  # the optimizer kinds checked in the Race menu
    codeRequested = Signal()  # Export ▸ the network as Keras and PyTorch scripts
    mediaRequested = Signal(str)  # Export ▸ "gif", "mp4", "png" or "csv"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("networkTopBar")
        self.theme, self.scale = LIGHT, 1.0
        flow = FlowLayout(self, spacing=8)
        self.demo = QComboBox(self)
        self.demo.setObjectName("networkDemoCombo")
        self.demo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.demo.setMinimumContentsLength(20)  # a long title shows whole in the list
        self.reset = self._button(
            translate("NetworkPanel", "Reset"),
            "networkResetButton",
            translate("NetworkPanel", "Back to the first weights (Home)"),
        )
        self.play = self._button(
            translate("NetworkPanel", "Play"),
            "networkPlayButton",
            translate("NetworkPanel", "Train or pause (Space)"),
        )
        self.play.setCheckable(True)
        self.step = self._button(
            translate("NetworkPanel", "Step"),
            "networkStepButton",
            translate("NetworkPanel", "Train one epoch (→)"),
        )
        self.new_weights = self._button(translate("NetworkPanel", "New weights"),
                                        "networkNewWeightsButton",
                                        translate("NetworkPanel", "Start from other random "
                                                  "weights (a new seed)"))  # fmt: skip
        self.epoch = QLabel(self)
        self.epoch.setObjectName("networkEpochLabel")
        self.lr = CurvatureLrControl(self)
        self.lr.setMinimumWidth(180)
        self.curvature = QLabel(self)
        self.curvature.setObjectName("networkCurvatureLabel")
        self.curvature.setToolTip(translate(
            "NetworkPanel", "λmax: the largest curvature of the loss at the current weights "
            "(power iteration on Hessian-vector products). Plain gradient descent is stable "
            "for lr < 2/λmax."))  # fmt: skip
        self.activation = self._combo("networkActivationCombo", ACTIVATION_TITLES, ACTIVATIONS)
        self.regularization = self._combo("networkRegularizationCombo", REGULARIZATION_TITLES,
                                          REGULARIZATIONS)  # fmt: skip
        self.rate = QComboBox(self)
        self.rate.setObjectName("networkRateCombo")
        for r in RATES:
            self.rate.addItem(f"{r:g}", r)
        self.problem = QComboBox(self)
        self.problem.setObjectName("networkProblemCombo")
        self.problem.addItem(translate("NetworkPanel", "Classification"), "classification")
        self.problem.addItem(translate("NetworkPanel", "Regression"), "regression")
        self.optimizer = QComboBox(self)
        self.optimizer.setObjectName("networkOptimizerCombo")
        for kind in OPTIMIZERS:
            if kind in KINDS:
                self.optimizer.addItem(kind, kind)
        self.race = QPushButton(self)
        self.race.setObjectName("networkRaceButton")
        self.race.setText(translate("NetworkPanel", "Race"))
        self.race.setToolTip(translate("NetworkPanel", "Train the same network from the same "
                                       "first weights with 2 to 6 optimizers"))  # fmt: skip
        self.export = self._button(
            translate("NetworkPanel", "Export…"),
            "networkExportButton",
            translate("NetworkPanel", "This network as a Keras and a PyTorch script that train "
                      "to the same numbers from the same first weights; its training as an "
                      "animation, a picture or its losses"),
        )  # fmt: skip
        self.export_actions: dict[str, QAction] = {}
        self.export.setMenu(self._export_menu())
        self.race_boxes: dict[str, QCheckBox] = {}
        self.race.setMenu(self._race_menu())
        transport = QWidget(self)
        row = QHBoxLayout(transport)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        for w in (self.reset, self.play, self.step, self.new_weights, self.epoch):
            row.addWidget(w)
        lr_box = QWidget(self)
        lr_row = QHBoxLayout(lr_box)
        lr_row.setContentsMargins(0, 0, 0, 0)
        lr_row.addWidget(self.lr, 1)
        lr_row.addWidget(self.curvature)
        self.activation.setToolTip(translate("NetworkPanel", "The hidden layers' activation"))
        self.rate.setToolTip(translate("NetworkPanel", "Regularization rate"))
        self.problem.setToolTip(translate("NetworkPanel", "Problem type (it follows the data set)"))
        self.optimizer.setToolTip(
            translate("NetworkPanel", "The optimizer that trains the network")
        )
        reg_box = QWidget(self)
        reg_row = QHBoxLayout(reg_box)
        reg_row.setContentsMargins(0, 0, 0, 0)
        reg_row.setSpacing(4)
        reg_row.addWidget(self.regularization)
        reg_row.addWidget(self.rate)
        run_box = QWidget(self)
        run_row = QHBoxLayout(run_box)
        run_row.setContentsMargins(0, 0, 0, 0)
        run_row.setSpacing(4)
        for w in (self.problem, self.optimizer, self.race, self.export):
            run_row.addWidget(w)
        self.pairs = [
            self.demo,
            transport,
            _pair(self, translate("NetworkPanel", "Learning rate"), lr_box),
            _pair(self, translate("NetworkPanel", "Activation"), self.activation),
            _pair(self, translate("NetworkPanel", "Regularization"), reg_box),
            run_box,
        ]
        for w in self.pairs:
            flow.addWidget(w)
        self.set_epoch(0)
        self.set_curvature(None, 0.03)

    def _button(self, text: str, name: str, tip: str) -> QPushButton:
        b = QPushButton(text, self)
        b.setObjectName(name)
        b.setToolTip(tip)
        return b

    def _combo(self, name: str, titles: dict[str, str], keys: tuple[str, ...]) -> QComboBox:
        c = QComboBox(self)
        c.setObjectName(name)
        for key in keys:
            c.addItem(translate("NetworkPanel", titles[key]), key)
        return c

    def _export_menu(self) -> QMenu:
        menu = QMenu(self.export)
        menu.setToolTipsVisible(True)  # (a disabled entry says why)
        labels = {
            "code": translate("NetworkPanel", "Code: Keras and PyTorch scripts…"),
            "gif": translate("OptimizationStudio", "Animation as GIF…"),
            "mp4": translate("OptimizationStudio", "Animation as MP4…"),
            "png": translate("NetworkPanel", "Network as PNG…"),
            "csv": translate("NetworkPanel", "Losses as CSV…"),
        }
        for kind, label in labels.items():
            action = menu.addAction(label)
            action.setObjectName(f"networkExport_{kind}")
            if kind == "code":
                action.triggered.connect(self.codeRequested)
            else:
                action.triggered.connect(lambda _=False, k=kind: self.mediaRequested.emit(k))
            self.export_actions[kind] = action
        return menu

    def _race_menu(self) -> QMenu:
        menu = QMenu(self.race)
        holder = QWidget(menu)
        box = QVBoxLayout(holder)
        box.setContentsMargins(8, 6, 8, 6)
        note = QLabel(translate("NetworkPanel", "Race these optimizers (2 to 6):"), holder)
        box.addWidget(note)
        for kind in OPTIMIZERS:
            check = QCheckBox(kind, holder)
            check.setObjectName(f"networkRace:{kind}")
            check.toggled.connect(self._on_race_box_toggled)
            box.addWidget(check)
            self.race_boxes[kind] = check
        action = QWidgetAction(menu)
        action.setDefaultWidget(holder)
        menu.addAction(action)
        return menu

    def _on_race_box_toggled(self, _checked: bool) -> None:
        self.raceChanged.emit(self.race_kinds())

    def race_kinds(self) -> tuple[str, ...]:
        """The optimizers checked in the Race menu, in the menu's order."""
        return tuple(k for k, c in self.race_boxes.items() if c.isChecked())

    def show_race(self, kinds: tuple[str, ...]) -> None:
        """Check exactly ``kinds`` (no signal); the button says how many race."""
        for k, c in self.race_boxes.items():
            c.blockSignals(True)
            c.setChecked(k in kinds)
            c.blockSignals(False)
        racing = len(kinds) >= 2
        text = translate("NetworkPanel", "Race (%1)").replace("%1", str(len(kinds)))
        self.race.setText(text if racing else translate("NetworkPanel", "Race"))
        self.optimizer.setEnabled(not racing)

    def show_config(self, c: NetworkConfig) -> None:
        """Show the settings of ``c`` (no signals: the combos use ``activated``)."""
        for combo, value in ((self.activation, c.net.activation),
                             (self.regularization, c.net.regularization),
                             (self.problem, c.problem)):  # fmt: skip
            combo.setCurrentIndex(max(0, combo.findData(value)))
        rates = [self.rate.itemData(i) for i in range(self.rate.count())]
        self.rate.setCurrentIndex(
            min(range(len(rates)), key=lambda i: abs(rates[i] - c.net.reg_rate))
        )
        self.rate.setEnabled(c.net.regularization != "none")
        opts = c.train.optimizers
        self.optimizer.setCurrentIndex(max(0, self.optimizer.findData(opts[0].kind)))
        self.show_race(tuple(o.kind for o in opts) if len(opts) > 1 else ())
        self.lr.blockSignals(True)
        self.lr.setValue(opts[0].learning_rate)
        self.lr.blockSignals(False)

    def set_playing(self, playing: bool) -> None:
        """The play button's state and text (no signal)."""
        self.play.blockSignals(True)
        self.play.setChecked(playing)
        self.play.blockSignals(False)
        pause, play = translate("NetworkPanel", "Pause"), translate("NetworkPanel", "Play")
        self.play.setText(pause if playing else play)

    def set_epoch(self, epoch: int) -> None:
        """``Epoch 000,042`` (Playground's counter)."""
        self.epoch.setText(translate("NetworkPanel", "Epoch %1").replace("%1", f"{epoch:07,}"))

    def set_curvature(self, lam: float | None, lr: float) -> None:
        """``2/λmax = 1.7`` beside the learning rate (a warning colour when lr is over it)."""
        if lam is None or not math.isfinite(lam) or lam <= 0:
            self.lr.set_limit(None)
            return self._say_curvature(translate("NetworkPanel", "2/λmax = …"), "")
        limit = 2.0 / lam
        self.lr.set_limit(limit)
        text = translate("NetworkPanel", "2/λmax = %1").replace("%1", f"{limit:.3g}")
        over = lr > limit
        if over:
            text += " ⚠"
            self.curvature.setToolTip(translate(
                "NetworkPanel", "The learning rate is above 2/λmax: the steps overshoot along "
                "the steepest direction and can diverge"))  # fmt: skip
        colour = self.theme.warning if over else self.theme.text
        self._say_curvature(text, f"color: {colour};")

    def _say_curvature(self, text: str, style: str) -> None:
        """Set the label only when it changes (every frame says it; a style sheet re-polishes)."""
        if self.curvature.text() != text:
            self.curvature.setText(text)
        if self.curvature.styleSheet() != style:
            self.curvature.setStyleSheet(style)

    def restyle(self, theme: Theme, scale: float) -> None:
        """Theme colours and the presenter scale."""
        self.theme, self.scale = theme, float(scale)
        self.lr.scale = scale
        self.lr.warning = theme.warning
        f = self.epoch.font()
        f.setBold(True)
        self.epoch.setFont(f)
        for w in self.pairs:
            title = getattr(w, "title", None)
            if title is not None:
                title.setStyleSheet(f"color: {theme.muted};")
        self.lr.updateGeometry()
        self.lr.update()
