"""The VJP tables and the helpers every rule module shares (``ub``, ``keep``, ``defvjp``).

``VJP[prim]`` holds one rule per input, ``rule(g, ans, *inputs, **params)``; ``RULE_TEXT[prim]``
the same rules in words for the UI. The rule modules (:mod:`tapeviz.engine.vjp_rules` and the
ones it imports) fill them; import the tables from :mod:`tapeviz.engine.vjp_rules`, which is
complete once imported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapeviz.engine import numeric as N
from tapeviz.engine.primitives import Primitive

Rule = Callable[..., Any]


class Variadic:
    """The rule of an op with any number of inputs: ``rule(argnum, g, ans, *xs, **params)``."""

    __slots__ = ("rule",)

    def __init__(self, rule: Rule) -> None:
        self.rule = rule

    def __getitem__(self, argnum: int) -> Rule:
        def one(g: Any, ans: Any, *xs: Any, **params: Any) -> Any:
            return self.rule(argnum, g, ans, *xs, **params)

        return one


VJP: dict[Primitive, tuple[Rule | None, ...] | Variadic | None] = {}
RULE_TEXT: dict[Primitive, tuple[str, ...]] = {}


def defvjp(prim: Primitive, *rules: Rule | None, text: tuple[str, ...] = ()) -> None:
    """Register the per-input VJP rules of ``prim`` and their description in words."""
    VJP[prim] = rules if any(r is not None for r in rules) else None
    RULE_TEXT[prim] = text


_NP_FLOATS = (np.float16, np.float32, np.float64)


def ub(g: Any, x: Any) -> Any:
    """Unbroadcast ``g`` to the shape of ``x`` (raw values and Tensors both have ``.shape``)."""
    tx = type(x)
    if tx is type(g) and tx in _NP_FLOATS:  # two numpy float scalars: shape ()
        return g
    shape = x.shape
    return g if g.shape == shape else N.unbroadcast(g, tuple(shape))


def keep(g: Any, x: Any, axis: Any, keepdims: bool) -> Any:
    """Reshape a reduction's adjoint so it broadcasts against the reduced input."""
    if keepdims or axis is None:
        return g if keepdims else N.reshape(g, (1,) * len(N.shape(x)))
    nd = len(N.shape(x))
    axes = (axis,) if isinstance(axis, int) else axis
    axes = tuple(a % nd for a in axes)
    return N.reshape(g, tuple(1 if i in axes else d for i, d in enumerate(N.shape(x))))
