"""Keras' image-resizing layers around convolutions: UpSampling2D, ZeroPadding2D, Cropping2D.

Channels last, as the conv layers; nearest-neighbour upsampling repeats rows and columns
(``ops.repeat``, as Keras 3 does), padding and cropping are ``tf.pad`` and a slice.
"""

from __future__ import annotations

from typing import Any

from tapeviz import engine as E
from tapeviz.tf.keras_src.conv_layers import standardize_data_format, standardize_tuple
from tapeviz.tf.keras_src.layer import InputSpec, Layer

__all__ = ["Cropping2D", "UpSampling2D", "ZeroPadding2D"]


def _tensor(x: Any) -> Any:
    return x if isinstance(x, E.Tensor | E.Variable) else E.convert_to_tensor(x)


def _pairs(value: Any, name: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """Keras' ``((top, bottom), (left, right))`` from an int, two ints or two pairs."""
    if isinstance(value, int):
        return (value, value), (value, value)
    try:
        first, second = value
    except (TypeError, ValueError):
        raise ValueError(
            f"`{name}` should be either an int, a tuple of 2 ints (symmetric_height_{name}, "
            f"symmetric_width_{name}), or a tuple of 2 tuples of 2 ints. Received: {name}={value}"
        ) from None
    rows = standardize_tuple(first, 2, f"1st entry of {name}", allow_zero=True)
    cols = standardize_tuple(second, 2, f"2nd entry of {name}", allow_zero=True)
    return (rows[0], rows[1]), (cols[0], cols[1])


def _plus(size: Any, extra: int) -> Any:
    return None if size is None else int(size) + extra


class UpSampling2D(Layer):
    """Repeat each row ``size[0]`` and each column ``size[1]`` times (nearest neighbour)."""

    def __init__(
        self, size: Any = (2, 2), data_format: str | None = None,
        interpolation: str = "nearest", **kwargs: Any,
    ) -> None:  # fmt: skip
        super().__init__(**kwargs)
        self.size = standardize_tuple(size, 2, "size")
        self.data_format = standardize_data_format(data_format)
        if interpolation != "nearest":
            raise ValueError(
                f"UpSampling2D: interpolation={interpolation!r} is not available in tapeviz; "
                "use interpolation='nearest'"
            )
        self.interpolation = interpolation
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs: Any) -> Any:
        x = E.repeat(_tensor(inputs), self.size[0], axis=1)
        return E.repeat(x, self.size[1], axis=2)

    def compute_output_shape(self, input_shape: Any) -> tuple[Any, ...]:
        """``(batch, height · size[0], width · size[1], channels)``."""
        n, h, w, c = tuple(input_shape)
        scale = (None if h is None else h * self.size[0], None if w is None else w * self.size[1])
        return (n, *scale, c)

    def get_config(self) -> dict[str, Any]:
        """Size, data format, interpolation."""
        return {**super().get_config(), "size": self.size, "data_format": self.data_format,
                "interpolation": self.interpolation}  # fmt: skip


class ZeroPadding2D(Layer):
    """Add rows and columns of zeros around each image."""

    def __init__(
        self, padding: Any = (1, 1), data_format: str | None = None, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.padding = _pairs(padding, "padding")
        self.data_format = standardize_data_format(data_format)
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs: Any) -> Any:
        (t, b), (left, right) = self.padding
        return E.pad(_tensor(inputs), [[0, 0], [t, b], [left, right], [0, 0]])

    def compute_output_shape(self, input_shape: Any) -> tuple[Any, ...]:
        """The height and width grown by the padding."""
        n, h, w, c = tuple(input_shape)
        return (n, _plus(h, sum(self.padding[0])), _plus(w, sum(self.padding[1])), c)

    def get_config(self) -> dict[str, Any]:
        """Padding and data format."""
        return {**super().get_config(), "padding": self.padding, "data_format": self.data_format}


class Cropping2D(Layer):
    """Cut rows and columns off each image's edges."""

    def __init__(self, cropping: Any = ((0, 0), (0, 0)), data_format: str | None = None,
                 **kwargs: Any) -> None:  # fmt: skip
        super().__init__(**kwargs)
        self.cropping = _pairs(cropping, "cropping")
        self.data_format = standardize_data_format(data_format)
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs: Any) -> Any:
        x = _tensor(inputs)
        (t, b), (left, right) = self.cropping
        h, w = int(x.shape[1]), int(x.shape[2])
        if t + b >= h or left + right >= w:
            raise ValueError(
                f"Values in `cropping` argument should be smaller than the corresponding spatial "
                f"dimension of the input. Received: input_shape={tuple(x.shape)}, "
                f"cropping={self.cropping}"
            )
        return x[:, t : h - b, left : w - right, :]

    def compute_output_shape(self, input_shape: Any) -> tuple[Any, ...]:
        """The height and width shrunk by the cropping."""
        n, h, w, c = tuple(input_shape)
        return (n, _plus(h, -sum(self.cropping[0])), _plus(w, -sum(self.cropping[1])), c)

    def get_config(self) -> dict[str, Any]:
        """Cropping and data format."""
        return {**super().get_config(), "cropping": self.cropping, "data_format": self.data_format}
