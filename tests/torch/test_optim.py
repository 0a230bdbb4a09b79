"""torch.optim: each optimizer against a numpy implementation of torch's documented algorithm,
torch's defaults, messages and state; parameters updated in place (one engine id).
"""

from __future__ import annotations

import copy
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import tapeviz.torch as torch
import tapeviz.torch.nn as nn
import tapeviz.torch.optim as optim
from tapeviz.torch.optim import lr_scheduler

A = np.array([1.0, 3.0, 0.5])
C = np.array([2.0, -1.0, 0.25])
START = np.array([0.5, 0.5, -1.0])


def _grad(w: np.ndarray) -> np.ndarray:
    return 2 * A * (w - C)  # of sum(A * (w - C)**2)


def _run(
    make: Callable[[list[torch.Tensor]], optim.Optimizer], steps: int, dtype: Any = torch.float64
) -> np.ndarray:
    w = torch.tensor(START, dtype=dtype, requires_grad=True)
    opt = make([w])
    for _ in range(steps):
        opt.zero_grad()
        (torch.tensor(A, dtype=dtype) * (w - torch.tensor(C, dtype=dtype)) ** 2).sum().backward()
        opt.step()
    return w.detach().numpy()


# -- numpy references, from the algorithms in torch's docs -----------------------------------------


def _sgd(
    lr: float,
    momentum: float = 0,
    dampening: float = 0,
    wd: float = 0,
    nesterov: bool = False,
    maximize: bool = False,
    steps: int = 5,
) -> np.ndarray:
    w, b = START.copy(), None
    for _ in range(steps):
        g = -_grad(w) if maximize else _grad(w)
        g = g + wd * w
        if momentum:
            b = g.copy() if b is None else momentum * b + (1 - dampening) * g
            g = g + momentum * b if nesterov else b
        w = w - lr * g
    return w


def _adam(
    lr: float,
    betas: tuple[float, float] = (0.9, 0.999),
    eps: float = 1e-8,
    wd: float = 0,
    amsgrad: bool = False,
    decoupled: bool = False,
    steps: int = 3,
) -> np.ndarray:
    w, m, v, vmax = START.copy(), np.zeros(3), np.zeros(3), np.zeros(3)
    for t in range(1, steps + 1):
        g = _grad(w)
        if decoupled:
            w = w * (1 - lr * wd)
        else:
            g = g + wd * w
        m = betas[0] * m + (1 - betas[0]) * g
        v = betas[1] * v + (1 - betas[1]) * g * g
        vmax = np.maximum(vmax, v)
        m_hat = m / (1 - betas[0] ** t)
        v_hat = (vmax if amsgrad else v) / (1 - betas[1] ** t)
        w = w - lr * m_hat / (np.sqrt(v_hat) + eps)
    return w


def _rmsprop(
    lr: float,
    alpha: float = 0.99,
    eps: float = 1e-8,
    momentum: float = 0,
    centered: bool = False,
    wd: float = 0,
    steps: int = 4,
) -> np.ndarray:
    w, v, b, gav = START.copy(), np.zeros(3), np.zeros(3), np.zeros(3)
    for _ in range(steps):
        g = _grad(w) + wd * w
        v = alpha * v + (1 - alpha) * g * g
        vt = v
        if centered:
            gav = alpha * gav + (1 - alpha) * g
            vt = v - gav**2
        if momentum > 0:
            b = momentum * b + g / (np.sqrt(vt) + eps)
            w = w - lr * b
        else:
            w = w - lr * g / (np.sqrt(vt) + eps)
    return w


def _adagrad(
    lr: float,
    lr_decay: float = 0,
    wd: float = 0,
    init: float = 0,
    eps: float = 1e-10,
    steps: int = 4,
) -> np.ndarray:
    w, s = START.copy(), np.full(3, init)
    for t in range(1, steps + 1):
        clr = lr / (1 + (t - 1) * lr_decay)
        g = _grad(w) + wd * w
        s = s + g * g
        w = w - clr * g / (np.sqrt(s) + eps)
    return w


def _adadelta(
    lr: float = 1.0, rho: float = 0.9, eps: float = 1e-6, wd: float = 0, steps: int = 4
) -> np.ndarray:
    w, v, u = START.copy(), np.zeros(3), np.zeros(3)
    for _ in range(steps):
        g = _grad(w) + wd * w
        v = v * rho + g * g * (1 - rho)
        dx = np.sqrt(u + eps) / np.sqrt(v + eps) * g
        u = u * rho + dx * dx * (1 - rho)
        w = w - lr * dx
    return w


# -- the optimizers against the references ---------------------------------------------------------


@pytest.mark.parametrize(
    "kw",
    [{}, {"momentum": 0.9}, {"momentum": 0.9, "dampening": 0.3},
     {"momentum": 0.8, "nesterov": True}, {"weight_decay": 0.1},
     {"momentum": 0.5, "weight_decay": 0.01}, {"maximize": True}],
)  # fmt: skip
def test_sgd(kw: dict[str, Any]) -> None:
    got = _run(lambda p: optim.SGD(p, lr=0.05, **kw), 5)
    ref = {k.replace("weight_decay", "wd"): v for k, v in kw.items()}
    np.testing.assert_allclose(got, _sgd(0.05, **ref), rtol=1e-13)


def test_sgd_one_step_by_hand() -> None:
    w = nn.Parameter(torch.tensor([1.0, -2.0]))
    opt = optim.SGD([w], lr=0.1)
    (w**2).sum().backward()
    opt.step()
    np.testing.assert_allclose(w.detach().numpy(), [0.8, -1.6], rtol=1e-6)


@pytest.mark.parametrize(
    "kw", [{}, {"amsgrad": True}, {"weight_decay": 0.1}, {"betas": (0.8, 0.9), "eps": 1e-3}]
)
def test_adam(kw: dict[str, Any]) -> None:
    got = _run(lambda p: optim.Adam(p, lr=0.1, **kw), 3)
    ref = {k.replace("weight_decay", "wd"): v for k, v in kw.items()}
    np.testing.assert_allclose(got, _adam(0.1, **ref), rtol=1e-12)


def test_adam_float32_three_steps() -> None:
    got = _run(lambda p: optim.Adam(p, lr=0.1), 3, dtype=torch.float32)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, _adam(0.1), rtol=1e-6)


def test_adam_first_step_moves_each_weight_by_lr() -> None:
    got = _run(lambda p: optim.Adam(p, lr=0.01), 1)
    np.testing.assert_allclose(np.abs(got - START), 0.01, rtol=1e-5)


def test_adamw() -> None:
    got = _run(lambda p: optim.AdamW(p, lr=0.1), 3)
    np.testing.assert_allclose(got, _adam(0.1, wd=1e-2, decoupled=True), rtol=1e-12)
    got = _run(lambda p: optim.AdamW(p, lr=0.1, weight_decay=0.5, amsgrad=True), 3)
    np.testing.assert_allclose(got, _adam(0.1, wd=0.5, decoupled=True, amsgrad=True), rtol=1e-12)


@pytest.mark.parametrize(
    "kw", [{}, {"momentum": 0.9}, {"centered": True}, {"centered": True, "momentum": 0.5},
           {"weight_decay": 0.1, "alpha": 0.9}],
)  # fmt: skip
def test_rmsprop(kw: dict[str, Any]) -> None:
    got = _run(lambda p: optim.RMSprop(p, lr=0.01, **kw), 4)
    ref = {k.replace("weight_decay", "wd"): v for k, v in kw.items()}
    np.testing.assert_allclose(got, _rmsprop(0.01, **ref), rtol=1e-12)


@pytest.mark.parametrize(
    "kw", [{}, {"lr_decay": 0.1}, {"initial_accumulator_value": 0.5, "weight_decay": 0.1}]
)
def test_adagrad(kw: dict[str, Any]) -> None:
    got = _run(lambda p: optim.Adagrad(p, lr=0.1, **kw), 4)
    ref = {
        k.replace("weight_decay", "wd").replace("initial_accumulator_value", "init"): v
        for k, v in kw.items()
    }
    np.testing.assert_allclose(got, _adagrad(0.1, **ref), rtol=1e-12)


@pytest.mark.parametrize("kw", [{}, {"lr": 0.5, "rho": 0.8}, {"weight_decay": 0.1}])
def test_adadelta(kw: dict[str, Any]) -> None:
    got = _run(lambda p: optim.Adadelta(p, **kw), 4)
    ref = {k.replace("weight_decay", "wd"): v for k, v in kw.items()}
    np.testing.assert_allclose(got, _adadelta(**ref), rtol=1e-12)


# -- optimizer mechanics ---------------------------------------------------------------------------


def test_step_updates_in_place_and_keeps_the_engine_id_and_name() -> None:
    model = nn.Linear(2, 1)
    params = list(model.parameters())
    ids = [p._t.id for p in params]
    opt = optim.Adam(model.parameters(), lr=0.1)
    for _ in range(3):
        opt.zero_grad()
        model(torch.randn(4, 2)).pow(2).mean().backward()
        opt.step()
    assert list(model.parameters()) == params
    assert [p._t.id for p in params] == ids
    assert [p._t.name for p in params] == ["weight", "bias"]
    assert all(p.is_leaf and p.requires_grad for p in params)
    assert opt.state[params[0]]["step"].item() == 3.0


def test_param_groups_defaults_and_repr() -> None:
    w = nn.Parameter(torch.zeros(1))
    opt = optim.SGD([w], lr=0.1)
    assert list(opt.param_groups[0]) == [
        "params", "lr", "momentum", "dampening", "weight_decay", "nesterov", "maximize",
        "foreach", "differentiable", "fused",
    ]  # fmt: skip
    assert repr(opt) == (
        "SGD (\nParameter Group 0\n    dampening: 0\n    differentiable: False\n"
        "    foreach: None\n    fused: None\n    lr: 0.1\n    maximize: False\n"
        "    momentum: 0\n    nesterov: False\n    weight_decay: 0\n)"
    )
    adam = optim.Adam([w])
    assert [k for k in adam.param_groups[0] if k != "params"] == [
        "lr", "betas", "eps", "weight_decay", "amsgrad", "maximize", "foreach", "capturable",
        "differentiable", "fused",
    ]  # fmt: skip


def test_per_group_learning_rates() -> None:
    a, b = nn.Parameter(torch.tensor([1.0])), nn.Parameter(torch.tensor([1.0]))
    opt = optim.SGD([{"params": [a]}, {"params": [b], "lr": 1.0}], lr=0.1)
    (a + b).sum().backward()
    opt.step()
    assert a.item() == pytest.approx(0.9) and b.item() == pytest.approx(0.0)
    c = nn.Parameter(torch.tensor([1.0]))
    opt.add_param_group({"params": c, "momentum": 0.9})
    assert opt.param_groups[2]["lr"] == 0.1 and opt.param_groups[2]["momentum"] == 0.9
    with pytest.raises(ValueError, match="some parameters appear in more than one parameter group"):
        opt.add_param_group({"params": [a]})


def test_zero_grad_and_skipping_params_without_grad() -> None:
    a, b = nn.Parameter(torch.tensor([1.0])), nn.Parameter(torch.tensor([1.0]))
    opt = optim.SGD([a, b], lr=0.1)
    (a * 2).sum().backward()
    opt.step()
    assert b.item() == 1.0 and a.item() == pytest.approx(0.8)
    opt.zero_grad(set_to_none=False)
    assert a.grad.item() == 0.0
    opt.zero_grad()
    assert a.grad is None


def test_optimizer_messages() -> None:
    w = torch.zeros(2, requires_grad=True)
    with pytest.raises(
        TypeError,
        match=r"params argument given to the optimizer should be an "
        r"iterable of Tensors or dicts, but got torch\.FloatTensor",
    ):
        optim.SGD(w, lr=0.1)
    with pytest.raises(ValueError, match="can't optimize a non-leaf Tensor"):
        optim.SGD([w * 2], lr=0.1)
    with pytest.raises(ValueError, match="optimizer got an empty parameter list"):
        optim.Adam([])
    with pytest.raises(ValueError, match=r"Invalid learning rate: -0\.1"):
        optim.SGD([w], lr=-0.1)
    with pytest.raises(ValueError, match=r"Invalid beta parameter at index 1: 1\.0"):
        optim.Adam([w], betas=(0.9, 1.0))
    with pytest.raises(
        ValueError, match="Nesterov momentum requires a momentum and zero dampening"
    ):
        optim.SGD([w], lr=0.1, nesterov=True)
    with pytest.raises(TypeError, match="'Linear' object is not iterable"):
        optim.SGD(nn.Linear(1, 1), lr=0.1)


def test_closure_returns_the_loss() -> None:
    w = nn.Parameter(torch.tensor([2.0]))
    opt = optim.SGD([w], lr=0.25)

    def closure() -> torch.Tensor:
        opt.zero_grad()
        loss = (w**2).sum()
        loss.backward()
        return loss

    assert opt.step(closure).item() == 4.0
    assert w.item() == pytest.approx(1.0)


def test_state_dict_round_trip_continues_identically() -> None:
    def setup() -> tuple[nn.Parameter, optim.Optimizer]:
        w = nn.Parameter(torch.tensor(START.copy()))
        return w, optim.Adam([w], lr=0.1)

    def step(w: nn.Parameter, opt: optim.Optimizer) -> None:
        opt.zero_grad()
        (torch.tensor(A) * (w - torch.tensor(C)) ** 2).sum().backward()
        opt.step()

    w1, o1 = setup()
    step(w1, o1)
    sd = o1.state_dict()
    assert sd["param_groups"][0]["params"] == [0] and list(sd["state"][0]) == [
        "step", "exp_avg", "exp_avg_sq",
    ]  # fmt: skip
    w2, o2 = setup()
    with torch.no_grad():
        w2.copy_(w1)
    o2.load_state_dict(copy.deepcopy(sd))  # torch 2 shares the loaded tensors: copy them
    step(w1, o1)
    step(w2, o2)
    np.testing.assert_allclose(w2.detach().numpy(), w1.detach().numpy(), rtol=1e-15)


# -- learning-rate schedulers ----------------------------------------------------------------------


def _lrs(make: Callable[[optim.Optimizer], Any], epochs: int, lr: float = 0.1) -> list[float]:
    opt = optim.SGD([nn.Parameter(torch.zeros(1))], lr=lr)
    sched = make(opt)
    out = []
    for _ in range(epochs):
        out.append(sched.get_last_lr()[0])
        opt.step()
        sched.step()
    return out


def test_step_and_multistep_lr() -> None:
    got = _lrs(lambda o: lr_scheduler.StepLR(o, step_size=2, gamma=0.1), 6)
    np.testing.assert_allclose(got, [0.1, 0.1, 0.01, 0.01, 0.001, 0.001])
    got = _lrs(lambda o: lr_scheduler.MultiStepLR(o, milestones=[1, 3], gamma=0.5), 5)
    np.testing.assert_allclose(got, [0.1, 0.05, 0.05, 0.025, 0.025])


def test_exponential_and_lambda_lr() -> None:
    got = _lrs(lambda o: lr_scheduler.ExponentialLR(o, gamma=0.5), 4)
    np.testing.assert_allclose(got, [0.1, 0.05, 0.025, 0.0125])
    got = _lrs(lambda o: lr_scheduler.LambdaLR(o, lambda epoch: 1 / (epoch + 1)), 3)
    np.testing.assert_allclose(got, [0.1, 0.05, 0.1 / 3])


def test_cosine_annealing_lr() -> None:
    got = _lrs(lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=4, eta_min=0.01), 6)
    closed = [0.01 + 0.09 * (1 + math.cos(math.pi * t / 4)) / 2 for t in range(5)]
    np.testing.assert_allclose(got[:5], closed, rtol=1e-12)
    assert got[5] == pytest.approx(0.01 + 0.09 * (1 - math.cos(math.pi / 4)) / 2)


def test_scheduler_sets_initial_lr_and_warns_when_stepped_first() -> None:
    opt = optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1)
    sched = lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    assert opt.param_groups[0]["initial_lr"] == 0.1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sched.step()
    assert "Detected call of `lr_scheduler.step()` before `optimizer.step()`" in str(
        caught[0].message
    )
    assert opt.param_groups[0]["lr"] == 0.05


def _plateau_lrs(metrics: list[float], **kw: Any) -> list[float]:
    opt = optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1)
    sched = lr_scheduler.ReduceLROnPlateau(opt, **kw)
    out = []
    for m in metrics:
        sched.step(m)
        out.append(opt.param_groups[0]["lr"])
    assert sched.get_last_lr() == [out[-1]]
    return out


def test_reduce_on_plateau_follows_torchs_patience_cooldown_and_floor() -> None:
    flat = [1.0] * 6
    got = _plateau_lrs(flat, factor=0.5, patience=1)
    assert got == pytest.approx([0.1, 0.1, 0.05, 0.05, 0.025, 0.025])
    got = _plateau_lrs(flat, factor=0.5, patience=1, cooldown=2)
    assert got == pytest.approx([0.1, 0.1, 0.05, 0.05, 0.05, 0.05])  # 2 epochs counted as good
    got = _plateau_lrs([1.0, 0.5, 0.25, 0.2, 0.2, 0.2], factor=0.1, patience=0, min_lr=0.02)
    assert got == pytest.approx([0.1, 0.1, 0.1, 0.1, 0.02, 0.02])  # never below min_lr
    got = _plateau_lrs([0.5, 0.50001, 0.6], mode="max", threshold=0.01, threshold_mode="abs",
                       patience=0, factor=0.5)  # fmt: skip
    assert got == pytest.approx([0.1, 0.05, 0.05])  # +0.00001 is not better by 0.01; +0.1 is
    assert _plateau_lrs([torch.tensor(1.0)] * 3, patience=1)[-1] == pytest.approx(0.01)


def test_reduce_on_plateau_refuses_what_torch_refuses() -> None:
    opt = optim.SGD([nn.Parameter(torch.zeros(1))], lr=0.1)
    with pytest.raises(ValueError, match=r"Factor should be < 1\.0\."):
        lr_scheduler.ReduceLROnPlateau(opt, factor=1.0)
    with pytest.raises(ValueError, match="mode up is unknown!"):
        lr_scheduler.ReduceLROnPlateau(opt, mode="up")
    with pytest.raises(ValueError, match="expected 1 min_lrs, got 2"):
        lr_scheduler.ReduceLROnPlateau(opt, min_lr=[0.0, 0.1])
