"""``keras.layers.SimpleRNN``, ``LSTM`` and ``GRU``: recurrent layers, one step per time step.

Each step is made of recorded ops (matmul, sigmoid, tanh, slices), so the tape differentiates
through time like any other computation. The weights are Keras 3's: ``kernel`` ``(features,
k * units)``, ``recurrent_kernel`` ``(units, k * units)`` (orthogonal at first) and ``bias``
(``(2, 3 * units)`` for a GRU with ``reset_after``), the gates in Keras' order (LSTM: input,
forget, cell, output with the forget bias at 1; GRU: update, reset, candidate). Inputs are
``(batch, time, features)``; ``return_sequences`` keeps every step's output, ``return_state``
adds the final states. Dropout arguments are accepted and not applied.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz import engine as E
from tapeviz.tf.keras_src import activations, initializers
from tapeviz.tf.keras_src.layer import InputSpec, Layer
from tapeviz.tf.keras_src.layer_utils import promote

__all__ = ["GRU", "LSTM", "SimpleRNN"]


class _Recurrent(Layer):
    """What the three share: the weights, the loop over time, the outputs."""

    gates = 1  # how many blocks of ``units`` the kernels hold

    def __init__(
        self, units: int, activation: Any = "tanh", recurrent_activation: Any = "sigmoid",
        use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
        recurrent_initializer: Any = "orthogonal", bias_initializer: Any = "zeros",
        unit_forget_bias: bool = True, kernel_regularizer: Any = None,
        recurrent_regularizer: Any = None, bias_regularizer: Any = None,
        activity_regularizer: Any = None, kernel_constraint: Any = None,
        recurrent_constraint: Any = None, bias_constraint: Any = None, dropout: float = 0.0,
        recurrent_dropout: float = 0.0, seed: Any = None, return_sequences: bool = False,
        return_state: bool = False, go_backwards: bool = False, stateful: bool = False,
        unroll: bool = False, reset_after: bool = True, **kwargs: Any,
    ) -> None:  # fmt: skip
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if not isinstance(units, int | np.integer) or isinstance(units, bool) or units <= 0:
            raise ValueError(
                "Received an invalid value for argument `units`, expected a positive integer, "
                f"got {units}."
            )
        self.units = int(units)
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias, self.unit_forget_bias = bool(use_bias), bool(unit_forget_bias)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer
        self.recurrent_regularizer = recurrent_regularizer
        self.dropout, self.recurrent_dropout = float(dropout), float(recurrent_dropout)
        self.return_sequences, self.return_state = bool(return_sequences), bool(return_state)
        self.go_backwards, self.stateful, self.unroll = bool(go_backwards), stateful, unroll
        self.reset_after = bool(reset_after)
        self.input_spec = InputSpec(ndim=3)

    def _bias_shape(self) -> tuple[int, ...]:
        return (self.gates * self.units,)

    def _bias_init(self) -> Any:
        return self.bias_initializer

    def build(self, input_shape: Any) -> None:
        """The kernel, the recurrent kernel and the bias."""
        features, width = int(input_shape[-1]), self.gates * self.units
        self.kernel = self.add_weight(name="kernel", shape=(features, width),
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer)  # fmt: skip
        self.recurrent_kernel = self.add_weight(name="recurrent_kernel",
                                                shape=(self.units, width),
                                                initializer=self.recurrent_initializer,
                                                regularizer=self.recurrent_regularizer)  # fmt: skip
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(name="bias", shape=self._bias_shape(),
                                        initializer=self._bias_init(),
                                        regularizer=self.bias_regularizer)  # fmt: skip
        self.built = True

    def _zeros(self, batch: int, dtype: Any) -> Any:
        return E.zeros((batch, self.units), dtype=dtype)

    def _initial(self, batch: int, dtype: Any, initial_state: Any) -> list[Any]:
        if initial_state is None:
            return [self._zeros(batch, dtype) for _ in range(self._n_states)]
        states = list(initial_state) if isinstance(initial_state, list | tuple) else [initial_state]
        return [promote(s, dtype) for s in states]

    _n_states = 1

    def step(self, x: Any, states: list[Any]) -> tuple[Any, list[Any]]:  # pragma: no cover
        """One time step: the output and the new states."""
        raise NotImplementedError

    def call(
        self, inputs: Any, initial_state: Any = None, mask: Any = None, training: Any = None
    ) -> Any:
        x = promote(inputs, self.kernel.dtype)
        batch, steps = int(x.shape[0]), int(x.shape[1])
        states = self._initial(batch, x.dtype, initial_state)
        order = range(steps - 1, -1, -1) if self.go_backwards else range(steps)
        outputs = []
        out = states[0]
        for t in order:
            out, states = self.step(x[:, t, :], states)
            outputs.append(out)
        result = E.stack(outputs, axis=1) if self.return_sequences else out
        if self.return_state:
            return [result, *states]
        return result

    def get_config(self) -> dict[str, Any]:
        """Units, activations and the output options."""
        return {
            **super().get_config(), "units": self.units,
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias, "return_sequences": self.return_sequences,
            "return_state": self.return_state, "go_backwards": self.go_backwards,
        }  # fmt: skip

    def _gate(self, z: Any, k: int) -> Any:
        return z[:, k * self.units : (k + 1) * self.units]


class SimpleRNN(_Recurrent):
    """``h = activation(x @ kernel + h @ recurrent_kernel + bias)`` at every step."""

    def step(self, x: Any, states: list[Any]) -> tuple[Any, list[Any]]:
        z = E.matmul(x, self.kernel) + E.matmul(states[0], self.recurrent_kernel)
        if self.bias is not None:
            z = z + self.bias
        h = self.activation(z)
        return h, [h]


class LSTM(_Recurrent):
    """Long short-term memory: input, forget, cell and output gates; states ``[h, c]``."""

    gates = 4
    _n_states = 2

    def _bias_init(self) -> Any:
        if not self.unit_forget_bias:
            return self.bias_initializer
        units, base = self.units, self.bias_initializer

        def forget_one(shape: Any, dtype: Any = None) -> Any:
            b = np.array(base((units,), dtype), copy=True)
            ones = np.ones((units,), dtype=b.dtype)
            rest = np.array(base((2 * units,), dtype), copy=True)
            return np.concatenate([b, ones, rest])

        return forget_one

    def step(self, x: Any, states: list[Any]) -> tuple[Any, list[Any]]:
        h, c = states
        z = E.matmul(x, self.kernel) + E.matmul(h, self.recurrent_kernel)
        if self.bias is not None:
            z = z + self.bias
        i = self.recurrent_activation(self._gate(z, 0))
        f = self.recurrent_activation(self._gate(z, 1))
        g = self.activation(self._gate(z, 2))
        o = self.recurrent_activation(self._gate(z, 3))
        c = f * c + i * g
        h = o * self.activation(c)
        return h, [h, c]


class GRU(_Recurrent):
    """Gated recurrent unit (Keras 3's ``reset_after``): update, reset, candidate."""

    gates = 3

    def _bias_shape(self) -> tuple[int, ...]:
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def step(self, x: Any, states: list[Any]) -> tuple[Any, list[Any]]:
        h = states[0]
        xz = E.matmul(x, self.kernel)
        rz = E.matmul(h, self.recurrent_kernel)
        if self.bias is not None:
            if self.reset_after:
                xz, rz = xz + self.bias[0], rz + self.bias[1]
            else:
                xz = xz + self.bias
        z = self.recurrent_activation(self._gate(xz, 0) + self._gate(rz, 0))
        r = self.recurrent_activation(self._gate(xz, 1) + self._gate(rz, 1))
        if self.reset_after:
            cand = self.activation(self._gate(xz, 2) + r * self._gate(rz, 2))
        else:
            u = self._gate(self.recurrent_kernel, 2)
            cand = self.activation(self._gate(xz, 2) + E.matmul(r * h, u))
        h = z * h + (1.0 - z) * cand
        return h, [h]
