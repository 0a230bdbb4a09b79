"""torch's warm-up, one-cycle and combining schedulers, from their documented sequences.

torch's docstrings list the rate after each ``scheduler.step()`` ("epoch k"); the tests read the
rate before each step, so a docstring's epoch k is this list's k + 1 where the docstring counts
steps (LinearLR, PolynomialLR). Where a schedule has a closed form, the chainable steps must
agree with it.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

import tapeviz.torch as torch
from tapeviz.sandbox import run
from tapeviz.torch.optim import lr_scheduler as L


def _opt(lr: float = 0.05, **kw: Any) -> Any:
    return torch.optim.SGD([torch.nn.Parameter(torch.tensor([1.0]))], lr=lr, **kw)


def _rates(s: Any, o: Any, n: int) -> list[float]:
    out = []
    for _ in range(n):
        out.append(o.param_groups[0]["lr"])
        o.step()
        s.step()
    return out


def test_constant_lr_as_documented() -> None:
    o = _opt()
    r = _rates(L.ConstantLR(o, factor=0.5, total_iters=40), o, 42)
    assert r[:40] == [0.025] * 40 and r[40:] == [0.05, 0.05]


def test_sequential_lr_as_documented() -> None:
    o = _opt()
    s1, s2 = L.ConstantLR(o, factor=0.1, total_iters=20), L.ExponentialLR(o, gamma=0.9)
    r = _rates(L.SequentialLR(o, schedulers=[s1, s2], milestones=[20]), o, 23)
    assert r[:20] == pytest.approx([0.005] * 20) and r[20:] == pytest.approx([0.05, 0.045, 0.0405])


def test_chained_scheduler_steps_each_on_the_last_ones_rate() -> None:
    o = _opt(1.0)
    s = L.ChainedScheduler([L.ConstantLR(o, factor=0.1, total_iters=2),
                            L.ExponentialLR(o, gamma=0.9)])  # fmt: skip
    assert _rates(s, o, 5) == pytest.approx([0.1, 0.09, 0.81, 0.729, 0.6561])
    assert s.get_last_lr() == pytest.approx([0.59049])


@pytest.mark.parametrize(
    ("make", "documented", "digits"),
    [
        (lambda o: L.LinearLR(o, start_factor=0.05, total_iters=40),
         [0.0025, 0.003687, 0.004875, 0.006062, 0.00725], 6e-6),
        (lambda o: L.PolynomialLR(o, total_iters=50, power=0.9),
         [0.05, 0.0490, 0.0481, 0.0472], 1e-4),  # (the docstring's four digits, truncated)
    ],
)  # fmt: skip
def test_linear_and_polynomial_as_documented_and_closed_forms(
    make: Any, documented: list[float], digits: float
) -> None:
    o = _opt()
    s = make(o)
    r = _rates(s, o, 60)
    assert r[: len(documented)] == pytest.approx(documented, abs=digits)
    assert r[-1] == pytest.approx(0.05 if isinstance(s, L.LinearLR) else 0.0, abs=1e-12)
    o2 = _opt()
    s2 = make(o2)
    for k in range(1, 60):  # step(epoch) takes the closed form: the same rates
        o2.step()
        with pytest.warns(UserWarning, match="epoch parameter"):
            s2.step(k)
        assert o2.param_groups[0]["lr"] == pytest.approx(r[k], rel=1e-9, abs=1e-15)


def test_one_cycle_goes_up_then_far_down_with_momentum_inversely() -> None:
    o = _opt(0.1, momentum=0.9)
    s = L.OneCycleLR(o, max_lr=1.0, total_steps=10)
    seen = []
    for k in range(10):
        g = o.param_groups[0]
        seen.append((g["lr"], g["momentum"]))
        o.step()
        if k < 9:
            s.step()
    assert seen[0] == pytest.approx((0.04, 0.95))  # max_lr / div_factor; max momentum
    assert seen[2] == pytest.approx((1.0, 0.85))  # the peak at pct_start · total − 1
    assert seen[-1] == pytest.approx((0.04 / 1e4, 0.95))  # the final floor
    lrs = [lr for lr, _ in seen]
    assert lrs[:3] == sorted(lrs[:3]) and lrs[2:] == sorted(lrs[2:], reverse=True)
    with pytest.raises(ValueError, match="Tried to step 11 times"):
        s.step()
        s.step()


def test_one_cycle_on_adam_cycles_beta1_and_checks_its_arguments() -> None:
    p = torch.nn.Parameter(torch.tensor([1.0]))
    o = torch.optim.Adam([p], lr=1e-3)
    L.OneCycleLR(o, max_lr=0.01, epochs=2, steps_per_epoch=5, three_phase=True)
    assert o.param_groups[0]["betas"][0] == pytest.approx(0.95)
    with pytest.raises(ValueError, match="either total_steps OR"):
        L.OneCycleLR(o, max_lr=0.01)
    with pytest.raises(ValueError, match="pct_start"):
        L.OneCycleLR(o, max_lr=0.01, total_steps=5, pct_start=1)


def test_warm_restarts_period_doubles_and_a_fraction_of_an_epoch_works() -> None:
    o = _opt()
    s = L.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2)
    r = _rates(s, o, 10)
    at = [(3, 0), (3, 1), (3, 2), (6, 0), (6, 1), (6, 2), (6, 3), (6, 4), (6, 5), (12, 0)]
    cos = [0.05 * (1 + math.cos(math.pi * t / n)) / 2 for n, t in at]
    assert r == pytest.approx(cos)
    s.step(1.5)  # (scheduler.step(epoch + i / iters) inside an epoch)
    assert o.param_groups[0]["lr"] == pytest.approx(0.05 * (1 + math.cos(math.pi * 0.5)) / 2)
    with pytest.raises(ValueError, match="positive integer T_0"):
        L.CosineAnnealingWarmRestarts(o, T_0=0)


def test_checks_and_state() -> None:
    o, other = _opt(), _opt()
    with pytest.raises(ValueError, match="between 0 and 1"):
        L.ConstantLR(o, factor=2.0)
    with pytest.raises(ValueError, match="greater than 0"):
        L.LinearLR(o, start_factor=0)
    with pytest.raises(ValueError, match="same optimizer"):
        L.SequentialLR(o, [L.ConstantLR(o), L.ExponentialLR(other, 0.9)], milestones=[2])
    with pytest.raises(ValueError, match="one more than the number of milestone"):
        L.SequentialLR(o, [L.ConstantLR(o)], milestones=[2])
    with pytest.raises(ValueError, match="does not support `ReduceLROnPlateau`"):
        L.ChainedScheduler([L.ReduceLROnPlateau(o)])
    o = _opt()
    seq = L.SequentialLR(o, [L.LinearLR(o, total_iters=3), L.ExponentialLR(o, 0.5)], [3])
    _rates(seq, o, 4)
    state = seq.state_dict()
    assert len(state["_schedulers"]) == 2 and "optimizer" not in state


def test_a_course_warm_up_then_cosine_runs_in_a_script() -> None:
    r = run(
        "import torch\nfrom torch.optim.lr_scheduler import LinearLR, CosineAnnealingLR, "
        "SequentialLR, OneCycleLR, MultiplicativeLR\n"
        "w = torch.nn.Parameter(torch.tensor([3.0]))\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "warm = LinearLR(opt, start_factor=0.1, total_iters=2)\n"
        "cos = CosineAnnealingLR(opt, T_max=3)\n"
        "sched = SequentialLR(opt, schedulers=[warm, cos], milestones=[2])\n"
        "for epoch in range(5):\n    loss = (w * w).sum()\n    opt.zero_grad()\n"
        "    loss.backward()\n    opt.step()\n    sched.step()\n"
        "    print(epoch, round(sched.get_last_lr()[0], 6))\n"
        "m = MultiplicativeLR(torch.optim.SGD([w], lr=1.0), lr_lambda=lambda e: 0.5)\n"
    )
    assert r.error is None, r.error
    assert r.output == "0 0.055\n1 0.1\n2 0.075\n3 0.025\n4 0.0\n"
    assert len(r.tapes) == 5


def test_a_state_dict_restores_rates_and_adds_nothing() -> None:
    o = _opt()
    s = L.StepLR(o, step_size=2, gamma=0.5)
    _rates(s, o, 3)
    saved = s.state_dict()
    o2 = _opt()
    s2 = L.StepLR(o2, step_size=2, gamma=0.5)
    s2.load_state_dict(saved)
    assert (s2.last_epoch, s2.get_last_lr()) == (s.last_epoch, s.get_last_lr())
    with pytest.raises(KeyError, match="unexpected key '_get_closed_form_lr'"):
        s2.load_state_dict({"_get_closed_form_lr": print})
    assert s2.optimizer is o2
    s2.load_state_dict({"optimizer": _opt()})  # (never replaced, as torch saves it apart)
    assert s2.optimizer is o2
    lam = L.LambdaLR(o2, lr_lambda=lambda e: 0.5)
    lam.load_state_dict(lam.state_dict())  # the lambdas stay functions
    assert callable(lam.lr_lambdas[0])
    p = L.ReduceLROnPlateau(o2)
    with pytest.raises(KeyError):
        p.load_state_dict({"eps_": 1})
