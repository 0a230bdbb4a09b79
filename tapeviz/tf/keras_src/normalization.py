"""Normalisation layers: BatchNormalization, LayerNormalization and Normalization (adapt)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz import engine as E
from tapeviz.tf.keras_src import initializers
from tapeviz.tf.keras_src.layer import InputSpec, Layer
from tapeviz.tf.keras_src.layer_utils import promote

__all__ = ["BatchNormalization", "LayerNormalization", "Normalization"]


def _axes(axis: Any, ndim: int) -> list[int]:
    axes = [axis] if isinstance(axis, int) else list(axis)
    return [a % ndim for a in axes]


class BatchNormalization(Layer):
    """Normalise with the batch's mean and variance in training, moving averages otherwise.

    As Keras 3: ``gamma`` and ``beta`` are trainable, ``moving_mean`` and ``moving_variance``
    are not and move by ``momentum`` after each training call.
    """

    def __init__(
        self, axis: int = -1, momentum: float = 0.99, epsilon: float = 0.001,
        center: bool = True, scale: bool = True, beta_initializer: Any = "zeros",
        gamma_initializer: Any = "ones", moving_mean_initializer: Any = "zeros",
        moving_variance_initializer: Any = "ones", beta_regularizer: Any = None,
        gamma_regularizer: Any = None, beta_constraint: Any = None,
        gamma_constraint: Any = None, synchronized: bool = False, **kwargs: Any,
    ) -> None:  # fmt: skip
        super().__init__(**kwargs)
        self.axis, self.momentum, self.epsilon = axis, float(momentum), float(epsilon)
        self.center, self.scale = center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self.beta_regularizer, self.gamma_regularizer = beta_regularizer, gamma_regularizer
        self.supports_masking = True
        self.gamma: Any = None
        self.beta: Any = None

    def build(self, input_shape: Any) -> None:
        """The gamma, beta, moving_mean and moving_variance weights, ``axis``-sized."""
        ndim = len(input_shape)
        ax = _axes(self.axis, ndim)
        shape = tuple(input_shape[a] for a in ax)
        if self.scale:
            self.gamma = self.add_weight(shape=shape, name="gamma",
                                         initializer=self.gamma_initializer,
                                         regularizer=self.gamma_regularizer)  # fmt: skip
        if self.center:
            self.beta = self.add_weight(shape=shape, name="beta",
                                        initializer=self.beta_initializer,
                                        regularizer=self.beta_regularizer)  # fmt: skip
        self.moving_mean = self.add_weight(shape=shape, name="moving_mean", trainable=False,
                                           initializer=self.moving_mean_initializer)  # fmt: skip
        self.moving_variance = self.add_weight(
            shape=shape, name="moving_variance", trainable=False,
            initializer=self.moving_variance_initializer,
        )  # fmt: skip
        self.input_spec = InputSpec(ndim=ndim, axes={a: input_shape[a] for a in ax})
        self.built = True

    def _broadcast(self, t: Any, ndim: int) -> Any:
        ax = _axes(self.axis, ndim)
        shape = [1] * ndim
        for a in ax:
            shape[a] = -1
        return E.reshape(t, tuple(shape)) if ndim > 1 and ax != [ndim - 1] else t

    def call(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:
        x = promote(inputs, self._dtype)
        ndim = len(x.shape)
        ax = _axes(self.axis, ndim)
        reduce = [i for i in range(ndim) if i not in ax]
        if training and self.trainable:
            mean, variance = E.moments(x, axes=reduce)
            m = self.momentum
            self.moving_mean.assign(self.moving_mean.numpy() * m + mean.numpy() * (1.0 - m))
            self.moving_variance.assign(
                self.moving_variance.numpy() * m + variance.numpy() * (1.0 - m)
            )
        else:
            mean, variance = self.moving_mean, self.moving_variance
        inv = E.rsqrt(self._broadcast(variance, ndim) + self.epsilon)
        if self.scale:
            inv = inv * self._broadcast(self.gamma, ndim)
        shift = -(self._broadcast(mean, ndim) * inv)
        if self.center:
            shift = shift + self._broadcast(self.beta, ndim)
        return x * inv + shift

    def compute_output_shape(self, input_shape: Any) -> tuple[Any, ...]:
        """The input shape."""
        return tuple(input_shape)


class LayerNormalization(Layer):
    """Normalise each sample over ``axis`` (the last by default), then scale and shift."""

    def __init__(
        self,
        axis: Any = -1,
        epsilon: float = 0.001,
        center: bool = True,
        scale: bool = True,
        beta_initializer: Any = "zeros",
        gamma_initializer: Any = "ones",
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.axis, self.epsilon, self.center, self.scale = axis, float(epsilon), center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)

    def build(self, input_shape: Any) -> None:
        """The gamma and beta weights over the normalised axes."""
        ax = _axes(self.axis, len(input_shape))
        shape = tuple(input_shape[a] for a in ax)
        self.gamma = (
            self.add_weight(shape=shape, name="gamma", initializer=self.gamma_initializer)
            if self.scale
            else None
        )
        self.beta = (
            self.add_weight(shape=shape, name="beta", initializer=self.beta_initializer)
            if self.center
            else None
        )
        self.built = True

    def call(self, inputs: Any) -> Any:
        x = promote(inputs, self._dtype)
        ndim = len(x.shape)
        ax = _axes(self.axis, ndim)
        mean, variance = E.moments(x, axes=ax, keepdims=True)
        out = (x - mean) * E.rsqrt(variance + self.epsilon)
        shape = [1] * ndim
        for a in ax:
            shape[a] = int(x.shape[a])
        if self.gamma is not None:
            out = out * E.reshape(self.gamma, tuple(shape))
        if self.beta is not None:
            out = out + E.reshape(self.beta, tuple(shape))
        return out


class Normalization(Layer):
    """``(x − mean) / sqrt(variance)`` per feature, the statistics from ``adapt(data)``."""

    _allow_non_tensor_positional_args = True  # a data layer in Keras 3

    def __init__(
        self,
        axis: Any = -1,
        mean: Any = None,
        variance: Any = None,
        invert: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.axis, self.invert = axis, invert
        self._given = (mean, variance)
        self.mean: Any = None
        self.variance: Any = None

    def build(self, input_shape: Any) -> None:
        """The mean and variance variables (from the constructor, or zeros/ones until adapt)."""
        if self.mean is not None:
            self.built = True
            return
        ax = _axes(self.axis, len(input_shape)) if self.axis is not None else []
        shape = tuple(input_shape[a] for a in ax)
        mean, variance = self._given
        self.mean = self.add_weight(name="mean", shape=shape, trainable=False,
                                    initializer="zeros")  # fmt: skip
        self.variance = self.add_weight(name="variance", shape=shape, trainable=False,
                                        initializer="ones")  # fmt: skip
        if mean is not None:
            self.mean.assign(np.broadcast_to(np.asarray(mean, np.float32), shape))
            self.variance.assign(np.broadcast_to(np.asarray(variance, np.float32), shape))
        self.built = True

    def adapt(self, data: Any, batch_size: Any = None, steps: Any = None) -> None:
        """Compute the mean and variance of ``data`` (an array, tensor or dataset)."""
        from tapeviz.tf.dataset import Dataset

        if isinstance(data, Dataset):
            arr = np.concatenate([np.asarray(getattr(b, "_value", b)) for b in data])
        else:
            arr = np.asarray(getattr(data, "_value", data), dtype=np.float64)
        arr = arr.astype(np.float64)
        if arr.ndim == 1:
            arr = arr[:, None]
        if not self.built:
            self.build((None, *arr.shape[1:]))
        ax = _axes(self.axis, arr.ndim) if self.axis is not None else []
        reduce = tuple(i for i in range(arr.ndim) if i not in ax)
        self.mean.assign(arr.mean(axis=reduce).astype(np.float32).reshape(tuple(self.mean.shape)))
        self.variance.assign(arr.var(axis=reduce).astype(np.float32).reshape(
            tuple(self.variance.shape)))  # fmt: skip

    def call(self, inputs: Any) -> Any:
        x = promote(inputs, self._dtype)
        ndim = len(x.shape)
        ax = _axes(self.axis, ndim) if self.axis is not None else []
        shape = [1] * ndim
        for a in ax:
            shape[a] = int(x.shape[a])
        mean = E.reshape(self.mean, tuple(shape))
        std = E.maximum(E.sqrt(E.reshape(self.variance, tuple(shape))), 1e-7)
        return mean + x * std if self.invert else (x - mean) / std
