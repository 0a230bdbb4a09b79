"""The graph's parts: a :class:`Node` per source tensor or op, an :class:`Edge` per input."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tapeviz.models.graph.nonfinite import NonFinite


@dataclass(frozen=True)
class Node:
    """One node: a source tensor (variable, watched constant, constant) or an op and its output."""

    id: str
    kind: str
    label: str  # the user's name when known, else the op ("multiply")
    symbol: str  # what the node shows big: "×", "sin", "x", "×2" (folded constant)
    tensor_id: int
    value: Any
    dtype: str
    op: str | None = None
    formula: str = ""
    record: int | None = None  # index of the op's record on the tape
    watched: bool = True  # the tape recorded it for gradients
    tapes: tuple[int, ...] = ()  # the model's tapes that recorded this op
    note: NonFinite | None = None  # why the value is nan or ±inf (None: finite)
    members: tuple[int, ...] = ()  # a folded layer: the records of its ops
    params: tuple[str, ...] = ()  # a folded layer: its parameters' names

    @property
    def shape(self) -> tuple[int, ...]:
        """Shape of the node's value."""
        return tuple(np.shape(self.value))

    @property
    def is_source(self) -> bool:
        """Whether the node is a tape input rather than an op."""
        return self.kind in ("variable", "watched", "constant")


@dataclass(frozen=True)
class Edge:
    """Input ``position`` of op ``target`` is the value of node ``source``."""

    source: str
    target: str
    position: int
    tensor_id: int
