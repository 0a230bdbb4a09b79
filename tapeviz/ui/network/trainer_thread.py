"""Training off the UI thread: one Python thread owns the trainers; the window only draws.

The window sends commands (build, play, pause, one epoch, reset, edit a weight, record a
step's tape) through a queue; the thread runs them in order and trains in chunks of
:data:`CHUNK_S` while playing, checking the play flag between steps, so a pause takes effect
within one step. After a chunk it posts a :class:`~tapeviz.ui.network.frames.Frame` at most
every :data:`FRAME_S` (the newest replaces one not yet drawn); answers (a new network, a
tape, a refusal) go to an event list. :meth:`take` hands both to the UI thread's timer.

Nothing here imports Qt: the thread never touches a widget, and the application's garbage
collection stays in the UI thread (:func:`tapeviz.ui.workers.collect_in_ui_thread`). While
training it also draws the diagram's links for its frames through ``link_renderer`` (given by
the panel; painting a QImage is allowed in any thread), at most every :data:`LINKS_EVERY_S`
and no more often than keeps them within :data:`LINKS_SHARE` of its time (stroking a big
network's links antialiased takes tens of ms: drawn ten times a second they halved the frames),
and makes every frame's heat-map strips through ``atlas_renderer``.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.ui.network.frames import (
    Built,
    Frame,
    RunFrame,
    Series,
    StepTape,
    copy_weights,
    finite_weights,
)

CHUNK_S = 0.004  # training between looks at the queue and the clock ...
REST_S = 0.003  # ... and a rest after each chunk: the UI thread gets the GIL at once
HOLD_S = 0.03  # the longest the thread waits while the UI thread draws a frame
FRAME_S = 0.016  # a frame at most this often (chunks end every ~7 ms: a frame every ~28-33 ms)
GRID = 50  # a neuron's heat map: GRID × GRID points of the input plane
OUTPUT_GRID = 2 * GRID - 1  # the output's (drawn large): its every other point is GRID's
CURVATURE_EPOCHS = 10  # λmax again after this many epochs (while playing) ...
CURVATURE_SHARE = 0.2  # ... taking at most this share of the thread's time
LINKS_EVERY_S = 0.1  # the links drawn for a frame at most this often ...
LINKS_SHARE = 0.1  # ... and taking at most this share of the thread's time
SWITCH_S = 0.001  # the GIL switch interval while the thread trains (as the thread pool's)
Command = Callable[[], None]


class TrainingThread:
    """The trainers of the Network view and the thread that trains them (see the module)."""

    def __init__(self) -> None:
        self.generation = 0
        self.config: Any = None
        self.data: Any = None
        self.trainers: list[Any] = []
        self._series: list[tuple[Series, Series, Series]] = []
        self._seen: list[int] = []  # history entries already in the series, per run
        self._inbox: queue.Queue[Command | None] = queue.Queue()
        self._play = threading.Event()
        self._free = threading.Event()  # cleared while the UI thread draws (see hold)
        self._free.set()
        self._lock = threading.Lock()  # guards the outbox
        self._frame: Frame | None = None
        self._events: list[Any] = []
        self._curvature: float | None = None
        self._curvature_epoch = -1
        self._curvature_cost = 0.0
        self._curvature_at = 0.0
        self._start_curvature: float | None = None
        self._rate = (0.0, 0, 0.0)  # (time, steps, steps per second) for the readout
        self._published = 0.0  # when the last frame was posted
        self._sent = 0  # commands sent (UI thread) and done (the thread): idle when equal
        self._done = 0
        self._thread: threading.Thread | None = None
        self.closed = False
        # (spec, weights, pause) -> image: draws the links for a frame (calling pause now and
        # then); the spec is the UI's, replaced (never changed) when the diagram's layout changes
        self.link_renderer: Callable[[Any, Any, Callable[[], None]], Any] | None = None
        self.link_spec: Any = None
        # (spec, layers) -> the layers' heat-map strips for a frame (the same kind of spec)
        self.atlas_renderer: Callable[[Any, Any], Any] | None = None
        self.atlas_spec: Any = None
        self._links_at = 0.0
        self._links_every = LINKS_EVERY_S

    # -- the UI thread's side ----------------------------------------------------------------
    def start(self) -> None:
        """Start the thread (once)."""
        if self._thread is not None:
            return
        from tapeviz.ui import workers  # garbage collection stays in the UI thread

        workers.collect_in_ui_thread()
        if sys.getswitchinterval() > SWITCH_S:
            sys.setswitchinterval(SWITCH_S)
        self._thread = threading.Thread(target=self._loop, name="tapeviz-network", daemon=True)
        self._thread.start()

    def send(self, command: Command) -> None:
        """Run ``command`` in the thread, after those sent before it."""
        self.start()
        self._sent += 1
        self._inbox.put(command)

    @property
    def idle(self) -> bool:
        """Whether every command sent has run and the thread is not training."""
        return self._done >= self._sent and not self._play.is_set()

    @property
    def playing(self) -> bool:
        """Whether the thread trains (until paused)."""
        return self._play.is_set()

    def play(self) -> None:
        """Train until paused (a frame at most every FRAME_S)."""
        self._play.set()
        self.send(lambda: None)  # wake the thread

    def pause(self) -> None:
        """Stop training after the step under way; an exact frame follows."""
        self._play.clear()
        self.send(lambda: self._publish(force=True))

    @property
    def has_news(self) -> bool:
        """Whether a frame or an event waits to be taken."""
        with self._lock:
            return self._frame is not None or bool(self._events)

    def hold(self) -> None:
        """The UI thread draws: training waits (at most HOLD_S) so the frame has the GIL."""
        self._free.clear()

    def release(self) -> None:
        """The frame is drawn: training goes on."""
        self._free.set()

    def _let_ui_draw(self) -> None:
        """While the UI thread draws a frame (:meth:`hold`), wait (at most HOLD_S).

        Called between the pieces of a frame, of the links' strokes and of a curvature: with
        both threads running Python the window's draw took twice as long (each wait for the
        GIL up to the switch interval).
        """
        if not self._free.is_set():
            self._free.wait(HOLD_S)

    def _offer_gil(self) -> None:
        """Between the links' strokes: wait while the window draws, else offer it the GIL."""
        if self._free.is_set():
            time.sleep(0)
        else:
            self._free.wait(HOLD_S)

    def take(self) -> tuple[Frame | None, list[Any]]:
        """The newest frame not yet taken (or None) and the events since the last call."""
        with self._lock:
            frame, events = self._frame, self._events
            self._frame, self._events = None, []
        return frame, events

    def close(self, timeout: float = 2.0) -> None:
        """Stop the thread (the window closes)."""
        self.closed = True
        self._play.clear()
        self._inbox.put(None)
        if self._thread is not None:
            self._thread.join(timeout)

    # -- commands (each runs in the thread) ----------------------------------------------------
    def build(self, config: Any, weights: Any = None, current: Any = None, epoch: int = 0) -> None:
        """New trainers for ``config`` from ``weights`` (None: from its weight seed).

        ``current`` and ``epoch``: a session's weights and the epoch it was saved at.
        """
        self.send(lambda: self._build(config, weights, current, epoch))

    def train_epoch(self) -> None:
        """One epoch of every run that has not diverged (as Playground's step button)."""
        self._play.clear()
        self.send(self._epoch)

    def reset(self) -> None:
        """Every run back to the first weights, bit for bit."""
        self._play.clear()
        self.send(self._reset)

    def set_weight(self, layer: int, i: int, j: int, value: float) -> None:
        """Set weight ``[i, j]`` of layer ``layer`` in every run (``i == -1``: the bias j)."""
        self.send(lambda: self._set_weight(layer, i, j, value))

    def record(self, run: int = 0) -> None:
        """Record the tape of run ``run``'s next step (posted as a StepTape)."""
        self.send(lambda: self._record(run))

    # -- the thread ---------------------------------------------------------------------------
    def _loop(self) -> None:
        while not self.closed:
            try:
                if self._play.is_set() and self._trainable():
                    self._run_waiting()
                    self._train_chunk()
                    continue
                if self._play.is_set():  # every run diverged: nothing left to play
                    self._publish(force=True, stopping=True)  # (before the window sees the
                    self._play.clear()  # stop: it stops its timer once the thread is idle)
                try:
                    command = self._inbox.get(timeout=0.5)
                except queue.Empty:
                    continue
                if command is None:
                    return
                self._guarded(command)
            except Exception:  # never lose the thread: say what went wrong
                self._play.clear()
                self._post(("error", traceback.format_exc(limit=4).strip().splitlines()[-1]))

    def _run_waiting(self) -> None:
        while True:
            try:
                command = self._inbox.get_nowait()
            except queue.Empty:
                return
            if command is None:
                self.closed = True
                return
            self._guarded(command)

    def _guarded(self, command: Command) -> None:
        try:
            command()
        except (ValueError, IndexError) as exc:  # a refused setting: said where the user looks
            self._play.clear()
            self._post(("error", str(exc)))
        finally:
            self._done += 1

    def _trainable(self) -> bool:
        return any(t.diverged_at is None for t in self.trainers)

    def _train_chunk(self) -> None:
        started = time.perf_counter()
        live = [t for t in self.trainers if t.diverged_at is None]
        while self._play.is_set() and time.perf_counter() - started < CHUNK_S and live:
            self._let_ui_draw()
            for t in live:
                t.train_step()
            live = [t for t in live if t.diverged_at is None]
        self._curvature_due()
        self._publish()
        time.sleep(REST_S)

    def _post(self, event: Any) -> None:
        with self._lock:
            self._events.append(event)

    # -- building and editing ----------------------------------------------------------------
    def _build(self, config: Any, weights: Any, current: Any, epoch: int = 0) -> None:
        from tapeviz.models.network.datasets import make_dataset
        from tapeviz.models.network.trainer import initial_weights, race

        data = make_dataset(config.data)
        first = initial_weights(config.net) if weights is None else weights
        if not finite_weights(first):
            raise ValueError("the first weights are not all finite numbers")
        trainers = race(config, data, first)
        if current is not None:  # a session's weights as they were when it was saved
            if not finite_weights(current):
                raise ValueError("the current weights are not all finite numbers")
            for t in trainers:
                for layer, (w, b) in enumerate(current):
                    for (i, j), v in np.ndenumerate(w):
                        t.set_weight(layer, i, j, float(v))
                    for j, v in enumerate(b):
                        t.set_bias(layer, j, float(v))
        if epoch:
            for t in trainers:
                t.resume(epoch)
        self.config, self.data, self.trainers = config, data, trainers
        self.generation += 1
        self._fresh_series()
        self._start_curvature = self._curvature = None
        self._curvature_epoch = -1
        self._measure_curvature()
        self._start_curvature = self._curvature
        features = self._feature_grids()
        initial = copy_weights(trainers[0].initial)
        frame = self._frame_now()
        self._post(("built", Built(self.generation, config, data, initial, features, frame)))
        with self._lock:
            self._frame = None  # the Built carries it

    def _fresh_series(self) -> None:
        self._series = [(Series(), Series(), Series()) for _ in self.trainers]
        self._seen = [0 for _ in self.trainers]

    def _epoch(self) -> None:
        for t in self.trainers:
            if t.diverged_at is None:
                t.train_epoch()
        self._measure_curvature()
        self._publish(force=True)

    def _reset(self) -> None:
        for t in self.trainers:
            t.reset()
        self._fresh_series()
        self._curvature = self._start_curvature
        self._curvature_epoch = 0
        self._publish(force=True)

    def _set_weight(self, layer: int, i: int, j: int, value: float) -> None:
        if not np.isfinite(value):
            raise ValueError(f"a weight must be a finite number, got {value}")
        for t in self.trainers:
            if i < 0:
                t.set_bias(layer, j, value)
            else:
                t.set_weight(layer, i, j, value)
        self._measure_curvature()
        self._publish(force=True)

    def _record(self, run: int) -> None:
        if not 0 <= run < len(self.trainers):
            return
        t = self.trainers[run]
        tape = t.record_step(t.step)
        self._post(("tape", StepTape(self.generation, run, t.step, tape)))

    # -- measuring -----------------------------------------------------------------------------
    def _measure_curvature(self) -> None:
        if not self.trainers:
            return
        from tapeviz.models.network.curvature import lambda_max

        started = time.perf_counter()
        try:
            lam = float(lambda_max(self.trainers[0], between=self._let_ui_draw))
        except (ValueError, FloatingPointError, ArithmeticError):
            lam = float("nan")
        self._curvature = lam if np.isfinite(lam) else None
        self._curvature_epoch = self.trainers[0].epoch
        self._curvature_at = time.perf_counter()
        self._curvature_cost = self._curvature_at - started

    def _curvature_due(self) -> None:
        t = self.trainers[0] if self.trainers else None
        if t is None or t.epoch < self._curvature_epoch + CURVATURE_EPOCHS:
            return
        rest = self._curvature_cost * (1 / CURVATURE_SHARE - 1)
        if time.perf_counter() - self._curvature_at >= rest:
            self._measure_curvature()

    def _feature_grids(self) -> dict[str, np.ndarray]:
        from tapeviz.models.network.datasets import plane
        from tapeviz.models.network.features import feature_grids

        return feature_grids(*plane(self.data, GRID))

    def _history(self, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        t, (epochs, train, test) = self.trainers[k], self._series[k]
        history = t.history
        if len(history) < self._seen[k]:  # reset outside _reset (cannot happen, but be safe)
            self._series[k] = (epochs, train, test) = (Series(), Series(), Series())
            self._seen[k] = 0
        for entry in history[self._seen[k] :]:
            epochs.append(entry.epoch)
            train.append(entry.train_loss)
            test.append(entry.test_loss)
        self._seen[k] = len(history)
        return epochs.view(), train.view(), test.view()

    def _frame_now(self, stopping: bool = False) -> Frame:
        from tapeviz.models.network.datasets import every_other

        runs, layers = [], ()
        for k, t in enumerate(self.trainers):
            # (a diverged run keeps its last finite weights)
            self._let_ui_draw()
            maps = t.grid_outputs(OUTPUT_GRID)
            if k == 0:
                layers = every_other(maps)  # the neurons' (GRID × GRID)
            output = maps[-1][0]
            epochs, train, test = self._history(k)
            opt = self.config.train.optimizers[k]
            weights = copy_weights(t.weights)
            runs.append(RunFrame(k, opt.label(), opt.kind, t.epoch, t.step, epochs, train, test,
                                 weights, output, t.diverged_at, opt.learning_rate))  # fmt: skip
        now = time.perf_counter()
        steps = self.trainers[0].step if self.trainers else 0
        then, before, rate = self._rate
        if now - then > 0.5:
            rate = (steps - before) / (now - then) if steps >= before and then else 0.0
            self._rate = (now, steps, rate)
        links, spec = None, self.link_spec
        playing = self._play.is_set() and not stopping
        if (playing and runs and spec is not None and self.link_renderer is not None
                and now - self._links_at >= self._links_every):  # fmt: skip
            links = self.link_renderer(spec, runs[0].weights, self._offer_gil)
            self._links_at = now
            took = time.perf_counter() - now
            self._links_every = max(LINKS_EVERY_S, took / LINKS_SHARE)
        atlas_spec = self.atlas_spec
        atlas = None
        if runs and atlas_spec is not None and self.atlas_renderer is not None:
            self._let_ui_draw()
            atlas = self.atlas_renderer(atlas_spec, layers)  # (~2 ms the UI thread saves)
        return Frame(
            self.generation, tuple(runs), layers, playing, self._curvature,
            self._curvature_epoch, self._start_curvature, rate, links, spec, atlas, atlas_spec,
        )  # fmt: skip

    def _publish(self, force: bool = False, stopping: bool = False) -> None:
        if not self.trainers:
            return
        if not force and time.perf_counter() - self._published < FRAME_S:
            return
        frame = self._frame_now(stopping)
        with self._lock:
            self._frame = frame
            self._published = time.perf_counter()
