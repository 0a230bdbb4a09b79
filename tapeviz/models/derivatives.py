"""Derivatives of a typed expression at a point, by nested tapes (``tapeviz grad`` uses it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import tapeviz as tv
from tapeviz.sandbox import VariableSpec, compile_expression
from tapeviz.sandbox.language.validate import Invalid
from tapeviz.sandbox.variables import make_variables


def _number(value: Any) -> str:
    array = value.numpy() if hasattr(value, "numpy") else value
    if getattr(array, "ndim", 0):
        return str(array.tolist())
    return f"{float(array):.10g}"


def _nested(fn: Any, x: Any, order: int) -> list[Any]:
    """[f, f', f'', ...] of a one-variable function, each by one more enclosing tape."""
    if order == 0:
        return [fn()]
    with tv.GradientTape() as tape:
        tape.watch(x)
        lower = _nested(fn, x, order - 1)
    d = tape.gradient(lower[-1], x)
    return [*lower, d if d is not None else tv.zeros_like(x)]


def derivatives(text: str, variables: Sequence[VariableSpec], order: int = 1) -> list[str]:
    """Lines ``f = ...`` then ``df/dx = ...`` (and higher orders for one variable)."""
    if not 1 <= order <= 5:
        raise ValueError("the order must be between 1 and 5")
    try:
        expr = compile_expression(text)
    except Invalid as exc:
        raise ValueError(str(exc.error)) from None
    missing = [n for n in expr.names if n not in [v.name for v in variables]]
    if missing:
        raise ValueError(f"give a value for {', '.join(missing)} with --at NAME=VALUE")
    env = make_variables([v for v in variables if v.name in expr.names])
    if len(env) != 1 and order > 1:
        raise ValueError("derivatives above the first need a function of one variable")
    if len(env) == 1:
        (name, x), = env.items()  # fmt: skip
        values = _nested(lambda: expr(env), x, order)
        lines = [f"f = {_number(values[0])}"]
        for k, d in enumerate(values[1:], 1):
            lines.append(f"df/d{name} = {_number(d)}" if k == 1 else
                         f"d{k}f/d{name}{k} = {_number(d)}")  # fmt: skip
        return lines
    with tv.GradientTape() as tape:
        for x in env.values():
            tape.watch(x)
        f = expr(env)
    grads = tape.gradient(f, list(env.values()), unconnected_gradients="zero")
    return [f"f = {_number(f)}"] + [
        f"df/d{name} = {_number(g)}" for name, g in zip(env, grads, strict=True)
    ]
