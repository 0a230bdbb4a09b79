"""``nn.Conv1d``/``Conv2d`` and ``F.conv1d``/``conv2d``: torch's reprs, init, shapes, nodes, errors.

Values and gradients are checked against loops written here from torch's documented formula
``out[n, o, i, j] = b[o] + Σ x[n, c, i·s + di·d − p, j·s + dj·d − p] · w[o, c, di, dj]`` and
against central differences; reprs, shapes and messages are the ones torch's docs and sources
give (``print(nn.Conv2d(1, 6, 5))`` is ``Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1))``).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import tapeviz.torch as torch
import tapeviz.torch.nn as nn
import tapeviz.torch.nn.functional as F


@pytest.fixture(autouse=True)
def _seed() -> None:
    torch.manual_seed(0)


def normal(*shape: int, seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape)


def t64(a: np.ndarray, grad: bool = False) -> Any:
    return torch.tensor(a, dtype=torch.float64, requires_grad=grad)


def numeric_grad(f: Callable[..., Any], arrays: list[np.ndarray], k: int,
                 h: float = 1e-6) -> np.ndarray:  # fmt: skip
    """Central differences of ``f(*tensors).sum()`` with respect to ``arrays[k]``."""
    g = np.zeros_like(arrays[k])
    for idx in np.ndindex(arrays[k].shape):
        vals = []
        for sign in (1, -1):
            moved = [a.copy() for a in arrays]
            moved[k][idx] += sign * h
            vals.append(float(f(*[t64(a) for a in moved]).sum().item()))
        g[idx] = (vals[0] - vals[1]) / (2 * h)
    return g


def conv_loops(x: np.ndarray, w: np.ndarray, b: np.ndarray, s: int, p: int, G: np.ndarray) -> Any:
    """The output and, for ``loss = Σ y·G``, the gradients of x, w and b, by hand (groups 1)."""
    n, _, h, wd = x.shape
    o, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)))
    oh, ow = (h + 2 * p - kh) // s + 1, (wd + 2 * p - kw) // s + 1
    y, dxp, dw = np.zeros((n, o, oh, ow)), np.zeros_like(xp), np.zeros_like(w)
    for i in range(oh):
        for j in range(ow):
            patch = xp[:, :, i * s : i * s + kh, j * s : j * s + kw]  # (n, c, kh, kw)
            y[:, :, i, j] = np.einsum("nckl,ockl->no", patch, w) + b
            dw += np.einsum("no,nckl->ockl", G[:, :, i, j], patch)
            dxp[:, :, i * s : i * s + kh, j * s : j * s + kw] += np.einsum(
                "no,ockl->nckl", G[:, :, i, j], w)  # fmt: skip
    return y, dxp[:, :, p : p + h, p : p + wd], dw, G.sum(axis=(0, 2, 3))


# -- modules ---------------------------------------------------------------------------------------


def test_reprs_are_torchs() -> None:
    assert repr(nn.Conv2d(1, 6, 5)) == "Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1))"
    assert repr(nn.Conv2d(16, 33, (3, 5), stride=(2, 1), padding=(4, 2), dilation=(3, 1))) == (
        "Conv2d(16, 33, kernel_size=(3, 5), stride=(2, 1), padding=(4, 2), dilation=(3, 1))"
    )
    assert repr(nn.Conv2d(4, 8, 3, padding="same", groups=2, bias=False)) == (
        "Conv2d(4, 8, kernel_size=(3, 3), stride=(1, 1), padding=same, groups=2, bias=False)"
    )
    assert repr(nn.Conv1d(16, 33, 3, stride=2)) == "Conv1d(16, 33, kernel_size=(3,), stride=(2,))"
    assert repr(nn.Conv2d(1, 1, 3, padding=1, padding_mode="reflect")) == (
        "Conv2d(1, 1, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), padding_mode=reflect)"
    )


def test_parameters_and_default_init_follow_reset_parameters() -> None:
    conv = nn.Conv2d(8, 16, 3, groups=2)
    assert [n for n, _ in conv.named_parameters()] == ["weight", "bias"]
    w, b = conv.weight.detach().numpy(), conv.bias.detach().numpy()
    assert w.shape == (16, 4, 3, 3) and b.shape == (16,)
    bound = 1 / math.sqrt(4 * 3 * 3)  # kaiming_uniform_(a=√5) and the bias: 1/√fan_in
    assert np.abs(w).max() <= bound and np.abs(b).max() <= bound
    assert np.abs(w).max() > 0.9 * bound
    assert nn.Conv1d(3, 5, 4, bias=False).bias is None
    assert tuple(nn.Conv1d(3, 5, 4).weight.shape) == (5, 3, 4)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"groups": 0}, "groups must be a positive integer"),
     ({"groups": 4}, "in_channels must be divisible by groups"),
     ({"padding": "same", "stride": 2}, "padding='same' is not supported for strided convolutions"),
     ({"padding": "full"}, "Invalid padding string 'full'"),
     ({"padding_mode": "edge"}, "padding_mode must be one of")],
)  # fmt: skip
def test_constructor_checks(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        nn.Conv2d(6, 8, 3, **kwargs)


def test_output_shapes_of_torchs_doc_examples() -> None:
    x = torch.randn(2, 16, 50, 100)
    assert nn.Conv2d(16, 33, 3, stride=2)(x).shape == (2, 33, 24, 49)
    m = nn.Conv2d(16, 33, (3, 5), stride=(2, 1), padding=(4, 2), dilation=(3, 1))
    assert m(x).shape == (2, 33, 26, 100)
    assert nn.Conv1d(16, 33, 3, stride=2)(torch.randn(2, 16, 50)).shape == (2, 33, 24)
    assert nn.Conv2d(16, 4, 3, padding="same")(x).shape == (2, 4, 50, 100)
    assert nn.Conv2d(16, 4, 3, padding="valid")(x).shape == (2, 4, 48, 98)


# -- values, gradients and nodes -------------------------------------------------------------------


@pytest.mark.parametrize(("s", "p"), [(1, 0), (2, 1), (1, 2)])
def test_conv2d_and_its_gradients_match_loops_by_hand(s: int, p: int) -> None:
    x, w, b = normal(2, 3, 6, 5), normal(4, 3, 3, 2, seed=2), normal(4, seed=3)
    G = normal(2, 4, (6 + 2 * p - 3) // s + 1, (5 + 2 * p - 2) // s + 1, seed=4)
    want, dx, dw, db = conv_loops(x, w, b, s, p, G)
    xt, wt, bt = t64(x, True), t64(w, True), t64(b, True)
    y = F.conv2d(xt, wt, bt, stride=s, padding=p)
    np.testing.assert_allclose(y.detach().numpy(), want, atol=1e-12)
    y.backward(t64(G))
    for got, ref in ((xt.grad, dx), (wt.grad, dw), (bt.grad, db)):
        np.testing.assert_allclose(got.numpy(), ref, atol=1e-12)


def test_grouped_dilated_strided_gradients_match_finite_differences() -> None:
    x, w, b = normal(1, 4, 6, 5), normal(6, 2, 2, 3, seed=2), normal(6, seed=3)

    def f(x: Any, w: Any, b: Any) -> Any:
        return F.conv2d(x, w, b, stride=(2, 1), padding=(1, 2), dilation=(2, 1), groups=2) ** 2

    ts = [t64(a, True) for a in (x, w, b)]
    f(*ts).sum().backward()
    for k, t in enumerate(ts):
        np.testing.assert_allclose(t.grad.numpy(), numeric_grad(f, [x, w, b], k), rtol=1e-6,
                                   atol=1e-6)  # fmt: skip


def test_conv1d_is_conv2d_on_a_height_of_one() -> None:
    x, w, b = normal(2, 3, 9), normal(4, 3, 3, seed=2), normal(4, seed=3)
    y = F.conv1d(t64(x), t64(w), t64(b), stride=2, padding=1)
    want = F.conv2d(t64(x[:, :, None]), t64(w[:, :, None]), t64(b), stride=(1, 2), padding=(0, 1))
    np.testing.assert_allclose(y.numpy(), want.numpy()[:, :, 0], atol=1e-12)
    ts = [t64(a, True) for a in (x, w, b)]
    (F.conv1d(*ts, padding=2, dilation=2) ** 2).sum().backward()
    ref = numeric_grad(lambda x, w, b: F.conv1d(x, w, b, padding=2, dilation=2) ** 2, [x, w, b], 1)
    np.testing.assert_allclose(ts[1].grad.numpy(), ref, rtol=1e-6, atol=1e-6)


def test_a_convolution_is_one_convolution_backward_node_of_one_record() -> None:
    conv = nn.Conv2d(2, 3, 3)
    x = torch.randn(1, 2, 5, 5, requires_grad=True)
    y = conv(x)
    assert y.grad_fn.name() == "ConvolutionBackward0"
    assert [n.name() for n, _ in y.grad_fn.next_functions] == [
        "torch::autograd::AccumulateGrad"] * 3  # fmt: skip
    assert [r.name for r in y.grad_fn._records] == ["conv_bias_nchw"]  # no NHWC transposes
    assert {r.scope for r in y.grad_fn._records} == {("conv2d",)}
    with torch.no_grad():
        assert conv(x).grad_fn is None
    plain = nn.Conv2d(2, 3, 3, bias=False)(x)
    assert [r.name for r in plain.grad_fn._records] == ["conv_nchw"]
    assert len(plain.grad_fn.next_functions) == 2


def test_unbatched_input_is_unsqueezed_and_squeezed_as_torch_does() -> None:
    x = torch.randn(2, 5, 5, requires_grad=True)
    y = nn.Conv2d(2, 3, 3)(x)
    assert y.shape == (3, 3, 3)
    assert y.grad_fn.name() == "SqueezeBackward1"
    conv_node = y.grad_fn.next_functions[0][0]
    assert conv_node.name() == "ConvolutionBackward0"
    assert conv_node.next_functions[0][0].name() == "UnsqueezeBackward0"
    assert F.conv1d(torch.randn(2, 7), torch.randn(4, 2, 3)).shape == (4, 5)


def test_padding_same_with_an_even_kernel_pads_the_right_first() -> None:
    x, w = normal(1, 2, 6, 5), normal(3, 2, 4, 4, seed=2)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        y = F.conv2d(t64(x, True), t64(w), padding="same")
    assert y.shape == (1, 3, 6, 5)
    assert y.grad_fn.name() == "ConvolutionBackward0"
    assert y.grad_fn.next_functions[0][0].name() == "ConstantPadNdBackward0"
    padded = np.pad(x, ((0, 0), (0, 0), (1, 2), (1, 2)))  # total 3: 1 before, 2 after
    np.testing.assert_allclose(y.detach().numpy(), F.conv2d(t64(padded), t64(w)).numpy(),
                               atol=1e-12)  # fmt: skip
    odd = F.conv2d(t64(x), t64(normal(3, 2, 3, 3)), padding="same")
    np.testing.assert_allclose(odd.numpy(), F.conv2d(t64(x), t64(normal(3, 2, 3, 3)),
                                                     padding=1).numpy())  # fmt: skip


@pytest.mark.parametrize(
    ("args", "message"),
    [((torch.randn(1, 3, 8, 8), torch.randn(6, 1, 5, 5)),
      r"Given groups=1, weight of size \[6, 1, 5, 5\], expected input\[1, 3, 8, 8\] to have 1 "
      r"channels, but got 3 channels instead"),
     ((torch.randn(1, 1, 3, 3), torch.randn(6, 1, 5, 5)),
      r"Calculated padded input size per channel: \(3 x 3\)\. Kernel size: \(5 x 5\)\. Kernel "
      r"size can't be greater than actual input size"),
     ((torch.randn(8, 8), torch.randn(6, 1, 5, 5)),
      r"Expected 3D \(unbatched\) or 4D \(batched\) input to conv2d, but got input of size: "
      r"\[8, 8\]"),
     ((torch.randn(1, 1, 8, 8), torch.randn(6, 1, 5, 5), torch.randn(5)),
      r"expected bias to be 1-dimensional with 6 elements, but got bias of size \[5\] instead"),
     ((torch.randn(1, 1, 8, 8), torch.randn(6, 1, 5, 5, dtype=torch.float64)),
      r"Input type \(torch.FloatTensor\) and weight type \(torch.DoubleTensor\) should be the "
      "same"),
     ((torch.ones(1, 1, 8, 8, dtype=torch.int64), torch.ones(6, 1, 5, 5, dtype=torch.int64)),
      "\"slow_conv2d_cpu\" not implemented for 'Long'")],
)  # fmt: skip
def test_errors_are_torchs(args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(RuntimeError, match=message):
        F.conv2d(*args)


def test_a_sequential_cnn_trains_and_its_loss_falls() -> None:
    net = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Conv2d(4, 8, 3), nn.AvgPool2d(2, ceil_mode=True), nn.Flatten(),
                        nn.Linear(8 * 2 * 2, 2))  # fmt: skip
    x, target = torch.randn(8, 1, 10, 10), torch.tensor([0, 1, 0, 1, 1, 0, 0, 1])
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    losses = []
    for _ in range(40):
        opt.zero_grad()
        loss = F.cross_entropy(net(x), target)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.7 * losses[0]


def test_torch_has_the_functions_at_the_top_too() -> None:
    x = torch.randn(1, 1, 6, 6)
    w = torch.randn(2, 1, 3, 3, requires_grad=True)
    y = torch.max_pool2d(torch.conv2d(x, w), 2)
    assert tuple(y.shape) == (1, 2, 2, 2)
    assert y.grad_fn.name() == "MaxPool2DWithIndicesBackward0"
    assert torch.avg_pool1d(torch.ones(1, 1, 4), 2).tolist() == [[[1.0, 1.0]]]
