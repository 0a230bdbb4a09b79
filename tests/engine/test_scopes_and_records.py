"""Name scopes on records and variable names; the records of the new ops stay plain data."""

from __future__ import annotations

from typing import Any

import numpy as np

import tapeviz as tv
from tapeviz.engine.dtypes import DType


def test_records_carry_the_scope_they_ran_in() -> None:
    x = tv.Variable(2.0)
    with tv.GradientTape() as tape:
        a = x * x  # the fast elementwise path
        with tv.NameScope("outer"):
            b = a + 1.0
            with tv.NameScope("inner") as name:
                assert name == "outer/inner/"
                c = tv.reduce_sum(tv.stack([b, b]))  # the general path
            with tv.NameScope("absolute/"):
                d = c * 2.0
        e = d - 1.0
    assert [(r.name, r.scope) for r in tape.records] == [
        ("multiply", ()), ("add", ("outer",)), ("stack", ("outer", "inner")),
        ("reduce_sum", ("outer", "inner")), ("multiply", ("absolute",)), ("subtract", ()),
    ]  # fmt: skip
    assert float(tape.gradient(e, x)) == 16.0


def test_a_tape_entered_inside_a_scope_records_it() -> None:
    with tv.NameScope("layer"):
        x = tv.Variable(1.0, name="w")
        with tv.GradientTape() as tape:
            y = x * 3.0
    assert x.name == "layer/w:0"
    assert tape.records[0].scope == ("layer",)
    assert float(tape.gradient(y, x)) == 3.0


def _plain(value: Any) -> bool:
    if isinstance(value, tuple):
        return all(_plain(v) for v in value)
    return value is None or isinstance(value, bool | int | float | str | DType)


def test_params_of_the_new_ops_are_plain_data() -> None:
    m = tv.constant(np.eye(3) + 1.0)
    v = tv.constant(np.array([1.0, 2.0, 3.0]))
    with tv.GradientTape() as tape:
        tape.watch([m, v])
        tv.gelu(v, approximate=True)
        tv.silu(v, beta=2.0)
        tv.softmax(m, axis=0)
        tv.reduce_prod(m, axis=[0, 1], keepdims=True)
        tv.cumsum(v, exclusive=True)
        tv.einsum("ij,j->i", m, v)
        tv.pad(m, [[1, 0], [0, 2]], constant_values=3)
        tv.tile(v, [2])
        tv.gather(v, [2, 0])
        tv.solve(m, tv.reshape(v, (3, 1)), adjoint=True)
        tv.top_k(v, 2)
    assert len(tape.records) > 10
    for rec in tape.records:
        for key, value in rec.params.items():
            assert _plain(value), (rec.name, key, value)
