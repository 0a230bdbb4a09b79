"""Tensor.register_hook: torch's documented behaviour, and the stepper walking the same pass."""

from __future__ import annotations

import numpy as np
import pytest

import tapeviz.torch as torch
from tapeviz.engine.backward import BackwardPass, replayed
from tapeviz.models.backward.stepper import BackwardStepper
from tapeviz.sandbox import run
from tapeviz.sandbox.process import results_decode


def test_the_documented_leaf_example() -> None:
    v = torch.tensor([0.0, 0.0, 0.0], requires_grad=True)
    h = v.register_hook(lambda grad: grad * 2)  # double the gradient
    v.backward(torch.tensor([1.0, 2.0, 3.0]))
    assert v.grad.tolist() == [2.0, 4.0, 6.0]
    h.remove()
    v.grad = None
    v.backward(torch.tensor([1.0, 2.0, 3.0]))
    assert v.grad.tolist() == [1.0, 2.0, 3.0]


def test_a_hook_on_an_inner_tensor_changes_what_flows_upstream() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    seen = []
    y.register_hook(lambda g: seen.append(g.tolist()))  # None: an observer
    y.register_hook(lambda g: g * 10)  # then this one, in registration order
    (y * y).sum().backward()
    assert seen == [[6.0, 12.0]]
    assert x.grad.tolist() == [180.0, 360.0]  # 3 · 10 · 2y


def test_a_retained_gradient_is_the_hooked_one() -> None:
    x = torch.tensor([1.0, -1.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.register_hook(lambda g: g.clamp(min=0))
    (y * torch.tensor([3.0, -4.0])).sum().backward()
    assert y.grad.tolist() == [3.0, 0.0] and x.grad.tolist() == [6.0, 0.0]


def test_hooks_with_create_graph_are_recorded_for_the_second_derivative() -> None:
    x = torch.tensor(2.0, requires_grad=True)
    y = x**3
    y.register_hook(lambda g: g * 2)
    (gx,) = torch.autograd.grad(y, x, create_graph=True)
    assert gx.item() == 24.0  # 2 · 3x²
    (ggx,) = torch.autograd.grad(gx, x)
    assert ggx.item() == 24.0  # 2 · 6x


def test_bad_hooks_and_tensors_say_so() -> None:
    with pytest.raises(RuntimeError, match="doesn't require gradient"):
        torch.ones(2).register_hook(lambda g: g)
    x = torch.ones(2, requires_grad=True)
    x.register_hook(lambda g: 3)
    with pytest.raises(TypeError, match="must return a Tensor or None, got int"):
        (x * 2).sum().backward()
    y = torch.ones(2, requires_grad=True)
    y.register_hook(lambda g: torch.ones(3))
    with pytest.raises(RuntimeError, match=r"shape \[3\] for a tensor of shape \[2\]"):
        (y * 2).sum().backward()


def test_the_engine_walk_applies_hooks_to_complete_adjoints_once() -> None:
    import tapeviz as tv

    x = tv.Variable([1.0, 2.0])
    with tv.GradientTape() as tape:
        y = x * 3.0
        z = tv.reduce_sum(y * y)
    calls: list[list[float]] = []

    def hook(g: object) -> object:
        calls.append(np.asarray(g).tolist())
        return np.asarray(g) * 10

    bp = BackwardPass(tape.records, {z.id: np.float32(1)}, [x.id], hooks={y.id: hook})
    assert bp.run()[x.id].tolist() == [180.0, 360.0] and calls == [[6.0, 12.0]]
    again = BackwardPass(tape.records, {z.id: np.float32(1)}, [x.id],
                         hooks=replayed({y.id: np.array([60.0, 120.0], np.float32)}))  # fmt: skip
    steps = list(again)
    assert again.adjoints[x.id].tolist() == [180.0, 360.0]
    assert np.asarray(steps[-1].output_grad).tolist() == [60.0, 120.0]  # what the step shows
    assert replayed({}) is None and replayed(None) is None


SCRIPT = """import torch
w = torch.tensor([1.0, -2.0], requires_grad=True)
h = w * w
h.register_hook(lambda g: g * 0.5)
loss = (h * torch.tensor([4.0, 1.0])).sum()
loss.backward()
print(w.grad)
"""


_received = results_decode.round_trip  # the run as the window gets it


def test_the_window_steps_the_hooked_pass_with_the_workers_numbers() -> None:
    live = run(SCRIPT)
    assert live.error is None and live.output == "tensor([ 4., -2.])\n"  # 0.5 · 4 · 2w
    got = _received(live)
    tape, there = live.tapes[0].tape, got.tapes[0].tape
    assert list(tape.hooked) == list(there.hooked)  # type: ignore[attr-defined]
    for k, v in tape.hooked.items():  # type: ignore[attr-defined]
        assert np.array_equal(there.hooked[k], v)  # type: ignore[attr-defined]
    call = there.gradient_calls[0]
    stepper = BackwardStepper(
        there.records,
        call.target_ids,
        call.source_ids,
        hooked=there.hooked,  # type: ignore[attr-defined]
    )
    stepper.run_to_end()
    wid = call.source_ids[0]
    assert np.asarray(stepper.final[wid]).tolist() == [4.0, -2.0]
    said = [info.formula for info in stepper.infos]
    assert sum("gradient hook made ḡ = (2,) [2, 0.5]" in f for f in said) == 1, said
    plain = BackwardStepper(there.records, call.target_ids, call.source_ids)
    assert np.asarray(plain.final[wid]).tolist() == [8.0, -4.0]  # without the hook's half
