"""The inline recording and gradient fast paths give exactly what the general paths give."""

from __future__ import annotations

from typing import Any

import numpy as np

import tapeviz as tv
from tapeviz.engine import core
from tapeviz.engine.core import OpRecord
from tapeviz.engine.tensor import Tensor


def program(x: Any) -> Any:
    """Binary and unary ops on scalars, Python numbers on either side, fan-out and a relu."""
    y = x * 1.5 + 0.25
    z = tv.relu(y) ** 2.0 - 2 * x
    return tv.sin(z) * y + tv.exp(-x) / (3.0 - x)


def shape_of(records: list[OpRecord]) -> list[tuple[Any, ...]]:
    """Records with tensor ids renumbered by first appearance (ids differ between runs)."""
    seen: dict[int, int] = {}

    def ref(t: Tensor) -> tuple[Any, ...]:
        assert type(t) is Tensor and t.name in (None, "Variable:0")
        v = t._value
        return (seen.setdefault(t.id, len(seen)), t.dtype, type(v), np.asarray(v).tobytes())

    return [
        (r.id, r.primitive, tuple(map(ref, r.inputs)), tuple(map(ref, r.outputs)),
         dict(r.params), r.watched, r.scope)
        for r in records
    ]  # fmt: skip


def test_one_tape_records_like_record_does_for_several_tapes() -> None:
    x = tv.Variable(0.75)
    with tv.GradientTape() as alone:  # one active tape: the elementwise ops record inline
        program(x)
    with tv.GradientTape() as outer, tv.GradientTape() as inner:  # two: core.record()
        program(x)
    assert len(core.STATE.active) == 0
    assert shape_of(alone.records) == shape_of(outer.records) == shape_of(inner.records)
    assert all(type(r) is OpRecord for r in alone.records)
    assert all(r.watched for r in alone.records)  # every op reads x or an op of x


def test_unwatched_inputs_are_recorded_unwatched_inline() -> None:
    c = tv.constant(2.0)
    x = tv.Variable(1.0)
    with tv.GradientTape() as tape:
        a = c * 3.0  # no watched input
        b = tv.tanh(a)
        y = b * x
    assert [r.watched for r in tape.records] == [False, False, True]
    assert a.id not in tape._tracked and y.id in tape._tracked
    assert float(tape.gradient(y, x)) == float(np.tanh(np.float32(6.0)))


def test_tensor_ids_are_fresh_and_ordered() -> None:
    x = tv.constant(1.0)
    y = x + 2.0  # the constant 2.0 gets an id before the result
    z = tv.sqrt(y)
    ids = [x.id, y.id, z.id]
    assert ids == sorted(ids) and len(set(ids)) == 3
    assert y.name is None and z.name is None


def test_single_source_gradient_is_the_list_gradient() -> None:
    def run(as_list: bool) -> tuple[Any, Any]:
        x = tv.Variable(1.25)
        with tv.GradientTape() as tape:
            y = program(x)
        g = tape.gradient(y, [x] if as_list else x)
        (call,) = tape.gradient_calls
        return (g[0] if as_list else g), (call.kind, len(call.target_ids), len(call.source_ids))

    (g1, c1), (g2, c2) = run(False), run(True)
    assert type(g1) is Tensor and g1.dtype is g2.dtype
    assert g1.numpy().tobytes() == g2.numpy().tobytes() and c1 == c2 == ("gradient", 1, 1)


def test_gradient_call_records_ids_and_results() -> None:
    x = tv.Variable(2.0)
    with tv.GradientTape() as tape:
        y = x * x
    g = tape.gradient(y, x)
    (call,) = tape.gradient_calls
    assert call.target_ids == (y.id,) and call.source_ids == (x.id,) and call.results == (g,)
    u = tv.Variable(1.0)  # not watched: None, and its call records a None result
    with tv.GradientTape() as tape2:
        y2 = x * 3.0
    assert tape2.gradient(y2, u) is None and tape2.gradient_calls[0].results == (None,)
    with tv.GradientTape() as tape3:
        y3 = x * 3.0
    z = tape3.gradient(y3, u, unconnected_gradients="zero")
    assert float(z) == 0.0 and tape3.gradient_calls[0].results == (z,)


def test_the_walk_reads_records_built_without_their_scope_field() -> None:
    from tapeviz.engine.backward import BackwardPass

    x = tv.Variable(1.5)
    with tv.GradientTape(persistent=True) as tape:
        y = program(x)
    short = [tuple.__new__(OpRecord, tuple(r)[:6]) for r in tape.records]  # as the sandbox's
    seeds = {y.id: np.float32(1.0)}
    fast = BackwardPass(short, seeds, [x.id], reach=tape._tracked).run()
    stepped = BackwardPass(tape.records, seeds, [x.id])
    list(stepped)
    assert fast[x.id].tobytes() == stepped.adjoints[x.id].tobytes()
    assert tape.gradient(y, x).numpy().tobytes() == fast[x.id].tobytes()
