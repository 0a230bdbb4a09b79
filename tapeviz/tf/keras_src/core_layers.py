"""The everyday Keras layers: Dense, Flatten, Dropout, Activation, Reshape, Embedding, merges."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz import engine as E
from tapeviz.tf import random_ops
from tapeviz.tf.keras_src import activations, initializers
from tapeviz.tf.keras_src.layer import InputSpec, Layer
from tapeviz.tf.keras_src.layer_utils import promote

__all__ = [
    "ELU", "Activation", "Add", "Average", "Concatenate", "Dense", "Dropout", "Embedding",
    "Flatten", "Identity", "Lambda", "LeakyReLU", "Maximum", "Minimum", "Multiply", "ReLU",
    "Rescaling", "Reshape", "Softmax", "Subtract",
]  # fmt: skip


class Dense(Layer):
    """``activation(inputs @ kernel + bias)``: a fully connected layer of ``units`` outputs."""

    def __init__(
        self, units: int, activation: Any = None, use_bias: bool = True,
        kernel_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
        kernel_regularizer: Any = None, bias_regularizer: Any = None,
        activity_regularizer: Any = None, kernel_constraint: Any = None,
        bias_constraint: Any = None, lora_rank: Any = None, **kwargs: Any,
    ) -> None:  # fmt: skip
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if not isinstance(units, int | np.integer) or isinstance(units, bool) or units <= 0:
            raise ValueError(
                "Received an invalid value for `units`, expected a positive integer. "
                f"Received: units={units}"
            )
        self.units = int(units)
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer
        self.kernel_constraint, self.bias_constraint = kernel_constraint, bias_constraint
        self.input_spec = InputSpec(min_ndim=2)
        self._kernel: Any = None
        self._bias: Any = None

    @property
    def kernel(self) -> Any:
        """The ``(input_dim, units)`` weight (once the layer is built)."""
        if not self.built:
            raise AttributeError("You must build the layer before accessing `kernel`.")
        return self._kernel

    @property
    def bias(self) -> Any:
        """The ``(units,)`` bias, or None without one (once the layer is built)."""
        if not self.built:
            raise AttributeError("You must build the layer before accessing `bias`.")
        return self._bias

    def build(self, input_shape: Any) -> None:
        """The kernel ``(input_dim, units)`` and the bias ``(units,)``."""
        input_dim = input_shape[-1]
        self._kernel = self.add_weight(
            name="kernel", shape=(input_dim, self.units), initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer, constraint=self.kernel_constraint,
        )  # fmt: skip
        if self.use_bias:
            self._bias = self.add_weight(
                name="bias", shape=(self.units,), initializer=self.bias_initializer,
                regularizer=self.bias_regularizer, constraint=self.bias_constraint,
            )  # fmt: skip
        self.input_spec = InputSpec(min_ndim=2, axes={-1: int(input_dim)})
        self.built = True

    def call(self, inputs: Any, training: Any = None) -> Any:
        x = E.matmul(promote(inputs, self._kernel.dtype), self._kernel)
        if self.use_bias:
            x = E.add(x, self._bias)
        return self.activation(x) if self.activation is not activations.linear else x

    def compute_output_shape(self, input_shape: Any) -> tuple[Any, ...]:
        """The input shape with its last size replaced by ``units``."""
        return (*tuple(input_shape)[:-1], self.units)

    def get_config(self) -> dict[str, Any]:
        """Units, activation, bias, initializers."""
        return {
            **super().get_config(),
            "units": self.units,
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
        }


class Flatten(Layer):
    """Reshape each sample to one dimension: ``(batch, ...)`` → ``(batch, n)``."""

    def __init__(self, data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)

    def call(self, inputs: Any) -> Any:
        x = inputs if isinstance(inputs, E.Tensor | E.Variable) else E.convert_to_tensor(inputs)
        shape = tuple(x.shape)
        if len(shape) <= 1:
            return E.reshape(x, (*shape, 1))
        return E.reshape(x, (shape[0], int(np.prod(shape[1:], dtype=np.int64))))

    def compute_output_shape(self, input_shape: Any) -> tuple[Any, ...]:
        """``(batch, product of the other sizes)``."""
        rest = tuple(input_shape)[1:]
        n = None if any(d is None for d in rest) else int(np.prod(rest, dtype=np.int64))
        return (next(iter(input_shape)), n)


class Dropout(Layer):
    """In training, zero a fraction ``rate`` of the inputs and scale the rest by 1/(1−rate)."""

    def __init__(
        self, rate: float, noise_shape: Any = None, seed: int | None = None, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        if not 0 <= float(rate) <= 1:
            raise ValueError(
                f"Invalid value received for argument `rate`. Expected a float "
                f"value between 0 and 1. Received: rate={rate}"
            )
        self.rate, self.noise_shape, self.seed = float(rate), noise_shape, seed
        self._gen = random_ops.philox(seed if seed is not None else random_ops.keras_seed(), 1)
        self.supports_masking = True

    def call(self, inputs: Any, training: Any = False) -> Any:
        if not training or self.rate == 0:
            return inputs
        x = inputs if isinstance(inputs, E.Tensor | E.Variable) else E.convert_to_tensor(inputs)
        if self.rate == 1:
            return E.multiply(x, 0.0)
        shape = (
            tuple(x.shape)
            if self.noise_shape is None
            else tuple(x.shape[i] if d is None else d for i, d in enumerate(self.noise_shape))
        )
        keep = (self._gen.random(shape) >= self.rate).astype(x.dtype.np)
        return E.multiply(E.multiply(x, 1.0 / (1.0 - self.rate)), E.constant(keep))

    def get_config(self) -> dict[str, Any]:
        """Rate, noise shape and seed."""
        return {
            **super().get_config(),
            "rate": self.rate,
            "noise_shape": self.noise_shape,
            "seed": self.seed,
        }


class Activation(Layer):
    """Apply an activation function (``"relu"``, ``tf.nn.elu``, ...)."""

    def __init__(self, activation: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs: Any) -> Any:
        return self.activation(inputs)


class Identity(Layer):
    """Return the input unchanged."""

    def call(self, inputs: Any) -> Any:
        return inputs


class Lambda(Layer):
    """Any function of the input as a layer: ``Lambda(lambda x: x ** 2)``."""

    def __init__(
        self,
        function: Callable[..., Any],
        output_shape: Any = None,
        arguments: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.function, self.arguments = function, dict(arguments or {})

    def call(self, inputs: Any) -> Any:
        return self.function(inputs, **self.arguments)


class Reshape(Layer):
    """Reshape each sample to ``target_shape`` (one entry may be −1)."""

    def __init__(self, target_shape: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.target_shape = tuple(int(d) for d in target_shape)

    def call(self, inputs: Any) -> Any:
        x = inputs if isinstance(inputs, E.Tensor | E.Variable) else E.convert_to_tensor(inputs)
        return E.reshape(x, (x.shape[0], *self.target_shape))


class ReLU(Layer):
    """``max(x, 0)`` (with Keras' ``max_value``, ``negative_slope`` and ``threshold``)."""

    def __init__(
        self,
        max_value: float | None = None,
        negative_slope: float = 0.0,
        threshold: float = 0.0,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.max_value, self.negative_slope, self.threshold = max_value, negative_slope, threshold

    def call(self, inputs: Any) -> Any:
        return activations.relu(inputs, self.negative_slope, self.max_value, self.threshold)


class LeakyReLU(Layer):
    """``x`` if positive, else ``negative_slope · x`` (0.3 by default, as Keras 3)."""

    def __init__(self, negative_slope: float = 0.3, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.negative_slope = negative_slope

    def call(self, inputs: Any) -> Any:
        return E.leaky_relu(inputs, alpha=self.negative_slope)


class ELU(Layer):
    """``x`` if positive, else ``alpha · (eˣ − 1)``."""

    def __init__(self, alpha: float = 1.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.alpha = alpha

    def call(self, inputs: Any) -> Any:
        return activations.elu(inputs, self.alpha)


class Softmax(Layer):
    """Softmax along ``axis``."""

    def __init__(self, axis: int = -1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs: Any, mask: Any = None) -> Any:
        return E.softmax(inputs, axis=self.axis)


class Rescaling(Layer):
    """``inputs · scale + offset``."""

    _allow_non_tensor_positional_args = True  # a data layer in Keras 3

    def __init__(self, scale: float, offset: float = 0.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset

    def call(self, inputs: Any) -> Any:
        x = self._convert(inputs)
        x = x if isinstance(x, E.Tensor | E.Variable) else E.convert_to_tensor(x)
        if not x.dtype.is_floating:
            x = E.cast(x, self._dtype)
        return x * self.scale + self.offset


class Embedding(Layer):
    """A lookup table: row ``i`` of ``embeddings`` for each integer input ``i``."""

    def __init__(
        self,
        input_dim: int,
        output_dim: int,
        embeddings_initializer: Any = "uniform",
        embeddings_regularizer: Any = None,
        embeddings_constraint: Any = None,
        mask_zero: bool = False,
        **kwargs: Any,
    ) -> None:
        kwargs.pop("input_length", None)
        super().__init__(**kwargs)
        self.input_dim, self.output_dim = int(input_dim), int(output_dim)
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = embeddings_regularizer
        self.mask_zero = mask_zero

    def build(self, input_shape: Any = None) -> None:
        """The ``(input_dim, output_dim)`` table."""
        self.embeddings = self.add_weight(
            name="embeddings", shape=(self.input_dim, self.output_dim),
            initializer=self.embeddings_initializer, regularizer=self.embeddings_regularizer,
        )  # fmt: skip
        self.built = True

    def _convert(self, x: Any) -> Any:
        return x  # integer indices stay integers

    def call(self, inputs: Any) -> Any:
        idx = inputs if isinstance(inputs, E.Tensor | E.Variable) else E.constant(inputs)
        if not idx.dtype.is_integer:
            idx = E.cast(idx, "int32")
        return E.gather(self.embeddings, idx)


class _Merge(Layer):
    """A layer of a list of same-shaped inputs."""

    def _merge(self, xs: list[Any]) -> Any:
        raise NotImplementedError

    def call(self, inputs: Any) -> Any:
        if not isinstance(inputs, list | tuple) or len(inputs) < 2:
            raise ValueError(
                f"A merge layer should be called on a list of inputs. Received: "
                f"inputs={inputs} (not a list of tensors)"
            )
        return self._merge(list(inputs))


class Add(_Merge):
    """The sum of the inputs."""

    def _merge(self, xs: list[Any]) -> Any:
        return E.add_n(xs)


class Subtract(_Merge):
    """``inputs[0] − inputs[1]``."""

    def _merge(self, xs: list[Any]) -> Any:
        if len(xs) != 2:
            raise ValueError("A `Subtract` layer should be called on exactly 2 inputs.")
        return E.subtract(xs[0], xs[1])


class Multiply(_Merge):
    """The elementwise product of the inputs."""

    def _merge(self, xs: list[Any]) -> Any:
        out = xs[0]
        for x in xs[1:]:
            out = E.multiply(out, x)
        return out


class Average(_Merge):
    """The elementwise mean of the inputs."""

    def _merge(self, xs: list[Any]) -> Any:
        return E.divide(E.add_n(xs), float(len(xs)))


class Maximum(_Merge):
    """The elementwise maximum of the inputs."""

    def _merge(self, xs: list[Any]) -> Any:
        out = xs[0]
        for x in xs[1:]:
            out = E.maximum(out, x)
        return out


class Minimum(_Merge):
    """The elementwise minimum of the inputs."""

    def _merge(self, xs: list[Any]) -> Any:
        out = xs[0]
        for x in xs[1:]:
            out = E.minimum(out, x)
        return out


class Concatenate(_Merge):
    """The inputs joined along ``axis``."""

    def __init__(self, axis: int = -1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = axis

    def _merge(self, xs: list[Any]) -> Any:
        return E.concat(xs, axis=self.axis)
