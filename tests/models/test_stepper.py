"""The backward stepper: the same steps as tape.gradient(), exact state after every step."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapeviz as tv
from tapeviz.models.backward.stepper import BackwardStepper, ForwardStepper, Namer
from tapeviz.models.graph.model import GraphModel
from tapeviz.sandbox import run

SEEDS = Path(__file__).resolve().parents[2] / "assets" / "seeds"
CELLS = {c["name"]: c for c in json.loads((SEEDS / "seeds.json").read_text("utf-8"))["cells"]}


def stepper_for(name: str, tape_index: int = -1) -> tuple[BackwardStepper, dict]:
    chain = [*CELLS[name]["after"], name]
    result = run("\n".join((SEEDS / CELLS[n]["file"]).read_text("utf-8") for n in chain))
    tape = result.tapes[tape_index].tape
    call = tape.gradient_calls[-1]
    names = {v.id: k for k, v in result.namespace.items() if isinstance(v, tv.Tensor | tv.Variable)}
    stepper = BackwardStepper(tape.records, call.target_ids, call.source_ids, names)
    return stepper, {**result.namespace, "__call__": call}


def adjoint(s: BackwardStepper, ns: dict, name: str, k: int | None = None) -> float | None:
    value = s.adjoints_at(k).get(ns[name].id)
    return None if value is None else float(value)


def test_x_times_x_shows_the_two_contributions_being_added() -> None:
    s, ns = stepper_for("000_2_1_constant_watch")
    assert len(s) == 1
    assert adjoint(s, ns, "x", 0) is None and adjoint(s, ns, "y", 0) == 1.0
    s.step_forward()
    info = s.current
    assert info is not None and info.formula == "y = x · x"
    first, second = info.contributions
    assert (float(first.value), first.before, float(first.after)) == (3.0, None, 3.0)
    assert (float(second.before), float(second.after)) == (3.0, 6.0)
    assert second.text.endswith("x.grad = 3 + 3 = 6")
    assert adjoint(s, ns, "x") == 6.0


def test_quadratic_with_watched_constants_every_intermediate_adjoint() -> None:
    s, ns = stepper_for("003_1_2_watched_constants")
    assert [i.record.name for i in s.infos] == ["add", "add", "multiply", "multiply", "pow"]
    expected = [  # (x̄, ā, b̄, c̄) after each step, by hand: y = a·x² + b·x + c at x=0, a=1, b=-2
        (None, None, None, None),
        (None, None, None, 1.0),
        (None, None, None, 1.0),
        (-2.0, None, 0.0, 1.0),  # b·x: b̄ = x = 0, x̄ = b = -2
        (-2.0, 0.0, 0.0, 1.0),  # a·x²: ā = x² = 0
        (-2.0, 0.0, 0.0, 1.0),  # x²: x̄ += 2x = 0
    ]
    for k, row in enumerate(expected):
        assert tuple(adjoint(s, ns, n, k) for n in "xabc") == row, k
    assert "∂v1/∂x = 2·x = 0" in s.infos[4].contributions[0].text


def test_x_cubed_nested_tapes_inner_then_outer() -> None:
    inner, ns = stepper_for("000_2_2_3_higher_order", tape_index=1)
    inner.run_to_end()
    assert adjoint(inner, ns, "x") == 27.0
    outer, ns = stepper_for("000_2_2_3_higher_order", tape_index=0)
    # only the gradient's own ops lie on a path from x to g = 3·x²: g = c·v, v = x^(3-1)
    assert [i.record.name for i in outer.infos] == ["multiply", "pow"]
    outer.run_to_end()
    assert adjoint(outer, ns, "x") == 18.0


def test_control_flow_accumulates_three_contributions() -> None:
    s, ns = stepper_for("000_2_2_6_control_flow")
    values = []
    while s.step_forward():
        values.append(adjoint(s, ns, "x"))
    assert values == [4.0, 8.0, 12.0]


def test_stepping_back_restores_the_exact_prior_state() -> None:
    s, _ = stepper_for("003_1_2_watched_constants")
    states = [s.adjoints_at(k) for k in range(len(s) + 1)]
    s.run_to_end()
    for k in range(len(s), -1, -1):
        assert s.position == k
        now = s.adjoints_at()
        assert now.keys() == states[k].keys()
        assert all(np.array_equal(now[i], states[k][i]) for i in now)
        s.step_back()
    assert s.step_back() is False and s.position == 0


def test_cursor_moves_and_events() -> None:
    s, _ = stepper_for("003_1_2_watched_constants")
    seen: list[int] = []
    s.step_changed.connect(seen.append)
    s.step_forward()
    s.jump(4)
    s.jump(99)
    s.reset()
    s.run_to_end()
    assert seen == [1, 4, 5, 0, 5] and s.done and s.upcoming is None


@pytest.mark.parametrize(
    "name",
    [
        "000_2_1_constant_watch",
        "000_2_2_4_persistent",
        "003_1_2_watched_constants",
        "000_2_2_6_control_flow",
    ],
)
def test_stepped_gradient_equals_tape_gradient_on_seeds(name: str) -> None:
    s, ns = stepper_for(name)
    s.run_to_end()
    call = ns["__call__"]
    assert any(g is not None for g in call.results)
    for sid, g in zip(call.source_ids, call.results, strict=True):
        if g is not None:
            assert np.array_equal(s.adjoints_at()[sid], g.numpy())


UNARY = [tv.sin, tv.cos, tv.tanh, tv.exp, tv.sigmoid, tv.square]


@settings(max_examples=60, deadline=None)
@given(
    ops=st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=12
    ),
    start=st.floats(-1.5, 1.5),
)
def test_stepped_gradient_equals_tape_gradient_on_random_expressions(
    ops: list, start: float
) -> None:
    x, w = tv.Variable(np.float64(start)), tv.Variable(np.float64(0.7))
    values = [x, w]
    with tv.GradientTape(persistent=True) as tape:
        for unary, binary, pick in ops:
            a = UNARY[unary](values[-1])
            b = values[-1 - pick % len(values)]
            values.append([a + b, a * b, a - b, a * 0.5 + b][binary])
        y = values[-1]
    grads = tape.gradient(y, [x, w])
    s = BackwardStepper(tape.records, [y.id], [x.id, w.id])
    s.run_to_end()
    for src, g in zip([x, w], grads, strict=True):
        stepped = s.adjoints_at().get(src.id)
        assert (g is None) == (stepped is None)
        if g is not None:
            assert np.array_equal(stepped, g.numpy(), equal_nan=True)


def test_forward_stepper_and_names() -> None:
    x = tv.Variable(2.0, name="x")
    with tv.GradientTape() as tape:
        y = x * 3.0
        z = tv.sin(y)
    f = ForwardStepper(tape.records)
    assert f.position == 2
    f.jump(1)
    assert f.computed() == {0}
    namer = Namer(tape.records, {z.id: "z"})
    # one minus sign (U+2212), as the formulas write it
    assert f.text(1, namer) == "v1 = x · 3 = 6" and f.text(2, namer) == "z = sin v1 = −0.2794"
    assert GraphModel([tape]).nodes["o1"].value == z.numpy()
