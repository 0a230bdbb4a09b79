"""The studio's controls (``optimizerPanel``): runs, optimizer, hyper-parameters, playback.

The panel edits a :class:`StudioConfig` and says so with ``configChanged``; it computes
nothing. The transport buttons, the scrubber and the export menu are plain widgets the studio
connects to.

At 1,366×768 and 150 % the studio is ~360 px tall (the graph above it gets 300), so the panel
is made to fit it: short hyper-parameters (β1, β2, ε, ρ) two to a row, the step and Export on
one row; the status (``status``, two lines, "…" and a tooltip past them) is laid out by the
studio under its plots, where a line holds twice the text. Should the settings still not fit
(Adam's four hyper-parameters at 150 %), only they scroll (``settings_scroll``): the transport
and the scrubber below them stay in view.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSize, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMenu,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSlider,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from tapeviz.models.descent.optimizer_config import KINDS, MAX_RUNS
from tapeviz.models.descent.runs import MAX_STEPS
from tapeviz.models.descent.studio_config import MAX_SPEED, MIN_SPEED, StudioConfig
from tapeviz.ui.elided_combo import ElidedComboBox
from tapeviz.ui.studio.fitted_label import FittedLabel
from tapeviz.ui.studio.lr_control import LearningRateControl
from tapeviz.ui.studio.spin_box import SciSpinBox, swatch

__all__ = ["EXPORTS", "PANEL_WIDTH", "OptimizerPanel", "SciSpinBox", "swatch"]

PANEL_WIDTH = 330  # px at font scale 1
SPACING = 4  # px between the panel's rows (Qt's 6-9 cost the graph 30 px at 150 %)
SHORT_LABEL = 2  # characters: hyper-parameters named this briefly share a row (β1, β2, ε, ρ)
EXPORTS = ("gif", "mp4", "png", "svg", "csv")


translate = QCoreApplication.translate  # lupdate reads translate("OptimizationStudio", "…")


def translated(text: str) -> str:
    """Translate text marked elsewhere (QT_TRANSLATE_NOOP) in the studio's context."""
    return QCoreApplication.translate("OptimizationStudio", text)


class SettingsScroll(QScrollArea):
    """The panel's settings, scrolled only when they cannot fit; it asks for their whole height.

    (QScrollArea's own size hint is its widget's hint when first shown, kept after the
    presenter size made the settings taller.)
    """

    def __init__(self, settings: QWidget, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("optimizerSettingsScroll")
        self.setWidget(settings)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        settings.installEventFilter(self)
        self.verticalScrollBar().rangeChanged.connect(lambda *_: self.updateGeometry())

    def sizeHint(self) -> QSize:
        """Qt override: the settings' whole height now."""
        return self.widget().sizeHint()

    def minimumSizeHint(self) -> QSize:
        """Qt override: the settings' least width, and the scroll bar's when it shows.

        (Adam's settings scroll at 150 %: the bar took its width from the rows, which were cut.)
        """
        bar = self.verticalScrollBar()
        width = self.widget().minimumSizeHint().width()
        width += bar.sizeHint().width() if bar.maximum() else 0
        return QSize(width, super().minimumSizeHint().height())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Qt override: the settings' new layout (rows, fonts) is this hint's too."""
        if event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()
        return super().eventFilter(watched, event)


class OptimizerPanel(QWidget):
    """Runs, optimizer, hyper-parameters, steps, speed, log scale, transport and export."""

    configChanged = Signal(object)  # the edited StudioConfig
    sliceChanged = Signal(object)  # (name, name) for more than two parameters
    exportRequested = Signal(str)  # one of EXPORTS

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("optimizerPanel")
        self.setMaximumWidth(PANEL_WIDTH)
        self.config = StudioConfig()
        self.editors: dict[str, SciSpinBox] = {}
        self.run_combo = self._named(ElidedComboBox(self), "optimizerRunCombo")
        # Tool buttons size to their one character (push buttons are at least 80 px wide), so
        # the run names ("1. SGD lr 0.001") get the row.
        self.add_run = self._named(QToolButton(self), "optimizerAddRunButton")
        self.add_run.setText("+")
        self.add_run.setToolTip(
            translate("OptimizationStudio", "Add a run to the race (up to six)")
        )
        self.remove_run = self._named(QToolButton(self), "optimizerRemoveRunButton")
        self.remove_run.setText("−")
        self.remove_run.setToolTip(translate("OptimizationStudio", "Remove the selected run"))
        self.kind = self._named(QComboBox(self), "optimizerKindCombo")
        self.kind.addItems(list(KINDS))
        self.form = QFormLayout()
        self.lr_slider = LearningRateControl(self)  # objectName optimizerLrSlider
        self.lr_slider.setToolTip(
            translate(
                "OptimizationStudio",
                "Learning rate on a log scale: drag (a decade per 100 px, Shift finer), "
                "← → small steps, Page Up/Down a decade; or type it above",
            )
        )
        self.steps = self._named(QSpinBox(self), "optimizerStepsSpin")
        self.steps.setRange(1, MAX_STEPS)
        self.steps.setKeyboardTracking(False)
        self.speed = self._named(QDoubleSpinBox(self), "optimizerSpeedSpin")
        self.speed.setRange(MIN_SPEED, MAX_SPEED)
        self.speed.setDecimals(1)
        self.speed.setSuffix(translate("OptimizationStudio", " steps/s"))
        self.log_scale = self._named(
            QCheckBox(translate("OptimizationStudio", "Log-scale loss axis"), self),
            "optimizerLogScale",
        )
        self.slice_x = self._named(QComboBox(self), "optimizerSliceX")
        self.slice_y = self._named(QComboBox(self), "optimizerSliceY")
        self.slice_row = QWidget(self)
        self.slice_row.setVisible(False)  # until a problem with more than two parameters
        self.reset = self._named(
            QPushButton(translate("OptimizationStudio", "Reset"), self), "optimizerResetButton"
        )
        self.step = self._named(
            QPushButton(translate("OptimizationStudio", "Step"), self), "optimizerStepButton"
        )
        self.play = self._named(
            QPushButton(translate("OptimizationStudio", "Play"), self), "optimizerPlayButton"
        )
        self.play.setCheckable(True)
        self.scrubber = self._named(QSlider(Qt.Orientation.Horizontal, self), "optimizerScrubber")
        self.step_label = self._named(QLabel(self), "optimizerStepLabel")
        self.export = self._named(QToolButton(self), "optimizerExportButton")
        self.export.setText(translate("OptimizationStudio", "Export"))
        self.export.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.progress = self._named(QProgressBar(self), "optimizerProgress")
        self.cancel = self._named(
            QPushButton(translate("OptimizationStudio", "Cancel"), self), "optimizerCancelButton"
        )
        self.status = self._named(FittedLabel(self), "optimizerStatus")  # "…" past its height
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self._layout()
        self._connect()
        self.set_busy(False)
        self.set_config(self.config)

    def _named(self, widget: QWidget, name: str) -> QWidget:
        widget.setObjectName(name)
        return widget

    def _layout(self) -> None:
        self.settings = QWidget(self)
        self.settings.setObjectName("optimizerSettings")
        box = QVBoxLayout(self.settings)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(SPACING)
        runs = QHBoxLayout()
        runs.addWidget(QLabel(translate("OptimizationStudio", "Run"), self))
        runs.addWidget(self.run_combo, 1)
        runs.addWidget(self.add_run)
        runs.addWidget(self.remove_run)
        box.addLayout(runs)
        self.form.setVerticalSpacing(SPACING)
        self.form.addRow(translate("OptimizationStudio", "Optimizer"), self.kind)
        box.addLayout(self.form)
        box.addWidget(self.lr_slider)
        self.extras = QGridLayout()  # the other hyper-parameters, short ones two to a row
        self.extras.setVerticalSpacing(SPACING)
        self.extras.setColumnStretch(1, 1)
        self.extras.setColumnStretch(3, 1)
        box.addLayout(self.extras)
        more = QFormLayout()
        more.setVerticalSpacing(SPACING)
        more.addRow(translate("OptimizationStudio", "Steps"), self.steps)
        more.addRow(translate("OptimizationStudio", "Speed"), self.speed)
        box.addLayout(more)
        box.addWidget(self.log_scale)
        row = QHBoxLayout(self.slice_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel(translate("OptimizationStudio", "Slice"), self))
        row.addWidget(self.slice_x, 1)
        row.addWidget(self.slice_y, 1)
        box.addWidget(self.slice_row)
        self.settings_scroll = SettingsScroll(self.settings, self)  # scrolls only if it must
        outer = QVBoxLayout(self)
        outer.setContentsMargins(SPACING, SPACING, SPACING, SPACING)
        outer.setSpacing(SPACING)
        outer.addWidget(self.settings_scroll)
        transport = QHBoxLayout()
        for w in (self.reset, self.step, self.play):
            transport.addWidget(w)
        outer.addLayout(transport)
        outer.addWidget(self.scrubber)
        where = QHBoxLayout()  # the step and Export share a row
        where.addWidget(self.step_label, 1)
        where.addWidget(self.export)
        outer.addLayout(where)
        busy = QHBoxLayout()
        busy.addWidget(self.progress, 1)
        busy.addWidget(self.cancel)
        outer.addLayout(busy)
        outer.addStretch(1)  # (the status: under the studio's plots, see the module docstring)
        menu = QMenu(self.export)
        labels = {
            "gif": translate("OptimizationStudio", "Animation as GIF…"),
            "mp4": translate("OptimizationStudio", "Animation as MP4…"),
            "png": translate("OptimizationStudio", "Plots as PNG…"),
            "svg": translate("OptimizationStudio", "Plots as SVG…"),
            "csv": translate("OptimizationStudio", "Histories as CSV…"),
        }
        for kind in EXPORTS:
            action = menu.addAction(labels[kind])
            action.setObjectName(f"optimizerExport_{kind}")
            action.triggered.connect(lambda _=False, k=kind: self.exportRequested.emit(k))
        self.export.setMenu(menu)

    def _connect(self) -> None:
        self.run_combo.currentIndexChanged.connect(self._on_run_combo_changed)
        self.add_run.clicked.connect(lambda: self._edit(self.config.with_added_run()))
        self.remove_run.clicked.connect(
            lambda: self._edit(self.config.without_run(self.config.selected))
        )
        self.kind.currentTextChanged.connect(self._on_kind_changed)
        self.lr_slider.valueChanged.connect(self._on_lr_slider_changed)
        self.steps.valueChanged.connect(lambda v: self._edit(self._replace(steps=int(v))))
        self.speed.valueChanged.connect(lambda v: self._edit(self._replace(speed=float(v))))
        self.log_scale.toggled.connect(lambda on: self._edit(self._replace(log_scale=bool(on))))
        self.slice_x.currentTextChanged.connect(lambda _: self._on_slice_changed())
        self.slice_y.currentTextChanged.connect(lambda _: self._on_slice_changed())

    def _replace(self, **changes: object) -> StudioConfig:
        return replace(self.config, **changes)  # type: ignore[arg-type]

    def _edit(self, config: StudioConfig) -> None:
        if config == self.config:
            return
        self.set_config(config)
        self.configChanged.emit(config)

    def set_config(self, config: StudioConfig) -> None:
        """Show ``config`` in every control (no signals)."""
        self.config = config
        widgets = [
            self.run_combo,
            self.kind,
            self.lr_slider,
            self.steps,
            self.speed,
            self.log_scale,
        ]
        for w in widgets:
            w.blockSignals(True)
        self.run_combo.clear()
        for i, run in enumerate(config.runs):
            self.run_combo.addItem(swatch(run.color), f"{i + 1}. {run.title}")
        self.run_combo.setCurrentIndex(config.selected)
        self.add_run.setEnabled(len(config.runs) < MAX_RUNS)
        self.remove_run.setEnabled(len(config.runs) > 1)
        optimizer = config.run.optimizer
        self.kind.setCurrentText(optimizer.kind)
        self._build_form(optimizer.kind)
        for name, editor in self.editors.items():
            editor.blockSignals(True)
            editor.setValue(optimizer.get(name))
            editor.blockSignals(False)
        self.lr_slider.setValue(optimizer.learning_rate)
        self.steps.setValue(config.steps)
        self.speed.setValue(config.speed)
        self.log_scale.setChecked(config.log_scale)
        for w in widgets:
            w.blockSignals(False)

    def _build_form(self, kind: str) -> None:
        """An editor per hyper-parameter: the learning rate in the form, the others below.

        The others sit under the learning-rate scale, short-named ones two to a row.
        """
        if list(self.editors) == [h.name for h in KINDS[kind]]:
            return
        while self.form.rowCount() > 1:
            self.form.removeRow(1)
        while self.extras.count():
            item = self.extras.takeAt(0)
            if item.widget() is not None:
                item.widget().deleteLater()
        self.editors = {}
        specs = KINDS[kind]
        short = [h for h in specs[1:] if len(translated(h.label)) <= SHORT_LABEL]
        long = [h for h in specs[1:] if h not in short]
        for spec in specs:
            editor = SciSpinBox(spec, self)
            editor.setObjectName(f"optimizerParam_{spec.name}")
            editor.valueChanged.connect(lambda v, n=spec.name: self._on_param_changed(n, v))
            self.editors[spec.name] = editor
        self.form.addRow(translated(specs[0].label), self.editors[specs[0].name])
        for i, spec in enumerate(short):
            label = QLabel(translated(spec.label), self)
            self.extras.addWidget(label, i // 2, 2 * (i % 2))
            self.extras.addWidget(self.editors[spec.name], i // 2, 2 * (i % 2) + 1)
        first = (len(short) + 1) // 2
        for i, spec in enumerate(long):
            self.extras.addWidget(QLabel(translated(spec.label), self), first + i, 0)
            self.extras.addWidget(self.editors[spec.name], first + i, 1, 1, 3)

    def _on_run_combo_changed(self, index: int) -> None:
        if 0 <= index < len(self.config.runs):
            self._edit(self._replace(selected=index))

    def _on_kind_changed(self, kind: str) -> None:
        run = self.config.run
        optimizer = run.optimizer.with_kind(kind)
        self._edit(self.config.with_run(self.config.selected, replace(run, optimizer=optimizer)))

    def _on_param_changed(self, name: str, value: float) -> None:
        run = self.config.run
        try:
            optimizer = run.optimizer.with_value(name, float(value))
        except ValueError as exc:
            self.status.setText(str(exc))
            return
        self._edit(self.config.with_run(self.config.selected, replace(run, optimizer=optimizer)))

    def _on_lr_slider_changed(self, lr: float) -> None:
        self._on_param_changed("learning_rate", lr)

    def set_parameters(self, names: tuple[str, ...], pair: tuple[str, str] | None) -> None:
        """The parameter elements of the problem: the slice choice shows for more than two."""
        for combo, default in ((self.slice_x, 0), (self.slice_y, 1)):
            combo.blockSignals(True)
            combo.clear()
            combo.addItems(list(names))
            if len(names) > 1:
                combo.setCurrentIndex(default)
            combo.blockSignals(False)
        if pair is not None and all(p in names for p in pair):
            self.slice_x.setCurrentText(pair[0])
            self.slice_y.setCurrentText(pair[1])
        self.slice_row.setVisible(len(names) > 2)

    def _on_slice_changed(self) -> None:
        pair = (self.slice_x.currentText(), self.slice_y.currentText())
        if pair[0] and pair[1] and pair[0] != pair[1]:
            self.sliceChanged.emit(pair)

    def set_busy(self, busy: bool, fraction: float = 0.0) -> None:
        """Show the progress bar and Cancel while a race is computed."""
        self.progress.setVisible(busy)
        self.cancel.setVisible(busy)
        self.progress.setValue(round(100 * fraction))

    def set_playable(self, playable: bool) -> None:
        """Enable play, step, reset, the scrubber and export only when there is a race."""
        for w in (self.play, self.step, self.reset, self.scrubber, self.export):
            w.setEnabled(playable)

    def set_length(self, steps: int) -> None:
        """The scrubber's range: 0 … the longest history."""
        self.scrubber.blockSignals(True)
        self.scrubber.setRange(0, max(0, steps))
        self.scrubber.blockSignals(False)

    def set_position(self, k: int, steps: int) -> None:
        """Move the scrubber (no signal) and show ``step k of n``."""
        self.scrubber.blockSignals(True)
        self.scrubber.setValue(k)
        self.scrubber.blockSignals(False)
        self.step_label.setText(
            translate("OptimizationStudio", "step {k} of {n}").format(k=f"{k:,}", n=f"{steps:,}")
        )
