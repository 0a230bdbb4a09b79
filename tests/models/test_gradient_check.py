"""Gradient check by replaying records: finite differences agree with the tape."""

from __future__ import annotations

import numpy as np

import tapeviz as tv
from tapeviz.models.backward.gradient_check import check, error_curve, relative_error, replay


def tape_of(x: tv.Variable, w: tv.Variable) -> tuple[tv.GradientTape, tv.Tensor]:
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(tv.sin(x * w)) + x**3
    return tape, y


def test_replay_reproduces_the_recorded_values() -> None:
    x, w = tv.Variable(0.5), tv.Variable([1.0, 2.0, -1.0])
    tape, y = tape_of(x, w)
    values = replay(tape.records, {})
    assert abs(values[y.id] - float(y)) < 1e-6
    moved = replay(tape.records, {x.id: 1.0})
    assert abs(moved[y.id] - (np.sum(np.sin([1.0, 2.0, -1.0])) + 1.0)) < 1e-12


def test_check_agrees_with_the_tape_for_scalar_and_vector_sources() -> None:
    x, w = tv.Variable(0.5), tv.Variable([1.0, 2.0, -1.0])
    tape, y = tape_of(x, w)
    gx, gw = tape.gradient(y, [x, w])
    rows = check(tape.records, y.id, {x.id: gx.numpy(), w.id: gw.numpy()}, {x.id: "x", w.id: "w"})
    assert [r.name for r in rows] == ["x", "w"]
    assert all(r.error < 1e-6 for r in rows)
    assert rows[1].estimate.shape == (3,)


def test_a_wrong_gradient_is_caught() -> None:
    x, w = tv.Variable(0.5), tv.Variable([1.0, 2.0, -1.0])
    tape, y = tape_of(x, w)
    (row,) = check(tape.records, y.id, {x.id: np.float32(1.0)}, {x.id: "x"})
    assert row.error > 0.1


def test_error_curve_has_the_truncation_slope() -> None:
    x = tv.Variable(np.float64(0.7))
    with tv.GradientTape() as tape:
        y = tv.exp(x) * tv.sin(x)
    g = tape.gradient(y, x).numpy()
    curve = dict(error_curve(tape.records, y.id, x.id, g, steps=(1e-1, 1e-2, 1e-3)))
    assert curve[1e-1] / curve[1e-2] > 50  # central differences: error ~ h²
    assert relative_error(g, g) == 0.0


def test_a_custom_gradient_replays_its_own_ops_and_never_calls_the_function() -> None:
    calls: list[int] = []

    @tv.custom_gradient
    def log1pexp(x: tv.Tensor) -> tuple[tv.Tensor, object]:
        calls.append(1)
        e = tv.exp(x)
        return tv.log(1 + e), lambda upstream: upstream * (1 - 1 / (1 + e))

    @tv.custom_gradient
    def clipped(x: tv.Tensor) -> tuple[tv.Tensor, object]:
        calls.append(1)
        return x, lambda dy: tv.clip_by_norm(dy, 0.5)

    x = tv.Variable(np.float64(0.5))
    with tv.GradientTape(persistent=True) as tape:
        y = log1pexp(x * 2.0)
        z = clipped(x * x)
    assert calls == [1, 1]
    (row,) = check(tape.records, y.id, {x.id: tape.gradient(y, x).numpy()}, {x.id: "x"})
    assert row.error < 1e-6  # the function's own ops give the value at x ± h
    (row,) = check(tape.records, z.id, {x.id: tape.gradient(z, x).numpy()}, {x.id: "x"})
    assert float(row.tape) == 0.5 and abs(float(row.estimate) - 1.0) < 1e-6  # clipped: 2x·0.5
    assert calls == [1, 1]  # replays never ran user code
