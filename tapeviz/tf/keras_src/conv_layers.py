"""Keras' convolution and pooling layers: Conv1D/2D, Conv1D/2DTranspose, pools, global pools.

As in Keras 3 on TensorFlow, channels last only: a conv layer's kernel is ``(*kernel_size,
in_channels, filters)`` (a transposed conv's ``(*kernel_size, filters, in_channels)``), its
call one ``tf.nn`` convolution, the bias and the activation, all in the layer's name scope, so
the graph folds the layer into one box.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapeviz import engine as E
from tapeviz.tf.keras_src import activations, backend, initializers
from tapeviz.tf.keras_src.layer import InputSpec, Layer
from tapeviz.tf.keras_src.layer_utils import promote

__all__ = [
    "AveragePooling1D", "AveragePooling2D", "Conv1D", "Conv1DTranspose", "Conv2D",
    "Conv2DTranspose", "GlobalAveragePooling1D", "GlobalAveragePooling2D", "GlobalMaxPooling1D",
    "GlobalMaxPooling2D", "MaxPooling1D", "MaxPooling2D",
]  # fmt: skip


def standardize_tuple(value: Any, n: int, name: str, allow_zero: bool = False) -> tuple[int, ...]:
    """Keras' rule: an int, or a tuple/list of ``n`` ints, each > 0 (≥ 0 with ``allow_zero``)."""
    msg = f"The `{name}` argument must be a tuple of {n} integers. Received {name}={value}"
    if isinstance(value, int | np.integer) and not isinstance(value, bool):
        values = (int(value),) * n
    else:
        try:
            values = tuple(value)
        except TypeError:
            raise ValueError(msg) from None
        if len(values) != n or not all(
            isinstance(v, int | np.integer) and not isinstance(v, bool) for v in values
        ):
            raise ValueError(msg)
        values = tuple(int(v) for v in values)
    bad = {v for v in values if (v < 0 if allow_zero else v <= 0)}
    if bad:
        raise ValueError(
            f"{msg}, including values {bad} that do not satisfy `value "
            f"{'>= 0' if allow_zero else '> 0'}`"
        )
    return values


def standardize_padding(value: Any, allow_causal: bool = False) -> str:
    """``"valid"`` or ``"same"`` (``"causal"`` for 1-D convolutions), case-insensitive."""
    padding = str(value).lower()
    allowed = {"valid", "same", "causal"} if allow_causal else {"valid", "same"}
    if padding not in allowed:
        raise ValueError(
            f"The `padding` argument must be a list/tuple or one of {allowed}. Received: {padding}"
        )
    return padding


def standardize_data_format(data_format: Any) -> str:
    """``channels_last``; ``channels_first`` is refused with the reason."""
    fmt = backend.image_data_format() if data_format is None else str(data_format).lower()
    if fmt not in ("channels_last", "channels_first"):
        raise ValueError(
            "The `data_format` argument must be one of {'channels_first', 'channels_last'}. "
            f"Received: data_format={data_format}"
        )
    if fmt == "channels_first":
        raise ValueError(
            "data_format='channels_first' is not available in tapeviz: convolutions and pools "
            "run channels_last (batch, height, width, channels), as TensorFlow does on the CPU"
        )
    return fmt


def _tensor(x: Any) -> Any:
    return x if isinstance(x, E.Tensor | E.Variable) else E.convert_to_tensor(x)


def _out_size(size: Any, k: int, stride: int, padding: str, dilation: int = 1) -> Any:
    """Keras' ``compute_conv_output_shape`` for one spatial size (None stays None)."""
    if size is None:
        return None
    if padding == "valid":
        return (int(size) - dilation * (k - 1) - 1) // stride + 1
    return (int(size) - 1) // stride + 1


class _Conv(Layer):
    """``activation(conv(inputs, kernel) + bias)`` over ``rank`` spatial dimensions."""

    rank = 2
    transpose = False

    def __init__(
        self, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
        data_format: str | None = None, dilation_rate: Any = 1, groups: int = 1,
        activation: Any = None, use_bias: bool = True,
        kernel_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
        kernel_regularizer: Any = None, bias_regularizer: Any = None,
        activity_regularizer: Any = None, kernel_constraint: Any = None,
        bias_constraint: Any = None, output_padding: Any = None, **kwargs: Any,
    ) -> None:  # fmt: skip
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if isinstance(filters, bool) or not isinstance(filters, int | np.integer) or filters <= 0:
            raise ValueError(
                "Invalid value for argument `filters`. Expected a strictly positive value. "
                f"Received filters={filters}."
            )
        if groups != 1:
            raise ValueError("grouped convolutions (groups > 1) are not available in tapeviz")
        n = self.rank
        self.filters, self.groups = int(filters), 1
        self.kernel_size = standardize_tuple(kernel_size, n, "kernel_size")
        self.strides = standardize_tuple(strides, n, "strides")
        self.dilation_rate = standardize_tuple(dilation_rate, n, "dilation_rate")
        self.padding = standardize_padding(padding, allow_causal=n == 1 and not self.transpose)
        self.data_format = standardize_data_format(data_format)
        self.output_padding = (
            None
            if output_padding is None
            else standardize_tuple(output_padding, n, "output_padding", allow_zero=True)
        )
        if self.output_padding is not None and any(
            p >= s for p, s in zip(self.output_padding, self.strides, strict=True)
        ):
            raise ValueError(
                f"`output_padding` must be < `strides`. output_padding={self.output_padding}, "
                f"strides={self.strides}"
            )
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError(
                "`strides > 1` not supported in conjunction with `dilation_rate > 1`. "
                f"Received: strides={self.strides} and dilation_rate={self.dilation_rate}"
            )
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer
        self.kernel_constraint, self.bias_constraint = kernel_constraint, bias_constraint
        self.input_spec = InputSpec(min_ndim=n + 2)
        self.kernel: Any = None
        self.bias: Any = None

    def build(self, input_shape: Any) -> None:
        """The kernel and the ``(filters,)`` bias."""
        channels = input_shape[-1]
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
        last = (self.filters, int(channels)) if self.transpose else (int(channels), self.filters)
        self.kernel = self.add_weight(
            name="kernel", shape=self.kernel_size + last, initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer, constraint=self.kernel_constraint,
        )  # fmt: skip
        if self.use_bias:
            self.bias = self.add_weight(
                name="bias", shape=(self.filters,), initializer=self.bias_initializer,
                regularizer=self.bias_regularizer, constraint=self.bias_constraint,
            )  # fmt: skip
        self.input_spec = InputSpec(min_ndim=self.rank + 2, axes={-1: int(channels)})
        self.built = True

    def convolution_op(self, inputs: Any, kernel: Any) -> Any:
        """The convolution itself (``tf.nn.convolution``)."""
        x, padding, dilations = inputs, self.padding.upper(), list(self.dilation_rate)
        if self.padding == "causal":  # left padding by the dilated kernel's reach, then VALID
            reach = self.dilation_rate[0] * (self.kernel_size[0] - 1)
            x, padding = E.pad(x, [[0, 0], [reach, 0], [0, 0]]), "VALID"
        return E.convolution(x, kernel, list(self.strides), padding, dilations=dilations)

    def call(self, inputs: Any) -> Any:
        x = self.convolution_op(promote(_tensor(inputs), self.kernel.dtype), self.kernel)
        if self.use_bias:
            x = E.add(x, self.bias)
        return self.activation(x) if self.activation is not activations.linear else x

    def compute_output_shape(self, input_shape: Any) -> tuple[Any, ...]:
        """Keras' output shape: ``(batch, *spatial sizes, filters)``."""
        shape = tuple(input_shape)
        sizes = tuple(
            _out_size(d, k, s, self.padding, r)
            for d, k, s, r in zip(shape[1:-1], self.kernel_size, self.strides,
                                  self.dilation_rate, strict=True)
        )  # fmt: skip
        if any(d is not None and d < 0 for d in sizes):
            raise ValueError(
                f"Computed output size would be negative. Received `inputs shape={shape}`, "
                f"`kernel shape={self.kernel_size}`, `dilation_rate={self.dilation_rate}`."
            )
        return (shape[0], *sizes, self.filters)

    def get_config(self) -> dict[str, Any]:
        """Filters, kernel size, strides, padding, dilation, activation, bias."""
        return {
            **super().get_config(), "filters": self.filters, "kernel_size": self.kernel_size,
            "strides": self.strides, "padding": self.padding, "data_format": self.data_format,
            "dilation_rate": self.dilation_rate, "groups": self.groups,
            "activation": activations.serialize(self.activation), "use_bias": self.use_bias,
        }  # fmt: skip


class Conv1D(_Conv):
    """1-D convolution over ``(batch, steps, channels)`` (``padding="causal"`` too)."""

    rank = 1


class Conv2D(_Conv):
    """2-D convolution over ``(batch, height, width, channels)``."""

    rank = 2


def _transpose_size(size: Any, k: int, s: int, padding: str, out_pad: Any, d: int) -> Any:
    """Keras' output size of a transposed convolution on TensorFlow (None stays None)."""
    if size is None:
        return None
    k = (k - 1) * d + 1
    if padding == "valid":
        return (int(size) - 1) * s + k + (max(k, s) - k if out_pad is None else out_pad)
    return int(size) * s if out_pad is None else (int(size) - 1) * s + k % 2 + out_pad


class _ConvTranspose(_Conv):
    """The transpose (gradient) of a convolution: upsamples by ``strides``."""

    transpose = True

    def _sizes(self, shape: tuple[Any, ...]) -> tuple[Any, ...]:
        pads = self.output_padding or (None,) * self.rank
        return tuple(
            _transpose_size(d, k, s, self.padding, p, r)
            for d, k, s, p, r in zip(shape[1:-1], self.kernel_size, self.strides, pads,
                                     self.dilation_rate, strict=True)
        )  # fmt: skip

    def convolution_op(self, inputs: Any, kernel: Any) -> Any:
        """``tf.nn.conv_transpose`` to Keras' output shape."""
        shape = (int(inputs.shape[0]), *self._sizes(tuple(inputs.shape)), self.filters)
        return E.conv_transpose(inputs, kernel, shape, list(self.strides), self.padding.upper(),
                                dilations=list(self.dilation_rate))  # fmt: skip

    def compute_output_shape(self, input_shape: Any) -> tuple[Any, ...]:
        """``(batch, *upsampled sizes, filters)``."""
        shape = tuple(input_shape)
        return (shape[0], *self._sizes(shape), self.filters)


class Conv1DTranspose(_ConvTranspose):
    """Transposed 1-D convolution; the kernel is ``(kernel_size, filters, in_channels)``."""

    rank = 1


class Conv2DTranspose(_ConvTranspose):
    """Transposed 2-D convolution; the kernel is ``(kh, kw, filters, in_channels)``."""

    rank = 2


# -- pooling -------------------------------------------------------------------------------
class _Pooling(Layer):
    """Max or average over windows of ``pool_size`` moved by ``strides`` (default: the size)."""

    rank = 2
    average = False

    def __init__(
        self, pool_size: Any = 2, strides: Any = None, padding: str = "valid",
        data_format: str | None = None, name: str | None = None, **kwargs: Any,
    ) -> None:  # fmt: skip
        super().__init__(name=name, **kwargs)
        self.pool_size = standardize_tuple(pool_size, self.rank, "pool_size")
        self.strides = (
            self.pool_size if strides is None else standardize_tuple(strides, self.rank, "strides")
        )
        self.padding = standardize_padding(padding)
        self.data_format = standardize_data_format(data_format)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def call(self, inputs: Any) -> Any:
        pool = E.avg_pool if self.average else E.max_pool
        return pool(_tensor(inputs), list(self.pool_size), list(self.strides),
                    self.padding.upper())  # fmt: skip

    def compute_output_shape(self, input_shape: Any) -> tuple[Any, ...]:
        """``(batch, *pooled sizes, channels)``."""
        shape = tuple(input_shape)
        sizes = tuple(
            _out_size(d, k, s, self.padding)
            for d, k, s in zip(shape[1:-1], self.pool_size, self.strides, strict=True)
        )
        return (shape[0], *sizes, shape[-1])

    def get_config(self) -> dict[str, Any]:
        """Pool size, strides, padding, data format."""
        return {
            **super().get_config(), "pool_size": self.pool_size, "strides": self.strides,
            "padding": self.padding, "data_format": self.data_format,
        }  # fmt: skip


class MaxPooling1D(_Pooling):
    """The maximum of each window of ``pool_size`` steps."""

    rank = 1


class MaxPooling2D(_Pooling):
    """The maximum of each ``pool_size`` window (2 × 2 by default)."""

    def __init__(self, pool_size: Any = (2, 2), strides: Any = None, padding: str = "valid",
                 data_format: str | None = None, name: str | None = None,
                 **kwargs: Any) -> None:  # fmt: skip
        super().__init__(pool_size, strides, padding, data_format, name, **kwargs)


class AveragePooling1D(_Pooling):
    """The mean of each window of ``pool_size`` steps."""

    rank, average = 1, True


class AveragePooling2D(MaxPooling2D):
    """The mean of each ``pool_size`` window (padding left out of the count)."""

    average = True


class _GlobalPooling(Layer):
    """The max or mean over every spatial position (``keepdims``: sizes of 1 kept)."""

    rank = 2
    average = False

    def __init__(
        self, data_format: str | None = None, keepdims: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.data_format = standardize_data_format(data_format)
        self.keepdims = bool(keepdims)
        self.input_spec = InputSpec(ndim=self.rank + 2)
        self.supports_masking = self.rank == 1

    def call(self, inputs: Any, mask: Any = None) -> Any:
        x = _tensor(inputs)
        axes = list(range(1, self.rank + 1))
        if mask is not None and self.average:  # Keras: the mean over the unmasked steps only
            m = E.expand_dims(E.cast(mask, x.dtype), -1)
            total = E.reduce_sum(x * m, axis=axes, keepdims=self.keepdims)
            return total / E.reduce_sum(m, axis=axes, keepdims=self.keepdims)
        reduce = E.reduce_mean if self.average else E.reduce_max
        return reduce(x, axis=axes, keepdims=self.keepdims)

    def compute_output_shape(self, input_shape: Any) -> tuple[Any, ...]:
        """``(batch, channels)``, or ``(batch, 1, …, channels)`` with ``keepdims``."""
        shape = tuple(input_shape)
        return (shape[0], *(1,) * self.rank, shape[-1]) if self.keepdims else (shape[0], shape[-1])

    def get_config(self) -> dict[str, Any]:
        """Data format and keepdims."""
        return {**super().get_config(), "data_format": self.data_format, "keepdims": self.keepdims}


class GlobalMaxPooling1D(_GlobalPooling):
    """The maximum over the steps of ``(batch, steps, channels)``."""

    rank = 1


class GlobalMaxPooling2D(_GlobalPooling):
    """The maximum over height and width of ``(batch, height, width, channels)``."""


class GlobalAveragePooling1D(_GlobalPooling):
    """The mean over the steps (the unmasked ones, given a mask)."""

    rank, average = 1, True


class GlobalAveragePooling2D(_GlobalPooling):
    """The mean over height and width of ``(batch, height, width, channels)``."""

    average = True


ALIASES: dict[str, type[Layer]] = {
    "Convolution1D": Conv1D, "Convolution2D": Conv2D, "Convolution1DTranspose": Conv1DTranspose,
    "Convolution2DTranspose": Conv2DTranspose, "MaxPool1D": MaxPooling1D,
    "MaxPool2D": MaxPooling2D, "AvgPool1D": AveragePooling1D, "AvgPool2D": AveragePooling2D,
    "GlobalMaxPool1D": GlobalMaxPooling1D, "GlobalMaxPool2D": GlobalMaxPooling2D,
    "GlobalAvgPool1D": GlobalAveragePooling1D, "GlobalAvgPool2D": GlobalAveragePooling2D,
}  # fmt: skip
