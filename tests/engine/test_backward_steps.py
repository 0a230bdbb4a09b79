"""The backward pass as steps: the same walk gradient() runs, one op at a time."""

from __future__ import annotations

import numpy as np

import tapeviz as tv
from tapeviz.engine.backward import backward_steps


def seed_for(y: tv.Tensor) -> dict[int, np.ndarray]:
    return {y.id: np.ones_like(y.numpy())}


def test_fan_out_shows_both_contributions_being_added() -> None:
    x = tv.constant(3.0)
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    (step,) = list(backward_steps(tape.records, seed_for(y), [x.id]))
    assert step.record.name == "multiply" and float(step.output_grad) == 1.0
    first, second = step.contributions
    assert (first.position, float(first.value), first.before, float(first.after)) == (
        0,
        3.0,
        None,
        3.0,
    )
    assert (second.position, float(second.value), float(second.before), float(second.after)) == (
        1, 3.0, 3.0, 6.0,
    )  # fmt: skip


def test_quadratic_with_watched_constants_every_adjoint() -> None:
    x = tv.Variable(0.0, name="x")
    a, b, c = tv.constant(1.0), tv.constant(-2.0), tv.constant(1.0)
    with tv.GradientTape() as tape:
        tape.watch([a, b, c])
        y = a * tv.pow(x, 2) + b * x + c
    sources = [x.id, a.id, b.id, c.id]
    steps = list(backward_steps(tape.records, seed_for(y), sources))
    names = [s.record.name for s in steps]
    assert names == ["add", "add", "multiply", "multiply", "pow"]
    # ȳ = 1 flows to both summands; c̄ = 1.
    assert [float(c.value) for c in steps[0].contributions] == [1.0, 1.0]
    # b·x: b̄ = ȳ·x = 0, x̄ = b·ȳ = −2
    bx = {c.tensor_id: float(c.value) for c in steps[2].contributions}
    assert bx == {b.id: 0.0, x.id: -2.0}
    # a·pow(x, 2): ā = pow(x,2) = 0, and pow's adjoint = a = 1
    apow = {c.position: float(c.value) for c in steps[3].contributions}
    assert apow == {0: 0.0, 1: 1.0}
    # pow(x, 2): x̄ += 1·2·x = 0, accumulated onto −2
    (px,) = steps[4].contributions
    assert (float(px.value), float(px.before), float(px.after)) == (0.0, -2.0, -2.0)
    grads = tape.gradient(y, [x, a, b, c])
    assert [float(g) for g in grads] == [-2.0, 0.0, 0.0, 1.0]


def test_steps_equal_gradient_on_a_larger_expression() -> None:
    x = tv.Variable([0.5, -1.0, 2.0])
    w = tv.Variable([[1.0, 2.0, 0.5]])
    with tv.GradientTape(persistent=True) as tape:
        h = tv.tanh(tv.matmul(w, tv.reshape(x, (3, 1))))
        y = tv.reduce_sum(h * h) + tv.reduce_mean(tv.exp(x) * x)
    bp = backward_steps(tape.records, seed_for(y), [x.id, w.id])
    steps = list(bp)
    assert len(steps) == len(bp.records)
    grads = tape.gradient(y, [x, w])
    np.testing.assert_array_equal(bp.adjoints[x.id], grads[0].numpy())
    np.testing.assert_array_equal(bp.adjoints[w.id], grads[1].numpy())


def test_only_ops_between_sources_and_target_are_stepped() -> None:
    x, z = tv.Variable(2.0), tv.Variable(5.0)
    with tv.GradientTape() as tape:
        unrelated = z * z
        y = x * 3.0
        _ = tv.floor(x)
    bp = backward_steps(tape.records, seed_for(y), [x.id])
    assert [r.name for r in bp.records] == ["multiply"]
    assert [s.record.output.id for s in bp] == [y.id]
    assert float(unrelated) == 25.0


def test_control_flow_steps_x_cubed() -> None:
    x = tv.constant(2.0)
    with tv.GradientTape() as tape:
        tape.watch(x)
        out = tv.constant(1.0)
        for i in range(6):
            if 1 < i < 5:
                out = tv.multiply(out, x)
    steps = list(backward_steps(tape.records, seed_for(out), [x.id]))
    assert len(steps) == 3
    after = [float(s.contributions[-1].after) for s in steps]
    assert after == [4.0, 8.0, 12.0]  # x̄ accumulates 4 + 4 + 4
