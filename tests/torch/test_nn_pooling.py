"""Max, average and adaptive pooling: torch's reprs, doc examples, shapes, nodes and gradients.

Expected values come from torch's docstrings (``nn.AvgPool1d(3, stride=2)`` on 1..7 gives
``[2., 4., 6.]``; ``nn.MaxPool1d(2, stride=2, return_indices=True)`` on 1..8 picks indices 1, 3,
5, 7, as ``nn.MaxUnpool1d``'s example shows) and from loops written here from torch's kernels
(the first maximum of a window wins; the average divides by the window clipped to the padded
input, or to the input without ``count_include_pad``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tapeviz.torch as torch
import tapeviz.torch.nn as nn
import tapeviz.torch.nn.functional as F


def normal(*shape: int, seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape)


def t64(a: Any, grad: bool = False) -> Any:
    return torch.tensor(np.asarray(a, dtype=np.float64), dtype=torch.float64, requires_grad=grad)


def test_reprs_are_torchs() -> None:
    assert repr(nn.MaxPool2d(2)) == (
        "MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)"
    )
    assert repr(nn.MaxPool2d((3, 2), stride=(2, 1))) == (
        "MaxPool2d(kernel_size=(3, 2), stride=(2, 1), padding=0, dilation=1, ceil_mode=False)"
    )
    assert repr(nn.MaxPool1d(3, stride=2)) == (
        "MaxPool1d(kernel_size=3, stride=2, padding=0, dilation=1, ceil_mode=False)"
    )
    avg2, avg1 = nn.AvgPool2d(kernel_size=2, stride=2), nn.AvgPool1d(3, stride=2)
    assert repr(avg2) == "AvgPool2d(kernel_size=2, stride=2, padding=0)"
    assert repr(avg1) == "AvgPool1d(kernel_size=(3,), stride=(2,), padding=(0,))"
    assert repr(nn.AdaptiveAvgPool2d((5, 7))) == "AdaptiveAvgPool2d(output_size=(5, 7))"
    assert repr(nn.AdaptiveAvgPool2d(1)) == "AdaptiveAvgPool2d(output_size=1)"


def test_the_docstring_examples() -> None:
    avg = nn.AvgPool1d(3, stride=2)(torch.tensor([[[1.0, 2, 3, 4, 5, 6, 7]]]))
    assert avg.tolist() == [[[2.0, 4.0, 6.0]]]
    out, idx = nn.MaxPool1d(2, stride=2, return_indices=True)(
        torch.tensor([[[1.0, 2, 3, 4, 5, 6, 7, 8]]]))  # fmt: skip
    assert out.tolist() == [[[2.0, 4.0, 6.0, 8.0]]] and idx.tolist() == [[[1, 3, 5, 7]]]
    assert idx.dtype == torch.int64
    x = torch.randn(2, 16, 50, 32)
    assert nn.MaxPool2d(3, stride=2)(x).shape == (2, 16, 24, 15)
    assert nn.MaxPool2d((3, 2), stride=(2, 1))(x).shape == (2, 16, 24, 31)
    assert nn.AvgPool2d((3, 2), stride=(2, 1))(x).shape == (2, 16, 24, 31)
    assert nn.MaxPool1d(3, stride=2)(torch.randn(2, 16, 50)).shape == (2, 16, 24)
    assert nn.AdaptiveAvgPool2d((5, 7))(torch.randn(1, 64, 8, 9)).shape == (1, 64, 5, 7)
    assert nn.AdaptiveAvgPool2d(7)(torch.randn(1, 64, 10, 9)).shape == (1, 64, 7, 7)
    assert nn.AdaptiveAvgPool2d((None, 7))(torch.randn(1, 64, 10, 9)).shape == (1, 64, 10, 7)
    assert nn.AdaptiveAvgPool1d(5)(torch.randn(1, 64, 8)).shape == (1, 64, 5)


def test_max_pool2d_kernel_as_int_or_tuple() -> None:
    x = normal(1, 6, 28, 28)
    want = x.reshape(1, 6, 14, 2, 14, 2).max(axis=(3, 5))
    for k in (2, (2, 2), [2]):
        np.testing.assert_array_equal(F.max_pool2d(t64(x), k).numpy(), want)
    assert F.max_pool2d(torch.randn(6, 28, 28), 2).shape == (6, 14, 14)  # unbatched (C, H, W)


def test_ceil_mode_and_padding_shapes() -> None:
    x = torch.randn(1, 1, 6, 6)
    assert F.max_pool2d(x, 3, 2).shape == (1, 1, 2, 2)
    assert F.max_pool2d(x, 3, 2, ceil_mode=True).shape == (1, 1, 3, 3)
    assert F.max_pool2d(x, 2, 2, padding=1).shape == (1, 1, 4, 4)
    # ceil_mode drops a last window that would start in the right padding
    assert F.avg_pool2d(torch.randn(1, 1, 5, 5), 2, 2, padding=1, ceil_mode=True).shape == (
        1, 1, 3, 3)  # fmt: skip


def test_max_pool_gradient_goes_to_the_first_maximum() -> None:
    x = t64([[[[1.0, 3.0, 0.0, 0.0], [3.0, 2.0, 5.0, 5.0]]]], grad=True)
    y = F.max_pool2d(x, 2)
    assert y.tolist() == [[[[3.0, 5.0]]]]
    y.backward(t64([[[[10.0, 20.0]]]]))
    assert x.grad.tolist() == [[[[0.0, 10.0, 0.0, 0.0], [0.0, 0.0, 20.0, 0.0]]]]


def avg_loops(x: np.ndarray, k: int, s: int, p: int, include: bool, G: np.ndarray,
              override: int | None = None) -> Any:  # fmt: skip
    """Torch's avg_pool2d kernel and the gradient of ``Σ y·G``, one window at a time."""
    h, w = x.shape[-2:]
    oh, ow = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
    y, dx = np.zeros((*x.shape[:-2], oh, ow)), np.zeros_like(x)
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * s - p, j * s - p
            r1, c1 = min(r0 + k, h + p), min(c0 + k, w + p)
            div = (r1 - r0) * (c1 - c0)
            r0, c0, r1, c1 = max(r0, 0), max(c0, 0), min(r1, h), min(c1, w)
            if not include:
                div = (r1 - r0) * (c1 - c0)
            div = override or div
            y[..., i, j] = x[..., r0:r1, c0:c1].sum(axis=(-1, -2)) / div
            dx[..., r0:r1, c0:c1] += G[..., i, j, None, None] / div
    return y, dx


@pytest.mark.parametrize(
    ("k", "s", "p", "include"),
    [(2, 2, 0, True), (3, 2, 1, True), (3, 2, 1, False), (3, 1, 1, False)],
)
def test_avg_pool2d_and_its_gradient_match_torchs_kernel(k: int, s: int, p: int,
                                                         include: bool) -> None:  # fmt: skip
    x = normal(2, 3, 7, 6)
    y0, _ = avg_loops(x, k, s, p, include, np.zeros((2, 3, 99, 99)))
    G = normal(*y0.shape, seed=5)
    want, dx = avg_loops(x, k, s, p, include, G)
    xt = t64(x, grad=True)
    y = F.avg_pool2d(xt, k, s, p, count_include_pad=include)
    np.testing.assert_allclose(y.detach().numpy(), want, atol=1e-12)
    y.backward(t64(G))
    np.testing.assert_allclose(xt.grad.numpy(), dx, atol=1e-12)
    over = F.avg_pool2d(t64(x), k, s, p, divisor_override=3).numpy()
    np.testing.assert_allclose(over, avg_loops(x, k, s, p, include, G, override=3)[0], atol=1e-12)


def test_adaptive_avg_pool2d_gradient_shares_each_window() -> None:
    x = t64(normal(1, 2, 5, 4), grad=True)
    y = F.adaptive_avg_pool2d(x, (2, 3))
    y.sum().backward()
    # rows [0, 3) and [2, 5) (row 2 in both); columns [0, 2), [1, 3), [2, 4)
    rows = np.array([1 / 3, 1 / 3, 2 / 3, 1 / 3, 1 / 3])
    cols = np.array([1 / 2, 1.0, 1.0, 1 / 2])
    np.testing.assert_allclose(x.grad.numpy()[0, 0], np.outer(rows, cols), atol=1e-12)


def test_each_pool_is_one_node_of_one_record_named_as_torch_names_it() -> None:
    x = torch.randn(1, 2, 6, 6, requires_grad=True)
    cases = [(F.max_pool2d(x, 2), "MaxPool2DWithIndicesBackward0", "max_pool_nchw"),
             (F.avg_pool2d(x, 2), "AvgPool2DBackward0", "avg_pool_nchw"),
             (F.adaptive_avg_pool2d(x, 3), "AdaptiveAvgPool2DBackward0", "adaptive_avg_pool_nchw"),
             (F.adaptive_avg_pool2d(x, 1), "MeanBackward1", "reduce_mean")]  # fmt: skip
    for y, node, record in cases:
        assert y.grad_fn.name() == node
        assert [r.name for r in y.grad_fn._records] == [record]
        assert y.grad_fn.next_functions[0][0].name() == "torch::autograd::AccumulateGrad"
    assert F.adaptive_avg_pool2d(x, 1).shape == (1, 2, 1, 1)


def test_one_dimensional_pools_are_torchs_composition() -> None:
    x = torch.randn(2, 3, 8, requires_grad=True)
    for y, node in ((F.max_pool1d(x, 2), "MaxPool2DWithIndicesBackward0"),
                    (F.avg_pool1d(x, 2), "AvgPool2DBackward0"),
                    (F.adaptive_avg_pool1d(x, 3), "AdaptiveAvgPool2DBackward0")):  # fmt: skip
        assert y.grad_fn.name() == "SqueezeBackward1"
        inner = y.grad_fn.next_functions[0][0]
        assert inner.name() == node
        assert inner.next_functions[0][0].name() == "UnsqueezeBackward0"
    assert F.max_pool1d(torch.randn(3, 8), 2).shape == (3, 4)  # unbatched (C, L)


@pytest.mark.parametrize(
    ("call", "message"),
    [(lambda x: F.max_pool2d(x, 2, padding=2),
      "pad should be at most half of effective kernel size, but got pad=2, kernel_size=2 and "
      "dilation=1"),
     (lambda x: F.max_pool2d(x, (2, 2, 2)),
      "max_pool2d: kernel_size must either be a single int, or a tuple of two ints"),
     (lambda x: F.avg_pool2d(x, 5),
      r"Given input size: \(1x4x4\)\. Calculated output size: \(1x0x0\)\. Output size is too "
      "small"),
     (lambda x: F.max_pool2d(x[0, 0], 2),
      r"Expected 3D or 4D \(batch mode\) tensor with optional 0 dim batch size for input, but "
      r"got:\[4, 4\]"),
     (lambda x: F.avg_pool2d(x, 2, divisor_override=0), "divisor must be not zero"),
     (lambda x: F.max_pool1d(x, 2),
      "Expected 2 to 3 dimensions, but got 4-dimensional tensor for argument #1 'self' "
      r"\(while checking arguments for max_pool1d\)")],
)  # fmt: skip
def test_errors_are_torchs(call: Any, message: str) -> None:
    with pytest.raises(RuntimeError, match=message):
        call(torch.randn(1, 1, 4, 4))
