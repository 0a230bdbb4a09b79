"""The losses of torch.nn / nn.functional: values against numpy references written from torch's
documented formulas, torch's grad_fn names and messages, and gradients against finite
differences in float64.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np
import pytest

import tapeviz.torch as torch
import tapeviz.torch.nn as nn
import tapeviz.torch.nn.functional as F

RNG = np.random.default_rng(7)


def _t(a: np.ndarray, grad: bool = False) -> torch.Tensor:
    return torch.tensor(a, requires_grad=grad)


def _log_softmax(x: np.ndarray, axis: int = 1) -> np.ndarray:
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


def _numeric_grad(f: Callable[[np.ndarray], float], x: np.ndarray, h: float = 1e-6) -> np.ndarray:
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += h
        down[i] -= h
        g[i] = (f(up) - f(down)) / (2 * h)
    return g


def _check_grad(loss_fn: Callable[[torch.Tensor], torch.Tensor], x: np.ndarray) -> None:
    xt = _t(x, grad=True)
    loss_fn(xt).backward()
    numeric = _numeric_grad(lambda v: loss_fn(_t(v)).item(), x)
    np.testing.assert_allclose(xt.grad.numpy(), numeric, rtol=1e-5, atol=1e-7)


# -- regression losses -----------------------------------------------------------------------------


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_and_l1(reduction: str) -> None:
    a, b = RNG.normal(size=(3, 4)), RNG.normal(size=(3, 4))
    red = {"mean": np.mean, "sum": np.sum, "none": lambda v: v}[reduction]
    got = F.mse_loss(_t(a), _t(b), reduction=reduction).numpy()
    np.testing.assert_allclose(got, red((a - b) ** 2))
    got = nn.L1Loss(reduction=reduction)(_t(a), _t(b)).numpy()
    np.testing.assert_allclose(got, red(np.abs(a - b)))


def test_regression_grad_fns() -> None:
    a, b = torch.randn(3, requires_grad=True), torch.randn(3)
    assert F.mse_loss(a, b).grad_fn.name() == "MseLossBackward0"
    assert F.l1_loss(a, b).grad_fn.name() == "MeanBackward0"
    assert F.l1_loss(a, b, reduction="sum").grad_fn.name() == "SumBackward0"
    assert F.smooth_l1_loss(a, b).grad_fn.name() == "SmoothL1LossBackward0"
    assert F.huber_loss(a, b).grad_fn.name() == "HuberLossBackward0"


def test_mse_hand_computed() -> None:
    pred = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    loss = nn.MSELoss()(pred, torch.tensor([1.0, 1.0, 1.0]))
    assert loss.item() == pytest.approx(5.0 / 3.0)
    loss.backward()
    np.testing.assert_allclose(pred.grad.numpy(), [0.0, 2.0 / 3.0, 4.0 / 3.0], rtol=1e-6)


def test_mse_size_warning_text() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        F.mse_loss(torch.zeros(3, 1), torch.zeros(3))
    assert str(caught[0].message) == (
        "Using a target size (torch.Size([3])) that is different to the input size "
        "(torch.Size([3, 1])). This will likely lead to incorrect results due to broadcasting. "
        "Please ensure they have the same size."
    )
    assert caught[0].filename == __file__


def test_bad_reduction() -> None:
    with pytest.raises(ValueError, match="avg is not a valid value for reduction"):
        F.mse_loss(torch.zeros(2), torch.zeros(2), reduction="avg")


@pytest.mark.parametrize("beta", [1.0, 0.5])
def test_smooth_l1_and_huber(beta: float) -> None:
    a, b = RNG.normal(size=6) * 2, RNG.normal(size=6)
    z = np.abs(a - b)
    want = np.where(z < beta, 0.5 * z**2 / beta, z - 0.5 * beta).mean()
    assert F.smooth_l1_loss(_t(a), _t(b), beta=beta).item() == pytest.approx(want)
    want = np.where(z < beta, 0.5 * z**2, beta * (z - 0.5 * beta)).mean()
    assert nn.HuberLoss(delta=beta)(_t(a), _t(b)).item() == pytest.approx(want)


# -- classification losses -------------------------------------------------------------------------


def test_cross_entropy_matches_numpy_log_softmax() -> None:
    x, y = RNG.normal(size=(5, 4)), np.array([0, 3, 1, 1, 2])
    lp = _log_softmax(x)
    loss = nn.CrossEntropyLoss()(_t(x), torch.tensor(y))
    assert loss.item() == pytest.approx(-lp[np.arange(5), y].mean())
    per = F.cross_entropy(_t(x), torch.tensor(y), reduction="none").numpy()
    np.testing.assert_allclose(per, -lp[np.arange(5), y])
    total = F.cross_entropy(_t(x), torch.tensor(y), reduction="sum").item()
    assert total == pytest.approx(-lp[np.arange(5), y].sum())


def test_cross_entropy_hand_computed_and_grad_fns() -> None:
    logits = torch.tensor([[0.0, 0.0]], requires_grad=True)
    loss = F.cross_entropy(logits, torch.tensor([1]))
    assert loss.item() == pytest.approx(np.log(2.0))
    assert loss.grad_fn.name() == "NllLossBackward0"
    assert loss.grad_fn.next_functions[0][0].name() == "LogSoftmaxBackward0"
    loss.backward()
    np.testing.assert_allclose(logits.grad.numpy(), [[0.5, -0.5]])


def test_cross_entropy_weight_and_ignore_index() -> None:
    x, y = RNG.normal(size=(4, 3)), np.array([0, 2, -100, 1])
    w = np.array([1.0, 2.0, 0.5])
    lp = _log_softmax(x)
    keep = y != -100
    picked = lp[np.arange(4)[keep], y[keep]] * w[y[keep]]
    loss = F.cross_entropy(_t(x), torch.tensor(y), weight=_t(w))
    assert loss.item() == pytest.approx(-picked.sum() / w[y[keep]].sum())
    per = nn.CrossEntropyLoss(weight=_t(w), reduction="none")(_t(x), torch.tensor(y)).numpy()
    assert per[2] == 0.0


def test_cross_entropy_probability_targets_and_label_smoothing() -> None:
    x = RNG.normal(size=(3, 4))
    p = RNG.random(size=(3, 4))
    p /= p.sum(1, keepdims=True)
    lp = _log_softmax(x)
    loss = F.cross_entropy(_t(x, grad=True), _t(p))
    assert loss.item() == pytest.approx(-(lp * p).sum() / 3)
    assert loss.grad_fn.name() == "DivBackward0"
    y = np.array([1, 0, 3])
    eps = 0.1
    smooth = p * 0 + eps / 4
    smooth[np.arange(3), y] += 1 - eps
    got = F.cross_entropy(_t(x), torch.tensor(y), label_smoothing=eps).item()
    assert got == pytest.approx(-(lp * smooth).sum() / 3)


def test_cross_entropy_k_dimensional() -> None:
    x, y = RNG.normal(size=(2, 3, 4)), RNG.integers(0, 3, size=(2, 4))
    lp = _log_softmax(x, axis=1)
    want = -np.take_along_axis(lp, y[:, None, :], axis=1).mean()
    assert F.cross_entropy(_t(x), torch.tensor(y)).item() == pytest.approx(want)


def test_cross_entropy_messages() -> None:
    x = torch.randn(3, 4)
    with pytest.raises(
        ValueError,
        match=r"^Expected input batch_size \(3\) to match target "
        r"batch_size \(2\)\.$",
    ):
        nn.CrossEntropyLoss()(x, torch.tensor([1, 0]))
    with pytest.raises(RuntimeError, match=r"^expected scalar type Long but found Float$"):
        F.cross_entropy(x, torch.tensor([1.0, 0.0, 2.0]))
    with pytest.raises(IndexError, match=r"^Target 7 is out of bounds\.$"):
        F.cross_entropy(x, torch.tensor([1, 7, 0]))


def test_nll_loss() -> None:
    lp = _log_softmax(RNG.normal(size=(3, 5)))
    y = np.array([4, 0, 2])
    assert nn.NLLLoss()(_t(lp), torch.tensor(y)).item() == pytest.approx(-lp[[0, 1, 2], y].mean())
    single = F.nll_loss(_t(lp[0]), torch.tensor(4))
    assert single.item() == pytest.approx(-lp[0, 4])


def test_bce_matches_formula_and_clamps_the_log() -> None:
    p, y = RNG.uniform(0.05, 0.95, size=6), RNG.integers(0, 2, size=6).astype(np.float64)
    want = -(y * np.log(p) + (1 - y) * np.log(1 - p)).mean()
    loss = nn.BCELoss()(_t(p, grad=True), _t(y))
    assert loss.item() == pytest.approx(want)
    assert loss.grad_fn.name() == "BinaryCrossEntropyBackward0"
    edge = F.binary_cross_entropy(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.0]))
    assert edge.item() == pytest.approx(100.0)  # log clamped at -100
    x = torch.tensor([1.0, 0.5], requires_grad=True)
    F.binary_cross_entropy(x, torch.tensor([1.0, 0.0])).backward()
    assert np.isfinite(x.grad.numpy()).all()
    w = np.array([1.0, 2.0, 3.0, 1.0, 1.0, 0.5])
    got = F.binary_cross_entropy(_t(p), _t(y), weight=_t(w), reduction="sum").item()
    assert got == pytest.approx(-(w * (y * np.log(p) + (1 - y) * np.log(1 - p))).sum())


def test_bce_messages() -> None:
    with pytest.raises(
        ValueError,
        match=r"Using a target size \(torch.Size\(\[2, 1\]\)\) that "
        r"is different to the input size \(torch.Size\(\[2\]\)\) is deprecated",
    ):
        F.binary_cross_entropy(torch.tensor([0.5, 0.5]), torch.zeros(2, 1))
    with pytest.raises(RuntimeError, match="all elements of input should be between 0 and 1"):
        F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0]))


def test_bce_with_logits_is_stable_and_weighted() -> None:
    x, y = RNG.normal(size=5) * 3, RNG.integers(0, 2, size=5).astype(np.float64)
    pw = np.array([3.0] * 5)
    sig = 1 / (1 + np.exp(-x))
    want = -(pw * y * np.log(sig) + (1 - y) * np.log(1 - sig)).mean()
    loss = nn.BCEWithLogitsLoss(pos_weight=_t(pw))(_t(x, grad=True), _t(y))
    assert loss.item() == pytest.approx(want)
    assert loss.grad_fn.name() == "BinaryCrossEntropyWithLogitsBackward0"
    big = F.binary_cross_entropy_with_logits(torch.tensor([200.0]), torch.tensor([0.0]))
    assert big.item() == pytest.approx(200.0)
    with pytest.raises(ValueError, match=r"Target size \(torch.Size\(\[2\]\)\) must be the same"):
        F.binary_cross_entropy_with_logits(torch.zeros(3), torch.zeros(2))


# -- gradients against finite differences (float64) ----------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["mse", "l1", "smooth_l1", "huber", "ce", "ce_weighted", "ce_probs", "ce_smooth", "nll",
     "bce", "bce_weighted", "bce_logits", "bce_logits_pw"],
)  # fmt: skip
def test_loss_gradients_match_finite_differences(name: str) -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(4, 3))
    target = _t(rng.normal(size=(4, 3)))
    idx = torch.tensor([0, 2, 1, 2])
    probs = rng.random((4, 3))
    probs = _t(probs / probs.sum(1, keepdims=True))
    bits = _t(rng.integers(0, 2, size=(4, 3)).astype(np.float64))
    w3 = _t(np.array([0.5, 2.0, 1.0]))
    fns: dict[str, Callable[[torch.Tensor], torch.Tensor]] = {
        "mse": lambda v: F.mse_loss(v, target),
        "l1": lambda v: F.l1_loss(v, target),
        "smooth_l1": lambda v: F.smooth_l1_loss(v, target, beta=0.7),
        "huber": lambda v: F.huber_loss(v, target, delta=0.7, reduction="sum"),
        "ce": lambda v: F.cross_entropy(v, idx),
        "ce_weighted": lambda v: F.cross_entropy(v, idx, weight=w3),
        "ce_probs": lambda v: F.cross_entropy(v, probs),
        "ce_smooth": lambda v: F.cross_entropy(v, idx, label_smoothing=0.2),
        "nll": lambda v: F.nll_loss(F.log_softmax(v, dim=1), idx, reduction="sum"),
        "bce": lambda v: F.binary_cross_entropy(torch.sigmoid(v), bits),
        "bce_weighted": lambda v: F.binary_cross_entropy(torch.sigmoid(v), bits, weight=w3),
        "bce_logits": lambda v: F.binary_cross_entropy_with_logits(v, bits),
        "bce_logits_pw": lambda v: F.binary_cross_entropy_with_logits(v, bits, pos_weight=w3),
    }
    _check_grad(fns[name], x)
