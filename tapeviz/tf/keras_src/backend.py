"""Keras' global state: unique layer names, the training flag of the call in progress, floatx.

``keras.backend.clear_session()`` restarts the name counters (the next Dense is ``dense``
again), as in Keras. The state is registered with :mod:`tapeviz.tf.run_state`: every sandbox
run starts from these defaults.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tapeviz.engine import dtypes
from tapeviz.tf import run_state

__all__ = ["auto_name", "clear_session", "epsilon", "floatx", "to_snake_case", "training_flag"]


def _defaults() -> dict[str, Any]:
    return {
        "names": {},  # name prefix -> how many names were given with it
        "training": [],  # the training flag of each layer call in progress
        "floatx": "float32",
        "epsilon": 1e-7,
    }


class _KerasState(threading.local):
    names: dict[str, int]
    training: list[Any]
    floatx: str
    epsilon: float

    def __init__(self) -> None:
        vars(self).update(_defaults())


STATE = _KerasState()
run_state.register_attributes(__name__, STATE, _defaults)


def to_snake_case(name: str) -> str:
    """Keras' rule: ``"BatchNormalization"`` → ``"batch_normalization"`` (``ReLU``: ``re_lu``)."""
    name = re.sub(r"\W+", "", name)
    name = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", name).lower()


def auto_name(prefix: str) -> str:
    """A fresh name from a class name: ``dense``, then ``dense_1``, ``dense_2``, ..."""
    base = to_snake_case(prefix)
    n = STATE.names.get(base, 0)
    STATE.names[base] = n + 1
    return base if n == 0 else f"{base}_{n}"


def clear_session(free_memory: bool = True) -> None:
    """Forget every name given so far (layer names start again at ``dense``)."""
    STATE.names = {}


def floatx() -> str:
    """The default float dtype name (``"float32"``)."""
    return STATE.floatx


def set_floatx(value: str) -> None:
    """Set the default float dtype (``"float16"``, ``"float32"`` or ``"float64"``)."""
    if value not in ("float16", "float32", "float64"):
        raise ValueError(
            f"Unknown `floatx` value: {value}. Expected one of float16, float32, float64"
        )
    STATE.floatx = value


def default_float() -> dtypes.DType:
    """``floatx()`` as a DType."""
    return dtypes.as_dtype(STATE.floatx)


def epsilon() -> float:
    """The fuzz factor used by losses and metrics (1e-7)."""
    return STATE.epsilon


def set_epsilon(value: float) -> None:
    """Set the fuzz factor."""
    STATE.epsilon = float(value)


def image_data_format() -> str:
    """``"channels_last"``."""
    return "channels_last"


@contextmanager
def training_flag(value: Any) -> Iterator[None]:
    """The training flag sub-layers see when they are called without one."""
    STATE.training.append(value)
    try:
        yield
    finally:
        STATE.training.pop()


def current_training() -> Any:
    """The training flag of the innermost call that set one (None outside any)."""
    for v in reversed(STATE.training):
        if v is not None:
            return v
    return None
