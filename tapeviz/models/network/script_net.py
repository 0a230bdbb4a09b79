"""A script's Keras ``fit`` on 2-D data as the Network view draws it: step by recorded step (no Qt).

The worker describes a fit whose model is a chain of Dense layers on two input columns
(:class:`~tapeviz.sandbox.process.fit_nets.FitNet`); the timeline recorded every step's
weights. :func:`script_net_of` joins the two into a :class:`ScriptNet`: the Network view's
settings for that shape (inputs x₁ and x₂, the hidden sizes, the script's points as a data set of
its own), the layers' activations, and the weights before every step (and after the last) as
rows of flat vectors in the view's ``[W₀, b₀, W₁, b₁, …]`` order. Nothing is trained again: the
view shows what the script computed.

Drawn as Playground draws: labels 0/1 (or one-hot) become −1/+1; a sigmoid output p is shown as
2p − 1 and a logit z (``from_logits=True``) as tanh(z/2) (the same number: 2σ(z) − 1), so the
boundary is at 0 as in Playground; two softmax outputs are drawn as one, softmax₁ = σ(z₁ − z₀),
with the differences of their weights on its links.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from tapeviz.models.descent.optimizer_config import KINDS, OptimizerConfig
from tapeviz.models.network.config import (
    MAX_LAYERS,
    MAX_POINTS,
    MAX_WIDE_NEURONS,
    DataConfig,
    NetConfig,
    NetworkConfig,
    TrainConfig,
)
from tapeviz.models.network.datasets import Dataset, _bounds, _frozen
from tapeviz.models.network.model import Layout, NetSpec

__all__ = ["MAX_BYTES", "ScriptNet", "script_net_of"]

MAX_BYTES = 64 * 2**20  # the rows of weights kept; past it every s-th step is kept
_HIDDEN = ("relu", "tanh", "sigmoid", "linear")


@dataclass(frozen=True)
class ScriptNet:
    """A fit's network, data and recorded weights, ready for the Network view."""

    config: NetworkConfig  # the view's settings of this shape (data: the script's points)
    data: Dataset  # training points = the fit's; test points = its validation data
    spec: NetSpec  # per-layer activations (the output's last)
    rows: np.ndarray  # (rows, parameters) float32: the weights before step ``k·stride``
    stride: int
    steps: int  # the fit's steps (a row more: after the last)
    starts: np.ndarray  # per epoch: its first step
    history: dict[str, np.ndarray]  # per key: per epoch (``loss``, ``val_loss``, …)
    display: str  # "prob" (2p − 1), "logit" (tanh(z/2)) or "" (as it is)
    label: str  # "Adam lr 0.05"
    kind: str
    learning_rate: float
    loss: str
    timeline: int  # the timeline's number (which loop of the run)

    def row(self, k: int) -> np.ndarray:
        """The flat weights before step ``k`` (``k == steps``: after the last)."""
        k = max(0, min(int(k), self.steps))
        return self.rows[min(k // self.stride, len(self.rows) - 1)]

    def epoch_of(self, k: int) -> int:
        """How many epochs are complete before step ``k``."""
        ends = np.append(self.starts[1:], self.steps)
        return int(np.searchsorted(ends, int(k), side="right"))

    def epoch_start(self, e: int) -> int:
        """The first step of epoch ``e`` (``steps`` past the last)."""
        return int(self.starts[e]) if e < len(self.starts) else self.steps

    def shown(self, out: np.ndarray) -> np.ndarray:
        """The output as drawn: 2p − 1, tanh(z/2) or itself."""
        if self.display == "prob":
            return out * np.float32(2) - np.float32(1)
        if self.display == "logit":
            return np.tanh(out * np.float32(0.5))
        return out


def _labels(y: np.ndarray, softmax: bool) -> tuple[np.ndarray, str] | str:
    """±1 labels for classification (or the values for regression), and the problem."""
    if y.shape[1] == 2:
        if not np.isin(y, (0.0, 1.0)).all():
            return "its two label columns are not one-hot"
        return np.where(y[:, 1] > y[:, 0], 1.0, -1.0), "classification"
    v = y[:, 0]
    values = np.unique(v)
    if np.isin(values, (0.0, 1.0)).all() or np.isin(values, (-1.0, 1.0)).all():
        return np.where(v > 0, 1.0, -1.0), "classification"
    if softmax:
        return "its labels are not 0 and 1"
    return v.astype(np.float64), "regression"


def _parameters(timeline: Any, net: Any) -> list[tuple[int, tuple[int, ...], bool] | None] | str:
    """Per layer's kernel and bias: (the timeline's parameter index, shape, transposed)."""
    where = {sid: j for j, sid in enumerate(timeline.source_ids)}
    out: list[tuple[int, tuple[int, ...]] | None] = []
    n_in = 2
    for layer in net.layers:
        kernel = (layer.units, n_in) if layer.transposed else (n_in, layer.units)
        for vid, shape in ((layer.kernel, kernel), (layer.bias, (layer.units,))):
            if vid < 0:
                out.append(None)
                continue
            j = where.get(vid)
            if j is None:
                return f"its layer {layer.name} is not trained (its weights stay as they are)"
            if tuple(timeline.parameters[j].shape) != shape:
                return f"its layer {layer.name}'s weights do not have the shapes of a Dense layer"
            out.append((j, shape, layer.transposed and len(shape) == 2))
        n_in = layer.units
    return out


def _rows(
    timeline: Any, params: list[Any], sizes: tuple[int, ...], two: bool
) -> tuple[np.ndarray, int]:
    """(rows, parameters) float32 weights before every kept step, and the steps between rows."""
    layout = Layout(sizes)
    per_row = 4 * layout.size
    stride = max(1, math.ceil((timeline.steps + 1) * per_row / MAX_BYTES))
    steps = np.arange(0, timeline.steps + 1, stride)
    parts = []
    for i, p in enumerate(params):
        shape = layout.shapes[i]
        if p is None:
            parts.append(np.zeros((len(steps), int(np.prod(shape)))))
            continue
        j, own, transposed = p
        m = timeline.matrix(j, steps, np.arange(int(np.prod(own))))
        if transposed:  # a torch weight (units, inputs) as the view's kernel (inputs, units)
            m = m.reshape(len(steps), *own).transpose(0, 2, 1)
            own = own[::-1]
        if two and i >= len(params) - 2:  # softmax₁ = σ(z₁ − z₀): the differences
            m = m.reshape(len(steps), *own)
            m = m[..., 1] - m[..., 0]
        parts.append(m.reshape(len(steps), -1))
    rows = np.ascontiguousarray(np.concatenate(parts, axis=1), np.float32)
    rows.setflags(write=False)
    return rows, stride


def script_net_of(timeline: Any) -> ScriptNet | str | None:
    """The Network view's form of ``timeline``'s fit (None: no fit; a str: why it cannot be)."""
    epochs = getattr(timeline, "epochs", None)
    net = getattr(timeline, "net", None)
    if net is None:
        return None
    if net.reason:
        return net.reason
    layers = net.layers
    hidden = tuple(layer.units for layer in layers[:-1])
    if len(hidden) > MAX_LAYERS or any(u > MAX_WIDE_NEURONS for u in hidden):
        return (f"the view draws up to {MAX_LAYERS} hidden layers of up to "
                f"{MAX_WIDE_NEURONS} neurons")  # fmt: skip
    acts = [layer.activation for layer in layers]
    if any(a not in _HIDDEN for a in acts[:-1]):
        return "a hidden layer uses softmax"
    two = layers[-1].units == 2
    found = _labels(net.y, two)
    if isinstance(found, str):
        return found
    labels, problem = found
    val = _labels(net.val_y, two) if len(net.val_y) else (np.zeros(0), problem)
    val_labels = val[0] if not isinstance(val, str) else np.zeros(0)
    val_x = net.val_x if len(val_labels) else np.zeros((0, 2))
    params = _parameters(timeline, net)
    if isinstance(params, str):
        return params
    out_act = "sigmoid" if two else acts[-1]
    display = "prob" if out_act == "sigmoid" else ""
    if out_act == "linear" and net.from_logits and problem == "classification":
        display = "logit"
    sizes = (2, *hidden, 1)
    if problem == "regression" and display:
        display = ""
    kind = net.optimizer if net.optimizer in KINDS else "SGD"
    lr = net.learning_rate if math.isfinite(net.learning_rate) and net.learning_rate > 0 else 0.01
    pairs = zip(net.x.tolist(), labels.tolist(), strict=True)
    custom = tuple((float(a), float(b), float(c)) for (a, b), c in pairs)
    activation = acts[0] if hidden else "tanh"
    ratio = min(0.9, max(0.1, len(net.x) / (len(net.x) + len(val_x))))
    try:
        config = NetworkConfig(
            DataConfig(dataset="custom", custom=custom, train_ratio=ratio),
            NetConfig(features=("x1", "x2"), hidden=hidden, activation=activation),
            TrainConfig(
                optimizers=(OptimizerConfig(kind, {"learning_rate": lr}),),
                batch_size=min(net.batch_size, MAX_POINTS),
            ),
        )
    except ValueError as exc:
        return str(exc)
    every = np.concatenate([net.x, val_x]) if len(val_x) else net.x
    x_range, y_range = _bounds(every)
    data = Dataset(_frozen(net.x), _frozen(labels), _frozen(val_x), _frozen(val_labels),
                   x_range, y_range, problem)  # fmt: skip
    spec = NetSpec(Layout(sizes), (*acts[:-1], out_act), "square", "none", 0.0)
    rows, stride = _rows(timeline, params, sizes, two)
    known = math.isfinite(net.learning_rate)
    label = f"{net.optimizer} lr {net.learning_rate:.3g}" if known else net.optimizer
    # (a loop of the script's own: every step counts as an epoch, and there is no History)
    starts = epochs.starts if epochs is not None else np.arange(max(timeline.steps, 1))
    if epochs is not None:
        history = dict(epochs.history)
    else:  # the loop's loss at every step (the curve the Timeline draws)
        history = {"loss": np.asarray(timeline.loss[: timeline.steps], np.float64)}
        if len(val_x):  # and its test loss after each step, as the course prints it
            val_y = np.asarray(net.val_y, np.float64)[: len(val_x)]
            history["val_loss"] = test_losses(spec, rows, stride, timeline.steps, val_x,
                                              val_y, net.loss)  # fmt: skip
    return ScriptNet(config, data, spec, rows, stride, timeline.steps, starts, history, display,
                     label, kind, lr, net.loss, timeline.number)  # fmt: skip


MAX_TEST_ROWS = 1000  # test losses computed per loop (evenly spaced; each step shows the nearest)


def test_losses(
    spec: NetSpec, rows: np.ndarray, stride: int, steps: int, x: np.ndarray, y: np.ndarray,
    loss: str,
) -> np.ndarray:  # fmt: skip
    """A torch loop's loss on its test points after each step, with the loop's own loss."""
    after = np.minimum((np.arange(steps) + 1) // stride, len(rows) - 1)  # the row after step k
    wanted = np.unique(after)
    if len(wanted) > MAX_TEST_ROWS:
        wanted = np.unique(wanted[np.linspace(0, len(wanted) - 1, MAX_TEST_ROWS).astype(int)])
    feats = np.asarray(x, np.float32)
    values = np.array([_loss(spec.forward(rows[r], feats)[-1], y, loss) for r in wanted])
    nearest = np.minimum(np.searchsorted(wanted, after), len(wanted) - 1)
    return values[nearest] if len(values) else np.full(steps, np.nan)


def _loss(out: np.ndarray, y: np.ndarray, loss: str) -> float:
    """Torch's mean loss of the network's output ``out`` (n, 1) against the labels ``y``."""
    z = out[:, 0].astype(np.float64)
    if loss == "MSELoss":
        return float(np.mean((z - y[:, 0]) ** 2))
    t = y.argmax(1) if y.shape[1] == 2 else y[:, 0]  # (two classes: one-hot rows)
    with np.errstate(divide="ignore", over="ignore"):
        if loss == "BCEWithLogitsLoss":
            return float(np.mean(np.maximum(z, 0) - z * t + np.log1p(np.exp(-np.abs(z)))))
        logp, log1mp = np.maximum(np.log(z), -100), np.maximum(np.log1p(-z), -100)
    return float(np.mean(-(t * logp + (1 - t) * log1mp)))
