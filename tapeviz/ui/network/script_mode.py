"""The Network view showing a script's Keras ``fit`` on 2-D data, step by recorded step.

A run whose fit trained a chain of Dense layers on two input columns
(:func:`~tapeviz.models.network.script_net.script_net_of`) is drawn here as Playground draws its
own network: the neurons' heat maps, the links' weights, the decision boundary with the script's
points (validation points hollow), its History's loss curves. Nothing is trained again: play,
step (one epoch) and reset move a cursor over the weights the timeline recorded, and the cursor
follows the Timeline tab's (``scriptStep``: where it rests, so the graph shows that step's tape).
Changing a Playground setting hands the network and its data to Playground, which trains them
with its own settings; choosing a demo leaves the script's network.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import QCoreApplication, QTimer

from tapeviz.models.network.datasets import every_other, plane
from tapeviz.models.network.features import feature_grids
from tapeviz.models.network.script_net import ScriptNet, script_net_of
from tapeviz.ui.network.frames import Built, Frame, RunFrame
from tapeviz.ui.network.trainer_thread import GRID, OUTPUT_GRID

translate = QCoreApplication.translate  # lupdate reads translate("NetworkPanel", "…")
PLAY_MS = 33  # a frame of the playback
PLAY_FRAMES = 300  # a whole fit plays in about this many frames (~10 s), a step a frame at least
SCRIPT = "script"  # the demo combo's item of the script's network


def _grid_layers(net: ScriptNet, flat: np.ndarray, res: int) -> list[np.ndarray]:
    gx, gy = plane(net.data, res)
    feats = np.column_stack([gx.ravel(), gy.ravel()]).astype(np.float32)
    outs = net.spec.forward(flat, feats)
    outs[-1] = net.shown(outs[-1])
    return [a.T.reshape(a.shape[1], res, res) for a in outs]


def frame_at(net: ScriptNet, k: int, generation: int, playing: bool) -> Frame:
    """The picture of the fit before step ``k``: neurons, output, weights, loss so far."""
    flat = net.row(k)
    maps = _grid_layers(net, flat, OUTPUT_GRID)
    layers, output = every_other(maps), maps[-1][0]  # (one forward for both)
    e = net.epoch_of(k)
    nan = np.full(len(net.starts), np.nan)
    train = np.asarray(net.history.get("loss", nan), np.float64)[:e]
    test = np.asarray(net.history.get("val_loss", nan), np.float64)[:e]
    run = RunFrame(0, net.label, net.kind, e, min(int(k), net.steps),
                   np.arange(1, e + 1, dtype=np.float64), train, test,
                   net.spec.layout.weights(flat), output, None, net.learning_rate)  # fmt: skip
    return Frame(generation, (run,), layers, playing)


def built_of(net: ScriptNet, generation: int) -> Built:
    """The Network view's ``Built`` for the script's network, drawn at step 0."""
    first = net.spec.layout.weights(net.row(0))
    return Built(generation, net.config, net.data, first, feature_grids(*plane(net.data, GRID)),
                 frame_at(net, 0, generation, False))  # fmt: skip


def first_script(timelines: Sequence[Any]) -> ScriptNet | str | None:
    """The first fit of ``timelines`` the view can draw, else why the first fit cannot be."""
    reason: str | None = None
    for tl in timelines:
        found = script_net_of(tl)
        if isinstance(found, ScriptNet):
            return found
        if found is not None and reason is None:
            reason = found
    return reason


class ScriptMode:
    """The NetworkPanel's part that shows a script's fit (mixed into the panel)."""

    script: ScriptNet | None = None
    script_k = 0
    _script_generation = 0
    _before_script: Any = None  # the Playground settings to go back to

    def _script_timer(self) -> QTimer:
        timer = getattr(self, "_play_timer", None)
        if timer is None:
            timer = self._play_timer = QTimer(self)  # type: ignore[arg-type]
            timer.setInterval(PLAY_MS)
            timer.timeout.connect(self._on_script_tick)
        return timer

    def offer_script(self, timelines: Sequence[Any]) -> None:
        """A finished run's timelines: show its fit here, or say why it cannot be shown."""
        found = first_script(timelines)
        if isinstance(found, ScriptNet):
            self.enter_script(found)
            return
        if self.script is not None:
            self.leave_script()
        if found:
            self.show_message(  # type: ignore[attr-defined]
                translate("NetworkPanel", "ⓘ The script's fit is not drawn here: %1.").replace(
                    "%1", found.rstrip(".")
                )
            )

    def enter_script(self, net: ScriptNet) -> None:
        """Draw ``net`` (a script's fit) at step 0; the Playground settings are kept to return."""
        if self.script is None:
            self.pause()  # type: ignore[attr-defined]
            self._before_script = self.requested  # type: ignore[attr-defined]
        else:  # (no pause: it would move the Timeline, which shows the new run already)
            self._script_timer().stop()
            self.top.set_playing(False)  # type: ignore[attr-defined]
        self.script, self.script_k = net, 0
        self._script_generation -= 1  # (the thread's generations count up from 1)
        self._pending = self._next_config = None
        self._started = True
        self.note = ""
        self._on_built(built_of(net, self._script_generation))  # type: ignore[attr-defined]
        combo = self.top.demo  # type: ignore[attr-defined]
        if combo.findData(SCRIPT) < 0:
            combo.insertItem(1, translate("NetworkPanel", "Your script's network"), SCRIPT)
        combo.setCurrentIndex(combo.findData(SCRIPT))
        code = self.top.export_actions["code"]  # type: ignore[attr-defined]
        code.setEnabled(False)
        code.setToolTip(
            translate("NetworkPanel", "This network's code is your script, in the editor")
        )
        self.show_message(self.script_summary())  # type: ignore[attr-defined]

    def script_summary(self) -> str:
        """What the view shows: the script's fit (or torch loop), its size, how to play it."""
        net = self.script
        if net is None:
            return ""
        sizes = "-".join(str(s) for s in net.spec.layout.sizes)
        return (
            translate("NetworkPanel", "Your script's training: %1 network, %2 steps, %3 (%4). "
                      "Play replays the recorded weights; the Timeline's cursor moves with it.")
            .replace("%1", sizes).replace("%2", f"{net.steps:,}").replace("%3", net.label)
            .replace("%4", net.loss)
        )  # fmt: skip

    def leave_script(self, rebuild: bool = True) -> None:
        """Back to Playground's own network (its settings from before the script's)."""
        if self.script is None:
            return
        self._script_timer().stop()
        before, self.script, self._before_script = self._before_script, None, None
        combo = self.top.demo  # type: ignore[attr-defined]
        i = combo.findData(SCRIPT)
        if i >= 0:
            combo.removeItem(i)
        code = self.top.export_actions["code"]  # type: ignore[attr-defined]
        code.setEnabled(True)
        code.setToolTip("")
        self.top.set_playing(False)  # type: ignore[attr-defined]
        if rebuild and before is not None:
            self.set_config(before)  # type: ignore[attr-defined]

    def fork_script(self) -> Any:
        """Playground takes the script's network and data (a setting was changed)."""
        config = self.script.config if self.script is not None else None
        self.leave_script(rebuild=False)
        self.config = config
        return config

    # -- the cursor ----------------------------------------------------------------------------
    def show_script_step(self, k: int, announce: bool = False) -> None:
        """Draw the fit before step ``k``; ``announce``: tell the Timeline (``scriptStep``)."""
        net = self.script
        if net is None:
            return
        self.script_k = max(0, min(int(k), net.steps))
        playing = self._script_timer().isActive()
        self._draw(frame_at(net, self.script_k, self._script_generation, playing))  # type: ignore[attr-defined]
        self.repaint()  # type: ignore[attr-defined]
        if announce:
            self.scriptStep.emit(self.script_k)  # type: ignore[attr-defined]

    def script_play(self) -> None:
        """Replay the recorded steps from here (from the start when at the end)."""
        net = self.script
        if net is None:
            return
        if self.script_k >= net.steps:
            self.script_k = 0
        self._script_timer().start()
        self.top.set_playing(True)  # type: ignore[attr-defined]

    def script_pause(self) -> None:
        """Stop the replay; the Timeline (and so the graph) goes to the step shown."""
        timer = self._script_timer()
        if timer.isActive():
            timer.stop()
            self.show_script_step(self.script_k, announce=True)
        self.top.set_playing(False)  # type: ignore[attr-defined]

    def script_epoch(self) -> None:
        """To the start of the next epoch (after the last: the end of the fit)."""
        net = self.script
        if net is None:
            return
        self.script_pause()
        self.show_script_step(net.epoch_start(net.epoch_of(self.script_k) + 1), announce=True)

    def script_reset(self) -> None:
        """Back to the weights before the first step."""
        self.script_pause()
        self.show_script_step(0, announce=True)

    def _on_script_tick(self) -> None:
        net = self.script
        if net is None:
            self._script_timer().stop()
            return
        pace = max(1, net.steps // PLAY_FRAMES)
        k = min(self.script_k + pace, net.steps)
        self.show_script_step(k)
        if k >= net.steps:
            self.script_pause()
