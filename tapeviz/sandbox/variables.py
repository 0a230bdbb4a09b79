"""The variables table: a name, a value (number or array) and a kind for each row."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tapeviz.engine import tensor
from tapeviz.engine.tensor import TensorLike
from tapeviz.sandbox.messages import MessageError, say

KINDS = ("trainable", "constant", "watched")


@dataclass(frozen=True)
class VariableSpec:
    """One row of the variables table.

    ``kind`` is ``trainable`` (a ``tf.Variable``), ``constant`` (a ``tf.constant`` the tape does
    not watch) or ``watched`` (a constant the tape watches, so it gets a gradient).
    """

    name: str
    value: Any
    kind: str = "trainable"
    dtype: str = "float32"

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            kinds = ", ".join(KINDS)
            raise MessageError(say("variable_kind", kinds=kinds, kind=repr(self.kind)))
        if not self.name.isidentifier() or self.name.startswith("__"):
            raise MessageError(say("variable_name", name=repr(self.name)))


def specs(variables: Mapping[str, Any] | Sequence[Any] | None) -> list[VariableSpec]:
    """Normalise a mapping ``name -> value`` or a list of specs/tuples to VariableSpecs."""
    if variables is None:
        return []
    if isinstance(variables, Mapping):
        return [
            v if isinstance(v, VariableSpec) else VariableSpec(k, v) for k, v in variables.items()
        ]
    out = []
    for item in variables:
        out.append(item if isinstance(item, VariableSpec) else VariableSpec(*item))
    return out


def make_tensor(spec: VariableSpec) -> TensorLike:
    """The tensor a spec stands for: a Variable when trainable, else a constant."""
    value = spec.value
    if isinstance(value, TensorLike):
        value = value.numpy()
    arr = np.asarray(value, dtype=spec.dtype)
    if spec.kind == "trainable":
        return tensor.Variable(arr, name=spec.name)
    return tensor.constant(arr, name=spec.name)


def make_variables(variables: Sequence[VariableSpec]) -> dict[str, TensorLike]:
    """Tensors for a whole table, by name, in table order."""
    return {spec.name: make_tensor(spec) for spec in variables}
