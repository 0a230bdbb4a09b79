"""The NCHW (torch-layout) convolution and pooling primitives against loops written from torch's
documented formulas, and their gradients against finite differences (to second order).

Output sizes are torch's (``⌊(n + 2p − d·(k − 1) − 1) / s⌋ + 1``, ``ceil_mode`` rounding up
unless the last window would start past the input and its left padding); the max pool's window
maximum is the first in row-major order; the average pool divides by the window clipped to the
padded input (``count_include_pad``) or to the input, or by ``divisor_override``; adaptive
windows are ``[⌊i·n/o⌋, ⌈(i+1)·n/o⌉)``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import tapeviz as tv
from tapeviz.engine.guard import ResourceLimitError, size_limits
from tapeviz.engine.nchw_ops import (
    adaptive_avg_pool_nchw,
    avg_pool_nchw,
    conv_nchw,
    max_pool_nchw,
)


def normal(*shape: int, seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape)


def check(f: Any, *args: Any, order: int = 2) -> None:
    tv.gradcheck.check_grads(f, *args, order=order, rng=np.random.default_rng(3))


def naive_conv(x: np.ndarray, w: np.ndarray, b: Any, s: tuple, p: tuple, d: tuple,
               groups: int) -> np.ndarray:  # fmt: skip
    """Torch's formula, one output pixel at a time."""
    n, _, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])))
    oh = (h + 2 * p[0] - d[0] * (kh - 1) - 1) // s[0] + 1
    ow = (wd + 2 * p[1] - d[1] * (kw - 1) - 1) // s[1] + 1
    y = np.zeros((n, o, oh, ow))
    for oc in range(o):
        g = oc // (o // groups)
        for i in range(oh):
            for j in range(ow):
                for di in range(kh):
                    for dj in range(kw):
                        r, c = i * s[0] + di * d[0], j * s[1] + dj * d[1]
                        y[:, oc, i, j] += xp[:, g * cg : (g + 1) * cg, r, c] @ w[oc, :, di, dj]
        if b is not None:
            y[:, oc] += b[oc]
    return y


def windows(n: int, k: int, s: int, p: int, d: int, ceil: bool) -> list[list[int]]:
    """Each output's input positions (torch: pad both sides, ceil_mode's last-window rule)."""
    num = n + 2 * p - d * (k - 1) - 1
    out = (math.ceil(num / s) if ceil else num // s) + 1
    if ceil and (out - 1) * s >= n + p:
        out -= 1
    return [[i * s - p + t * d for t in range(k)] for i in range(out)]


def naive_max(x: np.ndarray, k: tuple, s: tuple, p: tuple, d: tuple, ceil: bool) -> Any:
    rows, cols = windows(x.shape[-2], k[0], s[0], p[0], d[0], ceil), windows(
        x.shape[-1], k[1], s[1], p[1], d[1], ceil)  # fmt: skip
    y = np.zeros((*x.shape[:-2], len(rows), len(cols)))
    idx = np.zeros(y.shape, dtype=np.int64)
    for plane in np.ndindex(*x.shape[:-2]):
        for i, rr in enumerate(rows):
            for j, cc in enumerate(cols):
                h, w = x.shape[-2:]
                taps = [(r, c) for r in rr for c in cc if 0 <= r < h and 0 <= c < w]
                vals = [x[plane][r, c] for r, c in taps]
                best = int(np.argmax(vals))  # the first maximum in row-major order
                y[plane][i, j] = vals[best]
                idx[plane][i, j] = taps[best][0] * x.shape[-1] + taps[best][1]
    return y, idx


def naive_avg(x: np.ndarray, k: tuple, s: tuple, p: tuple, ceil: bool, include: bool,
              override: Any) -> np.ndarray:  # fmt: skip
    h, w = x.shape[-2:]
    rows, cols = windows(h, k[0], s[0], p[0], 1, ceil), windows(w, k[1], s[1], p[1], 1, ceil)
    y = np.zeros((*x.shape[:-2], len(rows), len(cols)))
    for i, rr in enumerate(rows):
        for j, cc in enumerate(cols):
            real = [(r, c) for r in rr for c in cc if 0 <= r < h and 0 <= c < w]
            padded = len([r for r in rr if r < h + p[0]]) * len([c for c in cc if c < w + p[1]])
            div = override or (padded if include else len(real))
            y[..., i, j] = sum(x[..., r, c] for r, c in real) / div
    return y


CONVS = [  # (x shape, w shape, stride, padding, dilation, groups)
    ((2, 3, 6, 5), (4, 3, 3, 2), (1, 1), (0, 0), (1, 1), 1),
    ((1, 4, 7, 6), (6, 2, 3, 3), (2, 1), (1, 2), (1, 2), 2),
    ((2, 4, 5, 7), (4, 1, 2, 3), (2, 3), (1, 1), (2, 1), 4),  # depthwise
]


@pytest.mark.parametrize(("xs", "ws", "s", "p", "d", "g"), CONVS)
def test_conv_matches_the_formula_and_finite_differences(xs, ws, s, p, d, g) -> None:
    x, w, b = normal(*xs), normal(*ws, seed=2), normal(ws[0], seed=3)
    params = {"stride": s, "padding": p, "dilation": d, "groups": g}
    y = conv_nchw(tv.constant(x), tv.constant(w), tv.constant(b), **params)
    np.testing.assert_allclose(y.numpy(), naive_conv(x, w, b, s, p, d, g), atol=1e-12)
    check(lambda x, w, b: conv_nchw(x, w, b, **params), x, w, b)
    check(lambda x, w: conv_nchw(x, w, **params), x, w, order=1)


def test_conv_1d_is_the_2d_formula_on_a_height_of_one() -> None:
    x, w = normal(2, 3, 9), normal(4, 3, 3, seed=2)
    params = {"stride": (2,), "padding": (1,), "dilation": (2,), "groups": 1}
    y = conv_nchw(tv.constant(x), tv.constant(w), **params)
    want = naive_conv(x[:, :, None], w[:, :, None], None, (1, 2), (0, 1), (1, 2), 1)[:, :, 0]
    np.testing.assert_allclose(y.numpy(), want, atol=1e-12)
    check(lambda x, w: conv_nchw(x, w, **params), x, w)


def test_conv_is_one_record_in_float32_too() -> None:
    x, w = tv.constant(normal(1, 2, 5, 5).astype(np.float32)), tv.constant(normal(3, 2, 3, 3))
    w = tv.cast(w, tv.float32)
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = conv_nchw(x, w, stride=(1, 1), padding=(1, 1), dilation=(1, 1))
    assert [r.name for r in tape.records] == ["conv_nchw"]
    assert y.dtype == tv.float32 and y.shape == (1, 3, 5, 5)
    assert tape.gradient(y, x).shape == (1, 2, 5, 5)


POOLS = [  # (kernel, stride, padding, dilation, ceil_mode)
    ((2, 2), (2, 2), (0, 0), (1, 1), False),
    ((3, 2), (2, 1), (1, 1), (1, 1), True),
    ((3, 3), (2, 2), (1, 1), (2, 1), True),
    ((2, 3), (3, 2), (1, 0), (1, 1), False),
]


@pytest.mark.parametrize(("k", "s", "p", "d", "ceil"), POOLS)
def test_max_pool_matches_the_formula_and_finite_differences(k, s, p, d, ceil) -> None:
    x = normal(2, 3, 7, 6)
    params = {"kernel_size": k, "stride": s, "padding": p, "dilation": d, "ceil_mode": ceil}
    want, _ = naive_max(x, k, s, p, d, ceil)
    np.testing.assert_array_equal(max_pool_nchw(tv.constant(x), **params).numpy(), want)
    check(lambda x: max_pool_nchw(x, **params), x)
    check(lambda x: max_pool_nchw(x, **params), x[0])  # (C, H, W): no batch axis


def test_max_pool_gradient_goes_to_the_first_maximum_and_nan_wins() -> None:
    x = np.array([[[[1.0, 3.0], [3.0, 2.0]]]])
    with tv.GradientTape() as tape:
        t = tv.constant(x)
        tape.watch(t)
        y = max_pool_nchw(t, kernel_size=(2, 2), stride=(2, 2), padding=(0, 0))
    np.testing.assert_array_equal(tape.gradient(y, t).numpy(), [[[[0.0, 1.0], [0.0, 0.0]]]])
    nan = max_pool_nchw(tv.constant([[[1.0, np.nan], [5.0, 2.0]]]), kernel_size=(2, 2),
                        stride=(2, 2), padding=(0, 0))  # fmt: skip
    assert np.isnan(nan.numpy()).all()


@pytest.mark.parametrize(
    ("k", "s", "p", "ceil", "include", "override"),
    [((2, 2), (2, 2), (0, 0), False, True, None), ((3, 2), (2, 1), (1, 1), True, True, None),
     ((3, 3), (2, 2), (1, 1), True, False, None), ((3, 3), (2, 2), (1, 1), False, True, 5)],
)  # fmt: skip
def test_avg_pool_matches_torchs_divisors_and_finite_differences(k, s, p, ceil, include,
                                                                 override) -> None:  # fmt: skip
    x = normal(2, 3, 7, 6)
    params = {"kernel_size": k, "stride": s, "padding": p, "ceil_mode": ceil,
              "count_include_pad": include, "divisor_override": override}  # fmt: skip
    got = avg_pool_nchw(tv.constant(x), **params).numpy()
    np.testing.assert_allclose(got, naive_avg(x, k, s, p, ceil, include, override), atol=1e-12)
    check(lambda x: avg_pool_nchw(x, **params), x)


@pytest.mark.parametrize("out", [(3, 2), (4, 5), (1, 1), (7, 6), (9, 8)])
def test_adaptive_avg_pool_windows_and_finite_differences(out) -> None:
    x = normal(2, 3, 7, 6)
    got = adaptive_avg_pool_nchw(tv.constant(x), out).numpy()
    want = np.zeros((2, 3, *out))
    for i in range(out[0]):
        r0, r1 = (i * 7) // out[0], math.ceil((i + 1) * 7 / out[0])
        for j in range(out[1]):
            c0, c1 = (j * 6) // out[1], math.ceil((j + 1) * 6 / out[1])
            want[..., i, j] = x[..., r0:r1, c0:c1].mean(axis=(-1, -2))
    np.testing.assert_allclose(got, want, atol=1e-12)
    check(lambda x: adaptive_avg_pool_nchw(x, out), x)


def test_size_guards_refuse_before_computing() -> None:
    x, w = tv.constant(np.zeros((1, 8, 64, 64))), tv.constant(np.zeros((8, 8, 3, 3)))
    with size_limits(10_000), pytest.raises(ResourceLimitError):
        conv_nchw(x, w, stride=(1, 1), padding=(1, 1), dilation=(1, 1))
    with size_limits(10_000), pytest.raises(ResourceLimitError):
        max_pool_nchw(x, kernel_size=(2, 2), stride=(1, 1), padding=(0, 0))
    with size_limits(10**9, max_flops=1_000), pytest.raises(ResourceLimitError):
        avg_pool_nchw(tv.constant(np.zeros((1, 1, 64, 64))), kernel_size=(3, 3), stride=(1, 1),
                      padding=(0, 0))  # fmt: skip
