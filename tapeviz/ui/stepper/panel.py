"""The stepper panel: watch the chain rule happen, one node at a time, on the graph."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QResizeEvent, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSlider,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from tapeviz.models.backward.accumulation import accumulation_lines
from tapeviz.models.backward.stepper import BackwardStepper, ForwardStepper, Namer
from tapeviz.models.graph.layers import LAYER_PREFIX
from tapeviz.models.graph.model import GraphModel, Node
from tapeviz.ui.elided_combo import ElidedComboBox
from tapeviz.ui.graph.items import NodeItem
from tapeviz.ui.graph.view import GraphView
from tapeviz.ui.stepper.gradcheck_panel import GradCheckPanel
from tapeviz.ui.stepper.layer_steps import layer_detail, next_position, previous_position
from tapeviz.ui.stepper.log import StepLog
from tapeviz.ui.stepper.rows import ControlRows
from tapeviz.ui.stepper.value_view import ValueView
from tapeviz.ui.theme import font
from tapeviz.ui.turns import later, release

BACKWARD = QT_TRANSLATE_NOOP("StepperPanel", "Backward pass")
FORWARD = QT_TRANSLATE_NOOP("StepperPanel", "Forward pass")


LOG_LINES = 2.5  # lines of the chain-rule log always shown (unless compact)
DETAIL_LINES = 3  # lines of the current step shown (a longer one scrolls)
LAYER_DETAIL_LINES = 5  # with layer boxes: a layer's δz, ∂L/∂W, ∂L/∂b and δx in full
LATER_NODES = 3000  # a graph this big takes a run's new values a turn before the stepper does
LATER_STEPS = 1000  # a lesson this long is freed on a turn of its own (10,000 steps: ~5 ms)


Steppers = tuple[Namer, ForwardStepper, BackwardStepper]


def build_steppers(model: GraphModel) -> Steppers | None:
    """The steppers of the model's shown tape and pass, at the end (as gradient() left it).

    Pure: the thread pool builds them for a big run's model before the window shows it.
    """
    entry = model.entry
    if entry is None or model.too_large:
        return None
    records = list(entry.tape.records)
    names = Namer(records, model.names)
    targets = entry.targets  # exactly what the shown gradient() call seeded
    if not targets and records:
        targets = (records[-1].outputs[0].id,)
    tracked = entry.tape._tracked
    asked = tuple(s for s in entry.sources if s in tracked)  # unwatched: no gradient
    sources = asked if entry.sources else tuple(model.source_tensor_ids())
    shown = entry.selected  # its seeds: output_gradients, a target named twice
    seeds = shown.seed_values(records) if shown is not None else None
    hooked = getattr(entry.tape, "hooked", None)  # torch: what gradient hooks gave
    backward = BackwardStepper(records, targets, sources, names.names, seeds, hooked)
    backward.run_to_end()  # as tape.gradient() left it; Home starts the lesson
    return names, ForwardStepper(records), backward


def prepared_steppers(model: GraphModel) -> Steppers | Exception | None:
    """In the thread pool: :func:`build_steppers`, or why they cannot be built.

    The panel says why (it does not build them again); the explanation of the step shown
    first is made here too (a big matmul's takes 12 ms).
    """
    try:
        steppers = build_steppers(model)
    except Exception as exc:
        return exc
    if steppers is not None:
        steppers[2].current  # noqa: B018  (made once, kept)
    return steppers


class StepperPanel(QWidget):
    """Buttons, a slider, play speed and the chain-rule log, driving the graph view."""

    positionChanged = Signal(int)

    def __init__(self, model: GraphModel, view: GraphView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("stepperPanel")
        self.model, self.view = model, view
        self.backward: BackwardStepper | None = None
        self.forward: ForwardStepper | None = None
        self.failure = ""  # why the shown pass has no steppers ("" when it has)
        self.revealed: set[int] = set()  # tensor ids whose gradient the presenter revealed
        self.names = Namer([], {})
        self.mode = QComboBox(self)
        self.mode.setObjectName("stepperMode")
        self.mode.addItems([self.tr(BACKWARD), self.tr(FORWARD)])
        self.pass_box = ElidedComboBox(self)  # which gradient() call's backward pass
        self.pass_box.setObjectName("backwardPassBox")
        self.pass_box.elide = Qt.TextElideMode.ElideMiddle  # "tape.gra…(z, x) → 108"
        self.pass_box.setWhatsThis(
            self.tr("Each gradient() call is its own backward pass: pick the one to step.")
        )
        self.reset_button = self._button(
            "backwardResetButton", self.tr("Reset"), self.tr("Reset (Home)")
        )
        self.back_button = self._button("backwardBackButton", "◀", self.tr("Step back (←)"))
        self.step_button = self._button("backwardStepButton", "▶", self.tr("Step (→)"))
        self.play_button = self._button(
            "backwardPlayButton", self.tr("Play"), self.tr("Play/pause (Space)")
        )
        self.play_button.setCheckable(True)
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setObjectName("backwardSlider")
        self.speed = QDoubleSpinBox(self)
        self.speed.setObjectName("backwardSpeed")
        self.speed.setRange(0.2, 20.0)
        self.speed.setValue(1.5)
        self.speed.setSuffix(self.tr(" steps/s"))
        self.predict = QCheckBox(self.tr("Predict, then reveal"), self)
        self.predict.setObjectName("predictCheck")
        self.reveal_button = self._button(
            "revealButton", self.tr("Reveal"), self.tr("Reveal this step's gradients (R)")
        )
        self.detail = QLabel(self)
        self.detail.setObjectName("stepDetail")
        self.detail.setFont(font(13, mono=True))
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.detail_area = QScrollArea(self)  # a fixed height: stepping never moves the graph
        self.detail_area.setObjectName("stepDetailArea")
        self.detail_area.setWidgetResizable(True)
        self.detail_area.setFrameShape(QFrame.Shape.NoFrame)
        self.detail_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.detail_area.setWidget(self.detail)
        self.log = StepLog(self)
        self.log.setObjectName("stepLog")
        self.log.setFont(font(11, mono=True))
        self.gradcheck = GradCheckPanel(self.model, self)
        self.value_view = ValueView(self.model, self)  # the selected node's value, fetched
        self.timer = QTimer(self)
        self._layout()
        self._fit_controls()
        self._connect()
        self._rebuild()

    def _button(self, name: str, text: str, tip: str) -> QPushButton:
        b = QPushButton(text, self)
        b.setObjectName(name)
        b.setToolTip(tip)
        return b

    def _layout(self) -> None:
        self.extras = QWidget(self)  # speed, predict and reveal: a second row when narrow
        extras = QHBoxLayout(self.extras)
        extras.setContentsMargins(0, 0, 0, 0)
        extras.addWidget(self.speed)
        extras.addWidget(self.predict)
        extras.addWidget(self.reveal_button)
        fixed = (self.mode, self.reset_button, self.back_button, self.step_button,
                 self.play_button)  # fmt: skip
        self.rows = ControlRows(fixed, self.slider, self.pass_box, self.extras)
        self.first_row, self.second_row = self.rows.first, self.rows.second
        row = self.first_row
        box = QVBoxLayout(self)
        box.addLayout(row)
        box.addLayout(self.second_row)
        box.addWidget(self.detail_area)
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("stepperTabs")
        self.tabs.addTab(self.log, self.tr("Chain rule"))
        self.tabs.addTab(self.gradcheck, self.tr("Gradient check"))
        self.tabs.addTab(self.value_view, self.tr("Value"))
        box.addWidget(self.tabs, 1)

    def _connect(self) -> None:
        self.reset_button.clicked.connect(lambda: self.jump(0))
        self.back_button.clicked.connect(self.step_back)
        self.step_button.clicked.connect(self.step_forward)
        self.play_button.toggled.connect(self._on_play_button_toggled)
        self.slider.valueChanged.connect(self.jump)
        self.speed.valueChanged.connect(self._on_speed_value_changed)
        self.mode.currentIndexChanged.connect(lambda _: self._rebuild())
        self.pass_box.activated.connect(self._on_pass_box_activated)
        self.predict.toggled.connect(lambda _: self._show())
        self.reveal_button.clicked.connect(self.reveal_current)
        self.log.stepClicked.connect(self.jump)
        self.timer.timeout.connect(self._on_timer_timeout)
        self.model.changed.connect(self._on_model_changed)
        self.view.nodeSelected.connect(self._on_view_node_selected)
        self.view.nodeSelected.connect(self.value_view.show_node)
        self.view.layoutFinished.connect(self._on_view_layout_finished)
        shortcuts = {
            Qt.Key.Key_Right: self.step_forward,
            Qt.Key.Key_Left: self.step_back,
            Qt.Key.Key_Space: self.play_button.toggle,
            Qt.Key.Key_Home: lambda: self.jump(0),
            Qt.Key.Key_R: self.reveal_current,
        }
        self.shortcuts = []
        for key, slot in shortcuts.items():
            sc = QShortcut(QKeySequence(key), self.window())
            sc.activated.connect(slot)
            self.shortcuts.append(sc)
        self._on_speed_value_changed(self.speed.value())

    # -- building --------------------------------------------------------------------------
    @property
    def stepper(self) -> BackwardStepper | ForwardStepper | None:
        """The stepper of the current mode."""
        return self.forward if self.mode.currentText() == self.tr(FORWARD) else self.backward

    _stale = False  # the model changed while this panel was a hidden tab

    @property
    def _hidden_tab(self) -> bool:
        """Whether the panel is a tab not in front (it follows the graph once shown)."""
        return self.isHidden() and self.parentWidget() is not None

    def _on_model_changed(self) -> None:
        """Follow the graph's tape; as a hidden tab, only once it is shown again.

        (The graph changes every step while the studio or the timeline plays.)
        """
        if self._hidden_tab or self.view.building:  # (a big graph: rebuilt once laid out)
            self._stale = True
        elif len(self.model.nodes) > LATER_NODES:  # a big graph's new values: not in their turn
            self._stale = True
            later(self._catch_up, self)
        else:
            self._rebuild()

    def _catch_up(self) -> None:
        """The turn after a big graph took a run's new values: follow them."""
        if self._stale and not self._hidden_tab and not self.view.building:
            self._stale = False
            self._rebuild()

    def _on_view_layout_finished(self) -> None:
        """The graph is laid out: catch up with its tape (a big one), else restyle it."""
        if self._stale and not self._hidden_tab:
            self._stale = False
            self._rebuild()
        else:
            self._show()

    def showEvent(self, event: QShowEvent) -> None:
        """Qt override: catch up with the graph's tape if it changed while hidden."""
        super().showEvent(event)
        if self._stale:
            self._stale = False
            self._rebuild()

    # (tape entry, its steppers, or why they could not be built) built elsewhere
    prepared: tuple[Any, Steppers | Exception] | None = None

    def _rebuild(self) -> None:
        self._stale = False  # (a rebuild before a queued catch-up makes it do nothing)
        self._size_detail()
        entry = self.model.entry
        if self.backward is not None and len(self.backward) > LATER_STEPS:
            release((self.backward, self.forward))
        self.backward = self.forward = None
        self.revealed = set()
        prepared, self.prepared = self.prepared, None
        self.failure = ""
        built: Steppers | Exception | None
        if prepared is not None and prepared[0] is entry:  # built (or failed) in the pool
            built = prepared[1]
        else:
            try:
                built = build_steppers(self.model)
            except Exception as exc:  # a rule that cannot run here: say so, keep the graph
                built = exc
        if isinstance(built, Exception):
            self.failure = self.tr("This backward pass cannot be stepped here: {error}").format(
                error=f"{type(built).__name__}: {built}"
            )
            built = None
        if built is not None:
            self.names, self.forward, self.backward = built
            if self.mode.currentText() == self.tr(FORWARD):
                self.forward.jump(0)  # the forward lesson starts with only the inputs known
            self.backward.step_changed.connect(lambda _k: self._on_step_changed())
            self.forward.step_changed.connect(lambda _k: self._on_step_changed())
        self._fill_passes()
        stepper = self.stepper
        self.slider.blockSignals(True)
        self.slider.setRange(0, len(stepper) if stepper is not None else 0)
        self.slider.setValue(stepper.position if stepper is not None else 0)
        self.slider.blockSignals(False)
        self._fill_log()
        self._show()

    def _fill_log(self) -> None:
        self.log.set_stepper(self.stepper, self.names)

    def _fill_passes(self) -> None:
        """List the shown tape's gradient() calls (hidden when it made none)."""
        entry = self.model.entry
        labels = self.model.pass_labels() if entry is not None else []
        box = self.pass_box
        box.blockSignals(True)
        if [box.itemText(i) for i in range(box.count())] != labels:
            box.clear()
            box.addItems(labels)
        box.setCurrentIndex(entry.call if entry is not None and labels else -1)
        box.blockSignals(False)
        box.setVisible(bool(labels))
        self._wrap_controls()

    def view_state(self) -> dict[str, Any]:
        """What the lecturer set here: the mode, the position, predict, the tab, the speed."""
        stepper = self.stepper
        return {"mode": self.mode.currentIndex(), "predict": self.predict.isChecked(),
                "position": stepper.position if stepper is not None else 0,
                "tab": self.tabs.currentIndex(), "speed": self.speed.value()}  # fmt: skip

    def restore_view_state(self, state: dict[str, Any]) -> None:
        """Take a :meth:`view_state` back (a rebuilt window, once its graph is shown)."""
        self.mode.setCurrentIndex(int(state.get("mode", 0)))
        self.predict.setChecked(bool(state.get("predict", False)))
        self.tabs.setCurrentIndex(int(state.get("tab", 0)))
        self.speed.setValue(float(state.get("speed", self.speed.value())))
        self.jump(int(state.get("position", 0)))

    def set_compact(self, compact: bool) -> None:
        """Compact (clean mode): only the controls and the current step, no log or check tabs."""
        self.tabs.setVisible(not compact)

    def _on_pass_box_activated(self, index: int) -> None:
        entry = self.model.entry
        if entry is not None and 0 <= index < len(entry.passes) and index != entry.call:
            self.model.select_call(index)  # the model rebuilds; so does this panel

    # -- moving ----------------------------------------------------------------------------
    def jump(self, k: int) -> None:
        """Go to the state after ``k`` steps."""
        if self.stepper is not None:
            self.stepper.jump(k)

    def step_forward(self) -> None:
        """One step on (playing stops at the end)."""
        stepper = self.stepper
        if stepper is None or stepper.position >= len(stepper):
            self.play_button.setChecked(False)
            return
        if isinstance(stepper, BackwardStepper):  # a folded layer is one step
            stepper.jump(next_position(self.model, stepper))
        else:
            stepper.jump(stepper.position + 1)

    def step_back(self) -> None:
        """One step back."""
        stepper = self.stepper
        if isinstance(stepper, BackwardStepper):
            stepper.jump(previous_position(self.model, stepper))
        elif stepper is not None:
            stepper.jump(stepper.position - 1)

    def reveal_current(self) -> None:
        """Reveal the gradients the last step computed (predict mode)."""
        stepper = self.backward
        if stepper is not None and stepper.current is not None:
            self.revealed.update(c.tensor_id for c in stepper.current.contributions)
            self._show()

    def _on_play_button_toggled(self, playing: bool) -> None:
        self.play_button.setText(self.tr("Pause") if playing else self.tr("Play"))
        if playing:
            if self.stepper is not None and self.stepper.position >= len(self.stepper):
                self.jump(0)
            self.timer.start()
        else:
            self.timer.stop()

    def _on_step_changed(self) -> None:
        """A step: show it, and scroll the graph to its node when the graph is larger."""
        self._show()
        stepper = self.stepper
        record: int | None = None
        if isinstance(stepper, BackwardStepper) and stepper.current is not None:
            record = stepper.current.record.id
        elif isinstance(stepper, ForwardStepper) and stepper.position:
            record = stepper.position - 1
        if record is not None:
            self.view.follow(self.model.node_for_record(record))

    def _on_timer_timeout(self) -> None:
        self.step_forward()

    def _on_speed_value_changed(self, steps_per_second: float) -> None:
        self.timer.setInterval(int(1000 / max(steps_per_second, 0.01)))

    def _on_view_node_selected(self, nid: str) -> None:
        node = self.model.nodes.get(nid)
        if node is not None and self.predict.isChecked():
            self.revealed.add(node.tensor_id)
            self._show()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._show()
        elif event.type() == QEvent.Type.FontChange:  # the children's fonts change after it
            QTimer.singleShot(0, self, self._fit_controls)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Qt override: the speed and predict controls wrap to a second row when narrow."""
        super().resizeEvent(event)
        self._wrap_controls()

    def _fit_controls(self) -> None:
        """Size ◀, ▶ and the mode box to their text, then wrap the row if needed.

        Push buttons are at least 80 px wide otherwise; the mode box is never narrower than its
        longest item (the row wraps instead of cutting "Backward pass" to "Backward |").
        """
        for b in (self.back_button, self.step_button):
            metrics = b.fontMetrics()
            b.setFixedWidth(metrics.horizontalAdvance(b.text()) + 2 * metrics.height())
        # the log may shrink to a few lines (its tabs' pages would keep it tall): the graph
        # above gets the height; the current step stays in full in the detail line
        bar = self.tabs.tabBar().sizeHint().height()
        self.tabs.setMinimumHeight(bar + round(LOG_LINES * self.log.fontMetrics().height()))
        self._size_detail()
        self.mode.setMinimumWidth(0)
        self.mode.setMinimumWidth(self.mode.sizeHint().width())
        self._wrap_controls()

    def _size_detail(self) -> None:
        """The detail's height: fixed per graph (stepping never moves it), taller with layers."""
        layered = any(nid.startswith(LAYER_PREFIX) for nid in self.model.nodes)
        lines = (
            LAYER_DETAIL_LINES if layered else DETAIL_LINES
        ) * self.detail.fontMetrics().lineSpacing()
        height = round(lines) + 2 * self.detail.margin() + 4
        if self.detail_area.height() != height or self.detail_area.minimumHeight() != height:
            self.detail_area.setFixedHeight(height)

    def _wrap_controls(self) -> None:
        margins = self.layout().contentsMargins()
        self.rows.wrap(self.width() - margins.left() - margins.right())

    # -- showing ---------------------------------------------------------------------------
    def _show(self) -> None:
        stepper = self.stepper
        k = stepper.position if stepper is not None else 0
        self.slider.blockSignals(True)
        self.slider.setValue(k)
        self.slider.blockSignals(False)
        self.log.show_position(k)
        self.back_button.setEnabled(k > 0)
        self.reset_button.setEnabled(k > 0)
        self.step_button.setEnabled(stepper is not None and k < len(stepper))
        if self.view.building:  # the old graph's items: the new ones are styled once built
            self.detail.setText("")
        elif isinstance(stepper, BackwardStepper):
            self._show_backward(stepper)
        elif isinstance(stepper, ForwardStepper):
            self._show_forward(stepper)
        else:
            self.detail.setText(self.failure)
        self.positionChanged.emit(k)

    def _show_backward(self, stepper: BackwardStepper) -> None:
        adjoints = stepper.adjoints_at()
        current = stepper.current
        done_records = {s.record.id for s in stepper.steps[: stepper.position]}
        glowing = set()
        if current is not None:
            op = self.model.node_for_record(current.record.id)
            glowing = {
                (self.model.node_for_tensor(c.tensor_id), op, c.position)
                for c in current.contributions
            }
        predicting, revealed, seeds = self.predict.isChecked(), self.revealed, stepper.seeds
        now = current.record.id if current is not None else None

        def style(item: NodeItem) -> None:
            node = item.node
            value = adjoints.get(node.tensor_id)
            hidden = predicting and value is not None and node.tensor_id not in revealed
            hidden = hidden and node.tensor_id not in seeds
            item.set_gradient(value, "?" if hidden else None)
            item.set_value_hidden(False)
            if now is not None and (node.record == now or now in node.members):
                item.state = "current"
            elif _done(node, done_records):
                item.state = "done"
            else:
                item.state = ""

        self.view.restyle_items(style)
        self.view.set_glowing(glowing)
        text = (
            layer_detail(self.model, stepper) or current.text
            if current is not None
            else self.tr("Start: the target's gradient is 1. Press → to step back through the ops.")
        )
        entry = self.model.entry
        if stepper.done and entry is not None:  # torch: the pass is added into .grad
            added = accumulation_lines(getattr(entry.tape, "grad_before", None), stepper)
            if added:
                head = self.tr("AccumulateGrad: backward() adds this pass into .grad (until "
                               "zero_grad()):")  # fmt: skip
                text = "\n  ".join([head, *added]) + "\n" + text
        self.detail.setText(text)

    def _show_forward(self, stepper: ForwardStepper) -> None:
        k = stepper.position

        def style(item: NodeItem) -> None:
            record = item.node.record
            item.set_gradient(None)
            item.set_value_hidden(record is not None and record >= k)
            item.state = (
                "current"
                if record == k - 1
                else ("pending" if record is not None and record >= k else "")
            )

        self.view.restyle_items(style)
        self.view.set_glowing(())
        self.detail.setText(
            stepper.text(k, self.names)
            if k
            else self.tr(
                "Start: only the inputs have values. Press → to compute the ops left to right."
            )
        )


def _done(node: Node, done: set[int]) -> bool:
    """Whether the backward pass has passed the node's op (a folded layer: all of its ops)."""
    if node.members:
        return all(r in done for r in node.members)
    return node.record is not None and node.record in done
