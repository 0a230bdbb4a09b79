"""Train TensorFlow Playground's network one batch at a time, every step on an engine tape.

Training semantics (the Keras and PyTorch exports reproduce them; keep the two in step):

- **Inputs.** The raw points are cast to float32 first, then ``feature_columns`` computes the
  switched-on columns in float32 (x₁², sin x₁… of the float32 points, as an exported script
  computes them from its float32 data). Everything is float32 (Keras' and PyTorch's default).
- **Layers.** Layer l computes ``a = act(a_prev @ W + b)`` with ``W`` of shape (n_in, n_out)
  and ``b`` of shape (n_out,): the hidden layers use ``net.activation``, the output layer
  ``net.output_activation(problem)`` (tanh for classification with the square loss, else
  linear; "linear" records no op). Each layer's ops run in an engine ``NameScope`` named as Keras
  names Dense layers (``dense``, ``dense_1``, …), and its parameters are engine Variables created
  in that scope, so the tape reads them as ``dense/kernel:0`` and ``dense/bias:0``.
- **Batch loss.** square: ``reduce_mean(square(o − y)) · 0.5`` (equal bit for bit to the mean
  of ½(o − y)²: scaling by ½ is exact); hinge: ``reduce_mean(relu(1 − y·o))``. With a
  regularisation and a rate > 0 the loss gets ``+ penalty``, where penalty is
  ``(Σ_l reduce_sum(square(W_l))) · (0.5·rate)`` for L2 and ``(Σ_l reduce_sum(abs(W_l))) ·
  rate`` for L1, summed over the kernels in layer order (biases are not penalised), the scale
  a float32 scalar. The step's gradient is the tape's gradient of that loss.
- **Batches.** The training set in its stored order, consecutive slices of ``batch_size``, the
  last partial batch included; the same batches every epoch (no reshuffle). Step k uses batch
  ``k mod steps_per_epoch`` and belongs to epoch ``k // steps_per_epoch``.
- **Update.** The engine optimizer's numpy rule (``OptimizerConfig.build()``, Keras' rules),
  ``update(value, grad, state, step)`` with ``step = k`` counting from 0. The rules are
  elementwise, so they run once on the flat vector ``[W₀, b₀, W₁, b₁, …]`` (row-major): the same
  numbers as one call per variable.
- **Learning rate.** During epoch e (from 0): ``lr`` without decay; with the "linear" decay
  ``lr·(1 − 0.9·min(e, decay_epochs)/decay_epochs)`` (micrograd's ``1 − 0.9·k/100``), set on the
  optimizer at the epoch's first step.
- **Displayed loss.** ``EpochStats`` hold the data loss alone (no penalty) over the whole
  training / test set, as Playground shows it: entry 0 before training, then one per epoch.
- **Divergence.** A step whose loss or new weights are not finite is not applied: ``diverged_at``
  is set to it and training stops there, the last finite weights kept (an edit clears it).
- **Snapshots.** The weights before every step are kept for :meth:`Trainer.weights_at` and
  :meth:`Trainer.record_step` (see :mod:`~tapeviz.models.network.snapshots`: 32 MB per trainer,
  then thinned and replayed bit for bit).

A trainer is used from one thread at a time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from tapeviz.engine.dtypes import float32
from tapeviz.engine.optimizer_base import Optimizer
from tapeviz.engine.tape import GradientTape
from tapeviz.engine.tensor import Tensor, constant
from tapeviz.models.network.config import NetConfig, NetworkConfig
from tapeviz.models.network.datasets import Dataset, plane
from tapeviz.models.network.features import feature_columns
from tapeviz.models.network.model import NetSpec, Weights, param_names
from tapeviz.models.network.snapshots import SNAPSHOT_BYTES, Slots, Snapshots

__all__ = ["EpochStats", "Trainer", "Weights", "initial_weights", "race"]

MAX_RESUME_EPOCHS = 10**6  # a session's epoch (the step count must stay a sane array size)
INIT_RANGES = {"playground": (0.5, 0.1), "micrograd": (1.0, 0.0)}  # W ~ U(−r, r), bias


def initial_weights(net: NetConfig) -> Weights:
    """The first weights, deterministic from ``net.weight_seed`` (float32, read-only).

    playground: W ~ U(−0.5, 0.5) and b = 0.1 (``nn.ts``); micrograd: W ~ U(−1, 1) and b = 0.
    Drawn layer by layer, neuron by neuron, each neuron's incoming weights in input order (the
    order both libraries build their links in).
    """
    r, bias = INIT_RANGES[net.init]
    rng = np.random.default_rng(net.weight_seed)
    out = []
    for n_in, n_out in zip(net.sizes[:-1], net.sizes[1:], strict=True):
        w = np.ascontiguousarray(rng.uniform(-r, r, (n_out, n_in)).T, dtype=np.float32)
        b = np.full(n_out, bias, dtype=np.float32)
        w.setflags(write=False)
        b.setflags(write=False)
        out.append((w, b))
    return tuple(out)


@dataclass(frozen=True)
class EpochStats:
    """The displayed losses after a whole epoch (entry 0: before training)."""

    epoch: int
    step: int
    train_loss: float
    test_loss: float
    learning_rate: float  # the rate the epoch's steps used (entry 0: the first epoch's)


def _points(data: Dataset, which: str) -> tuple[np.ndarray, np.ndarray]:
    return (data.train_x, data.train_y) if which == "train" else (data.test_x, data.test_y)


class Trainer:
    """One network trained on one data set by one optimizer of ``config.train.optimizers``."""

    def __init__(
        self,
        config: NetworkConfig,
        data: Dataset,
        weights: Weights,
        run: int = 0,
        snapshot_bytes: int = SNAPSHOT_BYTES,
    ) -> None:
        if not 0 <= run < len(config.train.optimizers):
            raise ValueError(f"run: choose 0 … {len(config.train.optimizers) - 1}, got {run}")
        if len(data.train_y) == 0:
            raise ValueError("data: the training set is empty")
        self.config, self.data, self.run = config, data, run
        self.spec = NetSpec.of(config, data.problem)
        self._initial_flat = self.spec.layout.flatten(weights)
        self.initial: Weights = self.spec.layout.weights(self._initial_flat)
        self.names = param_names(len(self.spec.activations))  # dense/kernel, dense/bias, …
        feats = config.net.features
        self._features = {
            w: (
                feature_columns(np.asarray(_points(data, w)[0], np.float32), feats),
                np.asarray(_points(data, w)[1], dtype=np.float32).reshape(-1, 1),
            )
            for w in ("train", "test")
        }
        tx, ty = self._features["train"]
        size = config.train.batch_size
        self._slices = [(s, min(s + size, len(ty))) for s in range(0, len(ty), size)]
        self._batches = [(constant(tx[a:b]), constant(ty[a:b])) for a, b in self._slices]
        self._snapshot_bytes = snapshot_bytes
        self._grid: dict[int, np.ndarray] = {}
        self.reset()

    # -- state ---------------------------------------------------------------------------
    def reset(self) -> None:
        """Back to the initial weights, step 0, a fresh optimizer, history [epoch 0]."""
        self._flat = self._initial_flat
        self._opt = self._optimizer()
        self._slots: Slots = self._opt.init_state(self._flat)
        self._opt_epoch = -1
        self.step = 0
        self.epoch = 0
        self.first_step = 0  # the earliest step whose weights are known (a resumed session's)
        self.diverged_at: int | None = None
        self.last_gradient: np.ndarray | None = None  # the flat gradient the last step applied
        self._losses = np.zeros(1024)
        self.snapshots = Snapshots(self._snapshot_bytes)
        self.snapshots.put(0, self._flat, self._slots, pin=True)
        self.history: list[EpochStats] = [self._stats(self.learning_rate_at(0))]

    def resume(self, epoch: int) -> None:
        """Go on from epoch ``epoch`` with the current weights (a session saved there).

        The counters, the batches and the learning rate's decay continue from that epoch; the
        weights and losses before it are not known (history starts there), and the optimizer's
        slots start afresh (a session keeps weights, not moments). ``reset`` goes back to 0.
        """
        epoch = int(epoch)
        if not 0 <= epoch <= MAX_RESUME_EPOCHS:
            raise ValueError(f"epoch: choose 0 … {MAX_RESUME_EPOCHS:,}, got {epoch:,}")
        self.epoch, self.step = epoch, epoch * len(self._batches)
        self.first_step = self.step
        self._opt, self._opt_epoch = self._optimizer(), -1
        self._slots = self._opt.init_state(self._flat)
        self._losses = np.zeros(max(1024, 2 * self.step))
        self.snapshots = Snapshots(self._snapshot_bytes)
        self.snapshots.put(self.step, self._flat, self._slots, pin=True)
        self.history = [self._stats(self.learning_rate_at(max(epoch - 1, 0)))]

    def _optimizer(self) -> Optimizer:
        return self.config.train.optimizers[self.run].build()

    @property
    def weights(self) -> Weights:
        """The current weights (read-only views)."""
        return self.spec.layout.weights(self._flat)

    @property
    def flat(self) -> np.ndarray:
        """The current weights as one read-only float32 vector ``[W₀, b₀, W₁, b₁, …]``."""
        return self._flat

    @property
    def steps_per_epoch(self) -> int:
        """Batches in one pass over the training set."""
        return len(self._batches)

    @property
    def step_losses(self) -> np.ndarray:
        """Every step's batch loss (data + regularisation), read-only, length ``step``."""
        view = self._losses[: self.step]
        view.setflags(write=False)
        return view

    def arrays(self, which: str = "train") -> tuple[np.ndarray, np.ndarray]:
        """The float32 inputs (n, k₀) and labels (n, 1) of the ``train`` or ``test`` set."""
        return self._features[which]

    def learning_rate_at(self, epoch: int) -> float:
        """The learning rate of epoch ``epoch`` (from 0), decay included."""
        train = self.config.train
        lr = train.optimizers[self.run].learning_rate
        if train.decay == "linear":
            d = train.decay_epochs
            return lr * (1.0 - 0.9 * min(epoch, d) / d)
        return lr

    # -- training ------------------------------------------------------------------------
    def _gradient(
        self, flat: np.ndarray, batch: tuple[Tensor, Tensor], shown: bool = False
    ) -> tuple[GradientTape, float, np.ndarray]:
        """Record the loss of ``batch`` at weights ``flat`` on a tape; its value, flat gradient.

        Training's own tapes (never shown) watch each layer's ``[W; b]`` view as a tensor and
        record a layer as one fused op; a ``shown`` tape (:meth:`record_step`, persistent)
        reads Variables named as Keras names them and records each layer's ops. The numbers
        are the same, bit for bit.
        """
        if shown:
            sources: list[Any] = self.spec.variables(flat)
        else:
            sources = [Tensor(v, float32) for v in self.spec.layout.layer_views(flat)]
        with GradientTape(persistent=shown) as tape:
            if not shown:
                tape.watch(sources)
            loss = self.spec.taped_loss(sources, batch[0], batch[1], fused=not shown)
        grads = tape.gradient(loss, sources)
        flat_grad = np.concatenate([g._value.ravel() for g in grads])
        return tape, float(loss._value), flat_grad

    def _advance(
        self, opt: Optimizer, epoch: int, flat: np.ndarray, slots: Slots, k: int
    ) -> tuple[float, np.ndarray, np.ndarray, Slots, int]:
        """Step k from ``flat`` and ``slots``: (loss, gradient, new weights, new slots, epoch)."""
        e = k // len(self._batches)
        if e != epoch:
            opt.learning_rate = self.learning_rate_at(e)
        _, loss, grad = self._gradient(flat, self._batches[k % len(self._batches)])
        slots = dict(slots)  # the rule replaces slot arrays; the old dict stays as it was
        new = np.asarray(opt.update(flat, grad, slots, k), dtype=np.float32)
        return loss, grad, new, slots, e

    def train_step(self) -> float:
        """One batch update recorded on an engine tape; the batch loss (nan once diverged)."""
        if self.diverged_at is not None:
            return math.nan
        k = self.step
        loss, grad, new, slots, self._opt_epoch = self._advance(
            self._opt, self._opt_epoch, self._flat, self._slots, k
        )
        if not (math.isfinite(loss) and np.isfinite(new).all()):
            self.diverged_at = k
            return loss
        new.setflags(write=False)
        self._flat, self._slots, self.last_gradient = new, slots, grad
        if k >= len(self._losses):
            self._losses = np.concatenate([self._losses, np.zeros(len(self._losses))])
        self._losses[k] = loss
        self.step = k + 1
        self.snapshots.put(self.step, new, slots)
        if self.step % len(self._batches) == 0:
            self.epoch += 1
            self.history.append(self._stats(self.learning_rate_at(self.epoch - 1)))
        return loss

    def train_steps(self, n: int) -> None:
        """``n`` steps (fewer if training diverges), an ``EpochStats`` at each epoch's end."""
        for _ in range(max(0, int(n))):
            if self.diverged_at is not None:
                return
            self.train_step()

    def train_epoch(self) -> EpochStats:
        """Steps up to the end of the current epoch; its ``EpochStats``."""
        self.train_steps(len(self._batches) - self.step % len(self._batches))
        return self.history[-1]

    def _stats(self, lr: float) -> EpochStats:
        return EpochStats(
            self.epoch, self.step, self._set_loss("train"), self._set_loss("test"), float(lr)
        )

    def _set_loss(self, which: str) -> float:
        feats, y = self._features[which]
        return self.spec.data_loss(self.spec.forward(self._flat, feats)[-1], y)

    # -- edits ---------------------------------------------------------------------------
    def _edit(self, index: int, value: float) -> None:
        if not math.isfinite(value):
            raise ValueError(f"a weight must be a finite number, got {value!r}")
        new = self._flat.copy()
        new[index] = np.float32(value)
        new.setflags(write=False)
        self._flat = new
        self.snapshots.put(self.step, new, self._slots, pin=True)
        self.diverged_at = None

    def _check_layer(self, layer: int) -> None:
        if not 0 <= layer < len(self.spec.activations):
            raise IndexError(f"layer: choose 0 … {len(self.spec.activations) - 1}, got {layer}")

    def set_weight(self, layer: int, i: int, j: int, value: float) -> None:
        """Set ``W[layer][i, j]`` (the link from neuron i to neuron j); history continues."""
        self._check_layer(layer)
        n_in, n_out = self.spec.layout.shapes[2 * layer]
        if not (0 <= i < n_in and 0 <= j < n_out):
            raise IndexError(f"weight ({i}, {j}) outside layer {layer}'s {n_in}×{n_out}")
        self._edit(self.spec.layout.offsets[2 * layer] + i * n_out + j, float(value))

    def set_bias(self, layer: int, j: int, value: float) -> None:
        """Set ``b[layer][j]``; history continues."""
        self._check_layer(layer)
        (n_out,) = self.spec.layout.shapes[2 * layer + 1]
        if not 0 <= j < n_out:
            raise IndexError(f"bias {j} outside layer {layer}'s {n_out} neurons")
        self._edit(self.spec.layout.offsets[2 * layer + 1] + j, float(value))

    # -- looking back --------------------------------------------------------------------
    def _check_step(self, step: int) -> int:
        step = int(step)
        if not self.first_step <= step <= self.step:
            raise IndexError(f"step: choose {self.first_step} … {self.step}, got {step}")
        return step

    def flat_at(self, step: int) -> np.ndarray:
        """The flat weights before step ``step``, exact (replayed from a snapshot if thinned)."""
        step = self._check_step(step)
        if step == self.step:
            return self._flat
        s0, flat, slots = self.snapshots.nearest(step)
        if s0 == step:
            return flat
        opt, epoch = self._optimizer(), -1
        for k in range(s0, step):
            _, _, flat, slots, epoch = self._advance(opt, epoch, flat, slots, k)
        flat.setflags(write=False)
        return flat

    def weights_at(self, step: int) -> Weights:
        """The exact weights before step ``step`` (0 ≤ step ≤ ``self.step``)."""
        return self.spec.layout.weights(self.flat_at(step))

    def batch_of(self, step: int) -> tuple[np.ndarray, np.ndarray]:
        """Step ``step``'s batch as raw points (b, 2) and labels (b,) of the training set."""
        a, b = self._slices[int(step) % len(self._slices)]
        return self.data.train_x[a:b], self.data.train_y[a:b]

    def record_step(self, step: int) -> GradientTape:
        """Step ``step`` recorded again (persistent tape, its gradient call made).

        The tape reads fresh Variables holding :meth:`weights_at` ``(step)`` and the step's batch;
        ``tape.gradient_calls[0].results`` are the gradients training applied, bit for bit.
        """
        batch = self._batches[int(step) % len(self._batches)]
        tape, _, _ = self._gradient(self.flat_at(step), batch, shown=True)
        return tape

    # -- the network's outputs -----------------------------------------------------------
    def _feats(self, x: np.ndarray) -> np.ndarray:
        return feature_columns(np.asarray(x, dtype=np.float32), self.config.net.features)

    def layer_outputs(self, x: np.ndarray) -> list[np.ndarray]:
        """``[features (n, k₀), hidden₁ (n, k₁), …, output (n, 1)]`` for raw points ``x``."""
        return self.spec.forward(self._flat, self._feats(x))

    def predict(self, x: np.ndarray) -> np.ndarray:
        """The network's output for raw points ``x`` (n, 2): shape (n,), float32."""
        return self.layer_outputs(x)[-1][:, 0]

    def loss(self, x: np.ndarray, y: np.ndarray) -> float:
        """The data loss (no penalty) over points ``x`` and labels ``y``: Playground's loss."""
        target = np.asarray(y, dtype=np.float32).reshape(-1, 1)
        return self.spec.data_loss(self.layer_outputs(x)[-1], target)

    def accuracy(self, x: np.ndarray, y: np.ndarray) -> float:
        """Classification: the share of points with sign(output) == label (nan otherwise)."""
        y = np.asarray(y, dtype=np.float64)
        if self.data.problem != "classification" or len(y) == 0:
            return math.nan
        return float(np.mean(np.sign(self.predict(x)) == y))

    def grid_points(self, res: int = 50) -> np.ndarray:
        """The ``res × res`` grid over the plane, row 0 at the top: raw points (res², 2)."""
        gx, gy = plane(self.data, res)  # top row first, as an image shows it
        return np.column_stack([gx.ravel(), gy.ravel()])

    def grid_outputs(self, res: int = 50, flat: np.ndarray | None = None) -> list[np.ndarray]:
        """Every layer's output over the plane: arrays (k, res, res), row 0 = ``y_range[1]``.

        ``flat``: other weights than the current ones (an exported animation's earlier epoch).
        """
        feats = self._grid.get(res)
        if feats is None:
            feats = self._grid[res] = self._feats(self.grid_points(res))
        outs = self.spec.forward(self._flat if flat is None else flat, feats)
        return [a.T.reshape(a.shape[1], res, res) for a in outs]

    def __repr__(self) -> str:
        opt = self.config.train.optimizers[self.run].label()
        return f"<Trainer {opt} step={self.step} epoch={self.epoch} sizes={self.spec.layout.sizes}>"


def race(config: NetworkConfig, data: Dataset, weights: Weights) -> list[Trainer]:
    """One trainer per optimizer of ``config.train.optimizers``, all from copies of ``weights``."""
    return [Trainer(config, data, weights, run=i) for i in range(len(config.train.optimizers))]
