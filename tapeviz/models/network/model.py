"""The dense network itself: parameter layout, the taped loss, the numpy forward (no Qt).

One network is :class:`NetSpec` (activations, loss, regularisation, parameter layout) and a flat
float32 parameter vector ``[W₀ (row-major), b₀, W₁, b₁, …]``. :func:`taped_loss` computes the
batch loss with engine ops, so the tape active around it records the step; :meth:`NetSpec.forward`
runs the same numpy functions the engine binds (``IMPL``), so the heat maps, predictions and
displayed losses match what the tape computes for the same rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from tapeviz import engine as E
from tapeviz.engine import primitives as P
from tapeviz.engine.dtypes import float32
from tapeviz.engine.fused import dense, mean_loss
from tapeviz.engine.impl_rules import IMPL
from tapeviz.engine.state import NameScope
from tapeviz.engine.tensor import Tensor, TensorLike, Variable
from tapeviz.models.network.config import NetConfig, NetworkConfig

Weights = tuple[tuple[np.ndarray, np.ndarray], ...]  # per layer: (W (n_in, n_out), b (n_out,))

_TAPED = {"relu": E.relu, "tanh": E.tanh, "sigmoid": E.sigmoid, "linear": None}
_NUMPY = {
    "relu": IMPL[P.relu_p],
    "tanh": IMPL[P.tanh_p],
    "sigmoid": IMPL[P.sigmoid_p],
    "linear": None,
}
_MATMUL, _ADD, _MEAN = IMPL[P.matmul_p], IMPL[P.add_p], IMPL[P.reduce_mean_p]


def layer_names(n: int) -> tuple[str, ...]:
    """Keras' names for ``n`` Dense layers: ``dense``, ``dense_1``, ``dense_2`` and on."""
    return tuple("dense" if i == 0 else f"dense_{i}" for i in range(n))


def param_names(n: int) -> tuple[str, ...]:
    """``dense/kernel``, ``dense/bias``, ``dense_1/kernel``…, in flat-vector order."""
    return tuple(f"{name}/{p}" for name in layer_names(n) for p in ("kernel", "bias"))


@dataclass(frozen=True)
class Layout:
    """Where each parameter sits in the flat vector: shapes in ``[W₀, b₀, W₁, b₁, …]`` order."""

    sizes: tuple[int, ...]  # neurons per layer, inputs first

    @cached_property
    def shapes(self) -> tuple[tuple[int, ...], ...]:
        """``((n₀, n₁), (n₁,), (n₁, n₂), (n₂,), …)``."""
        out: list[tuple[int, ...]] = []
        for a, b in zip(self.sizes[:-1], self.sizes[1:], strict=True):
            out += [(a, b), (b,)]
        return tuple(out)

    @cached_property
    def offsets(self) -> tuple[int, ...]:
        """Start of each parameter, plus the total at the end."""
        starts = [0]
        for s in self.shapes:
            starts.append(starts[-1] + int(np.prod(s)))
        return tuple(starts)

    @cached_property
    def _spans(self) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
        o = self.offsets
        return tuple((o[i], o[i + 1], s) for i, s in enumerate(self.shapes))

    @property
    def size(self) -> int:
        """Scalar parameters in all."""
        return self.offsets[-1]

    def flatten(self, weights: Weights) -> np.ndarray:
        """One read-only float32 vector of ``weights`` (checked against the shapes)."""
        shapes = self.shapes
        if len(weights) * 2 != len(shapes):
            raise ValueError(f"weights: expected {len(shapes) // 2} layers, got {len(weights)}")
        parts = []
        for i, pair in enumerate(weights):
            if len(pair) != 2:
                raise ValueError(f"weights: layer {i} needs (W, b)")
            for arr, shape in zip(pair, shapes[2 * i : 2 * i + 2], strict=True):
                a = np.asarray(arr)
                if a.shape != shape:
                    raise ValueError(f"weights: layer {i} expected shape {shape}, got {a.shape}")
                parts.append(a.astype(np.float32).ravel())
        flat = np.concatenate(parts) if parts else np.zeros(0, np.float32)
        if not np.isfinite(flat).all():
            raise ValueError("weights: every weight must be a finite number")
        flat.setflags(write=False)
        return flat

    @cached_property
    def _layer_spans(self) -> tuple[tuple[int, int, tuple[int, int]], ...]:
        o, sizes = self.offsets, self.sizes
        return tuple(
            (o[2 * i], o[2 * i + 2], (sizes[i] + 1, sizes[i + 1])) for i in range(len(sizes) - 1)
        )

    def layer_views(self, flat: np.ndarray) -> list[np.ndarray]:
        """Each layer's kernel and bias as one ``(n_in + 1, n_out)`` view ``[W; b]`` of ``flat``.

        The bias follows its kernel's rows in ``flat``, so ``[W; b]`` is a view, its rows the
        kernel's and its last row the bias.
        """
        return [flat[a:b].reshape(s) for a, b, s in self._layer_spans]

    def views(self, flat: np.ndarray) -> list[np.ndarray]:
        """The parameters as (read-only) views of ``flat``, in flat-vector order."""
        return [flat[a:b].reshape(s) for a, b, s in self._spans]

    def weights(self, flat: np.ndarray) -> Weights:
        """``flat`` as ``((W₀, b₀), (W₁, b₁), …)`` views."""
        v = self.views(flat)
        return tuple((v[i], v[i + 1]) for i in range(0, len(v), 2))


@dataclass(frozen=True)
class NetSpec:
    """What the maths needs from the settings: layout, activations, loss, regularisation."""

    layout: Layout
    activations: tuple[str, ...]  # one per layer, the output's last
    loss: str
    regularization: str
    reg_rate: float

    @staticmethod
    def of(config: NetworkConfig | NetConfig, problem: str) -> NetSpec:
        """The spec of ``config``'s network for a ``problem``'s data."""
        net = config.net if isinstance(config, NetworkConfig) else config
        acts = (net.activation,) * len(net.hidden) + (net.output_activation(problem),)
        reg = net.regularization if net.reg_rate > 0 else "none"
        return NetSpec(Layout(net.sizes), acts, net.loss, reg, net.reg_rate)

    @property
    def names(self) -> tuple[str, ...]:
        """The layers' Keras names."""
        return layer_names(len(self.activations))

    def variables(self, flat: np.ndarray, dtype: object = float32) -> list[Variable]:
        """Engine Variables named as Keras names them (``dense/kernel:0``…), set to ``flat``."""
        out: list[Variable] = []
        views = self.layout.views(flat)
        for i, name in enumerate(self.names):
            with NameScope(name):
                out.append(Variable(views[2 * i], name="kernel", dtype=dtype))
                out.append(Variable(views[2 * i + 1], name="bias", dtype=dtype))
        return out

    # -- the taped loss ------------------------------------------------------------------
    def taped_loss(
        self, variables: Sequence[TensorLike], x: Tensor, y: Tensor, fused: bool = False
    ) -> Tensor:
        """The batch loss (data + regularisation) with engine ops, recorded by active tapes.

        ``variables`` are ``[W₀, b₀, W₁, b₁, …]``: each layer records matmul, add and its
        activation, the loss its ops. ``fused``: one ``[Wᵢ; bᵢ]`` matrix per layer
        (:meth:`Layout.layer_views`), each layer one op and the loss one (training's own
        steps, the same floats).
        """
        a: Tensor = x
        if fused:
            for wb, act in zip(variables, self.activations, strict=True):
                a = dense(a, wb, act)
            loss = mean_loss(a, y, self.loss)
            if self.regularization == "none":
                return loss
            return E.add(loss, self.taped_penalty([wb[:-1] for wb in variables]))
        for i, name in enumerate(self.names):
            with NameScope(name):
                a = E.add(E.matmul(a, variables[2 * i]), variables[2 * i + 1])
                act = _TAPED[self.activations[i]]
                if act is not None:
                    a = act(a)
        loss = self.taped_data_loss(a, y)
        if self.regularization != "none":
            loss = E.add(loss, self.taped_penalty(variables[0::2]))
        return loss

    def taped_data_loss(self, out: Tensor, y: Tensor) -> Tensor:
        """``mean(½(o − y)²)`` or ``mean(relu(1 − y·o))`` over the batch."""
        if self.loss == "square":
            return E.multiply(E.reduce_mean(E.square(E.subtract(out, y))), 0.5)
        return E.reduce_mean(E.relu(E.subtract(1.0, E.multiply(y, out))))

    def taped_penalty(self, kernels: Sequence[TensorLike]) -> Tensor:
        """``rate·½Σw²`` (L2) or ``rate·Σ|w|`` (L1) over the ``kernels`` (biases left out)."""
        each = E.square if self.regularization == "L2" else E.abs
        total = E.reduce_sum(each(kernels[0]))
        for w in kernels[1:]:
            total = E.add(total, E.reduce_sum(each(w)))
        scale = 0.5 * self.reg_rate if self.regularization == "L2" else self.reg_rate
        return E.multiply(total, scale)

    # -- the numpy forward ---------------------------------------------------------------
    def forward(self, flat: np.ndarray, features: np.ndarray) -> list[np.ndarray]:
        """Every layer's output for ``features`` (float32 ``(n, k₀)``): inputs first."""
        views = self.layout.views(flat)
        outs = [features]
        a = features
        for i, act in enumerate(self.activations):
            a = _ADD(_MATMUL(a, views[2 * i]), views[2 * i + 1])
            fn = _NUMPY[act]
            if fn is not None:
                a = fn(a)
            outs.append(a)
        return outs

    def data_loss(self, out: np.ndarray, y: np.ndarray) -> float:
        """The data loss of outputs ``out`` (n, 1) against ``y`` (n, 1), as the tape computes it."""
        if len(y) == 0:
            return float("nan")
        if self.loss == "square":
            d = out - y
            return float(_MEAN(d * d) * np.float32(0.5))
        return float(_MEAN(np.maximum(np.float32(1) - y * out, np.float32(0))))
