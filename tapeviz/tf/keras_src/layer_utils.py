"""What a Keras layer checks and looks up: InputSpec, call signatures, tracked values."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Iterator
from typing import Any

import numpy as np

from tapeviz.tf import run_state

__all__ = [
    "InputSpec", "Nothing", "build_takes_shape", "check_positional", "fully_defined",
    "promote", "takes", "walk",
]  # fmt: skip


class InputSpec:
    """What a layer accepts: ``ndim``, ``min_ndim`` and known sizes of some ``axes``."""

    def __init__(
        self,
        ndim: int | None = None,
        min_ndim: int | None = None,
        axes: dict[int, int] | None = None,
        dtype: Any = None,
        shape: Any = None,
    ) -> None:
        self.ndim, self.min_ndim, self.axes = ndim, min_ndim, dict(axes or {})
        self.dtype, self.shape = dtype, shape

    def check(self, layer: Any, x: Any, index: int = 0) -> None:
        """Raise Keras' ValueError if ``x`` does not fit."""
        shape = tuple(x.shape)
        head = f'Input {index} of layer "{layer.name}" is incompatible with the layer: '
        if self.ndim is not None and len(shape) != self.ndim:
            raise ValueError(
                f"{head}expected ndim={self.ndim}, found ndim={len(shape)}. "
                f"Full shape received: {shape}"
            )
        if self.min_ndim is not None and len(shape) < self.min_ndim:
            raise ValueError(
                f"{head}expected min_ndim={self.min_ndim}, found ndim={len(shape)}. "
                f"Full shape received: {shape}"
            )
        for axis, size in self.axes.items():
            if shape and shape[axis] is not None and shape[axis] != size:
                raise ValueError(
                    f"{head}expected axis {axis} of input shape to have value {size}, but "
                    f"received input with shape {shape}"
                )


@functools.lru_cache(maxsize=512)
def takes(method: Any, argument: str) -> bool:
    try:
        params = inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False
    return argument in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


@functools.lru_cache(maxsize=512)
def build_takes_shape(build: Any) -> bool:
    try:
        params = list(inspect.signature(build).parameters.values())[1:]  # after self
    except (TypeError, ValueError):
        return True
    return bool(params)


# Keyed by a script's methods: emptied per run, so no run's functions outlive it.
run_state.register_caches(__name__, takes, build_takes_shape)


def check_positional(args: tuple[Any, ...], is_symbolic: Any = None) -> None:
    """Keras 3's rule for a call's positional arguments: tensors (or arrays, or None) only.

    A Python number, string or list of numbers raises Keras' ValueError (Keras makes arrays
    tensors, not lists); a list of tensors (``Concatenate()([a, b])``) passes.
    """
    from tapeviz.engine import nest
    from tapeviz.engine.tensor import TensorLike

    for arg in nest.flatten(args):
        if arg is None or isinstance(arg, TensorLike | np.ndarray | np.generic):
            continue
        if is_symbolic is not None and is_symbolic(arg):
            continue
        raise ValueError(
            "Only input tensors may be passed as positional arguments. The following argument "
            f"value should be passed as a keyword argument: {arg} (of type {type(arg)})"
        )


def walk(value: Any) -> Iterator[Any]:
    if isinstance(value, list | tuple):
        for v in value:
            yield from walk(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from walk(v)
    else:
        yield value


class Nothing:
    """A with-block that does nothing."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def promote(x: Any, dtype: Any) -> Any:
    """``x`` cast to the float ``dtype`` if it holds integers or bools (uint8 images, say).

    Keras 3 ops promote mixed dtypes (``uint8 @ float32`` is float32); the engine's ops refuse
    them, as TensorFlow's do, so the layers that compute in floats promote their inputs first.
    """
    from tapeviz.engine.tensor import TensorLike, convert_to_tensor

    if not isinstance(x, TensorLike):
        x = convert_to_tensor(x)
    if x.dtype.is_floating:
        return x
    from tapeviz.engine.array_ops import cast

    return cast(x, dtype)


def fully_defined(shape: Any, path: str) -> tuple[int, ...]:
    """A weight's shape as Keras 3 checks it: ints >= 0, no None (else ValueError)."""
    dims = () if shape is None else tuple(shape)
    for d in dims:
        if d is None:
            continue
        if isinstance(d, bool) or (not isinstance(d, int) and not hasattr(d, "__index__")):
            raise ValueError(
                f"Cannot convert '{dims}' to a shape. Found invalid entry '{d}' of type "
                f"'{type(d)}'. "
            )
        if int(d) < 0:
            raise ValueError(
                f"Cannot convert '{dims}' to a shape. Negative dimensions are not allowed."
            )
    if None in dims:
        raise ValueError(
            "Shapes used to initialize variables must be fully-defined (no `None` dimensions). "
            f"Received: shape={dims} for variable path='{path}'"
        )
    return tuple(int(d) for d in dims)
