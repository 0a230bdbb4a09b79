"""The Network tab: TensorFlow Playground on our own tape (issue 29, section 2).

``NetworkPanel`` lays out Playground's columns (DATA, the network diagram, OUTPUT) under its
top bar, keeps the last good settings (:class:`~tapeviz.models.network.config.NetworkConfig`)
and draws what the training thread posts; it computes nothing itself. A 16 ms timer takes the
thread's newest frame while the thread has work; a settings change pauses training, rebuilds
the trainers in the thread and keeps the old picture until the new one arrives; a refused
setting is said in the message line and the controls go back to the last good settings.

For the window: ``stepTape(RunResult)`` carries the tape of the current step when it was asked
for (:meth:`resend_tape`, and after every pause, step, reset or edit while the tab is shown),
so the graph pane and the backward stepper show the real tape of that step;
``statusMessage(str)`` the messages; :meth:`state` and :meth:`restore` the session's part.
"""

from __future__ import annotations

import time
import weakref
from collections import deque
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QVBoxLayout, QWidget

from tapeviz.models.network.config import NetworkConfig
from tapeviz.models.network.state import NetworkState
from tapeviz.ui.network import edits, text, wiring
from tapeviz.ui.network.appearance import PanelAppearance
from tapeviz.ui.network.atlas import layer_strips
from tapeviz.ui.network.controls import TopBar
from tapeviz.ui.network.data_controls import DataControls
from tapeviz.ui.network.diagram import NetworkDiagram
from tapeviz.ui.network.diagram_paint import render_links
from tapeviz.ui.network.documents import PanelDocuments
from tapeviz.ui.network.frames import Built, Frame, StepTape
from tapeviz.ui.network.message import MessageLine
from tapeviz.ui.network.output_panel import OutputPanel
from tapeviz.ui.network.script_mode import ScriptMode
from tapeviz.ui.network.trainer_thread import TrainingThread
from tapeviz.ui.theme import LIGHT

translate = QCoreApplication.translate  # lupdate reads translate("NetworkPanel", "…")
FRAME_MS = 8
DRAW_SHARE = 2  # while training, a frame waits twice the last one's cost (≤ ½ of the UI thread)
APPLY_MS = 120  # a slider dragged: its settings apply once it rests this long


class NetworkPanel(ScriptMode, PanelDocuments, PanelAppearance, QWidget):
    """The whole Network tab (see the module docstring)."""

    stepTape = Signal(object)  # a sandbox RunResult holding the current step's tape
    statusMessage = Signal(str)
    frameShown = Signal(int)  # the epoch of the frame just drawn (tests, the window)
    exportRequested = Signal()  # Export…: the window shows ``export_scripts()``
    scriptStep = Signal(int)  # the script's fit rests at this step (the Timeline follows)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("networkPanel")
        self.theme, self.scale = LIGHT, 1.0
        self.config = NetworkConfig()  # the last good settings
        self._pending: NetworkState | None = None  # asked for, not yet built
        self.built: Built | None = None
        self.frame: Frame | None = None
        self.thread = TrainingThread()
        self.thread.link_renderer = render_links
        self.thread.atlas_renderer = layer_strips
        weakref.finalize(self, self.thread.close, 0.0)  # the thread ends with the panel
        self._started = False  # the first network is built when the tab is first shown
        self._want_tape = False
        self.tape: StepTape | None = None
        self.frame_ms: deque[float] = deque(maxlen=300)  # how long the last frames took to draw
        self._drawn_at, self._draw_cost = 0.0, 0.0  # the last frame: when it ended, its cost
        self.note = ""  # the preset's note (the message line shows it when nothing else)
        self.top = TopBar(self)
        self.data_controls = DataControls(self)
        self.diagram = NetworkDiagram(self)
        self.output = OutputPanel(self)
        self.message = MessageLine(self)
        self.stage = QWidget(self)  # the data, the network and its output (what exports film)
        self.stage.setObjectName("networkStage")
        body = QHBoxLayout(self.stage)
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(10)
        body.addWidget(self.data_controls, 0)
        body.addWidget(self.diagram, 1)
        body.addWidget(self.output, 0)
        box = QVBoxLayout(self)
        box.setContentsMargins(6, 4, 6, 4)
        box.setSpacing(4)
        box.addWidget(self.top)
        box.addWidget(self.stage, 1)
        box.addWidget(self.message)
        self.timer = QTimer(self)
        self.timer.setInterval(FRAME_MS)
        self.timer.timeout.connect(self._on_timer_timeout)
        self.apply_timer = QTimer(self)
        self.apply_timer.setSingleShot(True)
        self.apply_timer.setInterval(APPLY_MS)
        self.apply_timer.timeout.connect(self._apply_pending_config)
        self._next_config: NetworkConfig | None = None
        wiring.fill_presets(self.top.demo)
        wiring.connect(self)
        self._show_config(self.config)
        self.diagram.set_shape(self.config.net.features, self.config.net.hidden)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    # -- settings ------------------------------------------------------------------------------
    def change(self, edit: Callable[[NetworkConfig], NetworkConfig], later: bool = False) -> bool:
        """Apply ``edit`` to the settings: rebuild (``later``: once a dragged slider rests).

        A refused setting is said in the message line; the controls show the last good ones.
        """
        forked = self.script is not None and self.fork_script() is not None
        base = self.requested
        try:
            new = edit(base)
        except (ValueError, TypeError) as exc:
            self.show_message("⚠ " + text.refused(str(exc)))
            self._show_config(self.config)
            return False
        self._next_config = new
        if self.note:  # the demo's note no longer describes these settings
            self.note = ""
            self.top.demo.setCurrentIndex(0)
            self.show_message("")
        if later:
            self.apply_timer.start()
        else:
            self._apply_pending_config()
        if forked:
            self.show_message(text.forked())
        return True

    def _apply_pending_config(self) -> None:
        self.apply_timer.stop()
        new, self._next_config = self._next_config, None
        if new is not None:
            self.set_config(new)

    def set_config(
        self, config: NetworkConfig, initial: Any = None, current: Any = None, epoch: int = 0
    ) -> None:
        """Train ``config`` from ``initial`` weights (None: from its weight seed); pauses.

        ``current`` and ``epoch``: a session's weights, and the epoch they were saved at.
        """
        self.leave_script(rebuild=False)
        self.pause()
        from tapeviz.models.network.trainer import initial_weights

        first = initial if initial is not None else initial_weights(config.net)
        now = current if current is not None else first
        self._pending = NetworkState(config, first, now, epoch)
        self._show_config(config)
        self.thread.build(config, first, current, epoch)
        self._started = True
        self._want_tape = True
        self.timer.start()

    def _show_config(self, c: NetworkConfig) -> None:
        net = self.script
        if net is not None:  # its split and batch as the script has them
            n_train, n_test = len(net.data.train_y), len(net.data.test_y)
            self.data_controls.show_script(c.data, c.train.batch_size, n_train, n_test)
        else:
            self.data_controls.show_config(c.data, c.train.batch_size)
        self.top.show_config(c)

    def toggle_feature(self, name: str) -> bool:
        """Switch input ``name`` on or off (the last one stays on)."""
        return self.change(lambda c: edits.toggled(c, name))

    def change_layers(self, delta: int) -> bool:
        """One hidden layer more (+1, of 2 neurons as Playground adds) or fewer (−1)."""
        return self.change(lambda c: edits.with_layers(c, delta))

    def change_neurons(self, layer: int, delta: int) -> bool:
        """One neuron more or fewer in hidden layer ``layer`` (1 to 8)."""
        return self.change(lambda c: edits.with_neurons(c, layer, delta))

    def set_race(self, kinds: tuple[str, ...]) -> bool:
        """Race ``kinds`` (2 to 6) from the same first weights; fewer: the optimizer alone."""
        return self.change(lambda c: edits.with_race(c, tuple(kinds)))

    def load_preset(self, name: str) -> None:
        """Load Network preset ``name`` (its settings, from its own first weights)."""
        from tapeviz.models.network.presets import NOTES, PRESETS

        self.top.demo.setCurrentIndex(max(0, self.top.demo.findData(name)))
        self.note = translate("presets", NOTES.get(name, ""))
        self.top.demo.setToolTip(self.note)
        self.set_config(PRESETS[name])
        self.show_message(self.note)

    # -- training --------------------------------------------------------------------------------
    def _ensure_started(self) -> None:
        if not self._started:
            self.set_config(self.config)

    @property
    def requested(self) -> NetworkConfig:
        """The newest settings asked for (built or not yet)."""
        if self._next_config is not None:
            return self._next_config
        return self._pending.config if self._pending is not None else self.config

    @property
    def busy(self) -> bool:
        """Whether something asked for has not been drawn yet (settings, training, a frame)."""
        t = self.thread
        waiting = self._pending is not None or self._next_config is not None
        return waiting or not t.idle or t.has_news or self.apply_timer.isActive()

    @property
    def playing(self) -> bool:
        """Whether the thread trains (or the script's fit is replayed)."""
        return self._script_timer().isActive() if self.script else self.thread.playing

    def play(self) -> None:
        """Train in the background until paused."""
        if self.script is not None:
            return self.script_play()
        self._ensure_started()
        self._apply_pending_config()
        if self.frame is not None and all(r.diverged_at is not None for r in self.frame.runs):
            self.top.set_playing(False)
            self.show_message("⚠ " + text.all_diverged())
            return
        self.thread.play()
        self.top.set_playing(True)
        self.timer.start()

    def pause(self) -> None:
        """Stop training after the step under way (the graph then shows the step's tape)."""
        if self.script is not None:
            return self.script_pause()
        if self.thread.playing:
            self.thread.pause()
            self._want_tape = True
            if self.frame is not None:  # the curves as far as drawn (they lag while training)
                self.output.plot.show_runs(self.frame.runs)
        self.top.set_playing(False)

    def toggle(self) -> None:
        """Play or pause (Space)."""
        if self.playing:
            self.pause()
        else:
            self.play()

    def _paused_command(self, command: Callable[..., None], *args: Any) -> None:
        """Pause, then ``command(*args)`` in the thread; the step's tape follows."""
        self._ensure_started()
        self.pause()
        command(*args)
        self._want_tape = True
        self.timer.start()

    def step(self) -> None:
        """One epoch, as Playground's step button (pauses first)."""
        if self.script is not None:
            return self.script_epoch()
        self._paused_command(self.thread.train_epoch)

    def reset(self) -> None:
        """Back to the first weights, bit for bit (pauses)."""
        if self.script is not None:
            return self.script_reset()
        self._paused_command(self.thread.reset)

    def new_weights(self) -> None:
        """Other first weights: the next weight seed."""
        self.change(lambda c: c.with_net(weight_seed=(c.net.weight_seed + 1) % 2**32))

    def set_weight(self, layer: int, i: int, j: int, value: float) -> None:
        """Set a weight (``i == −1``: a bias) in every run; pauses."""
        if self.script is not None:
            return self.show_message("⚠ " + text.recorded_weights())
        self._paused_command(self.thread.set_weight, layer, i, j, value)

    def resend_tape(self) -> None:
        """Ask for the current step's tape again (the tab came to the front)."""
        if self.script is not None:  # the Timeline shows the script's step (its real tape)
            return self.scriptStep.emit(self.script_k)
        if self.built is None:
            self._ensure_started()
            return
        self._want_tape = True
        if not self.playing:
            self.thread.record(0)
            self.timer.start()

    # -- what the thread posts -------------------------------------------------------------------
    def _on_timer_timeout(self) -> None:
        now = time.perf_counter()
        if self.thread.playing and now - self._drawn_at < DRAW_SHARE * self._draw_cost:
            return  # frames cost more than usual (a busy machine): the UI thread stays free
        idle = self.thread.idle
        frame, events = self.thread.take()
        if frame is not None or events:  # training waits while this frame is drawn
            self.thread.hold()
        started = time.perf_counter()
        try:
            self._take(frame, events)
        finally:
            self.thread.release()
        if frame is not None:
            self._drawn_at = time.perf_counter()
            self._draw_cost = self._drawn_at - started
            self.frame_ms.append(self._draw_cost * 1e3)
        if not self.thread.playing:
            self.top.set_playing(False)
            if self._want_tape and idle and self.built is not None and self.isVisible():
                self._want_tape = False
                self.thread.record(0)
                return
        if idle and not self.thread.playing and frame is None and not events:
            self.timer.stop()

    def _take(self, frame: Frame | None, events: list[Any]) -> None:
        """Draw what the thread posted, painted now (while training waits)."""
        for kind, payload in events:
            if kind == "built":
                self._on_built(payload)
            elif kind == "error":
                self._on_error(payload)
            elif kind == "tape":
                self._on_tape(payload)
        built = self.built
        if frame is not None and built is not None and frame.generation == built.generation:
            self._draw(frame)
        if events and self.isVisible():  # a new network: its whole layout
            self.repaint()
        elif frame is not None and self.isVisible():
            self.repaint_frame()
        self.thread.link_spec = self.diagram.links.spec  # (the thread draws for the newest)
        self.thread.atlas_spec = self.diagram.atlas_.spec

    def _on_built(self, built: Built) -> None:
        if self.script is not None and built.generation > 0:
            return  # built before the script's fit came: it stays on screen
        pending, self._pending = self._pending, None
        self.built = built
        self.config = built.config
        self.diagram.set_shape(built.config.net.features, built.config.net.hidden)
        self.diagram.set_feature_grids(built.features)
        self._share_width()
        self.output.set_data(built.data)
        self._show_config(built.config)
        if pending is not None and pending.config != built.config:
            self._pending = pending  # a newer request is on its way
        if built.frame is not None:
            self._draw(built.frame)
        if self.note:
            self.show_message(self.note)
        elif self.message.full.startswith("⚠"):
            self.show_message("")
        QTimer.singleShot(0, self, self._say_if_cramped)

    def _on_error(self, message: str) -> None:
        self._pending = None
        self.show_message("⚠ " + text.refused(message))
        self._show_config(self.config)

    def _on_tape(self, step: StepTape) -> None:
        if self.built is None or step.generation != self.built.generation:
            return
        self.tape = step
        self.stepTape.emit(text.run_result(step))

    def _draw(self, frame: Frame) -> None:
        self.frame = frame
        runs = frame.runs
        if not runs:
            return
        first = runs[0]
        self.top.set_epoch(first.epoch)
        self.top.epoch.setToolTip(text.speed(frame, first))
        self.top.set_curvature(frame.curvature, first.learning_rate)
        self.diagram.training = frame.playing and self.thread.playing
        self.diagram.set_frame(frame.layers, first.weights, frame.links, frame.links_spec,
                               frame.atlas, frame.atlas_spec)  # fmt: skip
        notes = [text.divergence(r, frame.start_curvature) for r in runs]
        self.output.show_runs(runs, notes, frame.playing and self.thread.playing)
        if any(notes):
            self.show_message("⚠ " + next(n for n in notes if n))
        self.frameShown.emit(first.epoch)

    # -- appearance, messages, keys --------------------------------------------------------------
    def show_message(self, message: str) -> None:
        """Show ``message`` in the panel's message line; a warning in the status bar too.

        A demo's note stays in the panel (the status bar right under it said the same sentence
        a second time); a warning goes to the status bar, and is cleared there when it goes.
        """
        said = self.message.full
        warning = message.startswith("⚠")
        self.message.set_message(message, self.theme.warning if warning else "")
        if warning or said.startswith("⚠"):
            self.statusMessage.emit(message if warning else "")

    def resizeEvent(self, event: Any) -> None:
        """Qt override: share the width between the diagram and the output again."""
        super().resizeEvent(event)
        self._share_width()
        QTimer.singleShot(0, self, self._say_if_cramped)  # once the diagram has laid out

    def showEvent(self, event: Any) -> None:
        """Qt override: the first network is built when the tab is first shown."""
        super().showEvent(event)
        _ = self.output.plot  # the loss curves (pyqtgraph) are made now, not at start
        self._ensure_started()

    def keyPressEvent(self, event: Any) -> None:
        """Qt override: Space plays or pauses, → trains one epoch, Home resets."""
        actions = {Qt.Key.Key_Space: self.toggle, Qt.Key.Key_Right: self.step,
                   Qt.Key.Key_Home: self.reset}  # fmt: skip
        action = actions.get(event.key())
        if action is None:
            super().keyPressEvent(event)
            return
        action()
        event.accept()

    def shutdown(self) -> None:
        """Stop the training thread (the window closes)."""
        self.timer.stop()
        self.thread.close()

    def closeEvent(self, event: Any) -> None:
        """Qt override: the thread stops with the panel."""
        self.shutdown()
        super().closeEvent(event)
