"""Layers, activations, nn.init and nn.utils: torch's documented formulas, init rules, nodes."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import tapeviz.torch as torch
import tapeviz.torch.nn as nn
import tapeviz.torch.nn.functional as F
from tapeviz.torch.nn import init


@pytest.fixture(autouse=True)
def _seed() -> None:
    torch.manual_seed(0)


# -- Linear ----------------------------------------------------------------------------------------


def test_linear_default_init_bounds() -> None:
    lin = nn.Linear(16, 300)
    bound = 1 / math.sqrt(16)
    w, b = lin.weight.detach().numpy(), lin.bias.detach().numpy()
    assert w.shape == (300, 16) and b.shape == (300,)
    assert np.abs(w).max() <= bound and np.abs(b).max() <= bound
    assert np.abs(w).max() > 0.9 * bound  # uniform over the whole range
    assert abs(w.mean()) < 0.02
    assert w.std() == pytest.approx(bound / math.sqrt(3), rel=0.05)


def test_linear_forward_and_nodes() -> None:
    lin = nn.Linear(3, 2)
    x = torch.randn(4, 3)
    y = lin(x)
    w, b = lin.weight.detach().numpy(), lin.bias.detach().numpy()
    np.testing.assert_allclose(y.detach().numpy(), x.numpy() @ w.T + b, rtol=1e-6, atol=1e-6)
    assert y.grad_fn.name() == "AddmmBackward0"
    # one node for x @ W.T + b; torch lists addmm's (bias, input, weight), the input needing no grad
    assert [n is None for n, _ in y.grad_fn.next_functions] == [False, True, False]
    y.sum().backward()
    np.testing.assert_allclose(
        lin.weight.grad.numpy(), np.tile(x.numpy().sum(0), (2, 1)), rtol=1e-5
    )
    np.testing.assert_allclose(lin.bias.grad.numpy(), [4.0, 4.0])
    one = lin(torch.randn(3))
    assert one.shape == (2,) and one.grad_fn.name() == "ViewBackward0"
    batch = lin(torch.randn(5, 4, 3))
    assert batch.shape == (5, 4, 2) and batch.grad_fn.name() == "ViewBackward0"
    assert nn.Linear(3, 2, bias=False)(x).grad_fn.name() == "MmBackward0"


def test_linear_messages() -> None:
    with pytest.raises(
        RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(4x5 and 3x2\)"
    ):
        nn.Linear(3, 2)(torch.randn(4, 5))
    with pytest.raises(
        RuntimeError, match="mat1 and mat2 must have the same dtype, but got Double and Float"
    ):
        nn.Linear(3, 2)(torch.randn(4, 3, dtype=torch.float64))


# -- activations ---------------------------------------------------------------------------------


def test_activations_match_formulas() -> None:
    v = np.array([-3.0, -0.5, 0.0, 0.7, 25.0])
    x = torch.tensor(v, dtype=torch.float64)
    sig = 1 / (1 + np.exp(-v))
    erf = np.vectorize(math.erf)
    cases = {
        nn.ReLU(): np.maximum(v, 0),
        nn.Sigmoid(): sig,
        nn.Tanh(): np.tanh(v),
        nn.LeakyReLU(0.1): np.where(v > 0, v, 0.1 * v),
        nn.ELU(alpha=2.0): np.where(v > 0, v, 2.0 * np.expm1(v)),
        nn.GELU(): 0.5 * v * (1 + erf(v / math.sqrt(2))),
        nn.Softplus(): np.where(v > 20, v, np.log1p(np.exp(v))),
        nn.Softplus(beta=2.0, threshold=5.0): np.where(2 * v > 5, v, np.log1p(np.exp(2 * v)) / 2),
        nn.SiLU(): v * sig,
        nn.Hardtanh(): np.clip(v, -1, 1),
        nn.ReLU6(): np.clip(v, 0, 6),
        nn.LogSigmoid(): -np.log1p(np.exp(-v)),
        nn.Identity(): v,
    }
    for module, want in cases.items():
        np.testing.assert_allclose(module(x).numpy(), want, rtol=1e-7, err_msg=repr(module))


def test_activation_grad_fns() -> None:
    x = torch.randn(2, 3, requires_grad=True)
    names = {
        F.relu(x): "ReluBackward0", F.sigmoid(x): "SigmoidBackward0", F.tanh(x): "TanhBackward0",
        F.softmax(x, dim=1): "SoftmaxBackward0", F.log_softmax(x, dim=1): "LogSoftmaxBackward0",
        F.leaky_relu(x): "LeakyReluBackward0", F.gelu(x): "GeluBackward0", F.elu(x): "EluBackward0",
        F.softplus(x): "SoftplusBackward0",
    }  # fmt: skip
    for out, name in names.items():
        assert out.grad_fn.name() == name


def test_softmax_values_and_implicit_dim_warning() -> None:
    v = np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
    e = np.exp(v - v.max(1, keepdims=True))
    np.testing.assert_allclose(
        nn.Softmax(dim=1)(torch.tensor(v)).numpy(), e / e.sum(1, keepdims=True)
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = F.softmax(torch.tensor(v))
    assert "Implicit dimension choice for softmax has been deprecated" in str(caught[0].message)
    assert caught[0].filename == __file__
    np.testing.assert_allclose(out.sum(1).numpy(), [1.0, 1.0], rtol=1e-6)


def test_relu_inplace() -> None:
    x = torch.tensor([-1.0, 2.0])
    out = F.relu(x, inplace=True)
    assert out is x and x.tolist() == [0.0, 2.0]


# -- Dropout, Flatten, BatchNorm, LayerNorm, Embedding ------------------------------------------


def test_dropout_train_and_eval() -> None:
    drop = nn.Dropout(p=0.25)
    x = torch.ones(20000)
    y = drop(x).numpy()
    assert set(np.unique(y)) <= {0.0, np.float32(1 / 0.75)}
    assert (y == 0).mean() == pytest.approx(0.25, abs=0.02)
    drop.eval()
    assert drop(x) is x
    with pytest.raises(
        ValueError, match=r"dropout probability has to be between 0 and 1, but got 1\.5"
    ):
        nn.Dropout(1.5)
    g = torch.ones(4, requires_grad=True)
    out = F.dropout(g, 0.5)
    assert out.grad_fn.name() == "MulBackward0"
    out.sum().backward()
    np.testing.assert_allclose(g.grad.numpy(), out.detach().numpy())  # grad = mask / (1 - p)


def test_flatten_unflatten() -> None:
    x = torch.randn(2, 3, 4)
    assert nn.Flatten()(x).shape == (2, 12)
    assert nn.Flatten(0, -1)(x).shape == (24,)
    assert nn.Unflatten(1, (3, 4))(torch.randn(2, 12)).shape == (2, 3, 4)


def test_batchnorm1d_training_and_running_stats() -> None:
    bn = nn.BatchNorm1d(3)
    v = np.random.default_rng(0).normal(2.0, 3.0, size=(8, 3)).astype(np.float32)
    out = bn(torch.tensor(v)).detach().numpy()
    want = (v - v.mean(0)) / np.sqrt(v.var(0) + 1e-5)
    np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(bn.running_mean.numpy(), 0.1 * v.mean(0), rtol=1e-5)
    np.testing.assert_allclose(bn.running_var.numpy(), 0.9 + 0.1 * v.var(0, ddof=1), rtol=1e-5)
    assert bn.num_batches_tracked.item() == 1
    bn.eval()
    got = bn(torch.tensor(v)).detach().numpy()
    rm, rv = bn.running_mean.numpy(), bn.running_var.numpy()
    np.testing.assert_allclose(got, (v - rm) / np.sqrt(rv + 1e-5), rtol=1e-5)
    bn.train()
    with pytest.raises(
        ValueError,
        match=r"Expected more than 1 value per channel when training, "
        r"got input size torch.Size\(\[1, 3\]\)",
    ):
        bn(torch.randn(1, 3))
    with pytest.raises(ValueError, match=r"expected 2D or 3D input \(got 4D input\)"):
        bn(torch.randn(2, 3, 1, 1))


def test_batchnorm_gradient_matches_finite_differences() -> None:
    bn = nn.BatchNorm1d(2).double()
    v = np.random.default_rng(1).normal(size=(5, 2))
    weights = np.arange(10.0).reshape(5, 2)

    def loss(a: np.ndarray) -> float:
        return float((bn(torch.tensor(a)).detach().numpy() * weights).sum())

    x = torch.tensor(v, requires_grad=True)
    (bn(x) * torch.tensor(weights)).sum().backward()
    h = 1e-6
    numeric = np.zeros_like(v)
    for i in np.ndindex(v.shape):
        up, down = v.copy(), v.copy()
        up[i] += h
        down[i] -= h
        numeric[i] = (loss(up) - loss(down)) / (2 * h)
    np.testing.assert_allclose(x.grad.numpy(), numeric, rtol=1e-5, atol=1e-6)


def test_layernorm() -> None:
    ln = nn.LayerNorm(4)
    v = np.random.default_rng(2).normal(size=(3, 4)).astype(np.float32)
    want = (v - v.mean(1, keepdims=True)) / np.sqrt(v.var(1, keepdims=True) + 1e-5)
    out = ln(torch.tensor(v))
    np.testing.assert_allclose(out.detach().numpy(), want, rtol=1e-4, atol=1e-5)
    assert out.grad_fn.name() == "NativeLayerNormBackward0"
    assert repr(ln) == "LayerNorm((4,), eps=1e-05, elementwise_affine=True)"


def test_embedding() -> None:
    emb = nn.Embedding(5, 3, padding_idx=0)
    w = emb.weight.detach().numpy()
    assert (w[0] == 0).all()
    idx = torch.tensor([[0, 2], [4, 2]])
    out = emb(idx)
    np.testing.assert_array_equal(out.detach().numpy(), w[idx.numpy()])
    assert out.grad_fn.name() == "EmbeddingBackward0"
    out.sum().backward()
    np.testing.assert_array_equal(emb.weight.grad.numpy()[:, 0], [0.0, 0.0, 2.0, 0.0, 1.0])
    with pytest.raises(IndexError, match="index out of range in self"):
        emb(torch.tensor([5]))
    with pytest.raises(RuntimeError, match="Expected tensor for argument #1 'indices'"):
        emb(torch.tensor([1.0]))


# -- nn.init ---------------------------------------------------------------------------------------


def test_calculate_gain() -> None:
    assert init.calculate_gain("linear") == 1 and init.calculate_gain("sigmoid") == 1
    assert init.calculate_gain("tanh") == pytest.approx(5 / 3)
    assert init.calculate_gain("relu") == pytest.approx(math.sqrt(2))
    assert init.calculate_gain("leaky_relu", 0.2) == pytest.approx(math.sqrt(2 / 1.04))
    assert init.calculate_gain("selu") == 0.75
    with pytest.raises(ValueError, match="Unsupported nonlinearity foo"):
        init.calculate_gain("foo")


def test_init_functions_keep_the_engine_id_and_fill_in_place() -> None:
    w = torch.empty(200, 100)
    eid = w._t.id
    assert init.zeros_(w) is w and w.abs().sum().item() == 0 and w._t.id == eid
    init.ones_(w)
    assert w.mean().item() == 1
    init.constant_(w, 0.3)
    assert w.numpy() == pytest.approx(0.3)
    init.xavier_uniform_(w)
    a = math.sqrt(6 / 300)
    assert np.abs(w.numpy()).max() <= a and w.numpy().std() == pytest.approx(
        a / math.sqrt(3), rel=0.05
    )
    init.xavier_normal_(w, gain=2.0)
    assert w.numpy().std() == pytest.approx(2 * math.sqrt(2 / 300), rel=0.05)
    init.kaiming_uniform_(w, nonlinearity="relu")
    b = math.sqrt(2) * math.sqrt(3 / 100)
    assert np.abs(w.numpy()).max() <= b and np.abs(w.numpy()).max() > 0.95 * b
    init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
    assert w.numpy().std() == pytest.approx(math.sqrt(2 / 200), rel=0.05)
    init.trunc_normal_(w, std=1.0, a=-0.5, b=0.5)
    assert np.abs(w.numpy()).max() <= 0.5
    init.uniform_(w, -2, -1)
    assert w.numpy().min() >= -2 and w.numpy().max() <= -1
    init.normal_(w, 3.0, 0.1)
    assert w.numpy().mean() == pytest.approx(3.0, abs=0.01)
    assert w._t.id == eid


def test_init_on_a_parameter_needs_no_no_grad() -> None:
    p = nn.Parameter(torch.empty(3, 3))
    init.eye_(p)
    assert p.tolist() == np.eye(3).tolist() and p.requires_grad and p.is_leaf
    q = nn.Parameter(torch.empty(4, 6))
    init.orthogonal_(q)
    np.testing.assert_allclose(q.detach().numpy() @ q.detach().numpy().T, np.eye(4), atol=1e-5)
    with pytest.raises(ValueError, match="Fan in and fan out can not be computed"):
        init.xavier_uniform_(torch.empty(3))


# -- nn.utils --------------------------------------------------------------------------------------


def test_clip_grad_norm_() -> None:
    a = nn.Parameter(torch.tensor([3.0, 0.0]))
    b = nn.Parameter(torch.tensor([4.0]))
    (a * torch.tensor([3.0, 0.0])).sum().backward()
    (b * 4.0).sum().backward()
    total = nn.utils.clip_grad_norm_([a, b], max_norm=1.0)
    assert total.item() == pytest.approx(5.0)
    np.testing.assert_allclose(a.grad.numpy(), [0.6, 0.0], rtol=1e-5)
    np.testing.assert_allclose(b.grad.numpy(), [0.8], rtol=1e-5)
    nn.utils.clip_grad_value_([a, b], 0.7)
    np.testing.assert_allclose(b.grad.numpy(), [0.7], rtol=1e-6)


def test_functional_helpers() -> None:
    assert F.one_hot(torch.tensor([0, 2, 1])).tolist() == [[1, 0, 0], [0, 0, 1], [0, 1, 0]]
    assert F.one_hot(torch.tensor([1]), num_classes=4).tolist() == [[0, 1, 0, 0]]
    with pytest.raises(RuntimeError, match="one_hot is only applicable to index tensor"):
        F.one_hot(torch.tensor([1.0]))
    np.testing.assert_allclose(F.normalize(torch.tensor([[3.0, 4.0]])).numpy(), [[0.6, 0.8]])
    padded = F.pad(torch.ones(1, 2), (1, 2), value=5.0)
    assert padded.tolist() == [[5.0, 1.0, 1.0, 5.0, 5.0]]
    assert F.pad(torch.ones(2, 2), (0, 0, 1, 0)).tolist() == [[0, 0], [1, 1], [1, 1]]
    assert F.pad(torch.arange(4.0), (-1, -1)).tolist() == [1.0, 2.0]
    x = torch.randn(2, 3, requires_grad=True)
    F.pad(x, (1, 1)).sum().backward()
    assert x.grad.tolist() == [[1.0] * 3] * 2
